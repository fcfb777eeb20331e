#!/usr/bin/env python3
"""Probe: does splitting K over a thread-block cluster lift the q8_0 mat-vecs?

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/mmvq_cluster_probe.py [PTX_DIR]

The kept llk mat-vecs make 4-11 dependent K steps a program, one wave of
programs; a pure read of the same bytes (one 16-byte load a thread, a grid
of thousands of short blocks) makes none. Here the K range of a program's
rows is split over the CS programs of a cluster (`__cluster_dims__`): each
makes ceil(K/32/CS/32) steps of the kept kernel's tile (4 rows x 32 blocks,
128 threads: 2 threads a block, 16 quants each from two aligned 16-byte
loads realigned in registers, 2 rows a thread), sums its rows, and writes
them into rank 0's shared memory (mapa + st.shared::cluster); after one
cluster barrier rank 0 adds the CS parts in rank order and stores y.
mul_mat_vec_q (dp4a with q8_1) and linear_q8_0 (f32 x, prmt + fadd + ffma).
Checked against float64, timed in graph timing (and dependent-free stream
timing) beside the kept llk PTX and the seed-style kernels.
"""
import sys

import cupy

sys.path.insert(0, "bench/llama")
from bench import PROBE_CUDA_PRELUDE, cdiv, matvec_probe_table  # noqa: E402

SRC = PROBE_CUDA_PRELUDE + r'''
// 16 quants at p (2-byte aligned): the two aligned windows holding their
// first and last byte, realigned.
__device__ __forceinline__ void load16(const char* p, unsigned out[4]){
  unsigned long long a = (unsigned long long)p;
  realign(ldg16((const char*)(a & ~15ull)), ldg16((const char*)((a + 15) & ~15ull)), (unsigned)a, out);
}

template <int CS, bool LINEAR>
__device__ void matvec_cluster(float* __restrict__ y, const char* __restrict__ w, const char* __restrict__ x, int nrows, int ncols){
  __shared__ float parts[CS * 4];
  __shared__ float wsum[4];
  const int nb = ncols / 32, rb = nb * 34;
  unsigned rank; asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const int group = blockIdx.x / CS, row0 = group * 4;
  const int bpc = (nb + CS - 1) / CS, kb0 = rank * bpc, kb1 = min(nb, kb0 + bpc);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int b = (warp & 1) * 16 + lane / 2, h = lane & 1, r0 = (warp >> 1) * 2;
  float acc[2] = {0.f, 0.f};
  for (int kb = kb0; kb < kb1; kb += 32) {
    const int blk = kb + b;
    if (blk < kb1) {
      unsigned xw[4]; float xf[16]; float xd = 1.f;
      if (LINEAR) {
        const float4* xp = (const float4*)(x + 4 * (32 * blk + 16 * h));
        #pragma unroll
        for (int i = 0; i < 4; ++i) { float4 v = xp[i]; xf[4*i] = v.x; xf[4*i+1] = v.y; xf[4*i+2] = v.z; xf[4*i+3] = v.w; }
      } else {
        const unsigned* xp = (const unsigned*)(x + 36 * blk + 4 + 16 * h);
        #pragma unroll
        for (int i = 0; i < 4; ++i) xw[i] = xp[i];
        xd = h2f(*(const half_t*)(x + 36 * blk));
      }
      #pragma unroll
      for (int rr = 0; rr < 2; ++rr) {
        const int row = row0 + r0 + rr;
        if (row < nrows) {
          const char* bp = w + (long)row * rb + 34L * blk;
          unsigned qw[4]; load16(bp + 2 + 16 * h, qw);
          const float d = h2f(*(const half_t*)bp);
          if (LINEAR) {
            float s = 0.f;
            #pragma unroll
            for (int i = 0; i < 16; ++i) s = fmaf(i8f(qw[i / 4], i % 4), xf[i], s);
            acc[rr] = fmaf(d, s, acc[rr]);
          } else {
            int s = 0;
            #pragma unroll
            for (int i = 0; i < 4; ++i) s = dp4a((int)qw[i], (int)xw[i], s);
            acc[rr] = fmaf(d * xd, (float)s, acc[rr]);
          }
        }
      }
    }
  }
  #pragma unroll
  for (int rr = 0; rr < 2; ++rr)
    for (int m = 16; m > 0; m >>= 1) acc[rr] += __shfl_xor_sync(0xffffffffu, acc[rr], m);
  if (lane == 0 && (warp & 1)) { wsum[r0] = acc[0]; wsum[r0 + 1] = acc[1]; }
  __syncthreads();
  if (lane == 0 && !(warp & 1)) {
    #pragma unroll
    for (int rr = 0; rr < 2; ++rr) {
      float v = acc[rr] + wsum[r0 + rr];
      unsigned local = sa(&parts[rank * 4 + r0 + rr]), remote;
      asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(local));
      asm volatile("st.shared::cluster.f32 [%0], %1;" :: "r"(remote), "f"(v) : "memory");
    }
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (rank == 0 && tid < 4 && row0 + tid < nrows) {
    float v = 0.f;
    #pragma unroll
    for (int c = 0; c < CS; ++c) v += parts[c * 4 + tid];
    y[row0 + tid] = v;
  }
}
#define K(CS) \
extern "C" __global__ void __cluster_dims__(CS, 1, 1) __launch_bounds__(128) mmvq_c##CS(float* y, const char* w, const char* x, int n, int k){ matvec_cluster<CS, false>(y, w, x, n, k); } \
extern "C" __global__ void __cluster_dims__(CS, 1, 1) __launch_bounds__(128) linear_c##CS(float* y, const char* w, const char* x, int n, int k){ matvec_cluster<CS, true>(y, w, x, n, k); }
'''
CLUSTERS = (1, 2, 4, 8)
SRC += "".join(f"K({cs}) " for cs in CLUSTERS) + "\n"


def main():
    ptx_dir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
    mod = cupy.RawModule(code=SRC, options=("-std=c++17", "-arch=sm_90"))
    variants = {kind: [(f"cluster {cs}", mod.get_function(f"{kind}_c{cs}"), lambda N, cs=cs: cdiv(N, 4) * cs)
                       for cs in CLUSTERS] for kind in ("mmvq", "linear")}
    matvec_probe_table(cupy, ptx_dir, variants)


if __name__ == "__main__":
    main()
