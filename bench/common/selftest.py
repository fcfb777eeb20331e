#!/usr/bin/env python3
"""Self-test of the benchmark suites' shared code, no GPU and no third-party
package: benchlib (statistics, CSV writing and reading, the latest and best
rows), bench/plot.py's selection of what to draw, bench/table.py's tables.
Prints one line per check and 'N passed, N failed'; exit 1 on a failure.

    python3 bench/common/selftest.py
"""
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import benchlib  # noqa: E402
import plot  # noqa: E402
import table  # noqa: E402

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def raises(fn, exc):
    try:
        fn()
    except exc:
        return True
    return False


# ------------------------------------------------------------ statistics
check("median odd", benchlib.median([3.0, 1.0, 2.0]) == 2.0)
check("median even", benchlib.median([4.0, 1.0, 2.0, 3.0]) == 2.5)
check("percentile interpolates", abs(benchlib.percentile([1, 2, 3, 4], 25) - 1.75) < 1e-12)
check("percentile ends", benchlib.percentile([5, 1, 9], 0) == 1 and benchlib.percentile([5, 1, 9], 100) == 9)
check("percentile of nothing", raises(lambda: benchlib.percentile([], 50), ValueError))
check("percentile out of range", raises(lambda: benchlib.percentile([1], 101), ValueError))

# ------------------------------------------------------------ run identity
check("gpu h100", benchlib.gpu_short_name("NVIDIA H100 80GB HBM3") == "h100")
check("gpu h200", benchlib.gpu_short_name("NVIDIA H200") == "h200")
check("gpu a100", benchlib.gpu_short_name("NVIDIA A100-SXM4-80GB") == "a100")
check("results dir", benchlib.results_dir_name("2026-11-24T15:58:22", "NVIDIA H100 80GB HBM3")
      == "2026-11-24-h100")
cmd = benchlib.command_line([str(benchlib.REPO / "bench/llama/bench.py"), "--only", "a b", "--graph"])
check("command line", cmd == "python3 bench/llama/bench.py --only 'a b' --graph", cmd)
check("ratio", benchlib.ratio(3.0, 1.5) == 2.0 and benchlib.ratio(None, 1.0) is None
      and benchlib.ratio(1.0, 0.0) is None)


