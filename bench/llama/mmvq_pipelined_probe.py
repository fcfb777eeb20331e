#!/usr/bin/env python3
"""Probe: does a cp.async multistage pipeline lift mul_mat_vec_q to 1.5x the seed?

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/mmvq_pipelined_probe.py PTX_DIR

The kept llk kernel waits on DRAM once per K step (~4-11 dependent steps a
program); register prefetch and unrolling cost the registers that keep nine
programs on an SM. Here the weight rows and the q8_1 vector of each K step
are moved into shared memory with cp.async (16-byte chunks of the raw bytes:
no registers held while in flight), NS steps in flight, so that a program
asks DRAM for up to NS steps at once (with NS >= steps, all its bytes at
entry) and computes each step as it lands: 4 rows a program, one warp a
row, one q8_0 block a lane (realigned from shared memory with funnel
shifts), dp4a. Hand-written CUDA, checked against float64 and timed in
stream and graph timing beside the kept llk PTX (PTX_DIR/mul_mat_vec_q.ptx)
and the seed-style mmvq, with bench.py's Timer (weights rotated out of L2).
Needs K a multiple of 256 (rows of 16-byte chunks) and N of 4.
"""
import sys

import cupy
import numpy as np
import torch

sys.path.insert(0, "bench/llama")
from bench import (GB, PROBE_CUDA_PRELUDE, CupyLauncher, SeedModule, Timer, cdiv,  # noqa: E402
                   copy_bandwidth, probe_runner, random_mmvq_operands)

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
extern "C" __global__ void __launch_bounds__(128) mmvq_pipe2(const char* w, const char* x, float* y, int n, int k){ mmvq_pipe<2>(w, x, y, n, k); }
extern "C" __global__ void __launch_bounds__(128) mmvq_pipe3(const char* w, const char* x, float* y, int n, int k){ mmvq_pipe<3>(w, x, y, n, k); }
extern "C" __global__ void __launch_bounds__(128) mmvq_pipe4(const char* w, const char* x, float* y, int n, int k){ mmvq_pipe<4>(w, x, y, n, k); }
extern "C" __global__ void __launch_bounds__(128) mmvq_pipe6(const char* w, const char* x, float* y, int n, int k){ mmvq_pipe<6>(w, x, y, n, k); }
'''
STAGE_BYTES = 4 * 32 * 34 + 32 * 36


def main():
    ptx_dir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
    mod = cupy.RawModule(code=SRC, options=("-std=c++17",))
    pipes = {ns: mod.get_function(f"mmvq_pipe{ns}") for ns in (2, 3, 4, 6)}
    llk = cupy.RawModule(path=f"{ptx_dir}/mul_mat_vec_q.ptx").get_function("mul_mat_vec_q") if ptx_dir else None
    seed_mod = SeedModule(cupy, "sm_90")
    L = CupyLauncher(cupy)
    P = lambda t: np.uint64(t.data_ptr())
    shapes = ((4096, 4096), (11008, 4096), (4096, 11008))
    operands = {(N, K): random_mmvq_operands(N, K, N + K) for N, K in shapes}  # both timings use them
    for graph in (False, True):
        timer = Timer(11, graph=graph)
        copy_bw = copy_bandwidth(timer)
        print(f"== {'graph' if graph else 'stream'} timing, copy {copy_bw / GB:.1f} GB/s")
        for N, K in shapes:
            nb = K // 32
            wb, xb, ref = operands[(N, K)]
            floor = (N * nb * 34 + nb * 36 + N * 4) / copy_bw * 1e6
            y = torch.empty(N, device="cuda")
            rows = []
            run = probe_runner(timer, wb, ref, y, rows)

            seed = seed_mod["mul_mat_vec_q8_0_q8_1"]
            run("seed", lambda s: L.launch(seed, (1, N, 1), (32, 1, 1), [P(s), P(xb), P(y), np.int32(K), np.int32(N)]))
            if llk is not None:
                run("llk kept", lambda s: L.launch(llk, (cdiv(N, 4),), (128,), [P(y), P(s), P(xb), np.int32(N), np.int32(K)]))
            for ns, fn in pipes.items():
                smem = ns * STAGE_BYTES
                fn.max_dynamic_shared_size_bytes = smem
                run(f"pipe NS={ns}", lambda s, fn=fn, smem=smem: L.launch(
                    fn, (cdiv(N, 4),), (128,), [P(s), P(xb), P(y), np.int32(N), np.int32(K)], smem))
            t_seed = rows[0][1]
            print(f"[{N}x{K}] floor {floor:.2f} us; 1.5x the seed needs {t_seed / 1.5:.2f} us")
            for name, t, err in rows:
                ok = "PASS" if err < 1e-4 else "FAIL"
                print(f"  {name:12s} {t:7.2f} us {100 * floor / t:5.1f}% of floor  {t_seed / t:4.2f}x seed  err {err:.1e} {ok}")


if __name__ == "__main__":
    main()
