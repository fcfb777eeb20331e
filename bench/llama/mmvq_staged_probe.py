#!/usr/bin/env python3
"""Probe: is a mat-vec that stages its weight rows in shared memory faster?

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/mmvq_staged_probe.py [--graph]

A hand-written CUDA mul_mat_vec_q (q8_0 x q8_1) whose rows arrive in shared
memory by 1-D bulk copies (cp.async.bulk completing on an mbarrier), in
persistent CTAs with two groups of four rows in flight, one warp a row, dp4a
from shared memory; checked against float64 and timed with bench.py's Timer
(weights rotated out of L2) beside the seed-style mmvq. It answers whether
the missing compiler piece (staging byte-packed tiles through shared memory)
would lift the q8_0 mat-vecs: on the H100, 2026-11-23, it did not (see
bench/RESULTS.md).
"""
import sys

import cupy
import numpy as np
import torch

sys.path.insert(0, "bench/llama")
from bench import (GB, PROBE_CUDA_PRELUDE, CupyLauncher, SeedModule, Timer, cdiv,  # noqa: E402
                   copy_bandwidth, random_mmvq_operands)
SRC = PROBE_CUDA_PRELUDE + r'''
__device__ __forceinline__ void wait_bar(unsigned b, unsigned ph){unsigned ok=0;
  while(!ok) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0,1,0,p; }":"=r"(ok):"r"(b),"r"(ph):"memory");}
#define G 4       // rows a group (one per warp)
#define S 2       // groups in flight
extern "C" __global__ void __launch_bounds__(128) mmvq_staged(const char* __restrict__ w, const char* __restrict__ xq, float* __restrict__ y, int nrows, int ncols){
  extern __shared__ __align__(128) char sm[];
  __shared__ __align__(8) unsigned long long bars[S + 1];
  const int nb = ncols / 32, rb = nb * 34, xb = nb * 36;
  const int ngroups = (nrows + G - 1) / G;
  const int slot_bytes = (rb + 127) / 128 * 128;
  char* sx = sm + S * G * slot_bytes;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int i = 0; i <= S; ++i) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;"::"r"(sa(&bars[i])));
    asm volatile("fence.mbarrier_init.release.cluster;":::"memory");
  }
  __syncthreads();
  auto issue = [&](int g, int s) {   // group g into slot s (thread 0)
    int r0 = g * G, n = min(G, nrows - r0);
    unsigned bytes = n * rb;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"::"r"(sa(&bars[s])),"r"(bytes):"memory");
    for (int i = 0; i < n; ++i)
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        ::"r"(sa(sm + (s * G + i) * slot_bytes)),"l"(w + (long)(r0 + i) * rb),"r"((unsigned)rb),"r"(sa(&bars[s])):"memory");
  };
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"::"r"(sa(&bars[S])),"r"((unsigned)xb):"memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      ::"r"(sa(sx)),"l"(xq),"r"((unsigned)xb),"r"(sa(&bars[S])):"memory");
    for (int k = 0; k < S; ++k) { int g = blockIdx.x + k * gridDim.x; if (g < ngroups) issue(g, k); }
  }
  wait_bar(sa(&bars[S]), 0);
  int it = 0;
  for (int g = blockIdx.x; g < ngroups; g += gridDim.x, ++it) {
    int s = it % S; unsigned ph = (it / S) & 1;
    wait_bar(sa(&bars[s]), ph);
    int row = g * G + warp;
    if (row < nrows) {
      const char* wr = sm + (s * G + warp) * slot_bytes;
      float acc = 0.f;
      // 4 lanes a block, 2 ints each; 8 blocks a warp per step
      for (int b = lane / 4; b < nb; b += 8) {
        const char* blk = wr + b * 34; const char* xbk = sx + b * 36;
        int q = (lane % 4) * 2;
        const half_t* q16 = (const half_t*)(blk + 2 + 4 * q);
        int v0 = q16[0] | (q16[1] << 16), v1 = q16[2] | (q16[3] << 16);
        const int* u = (const int*)(xbk + 4 + 4 * q);
        int sumi = dp4a(v1, u[1], dp4a(v0, u[0], 0));
        acc += h2f(*(const half_t*)blk) * h2f(*(const half_t*)xbk) * (float)sumi;
      }
      for (int m = 16; m > 0; m >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, m);
      if (lane == 0) y[row] = acc;
    }
    __syncthreads();   // the slot is free
    if (threadIdx.x == 0) { int gn = g + S * gridDim.x; if (gn < ngroups) issue(gn, s); }
  }
}
'''
mod = cupy.RawModule(code=SRC, options=("-std=c++17",))
fn = mod.get_function("mmvq_staged")
props = torch.cuda.get_device_properties(0); sms = props.multi_processor_count
l2 = props.L2_cache_size
timer = Timer(15, graph="--graph" in sys.argv)
copy_bw = copy_bandwidth(timer)
print(f"copy {copy_bw/GB:.1f} GB/s, {'graph' if '--graph' in sys.argv else 'stream'}")
S_ = SeedModule(cupy, "sm_90"); L = CupyLauncher(cupy)
P = lambda t: np.uint64(t.data_ptr())
def launch(f, grid, block, args, shared=0):
    L.launch(f, (grid,), (block,), args, shared)
for N, K in ((4096, 4096), (11008, 4096), (4096, 11008)):
    nb = K // 32
    wb, xb, ref = random_mmvq_operands(N, K, N + K)
    nbytes = N * nb * 34 + nb * 36 + N * 4
    floor = nbytes / copy_bw * 1e6
    nsets = cdiv(4 * l2, N * nb * 34)
    sets = [wb.view(-1)] + [wb.view(-1).clone() for _ in range(nsets - 1)]
    y = torch.empty(N, device="cuda")
    smem = 2 * 4 * ((nb * 34 + 127) // 128 * 128) + nb * 36
    fn.max_dynamic_shared_size_bytes = smem
    per_sm = min(8, (227 * 1024) // (smem + 1024))
    res = []
    for cps in sorted({1, 2, per_sm}):
        grid = min(sms * cps, cdiv(N, 4))
        y.fill_(float("nan"))
        launch(fn, grid, 128, (P(sets[0]), P(xb), P(y), np.int32(N), np.int32(K)), smem)
        torch.cuda.synchronize()
        err = ((y.double() - ref).norm() / ref.norm()).item()
        t = timer.time([(lambda s=s: launch(fn, grid, 128, (P(s), P(xb), P(y), np.int32(N), np.int32(K)), smem)) for s in sets])
        res.append(f"staged {cps}/SM {t.median:.2f} us {100*floor/t.median:.1f}% err {err:.1e}")
    seed = S_["mul_mat_vec_q8_0_q8_1"]
    ts = timer.time([(lambda s=s: L.launch(seed, (1, N, 1), (32, 1, 1), [P(s), P(xb), P(y), np.int32(K), np.int32(N)])) for s in sets])
    print(f"{N}x{K} floor {floor:.2f}: " + "; ".join(res) + f"; seed {ts.median:.2f} us -> 1.5x needs {ts.median/1.5:.2f}")
