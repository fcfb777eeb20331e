#!/usr/bin/env python3
"""Whole-model Llama benchmark (issue 26): llk-llama on GGUF files with random
q8_0 weights shaped like TinyLlama-1.1B, Llama-2-7B and Llama-2-13B,
generated here with `llk-gguf make-random` (never committed).

For each shape, two runs of `llk-llama --bench --greedy`, with a random
prompt of BOS and random tokens:

  ctx 512:  a 512-token prompt (prompt tok/s: from the first prompt token to
            the last one's logits; model load and JIT excluded), then
            -n decode steps at positions 512, 513, ... (decode tok/s)
  ctx 4096: a prompt of 4096 - n tokens, then n decode steps ending at 4096

Each decode time is shown beside
  - its bandwidth floor: (the weights a step reads + the K and V of the
    cached tokens, at the middle of the decode steps) / the device-to-device
    copy bandwidth llk-llama measures in the same run;
  - the ggml estimate: the issue's H100 ggml kernel times summed over the
    model's ops, each scaled by the bytes (mat-vecs, attention, norms) or
    FLOPs (the prompt's GEMMs and flash attention) of this shape. Ops the
    issue gives no time for (rope, adds, SiLU, quantization, copies) count 0,
    so the estimate is optimistic.

Rows go to a results CSV (bench/README.md; default $OUT/llama-model.csv when
$OUT is set) and a Markdown table to stdout (and $OUT/llama-model.md).

    python3 bench/llama/model_bench.py --bin DIR --kernels DIR [--shapes tinyllama,7b,13b]
        [--work DIR] [--keep] [-n 64] [--csv PATH] [--profile]
        [--decode-shapes 4,4,8,64/8,8,4,32/...]

--decode-shapes: the runs once for each of the fused decode kernels' program
shapes (llk-llama --decode-shape Q,S,R,C; rows a program of the Q/K/V,
gate/up and residual mat-vecs, the norm's q8_1 blocks a pass), rows marked
with the shape: several variants timed in one GPU call. --profile: each run
ends with llk-llama --profile, the step's kernel families timed one by one
(µs, bytes, GB/s); the tables go to stderr and $OUT/llama-profile.md.

On the CPU (CI) the same script runs the tiny model on the interpreter:
    LLK_BACKEND=interpreter python3 bench/llama/model_bench.py --shapes tiny --prompt 8 \\
        --long-context 16 -n 3 ...
"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
import benchlib  # noqa: E402

# The ggml figures on the H100 (microseconds; TFLOP/s).
GGML_MATVEC_US = {  # q8_0 mat-vec, (rows N, columns K)
    "attn": ((4096, 4096), 7.87),    # q, k, v, o
    "up": ((11008, 4096), 20.15),    # gate, up
    "down": ((4096, 11008), 22.25),
    "output": ((32000, 4096), 52.2),  # the LM head
}
GGML_RMS_NORM_US = ((16384, 4096), 201.0)
GGML_ATTN_DECODE_US = ((4096, 32 * 128), 28.8)  # a 4096-token f16 cache, one layer
GGML_GEMM_TFLOPS = 184.0      # prefill q8_0 GEMM 512x4096x4096
GGML_FLASH_ATTN_TFLOPS = 63.0  # 512 queries over 4096 keys

# Llama shapes (llama/lib/RandomModel.cpp: configFor).
SHAPES = {
    "tiny": dict(layers=2, embd=64, heads=4, kv_heads=2, ff=160, vocab=384),
    "tinyllama": dict(layers=22, embd=2048, heads=32, kv_heads=4, ff=5632, vocab=32000),
    "7b": dict(layers=32, embd=4096, heads=32, kv_heads=32, ff=11008, vocab=32000),
    "13b": dict(layers=40, embd=5120, heads=40, kv_heads=40, ff=13824, vocab=32000),
}


def q8_bytes(n, k):
    return n * k // 32 * 34


def ggml_decode_us(s, n_kv):
    """Per-token decode time from the ggml figures, each op scaled by bytes."""
    h, f, kv = s["embd"], s["ff"], s["embd"] // s["heads"] * s["kv_heads"]

    def matvec(role, n, k):
        (rn, rk), us = GGML_MATVEC_US[role]
        return us * q8_bytes(n, k) / q8_bytes(rn, rk)

    (nr, nc), norm_us = GGML_RMS_NORM_US
    norm = norm_us * h / (nr * nc)
    (ref_kv, ref_width), attn_us = GGML_ATTN_DECODE_US
    attn = attn_us * (n_kv * kv) / (ref_kv * ref_width)
    layer = (2 * matvec("attn", h, h) + 2 * matvec("attn", kv, h) + 2 * matvec("up", f, h)
             + matvec("down", h, f) + attn + 2 * norm)
    return s["layers"] * layer + norm + matvec("output", s["vocab"], h)


def prompt_flops(s, tokens):
    """(GEMM FLOPs, causal attention FLOPs) of a prompt from an empty cache."""
    h, f, d = s["embd"], s["ff"], s["embd"] // s["heads"]
    kv = d * s["kv_heads"]
    gemm = 2 * tokens * (2 * h * h + 2 * kv * h + 3 * f * h) * s["layers"]
    # QK^T and PV over the causal triangle: sum_t (t + 1) keys.
    attn = 4 * d * s["heads"] * tokens * (tokens + 1) / 2 * s["layers"]
    return gemm, attn


def ggml_prompt_us(s, tokens):
    gemm, attn = prompt_flops(s, tokens)
    (nr, nc), norm_us = GGML_RMS_NORM_US
    norms = (2 * s["layers"] + 1) * norm_us * tokens * s["embd"] / (nr * nc)
    # llama.cpp computes the logits of the last token only: one LM-head mat-vec.
    (rn, rk), head_us = GGML_MATVEC_US["output"]
    head = head_us * q8_bytes(s["vocab"], s["embd"]) / q8_bytes(rn, rk)
    return (gemm / (GGML_GEMM_TFLOPS * 1e12) + attn / (GGML_FLASH_ATTN_TFLOPS * 1e12)) * 1e6 \
        + norms + head


BENCH_LINE = re.compile(r"^bench: (.*)$", re.M)


def run_llama(args, model, prompt, n, ctx, log, decode_shape=None, profile=None):
    cmd = [str(Path(args.bin) / "llk-llama"), "-m", str(model), "--bench", "--greedy",
           "--bench-prompt", str(prompt), "-n", str(n), "--ctx", str(ctx)]
    if args.kernels:
        cmd += ["--kernels", args.kernels]
    if decode_shape:
        cmd += ["--decode-shape", decode_shape]
    if profile is not None:
        cmd += ["--profile"]
    log("$ " + " ".join(cmd))
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    log(p.stderr.rstrip())
    if p.returncode != 0:
        raise RuntimeError(f"llk-llama failed ({p.returncode})")
    m = BENCH_LINE.search(p.stdout)
    if not m:
        raise RuntimeError("no bench line in llk-llama's output")
    fields = dict(kv.split("=", 1) for kv in m.group(1).split())
    log(f"  ({time.time() - t0:.1f} s)")
    if profile is not None:
        table = [line[len("profile: "):] for line in p.stdout.splitlines()
                 if line.startswith("profile: ")]
        log("\n".join(table))
        profile.append("\n".join(table))
    return {k: float(v) for k, v in fields.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(benchlib.REPO / "build" / "bin"),
                    help="where llk-llama and llk-gguf are")
    ap.add_argument("--kernels", default="", help="kernel sources (llk-llama --kernels)")
    ap.add_argument("--shapes", default="tinyllama,7b,13b")
    ap.add_argument("--work", default="", help="where the GGUF files go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the GGUF files")
    ap.add_argument("-n", type=int, default=64, help="decode steps a run")
    ap.add_argument("--prompt", type=int, default=512, help="the short run's prompt")
    ap.add_argument("--long-context", type=int, default=4096, help="the long run's context")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", default="", help="results CSV (default: $OUT/llama-model.csv)")
    ap.add_argument("--decode-shapes", default="",
                    help="'/'-separated llk-llama --decode-shape values, each timed (default: the kept one)")
    ap.add_argument("--profile", action="store_true",
                    help="end each run with llk-llama --profile (per-kernel times)")
    ap.add_argument("--check", action="store_true",
                    help="first run llk-llama-engine-tests on each generated model "
                         "(the TinyLlama shape only: the float64 reference needs its weights in memory)")
    a = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    import tempfile
    work = Path(a.work) if a.work else Path(tempfile.mkdtemp(prefix="llk-model-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    backend = os.environ.get("LLK_BACKEND", "cuda") or "cuda"
    gpu = "llk interpreter (host)" if backend == "interpreter" else "unknown GPU"
    if backend != "interpreter":
        try:
            gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                 capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            pass
    date = benchlib.now()
    rows, copy_bw, profiles = [], None, []
    failed = False
    for shape in a.shapes.split(","):
        s = SHAPES[shape]
        model = work / f"random-{shape}.gguf"
        if not model.exists():
            t0 = time.time()
            subprocess.run([str(Path(a.bin) / "llk-gguf"), "make-random", "--shape", shape,
                            "--seed", str(a.seed), str(model)], check=True)
            log(f"{shape}: wrote {model} ({model.stat().st_size / 1e9:.2f} GB) in {time.time() - t0:.1f} s")
        if a.check and shape in ("tiny", "tinyllama"):
            tests = Path(a.bin) / "llk-llama-engine-tests"
            env = dict(os.environ, LLK_LLAMA_TEST_MODEL=str(model))
            if a.kernels:
                env["LLK_KERNEL_DIR"] = a.kernels
            t0 = time.time()
            p = subprocess.run([str(tests), "--gtest_filter=*ModelFromEnvironment*"], env=env,
                               capture_output=True, text=True)
            log(p.stdout.rstrip())
            log(f"{shape}: against float64: {'PASS' if p.returncode == 0 else 'FAIL'} "
                f"({time.time() - t0:.1f} s)")
            failed |= p.returncode != 0
        decode_shapes = a.decode_shapes.split("/") if a.decode_shapes else [None]
        runs = [(label, prompt, ctx, dshape)
                for dshape in decode_shapes
                for label, prompt, ctx in (
                    ("ctx " + str(a.prompt), a.prompt, a.prompt + a.n),
                    ("ctx " + str(a.long_context), a.long_context - a.n, a.long_context))]
        for label, prompt, ctx, dshape in runs:
            if dshape:
                label += f" shape {dshape}"
            try:
                profile = [] if a.profile else None
                r = run_llama(a, model, prompt, a.n, ctx, log, dshape, profile)
                if profile:
                    profiles.append(f"### {shape} {label}\n\n{profile[0]}\n")
            except RuntimeError as e:
                log(f"{shape} {label}: {e}")
                failed = True
                continue
            copy_bw = r["copy_gbps"] or copy_bw
            steps = int(r["decode_tokens"])
            decode_us = r["decode_ms"] * 1e3 / steps
            kv_mid = (r["kv_bytes_start"] + r["kv_bytes_end"]) / 2
            step_bytes = r["weight_bytes"] + kv_mid
            floor_us = step_bytes / (r["copy_gbps"] * 1e3) if r["copy_gbps"] else None
            n_kv_mid = (r["context_start"] + r["context_end"]) / 2
            est_us = ggml_decode_us(s, n_kv_mid)
            notes = (f"positions {int(r['context_start'])}-{int(r['context_end'])}; {steps} steps; "
                     f"{step_bytes / 1e9:.3f} GB a step ({r['weight_bytes'] / 1e9:.3f} weights); "
                     f"{int(r['launches'])} launches, graph nodes {int(r['graph_nodes'])}")
            rows.append(dict(kernel="decode", shape=f"{shape} {label}", impl="llk", variant="graph",
                             timing="graph-dependent", median_us=decode_us,
                             ceiling="copy" if floor_us else None, ceiling_us=floor_us,
                             throughput=1e6 / decode_us, unit="tok/s", check="unchecked",
                             notes=notes))
            rows.append(dict(kernel="decode", shape=f"{shape} {label}", impl="ggml (estimate)",
                             variant="", timing="graph-dependent", median_us=est_us,
                             ceiling="copy" if floor_us else None, ceiling_us=floor_us,
                             throughput=1e6 / est_us, unit="tok/s", check="unchecked",
                             notes="the issue's H100 ggml kernel times, scaled by bytes"))
            if prompt == a.prompt and dshape == decode_shapes[0]:
                tokens = int(r["prompt_tokens"])
                prompt_us = r["prompt_ms"] * 1e3
                gemm, attn = prompt_flops(s, tokens)
                est = ggml_prompt_us(s, tokens)
                batch = int(r.get("prefill_batch", 1))
                rows.append(dict(kernel="prompt", shape=f"{shape} {tokens} tokens", impl="llk",
                                 variant=f"batches of {batch}" if batch > 1 else "decode steps",
                                 timing="stream",
                                 median_us=prompt_us, throughput=tokens / prompt_us * 1e6,
                                 unit="tok/s", check="unchecked",
                                 notes=f"{(gemm + attn) / prompt_us * 1e-6:.1f} TFLOP/s of "
                                       f"{(gemm + attn) / 1e12:.2f} TFLOP"))
                rows.append(dict(kernel="prompt", shape=f"{shape} {tokens} tokens",
                                 impl="ggml (estimate)", variant="", timing="stream",
                                 median_us=est, throughput=tokens / est * 1e6, unit="tok/s",
                                 check="unchecked",
                                 notes=f"GEMMs at {GGML_GEMM_TFLOPS:g} TFLOP/s, causal flash "
                                       f"attention at {GGML_FLASH_ATTN_TFLOPS:g}"))
        if not a.keep and not a.work:
            model.unlink()

    csv_path = Path(a.csv) if a.csv else benchlib.default_csv_path("llama-model")
    out = benchlib.ResultsCsv(
        "llama-model", benchlib.command_line(), gpu, date, anchor="ggml (estimate)",
        ceiling=(f"copy {copy_bw:.1f} GB/s (cuMemcpyDtoD of 256 MiB, read + write, median; "
                 f"llk-llama --bench)") if copy_bw else "none (no GPU)",
        timing="llk-llama --bench: the decode step as one CUDA graph of dependent launches, "
               "steps back to back")
    for r in rows:
        out.add(**r)
    out.fill_ratios()
    lines = ["| run | llk tok/s | µs/token | floor µs | % of floor | ggml estimate tok/s | llk / ggml |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in out.rows:
        if r["impl"] != "llk":
            continue
        est = next(e for e in out.rows if e["impl"] != "llk" and e["kernel"] == r["kernel"]
                   and e["shape"] == r["shape"])
        pct = f"{r['pct_of_ceiling']:.1f}" if r["pct_of_ceiling"] else "-"
        floor = f"{r['ceiling_us']:.1f}" if r["ceiling_us"] else "-"
        lines.append(f"| {r['kernel']} {r['shape']} | {r['throughput']:.1f} | {r['median_us']:.1f} | "
                     f"{floor} | {pct} | {est['throughput']:.1f} | "
                     f"{r['throughput'] / est['throughput']:.2f} |")
    table = "\n".join(lines)
    print(table)
    if os.environ.get("OUT"):
        (Path(os.environ["OUT"]) / "llama-model.md").write_text(table + "\n")
        if profiles:
            (Path(os.environ["OUT"]) / "llama-profile.md").write_text("\n".join(profiles))
    if csv_path:
        log(f"CSV: {out.write(csv_path)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
