#!/usr/bin/env python3
"""llk's random numbers on the GPU against Triton's (gpu-check.sh run rand).

Runs ON THE GPU MACHINE (torch, Triton 3.6, cupy): for a few seeds and offset
ranges (i32 and i64 seeds and offsets, offsets past 2^32, negative seeds),
launches llk's examples/random.mlir kernels (@random_i32, @random_i64: PTX
that `gpu-check.sh prepare` compiled, BLOCK=1024, 4 warps) and a Triton
kernel that draws tl.randint, tl.randint4x, tl.rand and tl.randn at the same
offsets, and compares:
  - randint, randint4x, rand: llk's bits == Triton's bits, every element;
  - randn: llk's against the float64 Box-Muller of the same (bit-identical)
    uniforms, within LLK_BOUND; Triton's against it too, reported; and llk's
    against Triton's: the largest difference in ulps (of the larger of the
    two, f32), reported, and in ulps of max(1, |z|), held to TRITON_ULPS;
  - a sample of each against scripts/triton_random.py (plain Python).
Prints one line per case and a summary; exit status 1 if any bits differ or
a bound is broken.

    python3 scripts/rand-vs-triton.py --ptx-dir .device-carry/ptx [--n N]
"""
import argparse
import math
import sys
from pathlib import Path

import numpy as np
import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent))
import triton_random  # noqa: E402

BLOCK = 1024  # the kernels.list lines random_i32 / random_i64
NUM_WARPS = 4
# |llk - float64| <= LLK_BOUND * max(1, |z|): llk's randn is libdevice's
# logf, sqrtf and cosf in f32 (docs/random.md).
LLK_BOUND = triton_random.NORMAL_TOLERANCE
# Triton's tl.randn (its log and cos may be approximate instructions) is
# measured against float64 and reported. llk's and Triton's normals share
# their uniforms and the f32 rounding of 6.2831855 * u2, so they differ only
# by log, sqrt and cos: at most TRITON_ULPS ulps of max(1, |z|) (2^-17; the
# approximate cos.approx.f32 is within 2^-20.9 absolute, times r <= 5.7).
TRITON_ULPS = 64


def ulp_distance(a, b):
    """Representable f32 values between a and b (0: the same bits)."""
    def ordered(x):
        i = x.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    return np.abs(ordered(a) - ordered(b))


