#!/usr/bin/env python3
"""Compiles every llk configuration bench/triton/bench.py times
(bench/triton/variants.py) with llkc to OUT/<name>.ptx (+ .json metadata),
and checks each with ptxas when there is one. Run here (no GPU needed);
scripts/gpu-check.sh prepare calls it.

    python3 bench/triton/build_ptx.py OUT [--llkc build/bin/llkc]
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
from variants import NUM_STAGES, VARIANTS  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--llkc", default=os.environ.get("LLKC", str(REPO / "build/bin/llkc")))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ptxas = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
    ptxas = ptxas if os.path.exists(ptxas) else shutil.which("ptxas")
    for name, (source, constants, warps, arch) in sorted(VARIANTS.items()):
        cmd = [args.llkc, str(REPO / "examples" / source), "--num-warps", str(warps), "--arch", arch,
               "-o", str(out / f"{name}.ptx")]
        for key, value in constants.items():
            cmd += ["-D", f"{key}={value}"]
        if name in NUM_STAGES:
            cmd += ["--num-stages", str(NUM_STAGES[name])]
        subprocess.run(cmd, check=True)
        if ptxas:
            subprocess.run([ptxas, f"-arch={arch}", str(out / f"{name}.ptx"), "-o", os.devnull], check=True)
        print(f"{name}: {source} {constants} w{warps} {arch}")


if __name__ == "__main__":
    main()
