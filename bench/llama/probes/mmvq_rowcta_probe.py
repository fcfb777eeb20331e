#!/usr/bin/env python3
"""Probe: a mul_mat_vec_q shaped like the fastest pure read.

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/probes/mmvq_rowcta_probe.py [PTX_DIR]

bench/results/2026-11-23-h100/read-ceiling-graph.csv: reading the 47.9 MB of the
4096x11008 weights takes 16.54 us (graph) as a grid of short programs that
each issue their loads once (one or four 16-byte words a thread), 17.11 us
as one wave of programs looping over their share; the kept mul_mat_vec_q
is a loop of the second kind (17.2-18.0 us), and 1.5x the seed needs 17.0.
Here each program holds RPC whole rows, TPR threads a row, and every thread
takes PPT pairs of q8_0 blocks (68 bytes at a 4-aligned address: five
aligned 16-byte windows, the fifth a single word when the pair starts on a
window) with their two q8_1 blocks (72 bytes at an 8-aligned address: nine
8-byte loads). All of a pass's loads issue before any math; at K = 11008
with TPR * PPT >= 172 pairs a row, a program makes one pass and ends.
Realignment: the pair's 17 words out of the 20 by two select stages (by
2 words, by 1), block A's quants by one 16-bit funnel shift each; block B's
quants and both scales sit on word boundaries.
The h<TPR>s<S>r<RPC> programs are the same with the kept kernel's lanes:
a thread a 16-quant half block (two aligned windows, realigned),
neighbouring lanes on neighbouring halves, S halves a thread a pass.
"""
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import PROBE_CUDA_PRELUDE, cdiv, matvec_probe_table  # noqa: E402

