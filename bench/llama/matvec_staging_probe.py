#!/usr/bin/env python3
"""Probe: do the q8_0 mat-vecs lack memory-level parallelism within a program?

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/matvec_staging_probe.py [PTX_DIR]

Three hand-written forms of one program shape (4 rows x 32 blocks a K step,
128 threads, 2 rows a thread, 16 quants a thread from two aligned 16-byte
windows realigned with funnel shifts; dp4a for mul_mat_vec_q, prmt + fadd +
ffma for linear_q8_0), differing only in when a step's loads are issued:
  plain   - each row's loads follow the previous row's math (as
            mmvq_cluster_probe's CS = 1)
  hoisted - every load of the step first, then the math (as llk lowers it)
  staged  - the step's windows, vector words and scales copied by cp.async
            into a thread-private two-slot ring in shared memory: step k+1's
            copies are in flight while step k computes, without the
            registers a register double buffer costs (no barrier: each
            thread reads only what it copied)
beside the kept llk PTX and the seed-style mmvq, graph and stream timing.
"""
import sys

import cupy

sys.path.insert(0, "bench/llama")
from bench import PROBE_CUDA_PRELUDE, cdiv, matvec_probe_table  # noqa: E402

SRC = PROBE_CUDA_PRELUDE + r'''
__device__ __forceinline__ float half_of(unsigned word, unsigned addr){
  return h2f((half_t)((addr & 2) ? word >> 16 : word & 0xffff));
}
// .cg (L2 only) for the weights, read once; .ca for the vector, which every
// program on an SM reads (through L2 alone, all SMs would hammer the slices
// holding it).
template <bool L1 = false>
__device__ __forceinline__ void cp16(void* dst, const void* src, bool on){
  if (L1) asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" :: "r"(sa(dst)), "l"(src), "r"(on ? 16 : 0) : "memory");
  else asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(sa(dst)), "l"(src), "r"(on ? 16 : 0) : "memory");
}
__device__ __forceinline__ void cp4(void* dst, const void* src, bool on){
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(sa(dst)), "l"(src), "r"(on ? 4 : 0) : "memory");
}

// One step's operands of a thread, however they arrived.
struct Step { uint4 win[4]; uint4 xv[4]; unsigned xw[4]; unsigned dw[2]; unsigned xdw; };

template <bool LINEAR>
__device__ __forceinline__ void math(const Step& s, const unsigned addr[2], const unsigned daddr[2], bool ok[2], float acc[2]){
  #pragma unroll
  for (int rr = 0; rr < 2; ++rr) {
    if (!ok[rr]) continue;
    unsigned qw[4]; realign(s.win[2 * rr], s.win[2 * rr + 1], addr[rr], qw);
    float d = half_of(s.dw[rr], daddr[rr]);
    if (LINEAR) {
      const float* xf = (const float*)s.xv;
      float t = 0.f;
      #pragma unroll
      for (int i = 0; i < 16; ++i) t = fmaf(i8f(qw[i / 4], i % 4), xf[i], t);
      acc[rr] = fmaf(d, t, acc[rr]);
    } else {
      int t = 0;
      #pragma unroll
      for (int i = 0; i < 4; ++i) t = dp4a((int)qw[i], (int)s.xw[i], t);
      acc[rr] = fmaf(d * h2f((half_t)(s.xdw & 0xffff)), (float)t, acc[rr]);
    }
  }
}

template <int MODE, bool LINEAR>  // MODE 0 plain, 1 hoisted, 2 staged
__device__ void matvec(float* __restrict__ y, const char* __restrict__ w, const char* __restrict__ x, int nrows, int ncols){
  constexpr int N16 = LINEAR ? 8 : 4, N4 = LINEAR ? 2 : 7;  // 16- and 4-byte pieces a thread, a step
  __shared__ uint4 ring16[MODE == 2 ? 2 * N16 * 128 : 1];
  __shared__ unsigned ring4[MODE == 2 ? 2 * N4 * 128 : 1];
  __shared__ float wsum[4];
  const int nb = ncols / 32, rb = nb * 34, row0 = blockIdx.x * 4;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int b = (warp & 1) * 16 + lane / 2, h = lane & 1, r0 = (warp >> 1) * 2;
  const int steps = (nb + 31) / 32;
  float acc[2] = {0.f, 0.f};
  // The step's addresses: run start (realigned), its two windows, the scale's word.
  auto where = [&](int k, int rr, const char*& lo, const char*& hi, unsigned& addr, const char*& dword, unsigned& daddr, bool& ok) {
    int blk = k * 32 + b, row = row0 + r0 + rr;
    ok = blk < nb && row < nrows;
    const char* bp = w + (long)min(row, nrows - 1) * rb + 34L * min(blk, nb - 1);
    unsigned long long a = (unsigned long long)(bp + 2 + 16 * h);
    lo = (const char*)(a & ~15ull); hi = (const char*)((a + 15) & ~15ull); addr = (unsigned)a;
    dword = (const char*)((unsigned long long)bp & ~3ull); daddr = (unsigned)(unsigned long long)bp;
  };
  auto xat = [&](int k) { int blk = min(k * 32 + b, nb - 1); return LINEAR ? x + 4 * (32 * blk + 16 * h) : x + 36 * blk; };
  if (MODE < 2) {
    for (int k = 0; k < steps; ++k) {
      Step s; unsigned addr[2], daddr[2]; bool ok[2]; const char* xp = xat(k);
      if (LINEAR) for (int i = 0; i < 4; ++i) s.xv[i] = *(const uint4*)(xp + 16 * i);
      else { for (int i = 0; i < 4; ++i) s.xw[i] = *(const unsigned*)(xp + 4 + 16 * h + 4 * i); s.xdw = *(const unsigned*)xp; }
      if (MODE == 1) {
        #pragma unroll
        for (int rr = 0; rr < 2; ++rr) {
          const char *lo, *hi, *dp;
          where(k, rr, lo, hi, addr[rr], dp, daddr[rr], ok[rr]);
          s.win[2 * rr] = ldg16(lo); s.win[2 * rr + 1] = ldg16(hi); s.dw[rr] = *(const unsigned*)dp;
        }
        math<LINEAR>(s, addr, daddr, ok, acc);
      } else {
        #pragma unroll
        for (int rr = 0; rr < 2; ++rr) {
          const char *lo, *hi, *dp;
          where(k, rr, lo, hi, addr[rr], dp, daddr[rr], ok[rr]);
          if (!ok[rr]) continue;
          s.win[2 * rr] = ldg16(lo); s.win[2 * rr + 1] = ldg16(hi); s.dw[rr] = *(const unsigned*)dp;
          bool one[2] = {rr == 0, rr == 1};
          math<LINEAR>(s, addr, daddr, one, acc);
        }
      }
    }
  } else {
    auto slot16 = [&](int slot, int i) { return &ring16[(slot * N16 + i) * 128 + tid]; };
    auto slot4 = [&](int slot, int i) { return &ring4[(slot * N4 + i) * 128 + tid]; };
    auto issue = [&](int k) {
      int slot = k & 1; bool any = k * 32 + b < nb; const char* xp = xat(k);
      #pragma unroll
      for (int rr = 0; rr < 2; ++rr) {
        const char *lo, *hi, *dp; unsigned a, da; bool ok;
        where(k, rr, lo, hi, a, dp, da, ok);
        cp16(slot16(slot, 2 * rr), lo, ok); cp16(slot16(slot, 2 * rr + 1), hi, ok); cp4(slot4(slot, rr), dp, ok);
      }
      if (LINEAR) { for (int i = 0; i < 4; ++i) cp16<true>(slot16(slot, 4 + i), xp + 16 * i, any); }
      else { for (int i = 0; i < 4; ++i) cp4(slot4(slot, 2 + i), xp + 4 + 16 * h + 4 * i, any); cp4(slot4(slot, 6), xp, any); }
      asm volatile("cp.async.commit_group;" ::: "memory");
    };
    issue(0);
    for (int k = 0; k < steps; ++k) {
      if (k + 1 < steps) issue(k + 1); else asm volatile("cp.async.commit_group;" ::: "memory");
      asm volatile("cp.async.wait_group 1;" ::: "memory");
      int slot = k & 1; Step s; unsigned addr[2], daddr[2]; bool ok[2];
      #pragma unroll
      for (int rr = 0; rr < 2; ++rr) {
        const char *lo, *hi, *dp;
        where(k, rr, lo, hi, addr[rr], dp, daddr[rr], ok[rr]);
        s.win[2 * rr] = *slot16(slot, 2 * rr); s.win[2 * rr + 1] = *slot16(slot, 2 * rr + 1); s.dw[rr] = *slot4(slot, rr);
      }
      if (LINEAR) for (int i = 0; i < 4; ++i) s.xv[i] = *slot16(slot, 4 + i);
      else { for (int i = 0; i < 4; ++i) s.xw[i] = *slot4(slot, 2 + i); s.xdw = *slot4(slot, 6); }
      math<LINEAR>(s, addr, daddr, ok, acc);
    }
  }
  #pragma unroll
  for (int rr = 0; rr < 2; ++rr)
    for (int m = 16; m > 0; m >>= 1) acc[rr] += __shfl_xor_sync(0xffffffffu, acc[rr], m);
  if (lane == 0 && (warp & 1)) { wsum[r0] = acc[0]; wsum[r0 + 1] = acc[1]; }
  __syncthreads();
  if (lane == 0 && !(warp & 1))
    for (int rr = 0; rr < 2; ++rr)
      if (row0 + r0 + rr < nrows) y[row0 + r0 + rr] = acc[rr] + wsum[r0 + rr];
}
#define K(M) \
extern "C" __global__ void __launch_bounds__(128) mmvq_m##M(float* y, const char* w, const char* x, int n, int k){ matvec<M, false>(y, w, x, n, k); } \
extern "C" __global__ void __launch_bounds__(128) linear_m##M(float* y, const char* w, const char* x, int n, int k){ matvec<M, true>(y, w, x, n, k); }
'''
MODES = ("plain", "hoisted", "staged")
SRC += "".join(f"K({m}) " for m in range(len(MODES))) + "\n"


def main():
    ptx_dir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
    mod = cupy.RawModule(code=SRC, options=("-std=c++17", "-arch=sm_90"))
    variants = {kind: [(name, mod.get_function(f"{kind}_m{m}"), lambda N: cdiv(N, 4))
                       for m, name in enumerate(MODES)] for kind in ("mmvq", "linear")}
    matvec_probe_table(cupy, ptx_dir, variants)


if __name__ == "__main__":
    main()
