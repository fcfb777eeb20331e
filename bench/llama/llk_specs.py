"""Launch specs: how bench.py launches each llk kernel from its PTX.

One entry per benchmark kernel name (the `kernel` column of the table). A spec
is a function `spec(c)` of the case `c` that returns the launches of one run:

    c.shape  dict of the case's sizes and scalars (see the table below)
    c.t      dict of torch CUDA tensors: the case's inputs AND outputs (and
             whatever scratch the spec asks for with c.scratch)
    c.scratch(name, numel, torch_dtype)  a device buffer that lives for the
             case (same buffer on every call with the same name)

and returns either a list of `Launch`es (run in order; one table row "llk"),
or a dict {label: [Launch, ...]} for several variants (rows "llk:<label>",
e.g. one per num_warps); or None when the kernel cannot do this shape (the
row then says so).

    Launch(ptx, grid, args, entry=None)
      ptx    file name under --ptx-dir (llkc output). Beside it, llkc writes
             <ptx>.json (format 1: kernels[].name/params/num_warps/
             shared_bytes), which llk.load reads: block = num_warps*32,
             `args` checked against its params (count, pointer/scalar,
             types).
      grid   (x,) / (x, y) / (x, y, z): the programs (tile.program_id x|y|z)
      args   in source order, built with the helpers below:
               ptr(tensor, byte_offset=0)   a !tile.ptr<T> (.param .u64)
               i32(v), i64(v), f32(v), f16(v)   scalars
      entry  kernel name in the PTX; default: the module's only kernel

Kernels and what c.t / c.shape hold (all tensors contiguous; f32 unless said):

  rms_norm       x[R,C], gamma[C] -> out[R,C]        shape R, C, eps
  softmax        x[R,C] -> out[R,C]                  shape R, C
  swiglu         gate[n], up[n] -> out[n]            shape n (= R*C), R, C
                 out = gate / (1 + exp(-gate)) * up
  add            x[n], y[ky] -> out[n]               shape n, ky  (ky == n here)
  rope           x[T*NH, D] -> out[T*NH, D]          shape T, NH, D, n_past, base,
                 theta_scale (= base^(-2/D), float64). Row r = t*NH + h,
                 pos = n_past + t; pair k rotated by pos*theta_scale^k
  cpy_k, cpy_v   src[T, NH*D] f32 -> dst (f16 cache)  shape ne, ne00, ne01, nb00,
                 nb01, nb02, ne10, ne11, nb10, nb11, nb12 (ggml: element counts,
                 BYTE strides), dst_offset_bytes, T, C, NH, D.
                 cpy_k: dst = K cache [C][NH*D]; cpy_v: dst = V cache [NH*D][C]
                 (src read transposed: ne00 = T tokens, nb00 = NH*D*4)
  quantize_q8_1  x[R,K] -> out uint8[R, Kp/32*36]    shape R, K, Kp (K padded to 512)
  linear_q8_0    w uint8[N, K/32*34], x[K] -> out[N]  shape N, K
  mul_mat_vec_q  w uint8[N, K/32*34], yq uint8[Kp/32*36] (q8_1 of x) -> out[N]
                 shape N, K, Kp
  attention      q[NH,D], k_cache f16[C,NH_KV,D], v_cache f16[NH_KV,D,C]
                 -> out[NH,D]                        shape NH, NH_KV, D, C, n_kv, scale
                 out[h] = softmax(scale * K[:n_kv,h] q[h]) . V[h,:, :n_kv]

bench.py loads the PTX with the llk package (llk.load: the PTX and its
metadata), checks and converts the arguments once (Kernel.bind), launches
on the torch current stream, and compares the outputs against float64
references; a spec only has to say which PTX, which grid and which
arguments.
"""
import os
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

# ---------------------------------------------------------------- helpers

_TORCH_TO_LLK = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64",
                 "int8": "i8", "uint8": "i8", "int16": "i16", "int32": "i32", "int64": "i64"}


@dataclass
class Arg:
    kind: str            # "pointer" | "scalar"
    type: str            # llk type name: f32, i32, ... (pointer: element type)
    value: Any           # np.uint64 address or numpy scalar

    def llk_value(self):
        """The argument as the llk package takes it: a typed llk.Pointer, or
        the numpy scalar (of exactly the parameter's type)."""
        if self.kind == "pointer":
            import llk
            return llk.Pointer(int(self.value), self.type)
        return self.value