# ------------------------------------------------------------ CSV round trip
def llama_run(date, times, fail=()):
    """A llama-suite run: times {(kernel, impl label): median us}."""
    run = benchlib.ResultsCsv("llama", "python3 bench/llama/bench.py", "NVIDIA H100 80GB HBM3", date,
                              anchor="seed-cuda", ceiling="copy 3000.0 GB/s")
    for (kernel, label), us in times.items():
        impl, _, variant = label.partition(":")
        run.add(kernel=kernel, shape="16×4096", impl=impl, variant=variant, timing="stream", median_us=us,
                ceiling="copy", ceiling_us=100.0, rel_err=1e-7, tol=1e-5,
                check="FAIL" if (kernel, label) in fail else "PASS", notes='a "quoted", comma note')
    run.fill_ratios()
    return run


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    run = llama_run("2026-01-02T03:04:05", {("softmax", "llk:w4"): 125.0, ("softmax", "llk:w8"): 110.0,
                                            ("softmax", "triton"): 120.0, ("softmax", "seed-cuda"): 400.0})
    run.add(kernel="softmax", shape="16×4096", impl="llk", variant="w16", timing="stream", check="skip",
            notes="w16: no PTX")
    path = run.write(tmp / "2026-01-02-h100" / "llama.csv")
    meta, rows = benchlib.read(path)
    check("meta", meta["suite"] == "llama" and meta["command"] == "python3 bench/llama/bench.py"
          and meta["date"] == "2026-01-02T03:04:05" and meta["anchor"] == "seed-cuda", meta)
    check("rows", len(rows) == 5 and rows[1]["variant"] == "w8" and rows[1]["median_us"] == 110.0)
    check("notes survive", rows[0]["notes"] == 'a "quoted", comma note')
    check("pct derived", rows[1]["pct_of_ceiling"] == 90.9, rows[1]["pct_of_ceiling"])
    check("vs triton", rows[1]["vs_triton"] == 1.091 and rows[2]["vs_triton"] == 1.0, rows[1]["vs_triton"])
    check("vs anchor", rows[1]["vs_anchor"] == 3.636, rows[1]["vs_anchor"])
    check("empty fields", rows[4]["median_us"] is None and rows[4]["check"] == "skip")
    check("unknown column", raises(lambda: run.add(kernel="x", speed=1), ValueError))
    bad = tmp / "bad.csv"
    bad.write_text("# suite: x\nkernel,shape\nrms_norm,1\n")
    check("wrong columns", raises(lambda: benchlib.read(bad), ValueError))

    # A later run of softmax whose fastest variant failed; rms_norm only in the first.
    llama_run("2026-01-01T00:00:00", {("rms_norm", "llk"): 101.0, ("rms_norm", "triton"): 102.0}).write(
        tmp / "2026-01-01-h100" / "llama.csv")
    llama_run("2026-01-03T00:00:00", {("softmax", "llk:w4"): 105.0, ("softmax", "llk:w8"): 99.0,
                                      ("softmax", "triton"): 121.0},
              fail={("softmax", "llk:w8")}).write(tmp / "2026-01-03-h100" / "llama.csv")
    entries = []
    for d in sorted(tmp.glob("2026-*")):
        entries += benchlib.read_dir(d)
    best = benchlib.latest_best(entries)
    sm = best[("llama", "softmax", "16×4096", "stream", "llk")][0]
    check("latest run wins", sm["median_us"] == 105.0 and sm["variant"] == "w4", sm)
    check("older keys stay", best[("llama", "rms_norm", "16×4096", "stream", "llk")][0]["median_us"] == 101.0)
    check("anchor of the latest run only",
          ("llama", "softmax", "16×4096", "stream", "seed-cuda") in best
          and best[("llama", "softmax", "16×4096", "stream", "triton")][0]["median_us"] == 121.0)

    # plot.py: what goes in which figure.
    gemm = benchlib.ResultsCsv("gemm", "python3 bench/gemm/bench.py", "NVIDIA H100 80GB HBM3",
                               "2026-01-03T00:00:00", anchor="cublas")
    for impl, us in (("cublas", 200.0), ("triton", 210.0), ("llk wgmma+TMA", 205.0)):
        gemm.add(kernel="gemm_f16", shape="4096x4096x4096", impl=impl, timing="do_bench", median_us=us,
                 ceiling="cuBLAS", ceiling_us=200.0, check="PASS")
    gemm.add(kernel="matmul_f16", shape="4096x4096x4096", impl="llk", timing="do_bench", median_us=230.0,
             ceiling="cuBLAS", ceiling_us=200.0, check="PASS")
    gemm.write(tmp / "2026-01-03-h100" / "gemm-f16.csv")
    tiny = llama_run("2026-01-03T00:00:01", {("quantize_q8_1", "llk"): 2.4})
    tiny.rows[0]["ceiling_us"] = 0.02
    tiny.rows[0]["pct_of_ceiling"] = 0.8
    tiny.write(tmp / "2026-01-03-h100" / "llama-tiny.csv")
    figs = {f.name: f for f in plot.figures(benchlib.read_dir(tmp / "2026-01-03-h100"))}
    check("figures", sorted(figs) == ["gemm_f16-do_bench", "llama-memory-bound-stream"], sorted(figs))
    g = figs["gemm_f16-do_bench"]
    check("gemm figure", g.groups == ["4096x4096x4096"] and list(g.series) == ["llk wgmma+TMA", "triton", "cublas"]
          and g.series["cublas"] == [100.0] and g.ylabel == "% of cuBLAS", (g.groups, g.series))
    m = figs["llama-memory-bound-stream"]
    check("launch-bound left out", m.groups == ["softmax\n16×4096"], m.groups)
    check("failed variant left out", m.series["llk"] == [95.2], m.series)

    # table.py: the full table and the README's worst rows.
    selected = table.rows(entries + benchlib.read_dir(tmp / "2026-01-03-h100")[:1])
    names = [(r["kernel"], r["impl"]) for r, _, _ in selected]
    check("table rows", names == [("rms_norm", "llk"), ("softmax", "llk"), ("gemm_f16", "llk wgmma+TMA"),
                                  ("matmul_f16", "llk")], names)
    md = table.markdown(selected, tmp)
    check("table link", md[3].endswith("| [2026-01-03](2026-01-03-h100/llama.csv) |"), md[3])
    check("table gemm name", md[4].startswith("| gemm_f16 (wgmma+TMA) | 4096x4096x4096 | do_bench |"), md[4])
    check("table ratios", "| 95.2% | 1.15× | – |" in md[3], md[3])
    worst = table.worst_rows(selected)
    check("worst rows", len(worst) == 4, len(worst))
    partial = (Path("p"), {}, [{"kernel": "b", "shape": "2", "impl": "llk"}])
    full = (Path("f"), {}, [{"kernel": k, "shape": sh, "impl": "llk"} for k in "ab" for sh in "12"])
    order = benchlib.first_seen([partial, full])
    check("full run sets the order", order[("a",)] < order[("b",)] and order[("b", "1")] < order[("b", "2")], order)
    text = "a\n<!-- table.py:t begin -->\nold\n<!-- table.py:t end -->\nb\n"
    check("replace between", table.replace_between(text, "t", ["x", "y"])
          == "a\n<!-- table.py:t begin -->\nx\ny\n<!-- table.py:t end -->\nb\n")

# The committed results parse.
n = 0
for folder in sorted((benchlib.REPO / "bench/results").glob("*")):
    for path, meta, rows in benchlib.read_dir(folder):
        n += 1
        ok = all(k in meta for k in ("suite", "command", "gpu", "date")) and rows
        check(f"results {path.relative_to(benchlib.REPO)}", ok, meta)
check("results found", n > 0)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
