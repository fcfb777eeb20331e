#!/usr/bin/env python3
"""Runs one GEMM a few times for a profiler: an llkc PTX configuration (as
bench/gemm/bench.py names them) or Triton's tutorial matmul at a fixed
configuration. With --dump DIR it also writes Triton's TTGIR, PTX and cubin
(or the llk kernel's cubin, assembled by ptxas) there for cuobjdump.

  ncu --section SpeedOfLight --section WarpStateStats -k regex:gemm \
      python3 bench/gemm/profile_gemm.py gp/gemm_f16_128x256x64_w8_s4_sm90a.ptx
  python3 bench/gemm/profile_gemm.py triton:128x256x64_w8_s3 --dump out
"""
import argparse, os, re, subprocess, sys
import torch, triton

import bench  # bench/gemm/bench.py, beside this file

p = argparse.ArgumentParser()
p.add_argument("kernel", help="PTX path, or triton:<BM>x<BN>x<BK>_w<W>_s<S>")
p.add_argument("--shape", default="4096x4096x4096")
p.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
p.add_argument("--runs", type=int, default=6)
p.add_argument("--dump")
p.add_argument("--time", action="store_true",
               help="also time it (median of do_bench) beside cuBLAS; report the error, do not fail on it")
args = p.parse_args()
M, N, K = map(int, args.shape.split("x"))
dtype = bench.DTYPES[args.dtype]
a = torch.randn(M, K, device="cuda", dtype=dtype)
b = torch.randn(K, N, device="cuda", dtype=dtype)
c = torch.empty(M, N, device="cuda", dtype=dtype)
if args.kernel.startswith("triton:"):
    bm, bn, bk, w, s = map(int, re.match(r"triton:(\d+)x(\d+)x(\d+)_w(\d+)_s(\d+)$", args.kernel).groups())
    fn = bench.triton_matmul_kernel.fn
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    run = lambda: fn[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                           BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, num_stages=s, num_warps=w)
    compiled = run()
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for key in ("ttgir", "ptx"):
            with open(os.path.join(args.dump, f"triton.{key}"), "w") as f:
                f.write(compiled.asm[key])
        with open(os.path.join(args.dump, "triton.cubin"), "wb") as f:
            f.write(compiled.asm["cubin"])
else:
    g = bench.LlkGemm(args.kernel)
    run = lambda: g(a, b, c)
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        arch = "sm_90a" if g.wgmma or g.tma else "sm_90"
        out = os.path.join(args.dump, os.path.basename(args.kernel)[:-4] + ".cubin")
        subprocess.run(["ptxas", f"-arch={arch}", "-v", args.kernel, "-o", out], check=True)
for _ in range(args.runs):
    run()
torch.cuda.synchronize()
want = a.double() @ b.double()
err = ((c.double() - want).norm() / want.norm()).item()
print(f"{args.kernel} {args.shape} {args.dtype}: relative error {err:.2e}")
if args.time:
    from triton.testing import do_bench
    for label, fn in (("cuBLAS", lambda: torch.matmul(a, b, out=c)), (args.kernel, run),
                      ("cuBLAS", lambda: torch.matmul(a, b, out=c)), (args.kernel, run)):
        ms = do_bench(fn, warmup=50, rep=300, return_mode="median")
        print(f"  {label}: {ms * 1e3:.1f} us, {2 * M * N * K / ms / 1e9:.1f} TFLOP/s")
    sys.exit(0)
sys.exit(0 if err < bench.TOLERANCES[args.dtype] else 1)
