#!/usr/bin/env python3
"""GPU check of the q8_0 mat-vecs where bench.py's Llama shapes are regular:
N not a multiple of ROWS (masked rows), K = 129 blocks (rows of 4386 bytes,
so row starts are only 2-byte aligned; a masked tail iteration). Compares
with float64 references and checks nothing is written past y[N - 1].
PTX_DIR holds linear_q8_0.ptx and mul_mat_vec_q.ptx, 4 warps each.

    python3 bench/llama/matvec_awkward.py PTX_DIR ROWS [N K]
"""
import sys
from pathlib import Path

import cupy
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench as B  # noqa: E402

ptx_dir, rows = Path(sys.argv[1]), int(sys.argv[2])
N, K = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (4001, 4128)
nb = K // 32
g = torch.Generator(device="cuda")
g.manual_seed(1)
d = (torch.rand(N, nb, generator=g, device="cuda") * 0.02 + 0.001).half()
qs = torch.randint(-127, 128, (N, nb, 32), generator=g, device="cuda", dtype=torch.int8)
w = B.pack_q8_0(d, qs)
x = torch.randn(K, generator=g, device="cuda")
Kp = (K + 511) // 512 * 512
dq, sq, qq = B.quantize_q8_1_ref(x.cpu().double()[None], Kp)
yq = B.pack_q8_1(dq.half(), sq.half(), qq.to(torch.int8)).reshape(-1).cuda()

ref_lin = (d.cpu().double()[..., None] * qs.cpu().double()).reshape(N, K) @ x.cpu().double()
d1, _, q1 = B.unpack_q8_1(yq.cpu(), Kp // 32)
isum = (qs.cpu().to(torch.int32) * q1[0, :nb].to(torch.int32)[None]).sum(-1)
ref_mmvq = (isum.double() * d.cpu().double() * d1[0, :nb].double()[None]).sum(1)

fails = 0
for kernel, vec, ref in (("linear_q8_0", x, ref_lin), ("mul_mat_vec_q", yq, ref_mmvq)):
    mod = cupy.RawModule(path=str(ptx_dir / f"{kernel}.ptx"))
    fn = mod.get_function(kernel)
    y = torch.full((N + 64,), float("nan"), device="cuda")
    fn(((N + rows - 1) // rows, 1, 1), (128, 1, 1),
       (np.uint64(y.data_ptr()), np.uint64(w.data_ptr()), np.uint64(vec.data_ptr()),
        np.int32(N), np.int32(K)))
    torch.cuda.synchronize()
    out = y.cpu().double()
    err = ((out[:N] - ref).norm() / ref.norm()).item()
    tail_ok = bool(torch.isnan(out[N:]).all())
    ok = err < 1e-5 and tail_ok
    fails += not ok
    print(f"{kernel} {N}x{K}: rel err {err:.2e}, nothing written past N: {tail_ok} -> {'PASS' if ok else 'FAIL'}")
sys.exit(1 if fails else 0)