SRC = PROBE_CUDA_PRELUDE + r'''
__device__ __forceinline__ unsigned ldg4(const char* p){
  unsigned v; asm volatile("ld.global.L1::evict_first.u32 %0, [%1];" : "=r"(v) : "l"(p)); return v;
}
// Sums a thread's part of its row over the row's TPR threads (shuffles, then
// the row's warps through shared memory) and stores it.
template <int TPR, int RPC>
__device__ __forceinline__ void row_sum_store(float acc, float* y, int row, int nrows){
  constexpr int WPR = TPR / 32;
  __shared__ float part[RPC * WPR];
  const int tid = threadIdx.x, lt = tid % TPR, rl = tid / TPR;
  for (int m = 16; m > 0; m >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, m);
  if (WPR > 1) {
    if (tid % 32 == 0) part[tid / 32] = acc;
    __syncthreads();
    if (lt == 0) {
      acc = 0.f;
      #pragma unroll
      for (int j = 0; j < WPR; ++j) acc += part[rl * WPR + j];
    }
  }
  if (lt == 0 && row < nrows) y[row] = acc;
}
template <int TPR, int PPT, int RPC>
__device__ void mmvq_rows(float* __restrict__ y, const char* __restrict__ w, const char* __restrict__ x, int nrows, int ncols){
  const int np = ncols / 64;     // block pairs a row (K a multiple of 64)
  const long rb = (long)np * 68;
  const int lt = threadIdx.x % TPR, row = blockIdx.x * RPC + threadIdx.x / TPR;
  const char* wr = w + (long)min(row, nrows - 1) * rb;
  float acc = 0.f;
  for (int p0 = 0; p0 < np; p0 += TPR * PPT) {
    unsigned v[PPT][20], xw[PPT][18], sel[PPT]; bool ok[PPT];
    #pragma unroll
    for (int i = 0; i < PPT; ++i) {
      const int p = p0 + lt + i * TPR, pc = min(p, np - 1);
      ok[i] = p < np;
      const unsigned long long a = (unsigned long long)(wr + 68L * pc);
      const char* base = (const char*)(a & ~15ull);
      sel[i] = (unsigned)(a >> 2) & 3;
      #pragma unroll
      for (int j = 0; j < 4; ++j) {
        uint4 t = ldg16(base + 16 * j);
        v[i][4 * j] = t.x; v[i][4 * j + 1] = t.y; v[i][4 * j + 2] = t.z; v[i][4 * j + 3] = t.w;
      }
      if (sel[i]) {
        uint4 t = ldg16(base + 64);
        v[i][16] = t.x; v[i][17] = t.y; v[i][18] = t.z; v[i][19] = t.w;
      } else {
        v[i][16] = ldg4(base + 64); v[i][17] = v[i][18] = v[i][19] = 0;
      }
      const uint2* xp = (const uint2*)(x + 72L * pc);
      #pragma unroll
      for (int j = 0; j < 9; ++j) { uint2 t = xp[j]; xw[i][2 * j] = t.x; xw[i][2 * j + 1] = t.y; }
    }
    #pragma unroll
    for (int i = 0; i < PPT; ++i) {
      unsigned s[18], t[17];
      #pragma unroll
      for (int k = 0; k < 18; ++k) s[k] = (sel[i] & 2) ? v[i][k + 2] : v[i][k];
      #pragma unroll
      for (int k = 0; k < 17; ++k) t[k] = (sel[i] & 1) ? s[k + 1] : s[k];
      int da = 0, db = 0;
      #pragma unroll
      for (int k = 0; k < 8; ++k) {
        da = dp4a((int)__funnelshift_r(t[k], t[k + 1], 16), (int)xw[i][1 + k], da);
        db = dp4a((int)t[9 + k], (int)xw[i][10 + k], db);
      }
      const float fa = h2f((half_t)(t[0] & 0xffff)) * h2f((half_t)(xw[i][0] & 0xffff));
      const float fb = h2f((half_t)(t[8] >> 16)) * h2f((half_t)(xw[i][9] & 0xffff));
      if (ok[i]) acc = fmaf(fb, (float)db, fmaf(fa, (float)da, acc));
    }
  }
  row_sum_store<TPR, RPC>(acc, y, row, nrows);
}
// The same programs with the kept kernel's lanes: a thread a 16-quant half
// of a block (its two aligned 16-byte windows, realigned), neighbouring
// lanes on neighbouring halves, so that a warp's load spans 544 bytes;
// S halves a thread a pass, all loaded before any math.
template <int TPR, int S, int RPC>
__device__ void mmvq_halves(float* __restrict__ y, const char* __restrict__ w, const char* __restrict__ x, int nrows, int ncols){
  const int nb = ncols / 32, nh = 2 * nb;
  const long rb = (long)nb * 34;
  const int lt = threadIdx.x % TPR, row = blockIdx.x * RPC + threadIdx.x / TPR;
  const char* wr = w + (long)min(row, nrows - 1) * rb;
  float acc = 0.f;
  for (int p0 = 0; p0 < nh; p0 += TPR * S) {
    uint4 win[S][2], xv[S][2]; unsigned addr[S], xaddr[S]; half_t d0[S], d1[S]; bool ok[S];
    #pragma unroll
    for (int i = 0; i < S; ++i) {
      const int hb = p0 + lt + i * TPR, hc = min(hb, nh - 1), b = hc >> 1, h = hc & 1;
      ok[i] = hb < nh;
      const unsigned long long a = (unsigned long long)(wr + 34L * b + 2 + 16 * h);
      addr[i] = (unsigned)a;
      win[i][0] = ldg16((const char*)(a & ~15ull)); win[i][1] = ldg16((const char*)((a + 15) & ~15ull));
      const unsigned long long xa = (unsigned long long)(x + 36L * b + 4 + 16 * h);
      xaddr[i] = (unsigned)xa;
      xv[i][0] = *(const uint4*)(xa & ~15ull); xv[i][1] = *(const uint4*)((xa + 15) & ~15ull);
      d0[i] = *(const half_t*)(wr + 34L * b); d1[i] = *(const half_t*)(x + 36L * b);
    }
    #pragma unroll
    for (int i = 0; i < S; ++i) {
      unsigned q[4], xq[4];
      realign(win[i][0], win[i][1], addr[i], q);
      realign(xv[i][0], xv[i][1], xaddr[i], xq);
      int t = 0;
      #pragma unroll
      for (int k = 0; k < 4; ++k) t = dp4a((int)q[k], (int)xq[k], t);
      if (ok[i]) acc = fmaf(h2f(d0[i]) * h2f(d1[i]), (float)t, acc);
    }
  }
  row_sum_store<TPR, RPC>(acc, y, row, nrows);
}
#define K(F, T, P, R) \
extern "C" __global__ void __launch_bounds__(T * R) F##_##T##_##P##_##R(float* y, const char* w, const char* x, int n, int k){ F<T, P, R>(y, w, x, n, k); }
'''
# (template, name: prefix and second letter, (threads a row, pairs or halves a thread a pass, rows a program))
FAMILIES = (("mmvq_rows", "tp", ((64, 1, 2), (32, 2, 4), (64, 1, 1), (32, 2, 2), (192, 1, 1), (96, 2, 1), (64, 3, 1),
                                 (64, 3, 2), (96, 2, 2), (192, 1, 2))),
            ("mmvq_halves", "hs", ((256, 1, 1), (128, 2, 1), (128, 2, 2), (704, 1, 1), (352, 2, 1), (256, 3, 1),
                                   (128, 1, 1), (64, 2, 2))))
SRC += "".join(f"K({f}, {t}, {p}, {r}) " for f, _, shapes in FAMILIES for t, p, r in shapes) + "\n"


def main():
    ptx_dir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
    mod = cupy.RawModule(code=SRC, options=("-std=c++17", "-arch=sm_90"))
    variants = {"mmvq": [(f"{tag[0]}{t}{tag[1]}{p}r{r}", mod.get_function(f"{f}_{t}_{p}_{r}"),
                          lambda N, r=r: cdiv(N, r), t * r)
                         for f, tag, shapes in FAMILIES for t, p, r in shapes]}
    matvec_probe_table(cupy, ptx_dir, variants)


if __name__ == "__main__":
    main()
