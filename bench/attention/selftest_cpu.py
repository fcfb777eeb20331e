#!/usr/bin/env python3
"""CPU self-test of the attention benchmark's parts that need no GPU (NumPy,
no torch): bench.py's arguments, shapes, FLOP counts and CSV rows, the
configuration set configs.py reads from the examples' headers, bench/table.py's reading of
the CSV, build_ptx.py's
reading of `ptxas -v`, and reference.py's float64 attention against the
definitions (a loop over every element) and its gradients against finite
differences. Prints 'N passed, N failed'; test/bench/attention.test runs it.
"""
import contextlib
import io
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "common"))
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import benchlib  # noqa: E402
import build_ptx  # noqa: E402
import configs  # noqa: E402
import reference  # noqa: E402

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    passed += bool(cond)
    failed += not cond
    print(f"{'ok  ' if cond else 'FAIL'} {name} {detail}")


def rejects(argv):
    """Whether parse_args exits with a usage error on argv."""
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            bench.parse_args(argv)
        except SystemExit as e:
            return e.code == 2
    return False


# ---- arguments
a = bench.parse_args(["--ptx-dir", "p"])
check("defaults: fwd and bwd, both causalities, D 64/128, seq 1k/4k/16k, 4x32 and 16x16",
      a.modes == ["fwd", "bwd"] and a.causal == "both" and a.head_dims == [64, 128]
      and a.seqs == [1024, 4096, 16384] and a.batch_heads == [(4, 32), (16, 16)] and a.dtype == "f16")
check("defaults: both llk builds, 3 rounds", a.archs == ["sm_90", "sm_90a"] and a.rounds == 3)
a = bench.parse_args(["--ptx-dir", "p", "--batch-heads", "2x8,1x4", "--seqs", "256,512", "--modes", "bwd",
                      "--causal", "yes", "--dtype", "bf16", "--archs", "sm_90a"])
check("--batch-heads, --seqs, --modes, --causal, --dtype, --archs",
      a.batch_heads == [(2, 8), (1, 4)] and a.seqs == [256, 512] and a.modes == ["bwd"]
      and a.causal == "yes" and a.dtype == "bf16" and a.archs == ["sm_90a"])
a = bench.parse_args(["--ptx-dir", "p", "--quick"])
check("--quick: 1k and 4k, one round", a.seqs == [1024, 4096] and a.rounds == 1)
for bad in (["--seqs", "1000"], ["--seqs", "x"], ["--batch-heads", "4*32"], ["--modes", "fwd,back"],
            ["--head-dims", "96"], ["--archs", "sm_89"], ["--rounds", "0"], ["--launcher", "old"], []):
    check(f"rejects {' '.join(bad) or 'no --ptx-dir'}", rejects((["--ptx-dir", "p"] if bad else []) + bad))

# ---- shapes and FLOP counts
a = bench.parse_args(["--ptx-dir", "p"])
shapes = bench.benchmark_shapes(a)
check("24 benchmark shapes, labels distinct", len(shapes) == 24 and len({s.label() for s in shapes}) == 24)
s = bench.Shape(4, 32, 32, 4096, 4096, 128, False)
check("forward FLOPs: 4 B H N^2 D", s.flops("fwd") == 4.0 * 4 * 32 * 4096 ** 2 * 128)
c = bench.Shape(4, 32, 32, 4096, 4096, 128, True)
check("causal counts half; backward 2.5x", c.flops("fwd") == s.flops("fwd") / 2
      and c.flops("bwd") == 2.5 * c.flops("fwd"))
llama = bench.llama_shapes()
check("Llama prompt: 32 heads over 8 and 32 KV heads, 512 queries after 3584",
      [(x.heads, x.heads_kv, x.n_q, x.n_k, x.d, x.causal) for x in llama]
      == [(32, 8, 512, 4096, 128, True), (32, 32, 512, 4096, 128, True)])
pairs = sum(min(4096, i + 3584 + 1) for i in range(512))
check("Llama prompt pairs: the visible ones, the diagonal counted half",
      abs(llama[0].pairs() - pairs) / pairs < 1e-3, f"{llama[0].pairs()} vs {pairs}")
check("labels", llama[0].label() == "1x32/8 q512 k4096 d128 causal" and s.label() == "4x32 n4096 d128")
check("TFLOP/s of a time in ms", abs(bench.tflops(s, "fwd", 1.0) - s.flops("fwd") / 1e9) < 1e-9)
checks = bench.check_shapes(a)
check("float64 shapes: tails, GQA and n_q < n_k beside Triton's whole blocks",
      any(not t and x.group > 1 and x.n_q < x.n_k and x.n_q % 128 for x, t in checks)
      and all(x.n_q % 128 == 0 and x.n_q == x.n_k for x, t in checks if t))

