"""What the benchmark suites share (pure Python, no GPU needed).

Results are CSV files, one a run, under bench/results/<date>-<gpu>/: a few
`# key: value` header lines (suite, command, gpu, date, the ceiling measured
in the same run, ...), then one row per (kernel, shape, implementation,
variant) with the columns of COLUMNS. Each suite writes them through
ResultsCsv; bench/plot.py and bench/table.py read them back with read_dir.

Conventions:
- median_us: the median time per launch (lo_us, hi_us: the fastest and
  slowest sample).
- ceiling / ceiling_us: what the row is compared with, measured in the same
  run, as a time: the bandwidth floor (bytes counted / copy bandwidth) for a
  memory-bound kernel, cuBLAS's median for a GEMM.
  pct_of_ceiling = 100 * ceiling_us / median_us.
- vs_triton / vs_anchor: speed ratios, the other's time / this time (above 1:
  this row is faster). The anchor (the header's `anchor`) is the reference
  implementation of the suite: the llama.cpp-style seed CUDA, or cuBLAS.
- impl is "llk", "triton", "seed-cuda", "cublas", or a family of llk kernels
  ("llk mma.sync"); variant names the configuration of that implementation
  (num_warps, block shape); the best passing variant stands for an impl.
- check: PASS or FAIL (the output against a float64 reference, relative
  error rel_err against tol), ERROR (the launch raised), skip (not run: no
  PTX, no launch spec), or unchecked (timed, nothing checked: a pure read,
  or a baseline a converted log did not check).
"""
import csv
import datetime
import io
import math
import os
import re
import shlex
import sys
from pathlib import Path

COLUMNS = ("kernel", "shape", "impl", "variant", "timing", "median_us", "lo_us", "hi_us",
           "ceiling", "ceiling_us", "pct_of_ceiling", "throughput", "unit",
           "vs_triton", "vs_anchor", "rel_err", "tol", "check", "notes")

# How numbers are written (None and NaN are written as empty fields).
_FORMATS = {"median_us": "{:.3f}", "lo_us": "{:.3f}", "hi_us": "{:.3f}", "ceiling_us": "{:.3f}",
            "pct_of_ceiling": "{:.1f}", "throughput": "{:.1f}", "vs_triton": "{:.3f}",
            "vs_anchor": "{:.3f}", "rel_err": "{:.2e}", "tol": "{:.3g}"}
NUMERIC = frozenset(_FORMATS)
# Checks whose times stand (a FAIL's time is not a result).
USABLE = ("PASS", "unchecked")

REPO = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------ statistics
def median(samples):
    """The median of a non-empty sequence of numbers."""
    return percentile(samples, 50.0)


def percentile(samples, q):
    """The q-th percentile (0 <= q <= 100) of a non-empty sequence, by linear
    interpolation between the closest ranks (numpy's default method)."""
    xs = sorted(samples)
    if not xs:
        raise ValueError("percentile of no samples")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile {q} is not in [0, 100]")
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ------------------------------------------------------------ run identity
def command_line(argv=None):
    """The command that made this run, as it would be typed from the
    repository root: `python3 bench/llama/bench.py --graph ...`."""
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve()
    try:
        shown = str(script.relative_to(REPO))
    except ValueError:
        shown = argv[0]
    return " ".join(["python3", shown] + [shlex.quote(a) for a in argv[1:]])


def now():
    return datetime.datetime.now().isoformat(timespec="seconds")


def gpu_short_name(name):
    """'NVIDIA H100 80GB HBM3' -> 'h100', as the results folders are named."""
    m = re.search(r"\b([A-Z]{1,3}\d{2,4}[A-Za-z]?)\b", name.replace("NVIDIA", ""))
    return m.group(1).lower() if m else re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def results_dir_name(date, gpu):
    """bench/results/<this>: '2026-11-24-h100' for an ISO date and a GPU name."""
    return f"{date[:10]}-{gpu_short_name(gpu)}"


def default_csv_path(name):
    """$OUT/<name>.csv when $OUT is set (the GPU machine's output folder),
    else None: no CSV unless --csv names one."""
    out = os.environ.get("OUT")
    return Path(out) / f"{name}.csv" if out else None


def ratio(other_us, this_us):
    """other / this (above 1: this is faster), None when either is missing."""
    if other_us is None or this_us is None or not this_us > 0 or not other_us > 0:
        return None
    return other_us / this_us


