#!/usr/bin/env python3
"""Compiles every configuration of examples/attention/ (configs.py: each
kernel at f16 and bf16, D 64 and 128, causal or not, with its blocks, warps,
stages and programs an SM) to PTX for each target, assembles each with `ptxas -v`, and
prints one line a configuration with ptxas's registers, spills and stack
(local memory), then "N configurations compiled and assembled, M failed".

    bench/attention/build_ptx.py OUT [--archs sm_90,sm_90a] [--llkc PATH]
                                 [--ptxas PATH|none] [--jobs N]

OUT/<kernel>_<T>_d<D>[_causal]_<arch>.ptx, each with llkc's launch metadata
(<file>.json) beside it, and OUT/ptxas.txt (the table). Defaults: every
target (sm_80, sm_90, sm_90a), $LLKC or build/bin/llkc, $PTXAS or
/usr/local/cuda/bin/ptxas. scripts/gpu-check.sh prepare builds sm_90 and
sm_90a for bench.py; test/Target/attention-configs.test builds all three.
Exit status 1 if anything failed.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import configs  # noqa: E402

ARCHS = ("sm_80", "sm_90", "sm_90a")
REPO = Path(__file__).resolve().parents[2]


def ptxas_summary(text):
    """(registers, spill stores, spill loads, stack frame bytes) from
    `ptxas -v`'s messages."""
    def number(pattern):
        m = re.search(pattern, text)
        return int(m.group(1)) if m else 0
    return (number(r"Used (\d+) registers"), number(r"(\d+) bytes spill stores"),
            number(r"(\d+) bytes spill loads"), number(r"(\d+) bytes stack frame"))


def build_one(config, arch, out, llkc, ptxas):
    """(name, error or None, summary line)."""
    name = config.name(arch)
    ptx = out / f"{name}.ptx"
    run = subprocess.run([llkc] + config.llkc_args(arch) + ["-o", str(ptx)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return name, f"llkc failed:\n{run.stderr}", f"{name:36s} llkc FAILED"
    if not ptxas:
        return name, None, f"{name:36s} compiled"
    run = subprocess.run([ptxas, f"-arch={arch}", "-v", str(ptx), "-o", os.devnull],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return name, f"ptxas failed:\n{run.stderr}", f"{name:36s} ptxas FAILED"
    regs, stores, loads, stack = ptxas_summary(run.stderr + run.stdout)
    return name, None, (f"{name:36s} {regs:4d} registers  {stores:6d} B spill stores  "
                        f"{loads:6d} B spill loads  {stack:6d} B stack")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--archs", default=",".join(ARCHS))
    parser.add_argument("--llkc", default=os.environ.get("LLKC", str(REPO / "build/bin/llkc")))
    parser.add_argument("--ptxas", default=os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas"),
                        help="the assembler, or 'none' to only compile")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    archs = args.archs.split(",")
    unknown = [a for a in archs if a not in ARCHS]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r}; expected some of {', '.join(ARCHS)}")
    ptxas = None if args.ptxas == "none" else args.ptxas
    if ptxas and not os.path.exists(ptxas):
        parser.error(f"no ptxas at {ptxas} (--ptxas none to only compile)")
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(c, a) for a in archs for c in configs.configurations()]
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda job: build_one(*job, args.out, args.llkc, ptxas), jobs))
    failed = 0
    lines = []
    for name, error, line in results:
        lines.append(line)
        print(line)
        if error:
            failed += 1
            print(error, file=sys.stderr)
    (args.out / "ptxas.txt").write_text("\n".join(lines) + "\n")
    what = "compiled and assembled" if ptxas else "compiled"
    print(f"{len(jobs) - failed} configurations {what}, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
