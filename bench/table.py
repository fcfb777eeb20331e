#!/usr/bin/env python3
"""The tables of the latest numbers, from the results CSVs.

    python3 bench/table.py                      # print the full table
    python3 bench/table.py --update             # rewrite the tables in bench/RESULTS.md and README.md
    python3 bench/table.py --check              # exit 1 if either is out of date (CI)

Reads every CSV under bench/results/<date>-<gpu>/ of one GPU (--gpu, default
h100: the README's numbers; bench/common/benchlib.py); for each
kernel, shape, timing and llk implementation, the latest run's fastest
passing variant is a row, with the ceiling measured in that run, its % of
it, the ratios against Triton and the anchor of that run, and a link to the
CSV. bench/RESULTS.md gets every row; README.md a short table: for each
kernel and llk implementation the row with the lowest % of its ceiling
(launch-bound rows, a ceiling under 1 µs, left out). Each table sits between
`<!-- table.py:NAME begin -->` and `<!-- table.py:NAME end -->`.
"""
import argparse
import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH / "common"))
import benchlib  # noqa: E402

SUITES = ("llama", "gemm", "attention")
TIMINGS = ("stream", "stream-dependent", "graph", "graph-dependent", "do_bench")
LAUNCH_BOUND_US = 1.0


def rows(entries):
    """[(row, path, meta)] of the llk implementations, in suite, kernel,
    implementation, timing and shape order (kernels and shapes as first
    met in the CSVs)."""
    best = benchlib.latest_best(entries)
    first = benchlib.first_seen(entries)

    def order(item):
        (suite, kernel, shape, timing, impl), _ = item
        return (SUITES.index(suite) if suite in SUITES else len(SUITES), first[(kernel,)], first[(kernel, impl)],
                TIMINGS.index(timing) if timing in TIMINGS else len(TIMINGS), first[(kernel, shape)])

    return [v for k, v in sorted(best.items(), key=order) if k[0] in SUITES and k[4].startswith("llk")]


def _name(row):
    family = row["impl"][len("llk"):].strip()
    return row["kernel"] + (f" ({family})" if family else "")


def _times(v):
    return f"{v:.2f}×" if v is not None else "–"


def markdown(selected, base):
    """A Markdown table of (row, path, meta), the CSV links relative to `base`."""
    out = ["| kernel | shape | timing | llk | ceiling | % of ceiling | vs Triton | vs anchor | data |",
           "|---|---|---|---:|---:|---:|---:|---:|---|"]
    for r, path, meta in selected:
        llk = f"{r['median_us']:.2f} µs"
        if r["throughput"] is not None:
            llk += f", {r['throughput']:.1f} {r['unit']}" if r["unit"] == "TFLOP/s" else f", {r['throughput']:.0f} {r['unit']}"
        ceiling = f"{r['ceiling_us']:.2f} µs ({r['ceiling']})" if r["ceiling_us"] is not None else "–"
        pct = f"{r['pct_of_ceiling']:.1f}%" if r["pct_of_ceiling"] is not None else "–"
        anchor = meta.get("anchor", "")
        vs_anchor = _times(r["vs_anchor"]) + (f" {anchor}" if r["vs_anchor"] is not None and anchor else "")
        link = Path(os.path.relpath(path, base)).as_posix()
        out.append(f"| {_name(r)} | {r['shape']} | {r['timing']} | {llk} | {ceiling} | {pct} "
                   f"| {_times(r['vs_triton'])} | {vs_anchor} | [{meta.get('date', '')[:10]}]({link}) |")
    return out


def worst_rows(selected):
    """For each kernel and llk implementation, the row furthest from its
    ceiling (launch-bound rows left out)."""
    worst = {}
    for item in selected:
        r = item[0]
        if r["pct_of_ceiling"] is None or (r["ceiling_us"] or 0.0) < LAUNCH_BOUND_US:
            continue
        key = (r["kernel"], r["impl"])
        if key not in worst or r["pct_of_ceiling"] < worst[key][0]["pct_of_ceiling"]:
            worst[key] = item
    return list(worst.values())


def replace_between(text, name, lines):
    begin, end = f"<!-- table.py:{name} begin -->", f"<!-- table.py:{name} end -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"table.py: no {begin} ... {end} markers")
    return text[:i + len(begin)] + "\n" + "\n".join(lines) + "\n" + text[j:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(BENCH / "results"), help="the folder of the dated results folders")
    ap.add_argument("--gpu", default="h100", help="the results folders' GPU suffix (default h100)")
    ap.add_argument("--update", action="store_true", help="rewrite the tables in bench/RESULTS.md and README.md")
    ap.add_argument("--check", action="store_true", help="exit 1 if a table is not what --update would write")
    a = ap.parse_args()
    entries = []
    for folder in sorted(p for p in Path(a.results).iterdir() if p.is_dir() and p.name.endswith(f"-{a.gpu}")):
        entries += benchlib.read_dir(folder)
    selected = rows(entries)
    targets = {BENCH / "RESULTS.md": ("results", markdown(selected, BENCH)),
               REPO / "README.md": ("readme", markdown(worst_rows(selected), REPO))}
    if not (a.update or a.check):
        print("\n".join(targets[BENCH / "RESULTS.md"][1]))
        return 0
    stale = []
    for path, (name, lines) in targets.items():
        text = path.read_text(encoding="utf-8")
        new = replace_between(text, name, lines)
        if new != text:
            stale.append((path, new))
    if a.update:
        for path, new in stale:
            path.write_text(new, encoding="utf-8")
    for path, _ in stale:
        print(f"table.py: {path.relative_to(REPO)} {'updated' if a.update else 'is out of date (run bench/table.py --update)'}")
    return 1 if stale and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
