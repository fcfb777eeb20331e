#!/usr/bin/env python3
"""Plots of a results folder: one PNG per kernel family (and timing), each
implementation as % of the ceiling measured in the same run — the bandwidth
floor (bytes counted / copy bandwidth) for memory-bound kernels, cuBLAS for
GEMMs.

    python3 bench/plot.py bench/results/<date>-<gpu> [--out DIR]

Reads every CSV of the folder (bench/common/benchlib.py) and writes
<family>-<timing>.png into --out (default: the folder). Bars, in
order: each llk implementation (its best passing variant), Triton, the
anchor (seed-cuda, cuBLAS). Rows that did not pass, and rows whose ceiling
is under a microsecond (launch-bound: no bandwidth to speak of), are left
out. Needs matplotlib (Debian: python3-matplotlib); the selection itself
(`figures`) does not.
"""
import argparse
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "common"))
import benchlib  # noqa: E402

# Kernels of the llama suite drawn apart from the memory-bound ones: the
# mat-vecs and the decode attention, timed in several ways.
MATVEC = ("linear_q8_0", "mul_mat_vec_q", "attention")
TIMINGS = ("stream", "graph", "stream-dependent", "graph-dependent", "do_bench")
LAUNCH_BOUND_US = 1.0


def family(suite, kernel):
    """The figure a kernel's rows go to, or None (not plotted): a GEMM's
    figure is its own (its groups are shapes), the llama suite's two."""
    if suite == "llama":
        return "llama-matvec-attention" if kernel in MATVEC else "llama-memory-bound"
    if suite == "gemm" and kernel.startswith("gemm_"):
        return kernel
    return None


@dataclass
class Figure:
    name: str          # file name without .png
    title: str
    ylabel: str
    groups: list = field(default_factory=list)   # x labels
    series: dict = field(default_factory=dict)   # impl -> [% of ceiling or None per group]


def _impl_order(impl, anchor):
    return (0 if impl.startswith("llk") else 1 if impl == "triton" else 2 if impl == anchor else 3, impl)


def figures(entries):
    """The figures of (path, meta, rows) entries, as data."""
    best = benchlib.latest_best(entries)
    first = benchlib.first_seen(entries)
    figs = {}
    for (suite, kernel, shape, timing, impl), (row, _, meta) in sorted(
            best.items(), key=lambda kv: (first[(kv[0][1],)], first[(kv[0][1], kv[0][2])])):
        fam = family(suite, kernel)
        if fam is None or row["pct_of_ceiling"] is None:
            continue
        if row["ceiling_us"] is not None and row["ceiling_us"] < LAUNCH_BOUND_US:
            continue
        name = f"{fam}-{timing}"
        if name not in figs:
            ceiling = row["ceiling"] or "the ceiling"
            what = "the copy bandwidth's floor" if ceiling == "copy" else ceiling
            gpu = meta.get("gpu", "?").split(" (")[0]
            figs[name] = (Figure(name, f"{fam}, {timing} timing — {gpu}, {meta.get('date', '?')[:10]}",
                                 f"% of {what}"), meta.get("anchor", ""), [])
        label = "\n".join(([] if kernel == fam else [kernel]) + textwrap.wrap(shape, 16))
        figs[name][2].append((label, impl, row["pct_of_ceiling"]))
    out = []
    for name in sorted(figs):
        fig, anchor, points = figs[name]
        groups = []
        for label, _, _ in points:
            if label not in groups:
                groups.append(label)
        impls = sorted({p[1] for p in points}, key=lambda i: _impl_order(i, anchor))
        fig.groups = groups
        fig.series = {i: [None] * len(groups) for i in impls}
        for label, impl, pct in points:
            fig.series[impl][groups.index(label)] = pct
        out.append(fig)
    return out


def draw(fig, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(fig.series)
    width = 0.8 / max(n, 1)
    f, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(fig.groups) + 3.0), 4.4), dpi=110)
    for i, (impl, values) in enumerate(fig.series.items()):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(fig.groups))]
        ys = [v if v is not None else 0.0 for v in values]
        bars = ax.bar(xs, ys, width, label=impl)
        for b, v in zip(bars, values):
            if v is not None:
                ax.annotate(f"{v:.0f}", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom",
                            fontsize=6, xytext=(0, 1), textcoords="offset points")
    ax.axhline(100.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(fig.groups)))
    ax.set_xticklabels(fig.groups, fontsize=7)
    ax.set_ylabel(fig.ylabel)
    ax.set_ylim(0, max(110.0, 1.1 * max((v for s in fig.series.values() for v in s if v is not None),
                                        default=100.0)))
    ax.set_title(fig.title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    f.tight_layout()
    f.savefig(path)
    plt.close(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help="a results folder (bench/results/<date>-<gpu>, or $OUT)")
    ap.add_argument("--out", default=None, help="where the PNGs go (default: the folder)")
    a = ap.parse_args()
    entries = benchlib.read_dir(a.folder)
    if not entries:
        sys.exit(f"plot.py: no CSV in {a.folder}")
    figs = figures(entries)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("plot.py: matplotlib is not installed (Debian: apt-get install python3-matplotlib); "
                 "copy the folder where it is and run this there")
    out = Path(a.out or a.folder)
    out.mkdir(parents=True, exist_ok=True)
    for fig in figs:
        draw(fig, out / f"{fig.name}.png")
        print(out / f"{fig.name}.png")


if __name__ == "__main__":
    main()