# ---- CSV rows
times = {"sdpa (flash)": [1.0, 1.1, 0.9], "llk sm_90": [2.0, 2.2, 2.1], "llk sm_90a": [1.5, 1.6, 1.4],
         "triton": [1.2, 1.3, 1.2]}
errors = {"llk sm_90": 1e-3, "llk sm_90a": 6e-3, "triton": 2e-3}
rows = bench.timing_rows("attention_fwd", s, "fwd", times, errors, "flash", 5e-3)
by = {r["variant"]: r for r in rows}
check("rows: one per contender, the fastest passing llk marked best",
      sorted(by) == ["llk sm_90 (best)", "llk sm_90a", "sdpa (flash)", "triton"])
check("rows: SDPA the ceiling, unchecked", by["sdpa (flash)"]["impl"] == "sdpa"
      and by["sdpa (flash)"]["check"] == "unchecked" and by["llk sm_90 (best)"]["ceiling_us"] == 1000.0)
check("rows: a failing error fails", by["llk sm_90a"]["check"] == "FAIL" and by["llk sm_90 (best)"]["check"] == "PASS")
check("rows: ratios to the medians", abs(by["llk sm_90 (best)"]["vs_anchor"] - 1.0 / 2.1) < 1e-12
      and abs(by["llk sm_90 (best)"]["vs_triton"] - 1.2 / 2.1) < 1e-12)
run = bench.results_csv(bench.parse_args(["--ptx-dir", "p"]), "GPU X", "software")
for row in rows:
    run.add(**row)
sys.path.insert(0, str(HERE.parent))
import table  # noqa: E402
with tempfile.TemporaryDirectory() as tmp:
    meta, back = benchlib.read(run.write(Path(tmp) / "attention.csv"))
    listed = table.rows(benchlib.read_dir(tmp))
    lines = table.markdown(listed, Path(tmp))
check("bench/table.py lists the fastest passing llk row", len(listed) == 1 and listed[0][0]["variant"] == "llk sm_90 (best)"
      and "attention_fwd" in lines[-1], lines[-1])
check("CSV: header and rows read back", meta["suite"] == "attention" and meta["anchor"] == "sdpa"
      and len(back) == 4)
r = next(x for x in back if x["variant"] == "llk sm_90 (best)")
check("CSV: % of SDPA and TFLOP/s", abs(r["pct_of_ceiling"] - 100 / 2.1) < 0.1
      and abs(r["throughput"] - bench.tflops(s, "fwd", 2.1)) < 0.1, f"{r['pct_of_ceiling']} {r['throughput']}")

# ---- the configuration set
blocks = configs.read_blocks()
check("the headers' tables: every kernel at D 64 and 128", len(blocks) == 8)
check("fwd D=128: 128 x 64, 8 warps, 3 stages", blocks[("fwd", 128)] == configs.Blocks(128, 64, 8, 3))
fwd64 = blocks[("fwd", 64)]
check("fwd D=64: 2 programs an SM on sm_90a, none asked on sm_90", fwd64.programs == (0, 2)
      and configs.Config("fwd", "f16", 64, True, fwd64).llkc_args("sm_90a")[-4:-2] == ["--min-programs-per-sm", "2"]
      and "--min-programs-per-sm" not in configs.Config("fwd", "f16", 64, True, fwd64).llkc_args("sm_90"), str(fwd64))
check("the backward at D=64: 8 warps", blocks[("bwd_dkdv", 64)].warps == 8 and blocks[("bwd_dq", 64)].warps == 8)
with tempfile.TemporaryDirectory() as tmp:
    for table, rows in (("fwd.mlir", ["fwd     64   128  64  8  3  2", "fwd     128  128  64  8  3"]),
                        ("bwd_dkdv.mlir", [f"{k}  {d}  32  128  8  3  {p}" for k, p in
                                           (("bwd_preprocess", "3/-"), ("bwd_dkdv", "-"), ("bwd_dq", "-/-"))
                                           for d in (64, 128)])):
        (Path(tmp) / table).write_text("".join(f"//   {r}\n" for r in rows))
    read = configs.read_blocks(tmp)