# ------------------------------------------------------------ writing
class ResultsCsv:
    """The CSV of one run. `meta` are the header lines after suite, command,
    gpu and date (say: ceiling, anchor, timing, software versions, seed)."""

    def __init__(self, suite, command, gpu, date=None, **meta):
        self.meta = {"suite": suite, "command": command, "gpu": gpu, "date": date or now()}
        for k, v in meta.items():
            self.meta[k.replace("_", "-")] = v
        for k, v in self.meta.items():
            if "\n" in str(v):
                raise ValueError(f"header {k} spans lines")
        self.rows = []

    def add(self, **row):
        """One result row; keys from COLUMNS, missing ones empty. The % of the
        ceiling is derived from ceiling_us and median_us unless given."""
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(f"unknown columns {sorted(unknown)}")
        if row.get("pct_of_ceiling") is None and _number(row.get("ceiling_us")) and _number(row.get("median_us")):
            row["pct_of_ceiling"] = 100.0 * row["ceiling_us"] / row["median_us"]
        self.rows.append({c: row.get(c) for c in COLUMNS})
        return self.rows[-1]

    def fill_ratios(self, anchor=None, triton="triton"):
        """vs_triton and vs_anchor of every timed row, against the rows of the
        same kernel, shape and timing whose impl is `triton` and `anchor`
        (default: the header's anchor)."""
        anchor = anchor or self.meta.get("anchor")
        times = {}
        for r in self.rows:
            if _number(r["median_us"]) and not r["variant"]:
                times[(r["kernel"], r["shape"], r["timing"], r["impl"])] = r["median_us"]
        for r in self.rows:
            key = (r["kernel"], r["shape"], r["timing"])
            if r["vs_triton"] is None:
                r["vs_triton"] = ratio(times.get(key + (triton,)), r["median_us"])
            if anchor and r["vs_anchor"] is None:
                r["vs_anchor"] = ratio(times.get(key + (anchor,)), r["median_us"])

    def text(self):
        lines = [f"# {k}: {v}" for k, v in self.meta.items()]
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in self.rows:
            w.writerow([_format(c, r[c]) for c in COLUMNS])
        return "\n".join(lines) + "\n" + buf.getvalue()

    def write(self, path):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.text(), encoding="utf-8")
        os.replace(tmp, path)
        return path


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _format(column, v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if column in _FORMATS and _number(v):
        return _FORMATS[column].format(v)
    return str(v)


# ------------------------------------------------------------ reading
def read(path):
    """(meta, rows) of one results CSV: the `# key: value` header as a dict,
    the rows as dicts with the numeric columns as floats (None when empty)."""
    meta, body = {}, []
    with open(path, encoding="utf-8", newline="") as f:
        for line in f:
            if line.startswith("#"):
                k, sep, v = line[1:].partition(":")
                if sep:
                    meta.setdefault(k.strip(), v.strip())
            else:
                body.append(line)
    reader = csv.DictReader(body)
    if reader.fieldnames is None or list(reader.fieldnames) != list(COLUMNS):
        raise ValueError(f"{path}: columns {reader.fieldnames} are not {list(COLUMNS)}")
    rows = []
    for r in reader:
        for c in NUMERIC:
            r[c] = float(r[c]) if r[c] not in ("", None) else None
        rows.append(r)
    return meta, rows


def is_benchmark_csv(path):
    """Whether `path` is a benchmark suite's CSV (its header names the suite),
    not another result kept beside it (sanitize.csv, difftest.csv, ...)."""
    with open(path, encoding="utf-8") as f:
        return f.readline().startswith("# suite:")


def read_dir(folder):
    """[(path, meta, rows)] of every benchmark CSV in a results folder, by
    file name."""
    return [(p,) + read(p) for p in sorted(Path(folder).glob("*.csv"))
            if is_benchmark_csv(p)]


def first_seen(entries):
    """{(kernel,) or (kernel, shape) or (kernel, impl): rank}: the order in
    which the runs list kernels, their shapes and implementations, the run
    with the most kernels first (a full run sets the order, partial runs
    only add to it)."""
    order = {}
    for _, _, rows in sorted(entries, key=lambda e: -len({r["kernel"] for r in e[2]})):
        for r in rows:
            for key in ((r["kernel"],), (r["kernel"], r["shape"]), (r["kernel"], r["impl"])):
                order.setdefault(key, len(order))
    return order


def latest_best(entries):
    """{(suite, kernel, shape, timing, impl): (row, path, meta)} over
    (path, meta, rows) entries: for each key the rows of the latest run (by
    the header's date) that has it, and of those the fastest passing
    variant, as an autotuner would pick."""
    latest = {}
    for path, meta, rows in entries:
        for r in rows:
            key = (meta.get("suite", ""), r["kernel"], r["shape"], r["timing"], r["impl"])
            date = meta.get("date", "")
            if key not in latest or date > latest[key][0]:
                latest[key] = (date, [])
            if date == latest[key][0]:
                latest[key][1].append((r, path, meta))
    best = {}
    for key, (_, found) in latest.items():
        passing = [f for f in found if f[0]["check"] in USABLE and f[0]["median_us"] is not None]
        if passing:
            best[key] = min(passing, key=lambda f: f[0]["median_us"])
    return best


def spin_cycles_per_us():
    """The clock of the GPU spin torch.cuda._sleep (which counts cycles):
    cycles a microsecond, from a 20M-cycle spin timed by CUDA events."""
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(1_000_000)
    torch.cuda.synchronize()
    start.record()
    torch.cuda._sleep(20_000_000)
    end.record()
    end.synchronize()
    return 20_000_000 / (start.elapsed_time(end) * 1000.0)
