#!/usr/bin/env python3
"""Compile time of llkc over examples/kernels.list: of one binary against the
goals (issue 25: median at most 75 ms, slowest at most 400 ms), or of two
binaries against each other, in one run.

    scripts/time-compile.py LLKC [--repeats 5] [--kernels a,b] [--csv FILE]
    scripts/time-compile.py BASE_LLKC NEW_LLKC [--repeats 5] [--kernels a,b]

Each kernel is compiled (llkc alone, to PTX and its metadata, as
scripts/compile-examples.sh compiles it) `--repeats` times; with two
binaries the two are interleaved (A B, then B A, ...) so that a change in the
machine's load hits both alike. Per kernel: the median wall time and the
median CPU time (user + system of the llkc process). One binary: the median
and the slowest over the list, against the goals, and the load average
while measuring (the goals are for an idle machine: wall time counts; on a
loaded one CPU time is the better measure, as another process's load
stretches wall time, not our CPU time). Two binaries: per kernel the ratio
new/base, and over the list the median of the ratios, the slowest kernel's
times and the total. The spread (max/min of the repeats) shows the noise.
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
GOALS_MS = {"median": 75.0, "slowest": 400.0}


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


def measure(binaries, repeats, wanted, report):
    """{name: {which: (median wall, median cpu, wall spread, cpu spread)}}."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.ptx")
        for name, args in kernels():
            if wanted and name not in wanted:
                continue
            times = {which: [] for which in binaries}
            order = list(binaries)
            for r in range(repeats):
                for which in (order if r % 2 == 0 else order[::-1]):
                    times[which].append(run_once(binaries[which], args, out))
            row = {"name": name}
            for which in binaries:
                walls = [t[0] for t in times[which]]
                cpus = [t[1] for t in times[which]]
                row[which] = (statistics.median(walls), statistics.median(cpus),
                              spread(walls), spread(cpus))
            rows.append(row)
            report(row)
    if not rows:
        sys.exit("time-compile: no kernel selected")
    return rows


def one(opts):
    binary = os.path.realpath(opts.llkc[0])
    load_before = os.getloadavg()[0]

    def report(row):
        m = row["llkc"]
        print(f"{row['name']:32s} wall {m[0] * 1e3:7.1f} ms   cpu {m[1] * 1e3:7.1f} ms   "
              f"spread wall {m[2]:4.2f} cpu {m[3]:4.2f}", flush=True)

    rows = measure({"llkc": binary}, opts.repeats, opts.wanted, report)
    load_after = os.getloadavg()[0]
    print(f"\n{len(rows)} kernels, {opts.repeats} repeats each, medians; "
          f"load average {load_before:.2f} before, {load_after:.2f} after")
    ok = True
    for i, label in ((0, "wall"), (1, "cpu ")):
        values = [r["llkc"][i] * 1e3 for r in rows]
        slowest = max(rows, key=lambda r: r["llkc"][i])
        median = statistics.median(values)
        met = median <= GOALS_MS["median"] and max(values) <= GOALS_MS["slowest"]
        ok &= met or i == 1  # the goals are wall time's
        print(f"{label}: median {median:.1f} ms (goal {GOALS_MS['median']:.0f}), slowest "
              f"{slowest['name']} {max(values):.1f} ms (goal {GOALS_MS['slowest']:.0f}), total "
              f"{sum(values) / 1e3:.2f} s: {'met' if met else 'NOT met'}")
    if opts.csv:
        with open(opts.csv, "w") as f:
            f.write(f"# llkc: {binary}\n# repeats: {opts.repeats}\n"
                    f"# load average: {load_before:.2f} before, {load_after:.2f} after\n"
                    "kernel,wall_ms,cpu_ms,wall_spread,cpu_spread\n")
            for r in rows:
                m = r["llkc"]
                f.write(f"{r['name']},{m[0] * 1e3:.1f},{m[1] * 1e3:.1f},{m[2]:.2f},{m[3]:.2f}\n")
    return 0 if ok else 1


def two(opts):
    binaries = {"base": os.path.realpath(opts.llkc[0]), "new": os.path.realpath(opts.llkc[1])}

    def report(row):
        b, n = row["base"], row["new"]
        print(f"{row['name']:32s} wall {b[0]*1e3:7.1f} -> {n[0]*1e3:7.1f} ms "
              f"({n[0]/b[0]:5.3f})   cpu {b[1]*1e3:7.1f} -> {n[1]*1e3:7.1f} ms "
              f"({n[1]/b[1]:5.3f})   spread wall {max(b[2], n[2]):4.2f} "
              f"cpu {max(b[3], n[3]):4.2f}", flush=True)

    rows = measure(binaries, opts.repeats, opts.wanted, report)

    def summary(i, label):
        ratios = [r["new"][i] / r["base"][i] for r in rows]
        slowest = max(rows, key=lambda r: r["base"][i])
        total_b = sum(r["base"][i] for r in rows)
        total_n = sum(r["new"][i] for r in rows)
        med_b = statistics.median(r["base"][i] for r in rows) * 1e3
        med_n = statistics.median(r["new"][i] for r in rows) * 1e3
        max_b = max(r["base"][i] for r in rows) * 1e3
        max_n = max(r["new"][i] for r in rows) * 1e3
        print(f"{label}: median over the kernels {med_b:.1f} -> {med_n:.1f} ms, slowest "
              f"{max_b:.1f} -> {max_n:.1f} ms (goals {GOALS_MS['median']:.0f} and "
              f"{GOALS_MS['slowest']:.0f} ms)")
        print(f"{label}: median ratio new/base {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f}); slowest kernel "
              f"{slowest['name']} {slowest['base'][i]*1e3:.1f} -> "
              f"{slowest['new'][i]*1e3:.1f} ms; total {total_b:.2f} -> "
              f"{total_n:.2f} s ({total_n/total_b:.3f})")

    print(f"\n{len(rows)} kernels, {opts.repeats} repeats each, medians")
    summary(0, "wall")
    summary(1, "cpu ")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("llkc", nargs="+", help="one llkc, or BASE and NEW")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kernels", help="comma-separated names (default: all)")
    parser.add_argument("--csv", help="one binary: the per-kernel medians as CSV there")
    opts = parser.parse_args()
    if len(opts.llkc) > 2:
        parser.error("one llkc, or two to compare")
    opts.wanted = set(opts.kernels.split(",")) if opts.kernels else None
    sys.exit(one(opts) if len(opts.llkc) == 1 else two(opts))


if __name__ == "__main__":
    main()