check("programs: a lone number on every target, a/- on mma.sync only, left out or - none",
      read[("fwd", 64)].programs == (2, 2) and read[("bwd_preprocess", 64)].programs == (3, 0)
      and read[("fwd", 128)].programs == (0, 0) and read[("bwd_dq", 128)].programs == (0, 0),
      str({k: v.programs for k, v in read.items()}))
all_configs = configs.configurations()
names = {c.name(arch) for c in all_configs for arch in build_ptx.ARCHS}
check("28 configurations a target, 84 names", len(all_configs) == 28 and len(names) == 84)
fwd = next(c for c in all_configs if c.kernel == "fwd" and c.dtype == "bf16" and c.d == 64 and c.causal)
args = fwd.llkc_args("sm_90a")
check("llkc arguments", args[0].endswith("examples/attention/fwd.mlir") and "T=bf16" in args
      and "CAUSAL=1" in args and args[-2:] == ["--arch", "sm_90a"]
      and args[args.index("--num-warps") + 1] == "8", " ".join(args[1:]))
pre = next(c for c in all_configs if c.kernel == "bwd_preprocess")
check("the preprocess takes no BLOCK_N, CAUSAL or stages",
      "BLOCK_N" not in pre.constants() and "--num-stages" not in pre.llkc_args("sm_90"))
ptxas_text = ("ptxas info    : Used 255 registers, used 1 barriers, 368 bytes cumulative stack size\n"
              "ptxas info    : 368 bytes stack frame, 620 bytes spill stores, 692 bytes spill loads\n")
check("ptxas -v summary", build_ptx.ptxas_summary(ptxas_text) == (255, 620, 692, 368))

# ---- reference.py against the definitions
rng = np.random.default_rng(1)


def naive(q, k, v, causal, scale):
    """Attention element by element."""
    B, H, n_q, d = q.shape
    g = H // k.shape[1]
    n_k = k.shape[2]
    o = np.zeros(q.shape)
    lse = np.zeros(q.shape[:3])
    for b in range(B):
        for h in range(H):
            for i in range(n_q):
                keys = [j for j in range(n_k) if not causal or j <= i + n_k - n_q]
                s = {j: scale * sum(q[b, h, i, c] * k[b, h // g, j, c] for c in range(d)) for j in keys}
                total = sum(math.exp(x) for x in s.values())
                lse[b, h, i] = math.log(total)
                for c in range(d):
                    o[b, h, i, c] = sum(math.exp(s[j]) / total * v[b, h // g, j, c] for j in keys)
    return o, lse


for causal in (False, True):
    q = rng.standard_normal((2, 4, 3, 8))
    k = rng.standard_normal((2, 2, 5, 8))
    v = rng.standard_normal((2, 2, 5, 8))
    o, lse = reference.forward(q, k, v, causal, 0.3)
    o_want, lse_want = naive(q, k, v, causal, 0.3)
    check(f"forward vs the definition (GQA, 3 queries over 5 keys, causal={causal})",
          reference.rel_error(o, o_want) < 1e-12 and reference.rel_error(lse, lse_want) < 1e-12)
    do = rng.standard_normal(o.shape)
    grads = reference.backward(q, k, v, do, causal, 0.3)
    # Finite differences of L = sum(o * do) along random directions.
    for name, x, g in zip(("dq", "dk", "dv"), (q, k, v), grads):
        direction = rng.standard_normal(x.shape)
        eps = 1e-6
        args = {"dq": [q, k, v], "dk": [q, k, v], "dv": [q, k, v]}[name]
        index = ("dq", "dk", "dv").index(name)
        plus = [a + eps * direction if i == index else a for i, a in enumerate(args)]
        minus = [a - eps * direction if i == index else a for i, a in enumerate(args)]
        numeric = ((reference.forward(*plus, causal, 0.3)[0] * do).sum()
                   - (reference.forward(*minus, causal, 0.3)[0] * do).sum()) / (2 * eps)
        analytic = (g * direction).sum()
        check(f"backward {name} vs finite differences (causal={causal})",
              abs(numeric - analytic) <= 1e-6 * max(1.0, abs(analytic)), f"{numeric:.9f} vs {analytic:.9f}")
check("visible: bottom-right", reference.visible(2, 4, True).tolist()
      == [[True, True, True, False], [True, True, True, True]])
try:
    reference.forward(np.zeros((1, 1, 4, 2)), np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 2)), True, 1.0)
    check("a query row that sees no key is refused", False)
except ValueError:
    check("a query row that sees no key is refused", True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