def ptr(tensor, byte_offset=0, type=None):
    """A !tile.ptr argument: the tensor's device address (+ byte_offset).
    `type` overrides the element type checked against the metadata (for
    byte buffers viewed as another type)."""
    t = type or _TORCH_TO_LLK.get(str(tensor.dtype).replace("torch.", ""), "?")
    return Arg("pointer", t, np.uint64(tensor.data_ptr() + byte_offset))


def i32(v):
    v = int(v)
    assert -2**31 <= v < 2**31, f"i32 argument out of range: {v}"
    return Arg("scalar", "i32", np.int32(v))


def i64(v):
    return Arg("scalar", "i64", np.int64(int(v)))


def f32(v):
    return Arg("scalar", "f32", np.float32(v))


def f16(v):
    return Arg("scalar", "f16", np.float16(v))


@dataclass
class Launch:
    ptx: str
    grid: tuple
    args: list
    entry: Optional[str] = None


def cdiv(a, b):
    return (a + b - 1) // b


def next_pow2(n):
    return 1 << (int(n) - 1).bit_length()


SPECS = {}


def spec(name):
    def register(fn):
        SPECS[name] = fn
        return fn
    return register


# ------------------------------------------------ the three example kernels
# PTX names as scripts/build-gpu-ptx.sh writes them: <name>_b<BLOCK>_w<warps>.ptx

