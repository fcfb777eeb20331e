#!/usr/bin/env python3
"""First compile + launch of a kernel, llk's JIT beside Triton's (issue 25),
cold (empty caches) and warm (a second process over the same caches), on the
GPU machine: a causal prefill attention (512 tokens, 32 heads of 128; llk's
examples/llama/attn_prefill.mlir, Triton's FlashAttention-style forward
in triton_first.py) and an f16 GEMM (1024^3, 128x128x32 blocks; llk's examples/gemm.mlir,
Triton's tutorial matmul at the same configuration).

    python3 bench/jit/first_launch.py [--repeats 3] [--csv PATH]

Every measurement is a fresh process: torch is imported and the CUDA context
made and the inputs built before the clock starts; `setup` is what comes
next and is timed apart (llk: loading libllk.so and opening the device;
Triton: importing triton); then the first call — llk.compile (JIT compile
and ptxas, or, warm, a disk-cache hit and a cubin load) and the first
launch, synchronized; Triton: the first call of the @triton.jit kernel,
which compiles it (and, cold, its launcher) — and its result is checked
against a float64 reference. Cold: LLK_CACHE_DIR and TRITON_CACHE_DIR fresh
for each process; warm: one process fills them, then each repeat reads
them; a warm llk process that compiled or loaded no cubin from the cache
fails (issue 25: a second process loads the cached cubin). The driver's
own PTX cache is off (CUDA_CACHE_DISABLE=1) for all.
Medians of --repeats processes; rows to --csv (default
$OUT/first-launch.csv) and a Markdown table to stdout.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "common"))

KERNELS = {
    "attention": "causal prefill, 512 tokens x 32 heads x 128, f16 K/V",
    "gemm": "f16 1024x1024x1024, 128x128x32 blocks, 4 warps",
}
T, NH, D = 512, 32, 128
M = N = K = 1024


# ----------------------------------------------------------------- children
def rel_error(got, want):
    got = got.double()
    return ((got - want).norm() / want.norm()).item()


def child(impl, kernel):
    """One measurement: prints a JSON line."""
    import torch
    torch.cuda.init()
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    dev = "cuda"
    if kernel == "attention":
        q = torch.randn(T, NH * D, device=dev)
        kc = torch.randn(T, NH, D, device=dev).half()          # K cache [C][NH][D]
        vc = torch.randn(NH, D, T, device=dev).half()          # V cache [NH][D][C]
        scale = D ** -0.5
    else:
        a = torch.randn(M, K, device=dev).half()
        b = torch.randn(K, N, device=dev).half()
        c = torch.full((M, N), float("nan"), device=dev, dtype=torch.float16)
    torch.cuda.synchronize()
    result = {"impl": impl, "kernel": kernel}
    t0 = time.perf_counter()
    if impl == "llk":
        import llk
        llk.device()
        t1 = time.perf_counter()
        if kernel == "attention":
            k = llk.compile(REPO / "examples" / "llama" / "attn_prefill.mlir",
                            constants={"BLOCK_M": 128, "BLOCK_N": 32, "D": D}, num_warps=8)
        else:
            k = llk.compile(REPO / "examples" / "gemm.mlir",
                            constants={"T": "f16", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32},
                            num_warps=4)
        t2 = time.perf_counter()
        if kernel == "attention":
            o = torch.full((T, NH * D), float("nan"), device=dev, dtype=torch.float16)
            k[(-(-T // 128), NH)](o, q, kc, vc, 0, T, NH * D, NH * D, NH * D, T, 1, scale)
        else:
            k[(M // 128, N // 128)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        stats = llk.device().jit_stats()
        result.update(setup_ms=1e3 * (t1 - t0), compile_ms=1e3 * (t2 - t1),
                      launch_ms=1e3 * (t3 - t2), first_ms=1e3 * (t3 - t1),
                      compiles=stats["compiles"], cubin_loads=stats["cubin_loads"],
                      how=f"{stats['compiles']} compiles, {stats['disk_hits']} disk hits, "
                          f"{stats['cubin_loads']} cubin loads, {stats['ptx_loads']} PTX loads")
    else:
        sys.path.insert(0, str(HERE))
        import triton
        import triton_first
        fn = triton_first.attn_fwd if kernel == "attention" else triton_first.matmul
        t1 = time.perf_counter()
        if kernel == "attention":
            qt = q.view(T, NH, D).half()
            kt = kc
            vt = vc.permute(2, 0, 1).contiguous()                 # [T][NH][D]
            o = torch.full((T, NH, D), float("nan"), device=dev, dtype=torch.float16)
            fn[(triton.cdiv(T, 64), NH)](qt, kt, vt, o, scale, T, NH * D, D,
                                         BLOCK_M=64, BLOCK_N=64, HEAD=D, num_warps=4, num_stages=2)
        else:
            fn[(triton.cdiv(M, 128) * triton.cdiv(N, 128),)](
                a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8, num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        result.update(setup_ms=1e3 * (t1 - t0), first_ms=1e3 * (t3 - t1),
                      how=f"triton {triton.__version__}")
    # Against float64.
    if kernel == "attention":
        qd = (q.view(T, NH, D).half() if impl == "triton" else q.view(T, NH, D)).double()
        kd, vd = kc.double(), vc.double().permute(2, 0, 1)
        scores = torch.einsum("thd,uhd->htu", qd, kd) * scale
        mask = torch.ones(T, T, device=dev, dtype=torch.bool).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
        want = torch.einsum("htu,uhd->thd", torch.softmax(scores, -1), vd).reshape(T, NH * D)
        err, tol = rel_error(o.view(T, NH * D), want), 1e-2 if impl == "triton" else 1e-3
    else:
        err, tol = rel_error(c, a.double() @ b.double()), 2e-3
    result.update(rel_err=err, check="PASS" if err < tol else "FAIL")
    print(json.dumps(result), flush=True)


# ----------------------------------------------------------------- driver
def run_child(impl, kernel, cache):
    env = dict(os.environ, LLK_CACHE_DIR=str(cache / "llk"), TRITON_CACHE_DIR=str(cache / "triton"),
               CUDA_CACHE_DISABLE="1")
    p = subprocess.run([sys.executable, __file__, "--child", impl, kernel], env=env,
                       capture_output=True, text=True)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        raise RuntimeError(f"{impl} {kernel}: exit {p.returncode}\n{p.stderr[-3000:]}")
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--impls", default="llk,triton")
    ap.add_argument("--kernels", default="attention,gemm")
    ap.add_argument("--csv", default="")
    ap.add_argument("--child", nargs=2, metavar=("IMPL", "KERNEL"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(*a.child)
        return 0
    import benchlib
    work = Path(tempfile.mkdtemp(prefix="llk-first-launch-"))
    rows, failed = [], False
    for kernel in a.kernels.split(","):
        for impl in a.impls.split(","):
            for state in ("cold", "warm"):
                runs = []
                warm_cache = work / f"{impl}-{kernel}-warm"
                if state == "warm":
                    run_child(impl, kernel, warm_cache)  # fills the caches
                for r in range(a.repeats):
                    cache = work / f"{impl}-{kernel}-cold-{r}" if state == "cold" else warm_cache
                    try:
                        runs.append(run_child(impl, kernel, cache))
                    except RuntimeError as e:
                        print(e, file=sys.stderr)
                        failed = True
                if not runs:
                    continue
                first = [r["first_ms"] for r in runs]
                row = dict(kernel=kernel, impl=impl, state=state, first=statistics.median(first),
                           lo=min(first), hi=max(first),
                           setup=statistics.median(r["setup_ms"] for r in runs),
                           compile=statistics.median(r.get("compile_ms", float("nan")) for r in runs),
                           launch=statistics.median(r.get("launch_ms", float("nan")) for r in runs),
                           err=max(r["rel_err"] for r in runs),
                           check="PASS" if all(r["check"] == "PASS" for r in runs) else "FAIL",
                           how=runs[-1]["how"])
                if impl == "llk" and state == "warm" and any(
                        r["compiles"] or not r["cubin_loads"] for r in runs):
                    # The second process must load the cached cubin (no
                    # compile, no PTX JIT by the driver).
                    row["check"] = "FAIL"
                    print(f"{kernel} llk warm: not a cubin load from the cache: {row['how']}",
                          file=sys.stderr)
                failed |= row["check"] != "PASS"
                rows.append(row)
                print(f"{kernel:9s} {impl:6s} {state}: first call {row['first']:8.1f} ms "
                      f"(setup {row['setup']:.1f} ms; {row['how']}) {row['check']}", file=sys.stderr,
                      flush=True)
    import torch
    gpu = torch.cuda.get_device_name()
    csv = benchlib.ResultsCsv(
        "first-launch", benchlib.command_line(), gpu,
        timing="wall time of the first compile + launch + synchronize in a fresh process (torch "
        "imported, context made, inputs built first; setup apart); median of "
        f"{a.repeats} processes", anchor="triton",
        ceiling="none", caches="cold: fresh LLK_CACHE_DIR and TRITON_CACHE_DIR; warm: filled by "
        "a process before; CUDA_CACHE_DISABLE=1")
    lines = ["| kernel | | llk cold | llk warm | Triton cold | Triton warm |", "|---|---|---:|---:|---:|---:|"]
    for kernel in a.kernels.split(","):
        got = {(r["impl"], r["state"]): r for r in rows if r["kernel"] == kernel}
        cell = lambda i, s: f"{got[(i, s)]['first']:.1f} ms" if (i, s) in got else "–"
        lines.append(f"| {kernel} | {KERNELS[kernel]} | {cell('llk', 'cold')} | {cell('llk', 'warm')} | "
                     f"{cell('triton', 'cold')} | {cell('triton', 'warm')} |")
        for r in rows:
            if r["kernel"] != kernel:
                continue
            notes = f"setup {r['setup']:.1f} ms apart; {r['how']}"
            if r["impl"] == "llk":
                notes = f"compile or cache hit {r['compile']:.1f} ms, first launch {r['launch']:.1f} ms; " + notes
            csv.add(kernel=kernel, shape=KERNELS[kernel], impl=r["impl"], variant="",
                    timing=f"first-launch {r['state']}", median_us=1e3 * r["first"], lo_us=1e3 * r["lo"],
                    hi_us=1e3 * r["hi"], rel_err=r["err"], check=r["check"], notes=notes)
    csv.fill_ratios()
    table = "\n".join(lines)
    print(table)
    path = Path(a.csv) if a.csv else benchlib.default_csv_path("first-launch")
    if path:
        print(f"CSV: {csv.write(path)}", file=sys.stderr)
        (path.parent / "first-launch.md").write_text(table + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
