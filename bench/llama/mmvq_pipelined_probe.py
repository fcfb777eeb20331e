#!/usr/bin/env python3
"""Probe: does a cp.async multistage pipeline lift mul_mat_vec_q to 1.5x the seed?

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/mmvq_pipelined_probe.py [PTX_DIR]

The kept llk kernel waits on DRAM once per K step (~4-11 dependent steps a
program); register prefetch and unrolling cost the registers that keep nine
programs on an SM. Here the weight rows and the q8_1 vector of each K step
are moved into shared memory with cp.async (16-byte chunks of the raw bytes:
no registers held while in flight), NS steps in flight, so that a program
asks DRAM for up to NS steps at once (with NS >= steps, all its bytes at
entry) and computes each step as it lands: 4 rows a program, one warp a
row, one q8_0 block a lane (realigned from shared memory with funnel
shifts), dp4a. Hand-written CUDA, checked against float64 and timed in
graph and stream timing beside the kept llk PTX (PTX_DIR/mul_mat_vec_q.ptx)
and the seed-style mmvq, through bench.py's matvec_probe_table.
Needs K a multiple of 256 (rows of 16-byte chunks) and N of 4.
"""
import sys

import cupy

sys.path.insert(0, "bench/llama")
from bench import PROBE_CUDA_PRELUDE, cdiv, matvec_probe_table  # noqa: E402

SRC = PROBE_CUDA_PRELUDE + r'''
#define R 4      // rows a program, one warp each
#define BS 32    // blocks a step, one a lane
template <int NS>
__device__ void mmvq_pipe(const char* __restrict__ w, const char* __restrict__ xq, float* __restrict__ y, int nrows, int ncols){
  extern __shared__ __align__(16) char sm[];
  const int nb = ncols / 32, rb = nb * 34, row0 = blockIdx.x * R;
  const int nsteps = (nb + BS - 1) / BS;
  const int wbytes = R * BS * 34, stage = wbytes + BS * 36;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  auto issue = [&](int k, int s) {
    char* dst = sm + s * stage;
    int b0 = k * BS, nblk = min(BS, nb - b0);
    int wch = nblk * 34 / 16, xch = nblk * 36 / 16, total = R * wch + xch;
    for (int c = tid; c < total; c += R * 32) {
      const char* src; char* d;
      if (c < R * wch) {
        int r = c / wch, i = c - r * wch;
        src = w + (long)(row0 + r) * rb + (long)b0 * 34 + 16 * i; d = dst + r * BS * 34 + 16 * i;
      } else {
        int i = c - R * wch;
        src = xq + (long)b0 * 36 + 16 * i; d = dst + wbytes + 16 * i;
      }
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa(d)), "l"(src) : "memory");
    }
  };
  #pragma unroll
  for (int s = 0; s < NS; ++s) { if (s < nsteps) issue(s, s); asm volatile("cp.async.commit_group;" ::: "memory"); }
  float acc = 0.f;
  for (int k = 0; k < nsteps; ++k) {
    asm volatile("cp.async.wait_group %0;" :: "n"(NS - 1) : "memory");
    __syncthreads();
    const char* slot = sm + (k % NS) * stage;
    if (k * BS + lane < nb) {
      const char* blk = slot + warp * BS * 34 + lane * 34;
      const char* xb = slot + wbytes + lane * 36;
      unsigned qa = sa(blk + 2), base = qa & ~3u, sh = (qa & 3u) * 8;
      unsigned wd[9];
      #pragma unroll
      for (int i = 0; i < 9; ++i) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(wd[i]) : "r"(base + 4 * i));
      const int* xw = (const int*)(xb + 4);
      int sumi = 0;
      #pragma unroll
      for (int i = 0; i < 8; ++i) sumi = dp4a((int)__funnelshift_r(wd[i], wd[i + 1], sh), xw[i], sumi);
      acc += h2f(*(const half_t*)blk) * h2f(*(const half_t*)xb) * (float)sumi;
    }
    if (k + NS < nsteps) {
      __syncthreads();   // every warp is done with this slot
      issue(k + NS, k % NS);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  for (int m = 16; m > 0; m >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, m);
  if (lane == 0 && row0 + warp < nrows) y[row0 + warp] = acc;
}
'''
STAGE_BYTES = 4 * 32 * 34 + 32 * 36
STAGES = (2, 3, 4, 6)
SRC += "".join(
    f'extern "C" __global__ void __launch_bounds__(128) mmvq_pipe{ns}(float* y, const char* w, const char* x, int n, int k)'
    f'{{ mmvq_pipe<{ns}>(w, x, y, n, k); }}\n' for ns in STAGES)


def main():
    ptx_dir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
    mod = cupy.RawModule(code=SRC, options=("-std=c++17",))
    variants = {"mmvq": [(f"pipe NS={ns}", mod.get_function(f"mmvq_pipe{ns}"), lambda N: cdiv(N, 4), 128,
                          ns * STAGE_BYTES) for ns in STAGES]}
    matvec_probe_table(cupy, ptx_dir, variants)


if __name__ == "__main__":
    main()
