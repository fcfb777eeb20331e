"""Triton 3.6 fp8 GEMM with pointer loads (the tutorial-03 structure), C =
A B^T (A M x K, B N x K e4m3, bf16 out), 128x128x128 w4 s3: the kernel ncu
compares llk's fp8 GEMM with."""
import torch, triton, triton.language as tl

@triton.jit
def fp8_tri(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM); num_pid_n = tl.cdiv(N, BN)
    group = 8 * num_pid_n
    gid = pid // group; first = gid * 8; gsize = min(num_pid_m - first, 8)
    pid_m = first + (pid % group) % gsize; pid_n = (pid % group) // gsize
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] + rn[None, :] * K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK; b += BK
    cm = pid_m * BM + tl.arange(0, BM); cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc.to(tl.bfloat16), mask=(cm[:, None] < M) & (cn[None, :] < N))

M = N = K = 4096
a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
for _ in range(5):
    fp8_tri[grid](a, b, c, M, N, K, BM=128, BN=128, BK=128, num_warps=4, num_stages=3)
torch.cuda.synchronize()
ref = (a.float() @ b.float().t())
print("rel err", ((c.float() - ref).norm() / ref.norm()).item())
ms = triton.testing.do_bench(lambda: fp8_tri[grid](a, b, c, M, N, K, BM=128, BN=128, BK=128, num_warps=4, num_stages=3))
print(f"triton fp8 pointer loads 128x128x128 w4 s3: {ms*1e3:.1f} us, {2*M*N*K/ms/1e9:.0f} TFLOP/s")
