#!/usr/bin/env python3
"""Triton 3.6's random numbers (python/triton/language/random.py), in plain
Python: no NumPy, no Triton, no GPU, so that CI pins the bits llk's
tile.randint, randint4x and rand must give, and the GPU check
(scripts/rand-vs-triton.py) has a third opinion.

What Triton does, and this file repeats: the seed becomes a uint64 (an i32
seed sign-extended, as Triton's int casts extend by the source's
signedness) whose low and high words are the Philox key (k0, k1); the
offset's low word is c0 and, for a 64-bit offset, its high word c1 (0
otherwise); c2 = c3 = 0 (randint4x since Triton 3.4, PR 6832). Ten rounds of
Philox 4x32 (philox_impl). rand: uint_to_uniform_float of c0, in f32.
randn: Box-Muller (pair_uniform_to_normal) of the uniforms of c0 and c1,
which Triton computes with approximate instructions; here in float64.

    triton_random.py check DIR --seed S --base B --n N [--i64]

compares the raw little-endian buffers DIR/ints (i32[N]), DIR/words
(i32[4, N]), DIR/uniform and DIR/normal (f32[N]) that examples/random.mlir
writes for offsets B .. B+N-1 with these: the first three bit for bit, the
normals within NORMAL_TOLERANCE of the float64 transform.
"""
import argparse
import math
import struct
import sys
from pathlib import Path

MASK = 0xFFFFFFFF
ROUND_A, ROUND_B = 0xD2511F53, 0xCD9E8D57
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85
UNIFORM_SCALE = 4.6566127342e-10
# |llk's f32 Box-Muller - the float64 one| <= NORMAL_TOLERANCE * max(1, |z|):
# the f32 rounding of 2*pi*u2 (up to r * 7.5e-7, r <= 5.7) and of each step,
# and a few ulp of libdevice's or the C library's log, sqrt and cos.
NORMAL_TOLERANCE = 2.0 ** -17


def f32(x):
    """x rounded to the nearest f32 (ties to even), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def philox(c, k):
    """Philox 4x32-10 of counter words c and key words k (philox_impl)."""
    c0, c1, c2, c3 = c
    k0, k1 = k
    for _ in range(10):
        a, b = ROUND_A * c0, ROUND_B * c2
        c0, c1, c2, c3 = ((b >> 32) ^ c1 ^ k0) & MASK, b & MASK, ((a >> 32) ^ c3 ^ k1) & MASK, a & MASK
        k0, k1 = (k0 + KEY_A) & MASK, (k1 + KEY_B) & MASK
    return c0, c1, c2, c3


def randint4x(seed, offset, offset_bits=32):
    """The four words (unsigned) of Triton's tl.randint4x(seed, offset) for an
    integer seed (i32 or i64: its value) and an offset of `offset_bits`."""
    seed &= (1 << 64) - 1  # the value as uint64: sign-extended
    offset &= (1 << offset_bits) - 1
    return philox((offset & MASK, offset >> 32, 0, 0), (seed & MASK, seed >> 32))


def uniform(word):
    """uint_to_uniform_float of a word: (x < 0 ? -x - 1 : x) * scale in f32.
    The product of two f32 values is exact in a double, so rounding it once
    gives the f32 product."""
    x = word - (1 << 32) if word & 0x80000000 else word
    if x < 0:
        x = -x - 1
    return f32(f32(x) * f32(UNIFORM_SCALE))


def rand(seed, offset, offset_bits=32):
    return uniform(randint4x(seed, offset, offset_bits)[0])


def randn64(seed, offset, offset_bits=32):
    """tl.randn's Box-Muller of the same uniforms, in float64."""
    w = randint4x(seed, offset, offset_bits)
    u1 = max(f32(1.0e-7), uniform(w[0]))
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * uniform(w[1]))


def signed(word):
    return word - (1 << 32) if word & 0x80000000 else word


def check(directory, seed, base, n, offset_bits):
    """Compares examples/random.mlir's outputs in `directory`; the failures."""
    def read(name, fmt, count):
        data = (Path(directory) / name).read_bytes()
        if len(data) != 4 * count:
            raise SystemExit(f"{name}: {len(data)} bytes, expected {4 * count}")
        return struct.unpack(f"<{count}{fmt}", data)

    ints, words = read("ints", "i", n), read("words", "i", 4 * n)
    uniforms, normals = read("uniform", "f", n), read("normal", "f", n)
    failures = []
    worst = 0.0
    for i in range(n):
        w = randint4x(seed, base + i, offset_bits)
        want = {"ints": (ints[i], signed(w[0])), "uniform": (uniforms[i], uniform(w[0]))}
        for k in range(4):
            want[f"words[{k}]"] = (words[k * n + i], signed(w[k]))
        for name, (got, expected) in want.items():
            if got != expected:
                failures.append(f"{name} at offset {base + i}: got {got!r}, want {expected!r}")
        z = randn64(seed, base + i, offset_bits)
        err = abs(normals[i] - z) / max(1.0, abs(z))
        worst = max(worst, err)
        if not err <= NORMAL_TOLERANCE:
            failures.append(f"normal at offset {base + i}: got {normals[i]!r}, float64 {z!r}")
    return failures, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="compare examples/random.mlir's outputs")
    c.add_argument("directory")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--base", type=int, required=True)
    c.add_argument("--n", type=int, required=True)
    c.add_argument("--i64", action="store_true", help="64-bit offsets (random_i64)")
    args = parser.parse_args()
    failures, worst = check(args.directory, args.seed, args.base, args.n, 64 if args.i64 else 32)
    for f in failures[:10]:
        print("FAIL:", f)
    if failures:
        print(f"{len(failures)} mismatches")
        return 1
    print(f"OK: {args.n} offsets from {args.base}, seed {args.seed}: randint, randint4x and "
          f"rand bit for bit; randn within {worst:.2e} of float64")
    return 0


if __name__ == "__main__":
    sys.exit(main())