@spec("add")
def _add(c):
    # examples/vector_add.mlir: add_kernel(x, y, out, n: i32); BLOCK elements
    # per program; no broadcast (needs ky == n).
    s, t = c.shape, c.t
    if s["ky"] != s["n"]:
        return None
    BLOCK = 4096
    runs = {"example": [Launch(f"add_b{BLOCK}_w4.ptx", (cdiv(s["n"], BLOCK),),
                               [ptr(t["x"]), ptr(t["y"]), ptr(t["out"]), i32(s["n"])])]}
    # examples/llama/binary.mlir: binary_f32(x, y, dst, ky), BLOCK=1024,
    # grid (ky/1024, kx/ky).
    if s["n"] % 16 == 0:
        runs["llama"] = [Launch("llama_add.ptx", (cdiv(s["ky"], 1024), s["n"] // s["ky"]),
                                [ptr(t["x"]), ptr(t["y"]), ptr(t["out"]), i32(s["ky"])])]
    return runs


@spec("softmax")
def _softmax(c):
    # examples/softmax.mlir: softmax_kernel(out, in, in_row_stride,
    # out_row_stride, n_cols); one program per row, BLOCK >= n_cols.
    s, t = c.shape, c.t
    BLOCK = max(16, next_pow2(s["C"]))
    args = [ptr(t["out"]), ptr(t["x"]), i32(s["C"]), i32(s["C"]), i32(s["C"])]
    runs = {f"w{w}": [Launch(f"softmax_b{BLOCK}_w{w}.ptx", (s["R"],), args)] for w in (4, 8, 16)}
    # examples/llama/softmax.mlir: soft_max_f32(dst, x, dst_row_stride,
    # x_row_stride, n_cols), BLOCK=4096, DIV=16, 8 warps.
    if s["C"] <= 4096 and s["C"] % 16 == 0:
        runs["llama"] = [Launch("llama_soft_max.ptx", (s["R"],), args, entry="soft_max_f32")]
    return runs


@spec("rms_norm")
def _rms_norm(c):
    # examples/rms_norm.mlir: rms_norm_kernel(out, x, gamma, row_stride,
    # n_cols, eps: f32); one program per row, BLOCK >= n_cols.
    s, t = c.shape, c.t
    BLOCK = max(16, next_pow2(s["C"]))
    args = [ptr(t["out"]), ptr(t["x"]), ptr(t["gamma"]), i32(s["C"]), i32(s["C"]), f32(s["eps"])]
    runs = {f"w{w}": [Launch(f"rms_norm_b{BLOCK}_w{w}.ptx", (s["R"],), args)] for w in (4, 8, 16)}
    # examples/llama/rms_norm.mlir: rms_norm_f32(dst, x, gamma, dst_row_stride,
    # x_row_stride, n_cols, eps), BLOCK=4096, 8 warps.
    if s["C"] <= 4096:
        runs["llama"] = [Launch("llama_rms_norm.ptx", (s["R"],),
                                [ptr(t["out"]), ptr(t["x"]), ptr(t["gamma"]), i32(s["C"]),
                                 i32(s["C"]), i32(s["C"]), f32(s["eps"])])]
    return runs


# ------------------------------------------- the Llama kernels: TO FILL IN
# Once examples/llama/*.mlir exist, replace each `return None` with the
# launch (file name, grid, arguments in the kernel's source order). Kernels
# left returning None show as "llk: no launch spec" in the table.

@spec("swiglu")
def _swiglu(c):
    # examples/llama/silu.mlir: swiglu_f32(gate, up, dst, n), BLOCK=1024.
    n = c.shape["n"]
    return [Launch("llama_swiglu.ptx", (cdiv(n, 1024),),
                   [ptr(c.t["gate"]), ptr(c.t["up"]), ptr(c.t["out"]), i32(n)],
                   entry="swiglu_f32")]


@spec("rope")
def _rope(c):
    # examples/llama/rope_vec.mlir: rope_f32_vec(dst, x, dst_token_stride,
    # x_token_stride, n_cols, n_past, freq_base); QUADS=256 quads (1024
    # values) of a token per program as a [256, 4] tile (16-byte accesses,
    # angles per pair), grid (NH*D/1024, T). "scalar": the first version,
    # examples/llama/rope.mlir (rope_f32, same arguments, BLOCK=1024).
    s = c.shape
    row = s["NH"] * s["D"]
    args = [ptr(c.t["out"]), ptr(c.t["x"]), i32(row), i32(row), i32(row),
            i32(s["n_past"]), f32(s["base"])]
    runs = {"scalar": [Launch("llama_rope.ptx", (cdiv(row, 1024), s["T"]), args)]}
    if row % 16 == 0 and s["D"] == 128:
        runs["vec"] = [Launch("llama_rope_vec.ptx", (cdiv(row, 1024), s["T"]), args,
                              entry="rope_f32_vec")]
    return runs


_CPY_NAMES = ["ne", "ne00", "ne01", "nb00", "nb01", "nb02", "ne10", "ne11", "nb10", "nb11", "nb12"]


def _cpy_generic(c):
    # examples/llama/cpy.mlir: cpy_f32_f16(src, dst, src_offset, dst_offset,
    # ne, ne00, ne01, nb00, nb01, nb02, ne10, ne11, nb10, nb11, nb12) with
    # byte strides; BLOCK=1024 elements per program.
    s = c.shape
    return [Launch("llama_cpy_k.ptx", (cdiv(s["ne"], 1024),),
                   [ptr(c.t["src"], type="i8"), ptr(c.t["dst"], type="i8"),
                    i32(0), i32(s["dst_offset_bytes"])] + [i32(s[k]) for k in _CPY_NAMES])]


@spec("cpy_k")
def _cpy_k(c):
    # examples/llama/cpy_rows.mlir: cpy_f32_f16_rows(src, dst, src_row_stride,
    # dst_row_stride, n_cols, dst_offset) in elements; BLOCK=1024 columns of
    # a token per program, grid (E/1024, T). "generic": cpy.mlir.
    s = c.shape
    E, T = s["ne00"], s["ne01"]
    runs = {"generic": _cpy_generic(c)}
    off = s["dst_offset_bytes"] // 2
    if E % 16 == 0 and off % 4 == 0:
        runs["rows"] = [Launch("llama_cpy_k_rows.ptx", (cdiv(E, 1024), T),
                               [ptr(c.t["src"]), ptr(c.t["dst"]), i32(E), i32(E), i32(E), i32(off)],
                               entry="cpy_f32_f16_rows")]
    return runs


@spec("cpy_v")
def _cpy_v(c):
    # examples/llama/cpy_trans.mlir: cpy_f32_f16_trans(src, dst,
    # src_row_stride, n_cols, n_tokens, dst_row_stride, n_past) in elements;
    # [BT=16, BE=128] tiles, grid (ceil((n_past % 8 + T) / 16), E / 128).
    # "generic": cpy.mlir.
    s = c.shape
    T, E, C = s["ne00"], s["ne01"], s["C"]
    n_past = s["dst_offset_bytes"] // 2
    runs = {"generic": _cpy_generic(c)}
    if E % 16 == 0 and C % 8 == 0:
        runs["trans"] = [Launch("llama_cpy_v_trans.ptx", (cdiv(n_past % 8 + T, 16), cdiv(E, 128)),
                                [ptr(c.t["src"]), ptr(c.t["dst"]), i32(E), i32(E), i32(T), i32(C),
                                 i32(n_past)],
                                entry="cpy_f32_f16_trans")]
    return runs


@spec("quantize_q8_1")
def _quantize_q8_1(c):
    # quantize_q8_1(y bytes, x, kx, kx_padded); BLOCKS=16 blocks of 32 per
    # program, grid (Kp / 512, R).
    s = c.shape
    return [Launch("quantize_q8_1.ptx", (cdiv(s["Kp"], 32 * 16), s["R"]),
                   [ptr(c.t["out"], type="i8"), ptr(c.t["x"]), i32(s["K"]), i32(s["Kp"])])]


# ROWS of linear_q8_0 and mul_mat_vec_q (examples/kernels.list).
MATVEC_ROWS = {"linear_q8_0": 8, "mul_mat_vec_q": 4}
# Tuning: LLK_MATVEC_VARIANTS="r8b32w4,r4b32w4" times <kernel>_r8b32w4.ptx
# etc. (ROWS, BLOCKS, num_warps) beside each other, rows "llk:r8b32w4".
MATVEC_VARIANTS = [v for v in os.environ.get("LLK_MATVEC_VARIANTS", "").split(",") if v]


def _matvec(kernel, c, args):
    s = c.shape
    if not MATVEC_VARIANTS:
        return [Launch(f"{kernel}.ptx", (cdiv(s["N"], MATVEC_ROWS[kernel]),), args)]
    runs = {}
    for v in MATVEC_VARIANTS:
        rows = int(v[1:v.index("b")])
        runs[v] = [Launch(f"{kernel}_{v}.ptx", (cdiv(s["N"], rows),), args, entry=kernel)]
    return runs


@spec("linear_q8_0")
def _linear_q8_0(c):
    # linear_q8_0(y, w bytes, x, n_rows, n_cols); ROWS rows per program.
    s = c.shape
    return _matvec("linear_q8_0", c, [ptr(c.t["out"]), ptr(c.t["w"], type="i8"), ptr(c.t["x"]),
                                      i32(s["N"]), i32(s["K"])])


@spec("mul_mat_vec_q")
def _mul_mat_vec_q(c):
    # mul_mat_vec_q(y, w bytes (q8_0), xq bytes (q8_1), n_rows, n_cols);
    # ROWS rows per program.
    s = c.shape
    return _matvec("mul_mat_vec_q", c, [ptr(c.t["out"]), ptr(c.t["w"], type="i8"),
                                        ptr(c.t["yq"], type="i8"), i32(s["N"]), i32(s["K"])])


@spec("attention")
def _attention(c):
    # examples/llama/attn_decode.mlir (flash-decoding):
    #   attn_decode_partial_kernel(part_o, part_m, part_l, q, k, v, n_kv, chunk,
    #                              k_row_stride, C, g, scale), grid (n_chunks, NH), 8 warps
    #   attn_decode_combine_kernel(o, part_o, part_m, part_l, n_chunks), grid (NH), 4 warps
    # chunk: a multiple of 16 with n_chunks <= MAX_CHUNKS = 32.
    import torch
    s, t = c.shape, c.t
    if s["C"] % 16 or (s["NH_KV"] * s["D"]) % 16:
        return None
    chunk = 256 if s["n_kv"] > 1024 else 64
    while cdiv(s["n_kv"], chunk) > 32:
        chunk *= 2
    n_chunks = cdiv(s["n_kv"], chunk)
    part_o = c.scratch("part_o", s["NH"] * n_chunks * s["D"], torch.float32)
    part_m = c.scratch("part_m", s["NH"] * n_chunks, torch.float32)
    part_l = c.scratch("part_l", s["NH"] * n_chunks, torch.float32)
    return [Launch("attn_decode_partial.ptx", (n_chunks, s["NH"]),
                   [ptr(part_o), ptr(part_m), ptr(part_l), ptr(t["q"]), ptr(t["k_cache"]),
                    ptr(t["v_cache"]), i32(s["n_kv"]), i32(chunk), i32(s["NH_KV"] * s["D"]),
                    i32(s["C"]), i32(s["NH"] // s["NH_KV"]), f32(s["scale"])],
                   entry="attn_decode_partial_kernel"),
            Launch("attn_decode_combine.ptx", (s["NH"],),
                   [ptr(t["out"]), ptr(part_o), ptr(part_m), ptr(part_l), i32(n_chunks)],
                   entry="attn_decode_combine_kernel")]
