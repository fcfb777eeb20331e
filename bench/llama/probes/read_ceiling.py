#!/usr/bin/env python3
"""What a pure streaming read can reach on this GPU, at the mat-vec sizes.

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/probes/read_ceiling.py [--graph]

The q8_0 mat-vecs' targets are shares of a floor computed from the
device-to-device copy bandwidth; a mat-vec only reads. This times, with
bench.py's Timer (same rotation of inputs out of L2), hand-written CUDA
kernels that read N bytes as 16-byte loads and do nothing else with them
(an xor per block is stored so the loads stay), at the weight sizes of
4096x4096 and 11008x4096 q8_0 (17.8 and 47.9 MB) and a large 1 GiB read,
and an empty kernel (the fixed cost of one launch in this method).
Prints one Markdown table; also $OUT/read-ceiling[-graph].md when $OUT is
set, and the rows as CSV to --csv (default $OUT/read-ceiling[-graph].csv):
kernel "read" (shape: the bytes) or "read q8_0 weights" (shape: N×K, the
mat-vec's own patterns), the launch shape as the variant, as % of the copy
bandwidth's floor; kernel "empty", no ceiling.
"""
import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from bench import GB, CupyLauncher, Timer, cdiv, copy_bandwidth  # noqa: E402
import benchlib  # noqa: E402  (bench/common, put on the path by bench.py)

