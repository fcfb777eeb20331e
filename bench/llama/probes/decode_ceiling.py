#!/usr/bin/env python3
"""The best a decode step of llk-llama's launch structure can do on this GPU.

Runs ON THE GPU MACHINE (torch, cupy), from the repo root:

    python3 bench/llama/probes/decode_ceiling.py [--shape 7b] [--llk-csv PATH]

llk-llama's decode step (docs/llama.md) is one CUDA graph of dependent
launches: for a Llama-2 7B of q8_0 matrices 165 of them (the embedding, the
first norm, 5 a layer, the LM head, two top-k), each reading its weights (and
the attention its layer's K and V) once. This replays graphs of hand-written
CUDA kernels (CuPy RawModule) that do nothing but read those bytes (16-byte
loads, an xor kept alive), in these launch structures:

  mirror          the step's launches: each reads the bytes of its llk
                  counterpart, on its grid and block (program b reads the
                  b-th share), its first lines prefetched into L2 before it
                  waits for the launch before it (griddepcontrol.wait), as
                  the llk kernels do; programmatic dependent launches
  mirror, no PDL  the same as plain launches (the graph's full serialization)
  mirror, no wait the same with PDL but without the wait: launches overlap
                  freely (no dependency kept: what PDL's bubble costs)
  strided         the step's launches and bytes, each read by a grid-stride
                  loop of SMs x 8 programs of 256 threads (the fastest pure
                  read of read_ceiling.py), PDL
  a layer a launch all of a layer's bytes (weights, norms, K and V) in one
                  strided launch, the rest of the step in one more, PDL
  one launch      the whole step's bytes in one strided launch

each at context 512 and 4096 (the K and V of 544 and 4064 cached tokens: the
middle of model_bench.py's 64 decode steps), as time per step beside the
step's bandwidth floor (its bytes over the device-to-device copy bandwidth
measured in the same run), with llk-llama's own step from model_bench.py's
CSV (--llk-csv) beside them. The table goes to stdout and
$OUT/decode-ceiling.md, the rows to --csv (default $OUT/decode-ceiling.csv).

--dry-run (no GPU) prints each variant's launches and bytes instead: the
plan's launch count and weight bytes are llk-llama's (test/Llama/
decode-ceiling.test compares them with llk-llama --bench on the interpreter).
"""
import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common"))

import benchlib  # noqa: E402
from model_bench import SHAPES, q8_bytes  # noqa: E402

SOURCE = r"""
// Reads words [begin, end) of p with the block's threads, 4 a pass.
__device__ __forceinline__ unsigned read_range(const uint4 *__restrict__ p, long begin, long end,
                                               long step) {
  unsigned acc = 0;
  long i = begin;
  for (; i + 3 * step < end; i += 4 * step) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldcs(p + i + u * step);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < end; i += step) {
    uint4 v = __ldcs(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  return acc;
}

// One launch of the step: program b (blockIdx.x + gridDim.x * blockIdx.y)
// reads the b-th `per_program` words, as the kernel it stands for reads its
// rows; its first line goes into L2 before it waits for the launch before it.
template <bool WAIT>
__device__ void read_share(const uint4 *p, long words, long per_program, unsigned *out) {
  asm volatile("griddepcontrol.launch_dependents;");
  const long prog = blockIdx.x + (long)gridDim.x * blockIdx.y;
  const long begin = min(prog * per_program, words), end = min(begin + per_program, words);
  if (begin + threadIdx.x < end)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p + begin + threadIdx.x));
  if (WAIT)
    asm volatile("griddepcontrol.wait;" ::: "memory");
  unsigned acc = read_range(p, begin + threadIdx.x, end, blockDim.x);
  if (acc == 0x9e3779b9u) out[prog & 0xffff] = acc;  // keeps the loads
}
extern "C" __global__ void read_share_wait(const uint4 *p, long words, long per_program, unsigned *out) {
  read_share<true>(p, words, per_program, out);
}
extern "C" __global__ void read_share_nowait(const uint4 *p, long words, long per_program, unsigned *out) {
  read_share<false>(p, words, per_program, out);
}

// The same bytes by a grid-stride loop over all the launch's words.
extern "C" __global__ void read_strided(const uint4 *p, long words, unsigned *out) {
  asm volatile("griddepcontrol.launch_dependents;");
  const long first = (long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long)gridDim.x * blockDim.x;
  if (first < words)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p + first));
  asm volatile("griddepcontrol.wait;" ::: "memory");
  unsigned acc = read_range(p, first, words, stride);
  if (acc == 0x9e3779b9u) out[blockIdx.x & 0xffff] = acc;
}
"""

ALIGN = 256  # each launch's bytes start 256-byte aligned, as allocations do


