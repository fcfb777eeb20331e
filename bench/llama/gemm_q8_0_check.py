#!/usr/bin/env python3
"""GPU check of examples/gemm_q8_0.mlir's PTX (no timing): C = A W^T with A
f16 [M, K] and W in block_q8_0 rows, against a float64 reference of the
f16-rounded dequantized weights. Shapes: 512x4096x4096 and an awkward
333x1000x4128 (rows wrap, partial column block, K tail, 2-byte aligned rows).

    python3 bench/llama/gemm_q8_0_check.py PTX BLOCK_M BLOCK_N
"""
import sys
from pathlib import Path

import llk
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench as B  # noqa: E402

ptx, bm, bn = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# The PTX and its metadata (the runtime provides the dynamic shared memory
# of the pipelined kernel's ring of buffers).
kernel = llk.load(ptx, kernel="gemm_q8_0_kernel")
fails = 0
for M, N, K in ((512, 4096, 4096), (333, 1000, 4128)):
    g = torch.Generator(device="cuda")
    g.manual_seed(M + N + K)
    nb = K // 32
    d = (torch.rand(N, nb, generator=g, device="cuda") * 0.02 + 0.001).half()
    qs = torch.randint(-127, 128, (N, nb, 32), generator=g, device="cuda", dtype=torch.int8)
    w = B.llk_buffer(B.pack_q8_0(d, qs))
    a = torch.randn(M, K, generator=g, device="cuda").half()
    c = torch.full((M, N), float("nan"), device="cuda")
    wd = (d.float()[..., None] * qs.float()).half().double().reshape(N, K).cpu()
    ref = a.double().cpu() @ wd.T
    grid = ((M + bm - 1) // bm) * ((N + bn - 1) // bn)
    kernel[grid](a, w, c, M, N, K, K, N)
    torch.cuda.synchronize()
    err = ((c.double().cpu() - ref).norm() / ref.norm()).item()
    ok = err < 1e-3
    fails += not ok
    print(f"gemm_q8_0 {M}x{N}x{K}: rel err {err:.2e} -> {'PASS' if ok else 'FAIL'}")
sys.exit(1 if fails else 0)