SOURCE = r"""
extern "C" __global__ void empty_kernel() {}

// Each thread reads UNROLL 16-byte words per pass, strided by the grid.
template <int UNROLL>
__device__ void read_words(const uint4 *__restrict__ p, long n, unsigned *out) {
  unsigned acc = 0;
  long stride = (long)gridDim.x * blockDim.x;
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldcs(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += stride) {
    uint4 v = __ldcs(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) out[blockIdx.x] = acc;  // keeps the loads
}
extern "C" __global__ void read_u1(const uint4 *p, long n, unsigned *out) { read_words<1>(p, n, out); }
extern "C" __global__ void read_u4(const uint4 *p, long n, unsigned *out) { read_words<4>(p, n, out); }

// The q8_0 weights of n_rows x n_cols as the kept mul_mat_vec_q reads them
// (4 rows x 32 blocks a K step, 128 threads, 2 rows a thread: the two
// aligned 16-byte windows holding each 16-quant run), nothing else done.
extern "C" __global__ void __launch_bounds__(128) read_mmvq_steps(const char *w, int nrows, int ncols, unsigned *out) {
  const int nb = ncols / 32, row0 = blockIdx.x * 4, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int b = (warp & 1) * 16 + lane / 2, h = lane & 1, r0 = (warp >> 1) * 2;
  const long rb = (long)nb * 34;
  unsigned acc = 0;
  for (int kb = 0; kb < nb; kb += 32) {
    uint4 v[4];
#pragma unroll
    for (int rr = 0; rr < 2; ++rr) {
      const int blk = min(kb + b, nb - 1), row = min(row0 + r0 + rr, nrows - 1);
      const unsigned long long a = (unsigned long long)(w + row * rb + 34L * blk + 2 + 16 * h);
      v[2 * rr] = __ldcs((const uint4 *)(a & ~15ull));
      v[2 * rr + 1] = __ldcs((const uint4 *)((a + 15) & ~15ull));
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) acc ^= v[i].x ^ v[i].y ^ v[i].z ^ v[i].w;
  }
  if (acc == 0x9e3779b9u) out[blockIdx.x] = acc;
}
// The same program's bytes (4 whole rows, contiguous) in address order:
// WORDS 16-byte words a thread a step, a step's words adjacent.
template <int WORDS>
__device__ void read_rows_in_order(const uint4 *w, int nrows, int ncols, unsigned *out) {
  const long rw = (long)ncols / 32 * 34 / 16;  // 16-byte words a row
  const long first = blockIdx.x * 4 * rw, last = min((long)(blockIdx.x + 1) * 4, (long)nrows) * rw;
  unsigned acc = 0;
  for (long s = first; s < last; s += WORDS * 128) {
    uint4 v[WORDS];
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      const long i = min(s + j * 128 + threadIdx.x, last - 1);
      v[j] = __ldcs(w + i);
    }
#pragma unroll
    for (int j = 0; j < WORDS; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  if (acc == 0x9e3779b9u) out[blockIdx.x] = acc;
}
extern "C" __global__ void __launch_bounds__(128) read_rows_w2(const uint4 *w, int n, int k, unsigned *out) { read_rows_in_order<2>(w, n, k, out); }
extern "C" __global__ void __launch_bounds__(128) read_rows_w4(const uint4 *w, int n, int k, unsigned *out) { read_rows_in_order<4>(w, n, k, out); }
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", action="store_true", help="time CUDA-graph replays (bench.py --graph)")
    ap.add_argument("--batches", type=int, default=15)
    ap.add_argument("--csv", default=None,
                    help="write the rows as CSV there (default: $OUT/read-ceiling[-graph].csv when $OUT is set)")
    a = ap.parse_args()
    import cupy

    mod = cupy.RawModule(code=SOURCE, options=("-std=c++17",))
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    l2 = getattr(props, "L2_cache_size", 50 * 2**20) or 50 * 2**20
    timer = Timer(a.batches, graph=a.graph)

    launcher = CupyLauncher(cupy)

    def launch(name, grid, block, args):
        launcher.launch(mod.get_function(name), (grid,), (block,), args)

    copy_bw = copy_bandwidth(timer)
    timing = "graph" if a.graph else "stream"
    run_csv = benchlib.ResultsCsv(
        "read-ceiling", benchlib.command_line(), f"{props.name} ({sms} SMs, L2 {l2 / 2**20:.0f} MiB)",
        ceiling=f"copy {copy_bw / GB:.1f} GB/s (torch device-to-device copy of 256 MiB, read + write, median); "
        "ceiling_us = bytes read / that bandwidth", timing=timing)

    rows = [f"- device: {props.name}, {sms} SMs; timing: {'CUDA graph' if a.graph else 'stream'} "
            f"(bench.py Timer); copy bandwidth {copy_bw / GB:.1f} GB/s", "",
            "| what | bytes | config | median µs | GB/s | % of copy |", "|---|---:|---|---:|---:|---:|"]
    for grid, block in ((1, 32), (1024, 128)):
        t = timer.time([lambda g=grid, b=block: launch("empty_kernel", g, b, ())])
        rows.append(f"| empty kernel | 0 | {grid}×{block} | {t.median:.2f} | – | – |")
        run_csv.add(kernel="empty", shape=f"{grid}×{block}", impl="cuda", timing=timing, median_us=t.median,
                    lo_us=t.lo, hi_us=t.hi, check="unchecked")
    out = torch.empty(1 << 20, dtype=torch.int32, device="cuda")

    def timed_row(what, nbytes, config, fns, kernel="read", shape=None):
        t = timer.time(fns)
        rows.append(f"| {what} | {nbytes} | {config} | {t.median:.2f} | "
                    f"{nbytes / (t.median * 1e-6) / GB:.1f} | {100 * nbytes / (t.median * 1e-6) / copy_bw:.1f}% |")
        run_csv.add(kernel=kernel, shape=shape or f"{nbytes} bytes", impl="cuda", variant=config, timing=timing,
                    median_us=t.median, lo_us=t.lo, hi_us=t.hi, ceiling="copy", ceiling_us=nbytes / copy_bw * 1e6,
                    throughput=nbytes / (t.median * 1e-6) / GB, unit="GB/s", check="unchecked")

    for nbytes in (4096 * 128 * 34, 11008 * 128 * 34, 1 << 30):
        words = nbytes // 16
        nsets = 1 if nbytes >= 4 * l2 else cdiv(4 * l2, nbytes)
        bufs = [torch.empty(words * 4, dtype=torch.int32, device="cuda").random_() for _ in range(nsets)]
        configs = [("read_u1", cdiv(words, 256), 256, "one word a thread"),
                   ("read_u4", cdiv(words, 4 * 256), 256, "4 words a thread"),
                   ("read_u4", sms * 8, 256, f"{sms}·8 blocks, 4 words/pass"),
                   ("read_u4", sms * 16, 256, f"{sms}·16 blocks, 4 words/pass")]
        for name, grid, block, what in configs:
            fns = [(lambda b=b, g=grid, n=name, bl=block: launch(n, g, bl, (np.uint64(b.data_ptr()), np.int64(words), np.uint64(out.data_ptr()))))
                   for b in bufs]
            timed_row("read", nbytes, f"{what} ({grid}×{block})", fns)
        del bufs
        torch.cuda.empty_cache()
    # The mat-vec's own access pattern: one program a group of 4 rows, as
    # the kept mul_mat_vec_q (N/4 programs of 128 threads).
    for N, K in ((4096, 4096), (11008, 4096), (4096, 11008)):
        nbytes = N * K // 32 * 34
        nsets = cdiv(4 * l2, nbytes)
        bufs = [torch.empty(nbytes // 4, dtype=torch.int32, device="cuda").random_() for _ in range(nsets)]
        for name, what in (("read_mmvq_steps", "mul_mat_vec_q's windows, K steps of 32 blocks"),
                           ("read_rows_w2", "the program's 4 rows in address order, 2 words a thread a step"),
                           ("read_rows_w4", "the program's 4 rows in address order, 4 words a thread a step")):
            fns = [(lambda b=b, n=name: launch(n, cdiv(N, 4), 128, (np.uint64(b.data_ptr()), np.int32(N), np.int32(K),
                                                                     np.uint64(out.data_ptr()))))
                   for b in bufs]
            timed_row(f"read {N}×{K} q8_0", nbytes, f"{what} ({cdiv(N, 4)}×128)", fns,
                      kernel="read q8_0 weights", shape=f"{N}×{K}")
        del bufs
        torch.cuda.empty_cache()
    text = "\n".join(rows) + "\n"
    print(text)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["OUT"]) / f"read-ceiling{'-graph' if a.graph else ''}.md").write_text(text)
    csv_path = Path(a.csv) if a.csv else benchlib.default_csv_path(f"read-ceiling{'-graph' if a.graph else ''}")
    if csv_path:
        print(f"CSV: {run_csv.write(csv_path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