@triton.jit
def triton_random_kernel(ints, words, uniform, normal, seed, base, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    offsets = base + i
    tl.store(ints + i, tl.randint(seed, offsets), mask=mask)
    w0, w1, w2, w3 = tl.randint4x(seed, offsets)
    tl.store(words + i, w0, mask=mask)
    tl.store(words + n + i, w1, mask=mask)
    tl.store(words + 2 * n + i, w2, mask=mask)
    tl.store(words + 3 * n + i, w3, mask=mask)
    tl.store(uniform + i, tl.rand(seed, offsets), mask=mask)
    tl.store(normal + i, tl.randn(seed, offsets), mask=mask)


def outputs(n):
    return {"ints": torch.full((n,), -1, dtype=torch.int32, device="cuda"),
            "words": torch.full((4 * n,), -1, dtype=torch.int32, device="cuda"),
            "uniform": torch.full((n,), float("nan"), device="cuda"),
            "normal": torch.full((n,), float("nan"), device="cuda")}


def run_triton(seed, base, n):
    # Triton types an int argument i32 when it fits, else i64: the i64 cases
    # have bases past 2^31, so their offsets are i64 as llk's are. (A seed
    # is sign-extended either way, so its typing does not change the key.)
    out = outputs(n)
    triton_random_kernel[(triton.cdiv(n, BLOCK),)](
        out["ints"], out["words"], out["uniform"], out["normal"], seed, base, n, BLOCK=BLOCK,
        num_warps=NUM_WARPS)
    return out


def run_llk(cupy, ptx_dir, seed, base, n, is64):
    name = "random_i64" if is64 else "random_i32"
    mod = cupy.RawModule(path=str(Path(ptx_dir) / f"{name}.ptx"))
    fn = mod.get_function(name)
    out = outputs(n)
    scalar = np.int64 if is64 else np.int32
    ptrs = [cupy.asarray(t) for t in out.values()]  # zero-copy views
    fn((triton.cdiv(n, BLOCK), 1, 1), (NUM_WARPS * 32, 1, 1),
       (*ptrs, scalar(seed), scalar(base), np.int32(n)))
    torch.cuda.synchronize()
    return out


def box_muller64(words, n):
    """float64 Box-Muller of the f32 uniforms of words 0 and 1."""
    def uniform(w):
        x = w.astype(np.int64)
        x = np.where(x < 0, -x - 1, x).astype(np.float32)
        return (x * np.float32(triton_random.UNIFORM_SCALE)).astype(np.float64)
    u1 = np.maximum(np.float64(np.float32(1e-7)), uniform(words[:n]))
    u2 = uniform(words[n:2 * n])
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def compare(case, llk, ref, n, sample):
    """Failures of one case; prints its line."""
    failures = []
    host = {k: v.cpu().numpy() for k, v in llk.items()}
    want = {k: v.cpu().numpy() for k, v in ref.items()}
    for key in ("ints", "words", "uniform"):
        a, b = host[key].view(np.uint32), want[key].view(np.uint32)
        diff = int(np.count_nonzero(a != b))
        if diff:
            first = int(np.flatnonzero(a != b)[0])
            failures.append(f"{key}: {diff} elements differ from Triton, first [{first}]: "
                            f"llk {a[first]:#010x}, triton {b[first]:#010x}")
    z64 = box_muller64(want["words"].view(np.int32), n)
    scale = np.maximum(1.0, np.abs(z64))
    llk_err = np.max(np.abs(host["normal"] - z64) / scale)
    tri_err = np.max(np.abs(want["normal"] - z64) / scale)
    between = np.abs(host["normal"].astype(np.float64) - want["normal"])
    ulp = 2.0 ** -23
    scaled_ulps = np.max(between / (ulp * np.maximum(1.0, np.abs(z64))))
    ulps = ulp_distance(host["normal"], want["normal"])
    if not llk_err <= LLK_BOUND:
        failures.append(f"randn: llk is {llk_err:.3g} from float64 (bound {LLK_BOUND:.3g})")
    if not scaled_ulps <= TRITON_ULPS:
        failures.append(f"randn: llk is {scaled_ulps:.1f} ulps of max(1, |z|) from Triton "
                        f"(bound {TRITON_ULPS})")
    # A sample against the plain-Python definition.
    seed, base, offset_bits = case
    for i in sample:
        w = triton_random.randint4x(seed, base + i, offset_bits)
        if int(host["ints"][i]) != triton_random.signed(w[0]) or \
                float(host["uniform"][i]) != triton_random.uniform(w[0]):
            failures.append(f"offset {base + i}: llk differs from triton_random.py")
            break
    print(f"seed {seed:>22} base {base:>16} ({offset_bits}-bit offsets), {n} offsets: "
          f"bits {'identical' if not failures else 'DIFFER'}; randn vs float64: llk "
          f"{llk_err:.2e}, triton {tri_err:.2e}; llk vs triton max {between.max():.2e}, "
          f"{scaled_ulps:.1f} ulps of max(1, |z|), {int(ulps.max())} ulps (median "
          f"{np.median(ulps):.0f}, {np.count_nonzero(ulps) / n:.1%} not bit-equal)")
    return failures, llk_err, tri_err, scaled_ulps, int(ulps.max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptx-dir", required=True)
    parser.add_argument("--n", type=int, default=1 << 20)
    args = parser.parse_args()
    import cupy
    n = args.n
    print(f"triton {triton.__version__}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}")
    cases = [  # (seed, base, is64): Triton types each argument by its value
        (0, 0, False), (42, 0, False), (123456789, 1000, False), (2**31 - 1, 2**30, False),
        (-7, 5, False),  # a negative i32 seed: its key's high word is its sign
        (2**40 + 17, 2**33, True), (-(2**62) - 5, 2**32 - 1000, True), (7, 2**45, True),
    ]
    rng = np.random.default_rng(1)
    sample = sorted(set(int(i) for i in rng.integers(0, n, 256)) | {0, n - 1})
    failures, worst = [], [0.0, 0.0, 0.0, 0]
    for seed, base, is64 in cases:
        if not is64 and base + n > 2**31:
            base = 2**31 - n
        llk = run_llk(cupy, args.ptx_dir, seed, base, n, is64)
        ref = run_triton(seed, base, n)
        f, *errs = compare((seed, base, 64 if is64 else 32), llk, ref, n, sample)
        failures += f
        worst = [max(a, b) for a, b in zip(worst, errs)]
    print(f"== {len(cases)} cases x {n} offsets: randint, randint4x and rand "
          f"{'bit for bit equal to Triton' if not failures else 'NOT equal'}; randn: llk within "
          f"{worst[0]:.2e} of float64, Triton within {worst[1]:.2e}; llk vs Triton at most "
          f"{worst[2]:.1f} ulps of max(1, |z|) (bound {TRITON_ULPS}), max ulp difference "
          f"{worst[3]}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
