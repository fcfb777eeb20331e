#!/usr/bin/env python3
"""Compile time of two llkc binaries over examples/kernels.list, in one run.

    scripts/time-compile.py BASE_LLKC NEW_LLKC [--repeats 5] [--kernels a,b]

Each kernel is compiled (llkc alone, to PTX, as scripts/compile-examples.sh
compiles it) `--repeats` times by each binary, the two interleaved (A B, then
B A, ...) so that a change in the machine's load hits both alike. Per kernel:
the median wall time and the median CPU time (user + system of the llkc
process) of each binary, and their ratio new/base. Over the list: the median
of the per-kernel ratios, the slowest kernel's times, and the total. CPU time
is the better measure on a shared machine (another process's load stretches
wall time, not our CPU time); both are printed, with the spread (max/min of
the repeats) so that noise is visible.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def kernels():
    for line in (ROOT / "examples" / "kernels.list").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, source, consts, warps = line.split()[:4]
        args = [str(ROOT / "examples" / source)]
        if consts != "-":
            for binding in consts.split(","):
                args += ["-D", binding]
        yield name, args + ["--num-warps", warps]


def run_once(llkc, args, out):
    """(wall seconds, CPU seconds) of one compile; raises on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen([llkc, *args, "-o", out], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{llkc} {' '.join(args)} failed:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def spread(values):
    return max(values) / min(values) if min(values) > 0 else float("inf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kernels", help="comma-separated names (default: all)")
    opts = parser.parse_args()
    binaries = {"base": os.path.realpath(opts.base), "new": os.path.realpath(opts.new)}
    wanted = set(opts.kernels.split(",")) if opts.kernels else None

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.ptx")
        for name, args in kernels():
            if wanted and name not in wanted:
                continue
            times = {"base": [], "new": []}
            for r in range(opts.repeats):
                order = ("base", "new") if r % 2 == 0 else ("new", "base")
                for which in order:
                    times[which].append(run_once(binaries[which], args, out))
            row = {"name": name}
            for which in ("base", "new"):
                walls = [t[0] for t in times[which]]
                cpus = [t[1] for t in times[which]]
                row[which] = (statistics.median(walls), statistics.median(cpus),
                              spread(walls), spread(cpus))
            rows.append(row)
            b, n = row["base"], row["new"]
            print(f"{name:32s} wall {b[0]*1e3:7.1f} -> {n[0]*1e3:7.1f} ms "
                  f"({n[0]/b[0]:5.3f})   cpu {b[1]*1e3:7.1f} -> {n[1]*1e3:7.1f} ms "
                  f"({n[1]/b[1]:5.3f})   spread wall {max(b[2], n[2]):4.2f} "
                  f"cpu {max(b[3], n[3]):4.2f}", flush=True)
    if not rows:
        sys.exit("time-compile: no kernel selected")

    def summary(i, label):
        ratios = [r["new"][i] / r["base"][i] for r in rows]
        slowest = max(rows, key=lambda r: r["base"][i])
        total_b = sum(r["base"][i] for r in rows)
        total_n = sum(r["new"][i] for r in rows)
        print(f"{label}: median ratio new/base {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f}); slowest kernel "
              f"{slowest['name']} {slowest['base'][i]*1e3:.1f} -> "
              f"{slowest['new'][i]*1e3:.1f} ms; total {total_b:.2f} -> "
              f"{total_n:.2f} s ({total_n/total_b:.3f})")

    print(f"\n{len(rows)} kernels, {opts.repeats} repeats each, medians")
    summary(0, "wall")
    summary(1, "cpu ")


if __name__ == "__main__":
    main()