def cdiv(a, b):
    return -(-a // b)


def pow2_ceil(v):
    p = 1
    while p < v:
        p <<= 1
    return p


@dataclass
class Read:
    """One launch of the step: what it stands for, the bytes it reads (the
    weights and K/V of the floor: activations are not counted), its grid and
    threads a program, and the layer whose launch it joins when a layer's
    bytes are read by one (-1: the rest, after the last layer)."""
    name: str
    nbytes: int
    grid: tuple
    threads: int
    layer: int = -1
    weight: bool = True  # weight bytes (else the KV cache's)


def step_plan(shape, ctx, n_kv):
    """llk-llama's fused decode step (Engine.cpp: buildStep, addFusedLayer)
    for a model of `shape` whose matrices are all q8_0, context capacity
    `ctx` (rounded to 16 as the engine does) and n_kv cached tokens."""
    s = SHAPES[shape]
    H, F, NH, V, L = s["embd"], s["ff"], s["heads"], s["vocab"], s["layers"]
    D = H // NH
    nkv = D * s["kv_heads"]
    W = H + 2 * nkv
    ctx = max(16, cdiv(ctx, 16) * 16)
    chunks = min(max(ctx // 64, 1), 16)
    topk_blocks = cdiv(V, min(1024, pow2_ceil(V)))
    blocks = min(32, pow2_ceil(H // 32))
    norm = 4 * H  # an f32 gamma
    reads = [Read("token embedding", q8_bytes(1, H), (cdiv(H, 32 * blocks), 1), 128, 0),
             Read("layer 0 attn_norm", norm, (1, 1), 32 * min(max(pow2_ceil(H // 32) // 16, 1), 8), 0)]
    for layer in range(L):
        at = f"layer {layer} "
        reads += [
            Read(at + "qkv + rope + KV append", q8_bytes(W, H), (cdiv(W, 4), 1), 128, layer),
            Read(at + "attention", 2 * 2 * n_kv * nkv, (chunks, NH), 256, layer, weight=False),
            # The residual kernels' last program reads the next norm's gamma.
            Read(at + "o + residual + ffn_norm", q8_bytes(H, H) + norm, (cdiv(H, 8), 1), 128, layer),
            Read(at + "gate, up + swiglu", 2 * q8_bytes(F, H), (cdiv(F, 4), 1), 128, layer),
            Read(at + "down + residual + next norm", q8_bytes(H, F) + norm, (cdiv(H, 8), 1), 128, layer),
        ]
    reads += [Read("output", q8_bytes(V, H), (cdiv(V, 4), 1), 128),
              Read("top-k", 0, (topk_blocks, 1), 128),
              Read("top-k merge", 0, (1, 1), 128)]
    return reads


def merged(reads, by_layer):
    """The reads of each layer (and the rest) as one launch each, or all of
    them as one: (name, bytes, index of the first read); the reads of a
    group are adjacent."""
    if not by_layer:
        return [("the whole step", sum(r.nbytes for r in reads), 0)]
    out = []
    for i, r in enumerate(reads):
        key = f"layer {r.layer}" if r.layer >= 0 else "the rest"
        if out and out[-1][0] == key:
            out[-1] = (key, out[-1][1] + r.nbytes, out[-1][2])
        else:
            out.append((key, r.nbytes, i))
    return out


VARIANTS = ("mirror", "mirror, no PDL", "mirror, no wait", "strided", "a layer a launch", "one launch")

# The runs: (label, context capacity, cached tokens at the middle of the
# decode steps) as model_bench.py's runs with -n 64: a 512-token prompt
# (positions 512-575) and a 4032-token one (4032-4095).
RUNS = (("ctx 512", 576, 544), ("ctx 4096", 4096, 4064))


def variant_launches(variant, reads):
    if variant in ("a layer a launch", "one launch"):
        return len(merged(reads, variant == "a layer a launch"))
    return len(reads)


def dry_run(a):
    for label, ctx, n_kv in ((f"ctx {a.ctx}", a.ctx, a.n_kv),) if a.ctx else RUNS:
        reads = step_plan(a.shape, ctx, n_kv)
        weights = sum(r.nbytes for r in reads if r.weight)
        kv = sum(r.nbytes for r in reads if not r.weight)
        print(f"plan: shape={a.shape} {label} n_kv={n_kv} launches={len(reads)} "
              f"weight_bytes={weights} kv_bytes={kv}")
        for v in VARIANTS:
            print(f"  {v}: {variant_launches(v, reads)} launches")
    return 0


def llk_rows(path, shape):
    """llk-llama's decode rows of `shape` in model_bench.py's CSV: label ->
    (µs a step, its floor µs)."""
    if not path or not Path(path).exists():
        return {}
    _, rows = benchlib.read(path)
    out = {}
    for r in rows:
        if r["kernel"] == "decode" and r["impl"] == "llk" and r["shape"].startswith(shape + " "):
            out[r["shape"][len(shape) + 1:]] = (r["median_us"], r["ceiling_us"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shape", default="7b", choices=sorted(SHAPES))
    ap.add_argument("--llk-csv", default="", help="model_bench.py's CSV: llk-llama's step beside the ceilings")
    ap.add_argument("--batches", type=int, default=15)
    ap.add_argument("--csv", default="", help="results CSV (default: $OUT/decode-ceiling.csv)")
    ap.add_argument("--dry-run", action="store_true", help="print the launch plans; no GPU")
    ap.add_argument("--ctx", type=int, default=0, help="with --dry-run: one run at this capacity")
    ap.add_argument("--n-kv", type=int, default=0, help="with --ctx: the cached tokens")
    a = ap.parse_args()
    if a.dry_run:
        return dry_run(a)

    import numpy as np
    import torch
    import cupy
    from bench import GB, CupyLauncher, Timer, copy_bandwidth

    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    mod = cupy.RawModule(code=SOURCE, options=("-std=c++17",))
    launcher = CupyLauncher(cupy)
    timer = Timer(a.batches, graph=True)
    copy_bw = copy_bandwidth(timer)
    sink = torch.empty(1 << 16, dtype=torch.int32, device="cuda")
    sink_ptr = np.uint64(sink.data_ptr())
    llk = llk_rows(a.llk_csv, a.shape)

    results = benchlib.ResultsCsv(
        "decode-ceiling", benchlib.command_line(), f"{props.name} ({sms} SMs)",
        ceiling=f"copy {copy_bw / GB:.1f} GB/s (torch device-to-device copy of 256 MiB, read + write, "
                "median); ceiling_us = the step's weight and KV bytes / that bandwidth",
        timing="CUDA graph replays of one step's launches (bench.py Timer)")
    lines = [f"- {props.name}, {sms} SMs; copy bandwidth {copy_bw / GB:.1f} GB/s; {a.shape} shape", "",
             "| run | variant | launches | µs/step | floor µs | % of floor |", "|---|---|---:|---:|---:|---:|"]

    def row(label, variant, launches, us, floor_us, notes=""):
        pct = 100 * floor_us / us if us else None
        lines.append(f"| {label} | {variant} | {launches} | {us:.1f} | {floor_us:.1f} | "
                     f"{pct:.1f} |" if us else f"| {label} | {variant} | {launches} | - | {floor_us:.1f} | - |")
        results.add(kernel="decode step", shape=f"{a.shape} {label}", impl="llk-llama" if variant == "llk-llama"
                    else "cuda read", variant=variant, timing="graph-dependent", median_us=us, ceiling="copy",
                    ceiling_us=floor_us, throughput=1e6 / us if us else None, unit="tok/s",
                    check="unchecked", notes=notes)

    for label, ctx, n_kv in RUNS:
        reads = step_plan(a.shape, ctx, n_kv)
        offsets, total = [], 0
        for r in reads:
            offsets.append(total)
            total += cdiv(r.nbytes, ALIGN) * ALIGN
        step_bytes = sum(r.nbytes for r in reads)
        floor_us = step_bytes / copy_bw * 1e6
        buf = torch.empty(total, dtype=torch.uint8, device="cuda")
        base = buf.data_ptr()

        def strided(offset, nbytes, dependent=True):
            words = nbytes // 16
            grid = max(1, min(sms * 8, cdiv(words, 256 * 4)))
            return launcher.bind(mod.get_function("read_strided"), (grid, 1, 1), (256, 1, 1),
                                 (np.uint64(base + offset), np.int64(words), sink_ptr), dependent=dependent)

        for variant in VARIANTS:
            fns = []
            if variant.startswith("mirror"):
                fn = mod.get_function("read_share_nowait" if variant == "mirror, no wait" else "read_share_wait")
                for r, off in zip(reads, offsets):
                    words = r.nbytes // 16
                    programs = r.grid[0] * r.grid[1]
                    fns.append(launcher.bind(fn, (r.grid[0], r.grid[1], 1), (r.threads, 1, 1),
                                             (np.uint64(base + off), np.int64(words),
                                              np.int64(cdiv(words, programs)), sink_ptr),
                                             dependent=variant != "mirror, no PDL"))
            elif variant == "strided":
                fns = [strided(off, r.nbytes) for r, off in zip(reads, offsets)]
            else:
                groups = merged(reads, variant == "a layer a launch")
                for i, (_, _, first) in enumerate(groups):
                    end = offsets[groups[i + 1][2]] if i + 1 < len(groups) else total
                    fns.append(strided(offsets[first], end - offsets[first]))

            def step(fns=fns):
                for f in fns:
                    f()
            t = timer.time([step])
            row(label, variant, len(fns), t.median, floor_us)
            print(f"{label} {variant}: {t.median:.1f} us a step ({100 * floor_us / t.median:.1f}% of floor)",
                  file=sys.stderr, flush=True)
        # model_bench.py's rows of this context (one a --decode-shapes shape).
        for theirs, (us, their_floor) in llk.items():
            if theirs != label and not theirs.startswith(label + " shape "):
                continue
            variant = "llk-llama" + theirs[len(label):]
            row(label, variant, len(reads), us, floor_us,
                notes=f"model_bench.py's row (its floor {their_floor:.1f} µs at llk-llama's copy bandwidth)")
        del buf
        torch.cuda.empty_cache()

    table = "\n".join(lines) + "\n"
    print(table)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["OUT"]) / "decode-ceiling.md").write_text(table)
    csv_path = Path(a.csv) if a.csv else benchlib.default_csv_path("decode-ceiling")
    if csv_path:
        print(f"CSV: {results.write(csv_path)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
