#!/usr/bin/env python3
"""GPU check of examples/gemm_q8_0.mlir's PTX (no timing): C = A W^T with A
f16 [M, K] and W in block_q8_0 rows, against a float64 reference of the
f16-rounded dequantized weights. Shapes: 512x4096x4096 and an awkward
333x1000x4128 (rows wrap, partial column block, K tail, 2-byte aligned rows).

    python3 bench/llama/gemm_q8_0_check.py PTX BLOCK_M BLOCK_N
"""
import json
import sys
from pathlib import Path

import cupy
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench as B  # noqa: E402

ptx, bm, bn = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# The pipelined kernel keeps its ring of buffers in dynamic shared memory
# (llkc's metadata beside the PTX says how much).
smem = json.loads(Path(ptx + ".json").read_text())["kernels"][0]["dynamic_shared_bytes"]
fn = cupy.RawModule(path=ptx).get_function("gemm_q8_0_kernel")
fn.max_dynamic_shared_size_bytes = smem
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
    fn((grid, 1, 1), (128, 1, 1),
       (np.uint64(a.data_ptr()), np.uint64(w.data_ptr()), np.uint64(c.data_ptr()),
        np.int32(M), np.int32(N), np.int32(K), np.int32(K), np.int32(N)),
       shared_mem=smem)
    torch.cuda.synchronize()
    err = ((c.double().cpu() - ref).norm() / ref.norm()).item()
    ok = err < 1e-3
    fails += not ok
    print(f"gemm_q8_0 {M}x{N}x{K}: rel err {err:.2e} -> {'PASS' if ok else 'FAIL'}")
sys.exit(1 if fails else 0)
