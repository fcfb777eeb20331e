"""The Llama kernels of shared/spec/llama-kernels.md written in Triton, the
idiomatic way: one program per row with BLOCK covering the row for norms and
softmax, flat BLOCK-element programs for elementwise ops, tiles of rows x
quant blocks for the mat-vecs (q8_0 / q8_1 bytes read through int8 / int16
views of the same uint8 storage), and split-KV ("flash decoding") for decode
attention. No autotuning: fixed, sensible num_warps.

Each `run_*` wrapper takes torch CUDA tensors (inputs and a preallocated
output) and launches on the current stream. Formats as in the spec:
block_q8_0 = 34 bytes {f16 d; int8 qs[32]}, block_q8_1 = 36 bytes
{f16 d; f16 s; int8 qs[32]}; K cache [C][NH][D] f16, V cache [NH][D][C] f16.
"""
import math

import torch
import triton
import triton.language as tl

try:  # accurate sin/cos/round (libdevice); Triton 3.x
    from triton.language.extra import libdevice as _ld
    _sin, _cos, _round = _ld.sin, _ld.cos, _ld.round
except Exception:  # pragma: no cover - older layouts
    from triton.language.extra.cuda import libdevice as _ld
    _sin, _cos, _round = _ld.sin, _ld.cos, _ld.round


# ------------------------------------------------------------------ norms
@triton.jit
def _rms_norm_kernel(out_ptr, x_ptr, g_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    ms = tl.sum(x * x, axis=0) / n_cols
    scale = 1.0 / tl.sqrt(ms + eps)
    g = tl.load(g_ptr + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * stride + cols, x * scale * g, mask=mask)


def run_rms_norm(out, x, gamma, eps):
    R, C = x.shape
    BLOCK = triton.next_power_of_2(C)
    _rms_norm_kernel[(R,)](out, x, gamma, x.stride(0), C, eps, BLOCK=BLOCK,
                           num_warps=8 if BLOCK >= 2048 else 4)


@triton.jit
def _softmax_kernel(out_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride + cols, num / den, mask=mask)


def run_softmax(out, x):
    R, C = x.shape
    BLOCK = triton.next_power_of_2(C)
    _softmax_kernel[(R,)](out, x, x.stride(0), C, BLOCK=BLOCK,
                          num_warps=8 if BLOCK >= 2048 else 4)


# ------------------------------------------------------------ elementwise
EW_BLOCK = 1024


@triton.jit
def _swiglu_kernel(out_ptr, g_ptr, u_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, g / (1.0 + tl.exp(-g)) * u, mask=mask)


def run_swiglu(out, gate, up):
    n = gate.numel()
    _swiglu_kernel[(triton.cdiv(n, EW_BLOCK),)](out, gate, up, n, BLOCK=EW_BLOCK, num_warps=4)


@triton.jit
def _add_kernel(out_ptr, x_ptr, y_ptr, n, ky, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs % ky, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def run_add(out, x, y):
    n, ky = x.numel(), y.numel()
    _add_kernel[(triton.cdiv(n, EW_BLOCK),)](out, x, y, n, ky, BLOCK=EW_BLOCK, num_warps=4)


# ------------------------------------------------------------------- rope
@triton.jit
def _rope_kernel(out_ptr, x_ptr, n_rows, n_heads, n_past, log2_theta_scale,
                 D: tl.constexpr, BLOCK_R: tl.constexpr):
    # rows are (token, head); x[row, 2k], x[row, 2k+1] rotated by
    # theta = (n_past + row // n_heads) * theta_scale^k
    rows = tl.program_id(0).to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    k = tl.arange(0, D // 2)
    rmask = rows < n_rows
    pos = (n_past + rows // n_heads).to(tl.float32)
    theta = pos[:, None] * tl.exp2(k.to(tl.float32) * log2_theta_scale)[None, :]
    s = _sin(theta)
    c = _cos(theta)
    base = rows[:, None] * D + 2 * k[None, :]
    m = rmask[:, None]
    x0 = tl.load(x_ptr + base, mask=m)
    x1 = tl.load(x_ptr + base + 1, mask=m)
    tl.store(out_ptr + base, x0 * c - x1 * s, mask=m)
    tl.store(out_ptr + base + 1, x0 * s + x1 * c, mask=m)


def run_rope(out, x, n_heads, n_past, base=10000.0):
    n_rows, D = x.shape
    log2_ts = -2.0 / D * math.log2(base)
    BLOCK_R = max(1, 2048 // D)
    _rope_kernel[(triton.cdiv(n_rows, BLOCK_R),)](out, x, n_rows, n_heads, n_past, log2_ts,
                                                  D=D, BLOCK_R=BLOCK_R, num_warps=4)


# -------------------------------------------------------------------- cpy
@triton.jit
def _cpy_f32_f16_kernel(dst_ptr, src_ptr, ne, ne00, ne01, s00, s01, s02,
                        ne10, ne11, s10, s11, s12, BLOCK: tl.constexpr):
    # strides in elements (bytes / 4 on the f32 side, / 2 on the f16 side)
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < ne
    i02 = i // (ne00 * ne01)
    i01 = (i - i02 * ne01 * ne00) // ne00
    i00 = i - i02 * ne01 * ne00 - i01 * ne00
    i12 = i // (ne10 * ne11)
    i11 = (i - i12 * ne10 * ne11) // ne10
    i10 = i - i12 * ne10 * ne11 - i11 * ne10
    v = tl.load(src_ptr + i00 * s00 + i01 * s01 + i02 * s02, mask=mask)
    tl.store(dst_ptr + i10 * s10 + i11 * s11 + i12 * s12, v.to(tl.float16), mask=mask)


def run_cpy_f32_f16(dst, src, p):
    """p: dict with ne, ne00, ne01, nb00, nb01, nb02, ne10, ne11, nb10, nb11,
    nb12 (byte strides, as ggml) and dst_offset_bytes; src/dst are the base
    tensors (f32 / f16)."""
    assert p["dst_offset_bytes"] % 2 == 0
    dst_view = dst.view(-1)[p["dst_offset_bytes"] // 2:]
    _cpy_f32_f16_kernel[(triton.cdiv(p["ne"], EW_BLOCK),)](
        dst_view, src, p["ne"], p["ne00"], p["ne01"], p["nb00"] // 4, p["nb01"] // 4, p["nb02"] // 4,
        p["ne10"], p["ne11"], p["nb10"] // 2, p["nb11"] // 2, p["nb12"] // 2,
        BLOCK=EW_BLOCK, num_warps=4)


# --------------------------------------------------------------- quantize
@triton.jit
def _quantize_q8_1_kernel(out16_ptr, out8_ptr, x_ptr, kx, nb_padded,
                          NB: tl.constexpr):
    # program (row, chunk of NB blocks of 32 values)
    row = tl.program_id(1).to(tl.int64)
    b = tl.program_id(0) * NB + tl.arange(0, NB)
    j = tl.arange(0, 32)
    col = b[:, None] * 32 + j[None, :]
    bmask = b < nb_padded
    x = tl.load(x_ptr + row * kx + col, mask=(col < kx) & bmask[:, None], other=0.0)
    amax = tl.max(tl.abs(x), axis=1)
    s = tl.sum(x, axis=1)
    d = amax / 127.0
    q = tl.where(amax[:, None] == 0.0, 0.0, _round(x / d[:, None]))
    blk = row * nb_padded + b  # global block index
    tl.store(out8_ptr + blk[:, None] * 36 + 4 + j[None, :], q.to(tl.int8), mask=bmask[:, None])
    tl.store(out16_ptr + blk * 18, d.to(tl.float16).to(tl.int16, bitcast=True), mask=bmask)
    tl.store(out16_ptr + blk * 18 + 1, s.to(tl.float16).to(tl.int16, bitcast=True), mask=bmask)


def run_quantize_q8_1(out, x, kx_padded):
    """x: [rows, kx] f32; out: uint8 [rows, kx_padded/32*36]."""
    rows, kx = x.shape
    nb = kx_padded // 32
    NB = 16
    _quantize_q8_1_kernel[(triton.cdiv(nb, NB), rows)](out.view(torch.int16), out.view(torch.int8), x,
                                                        kx, nb, NB=NB, num_warps=4)


# --------------------------------------------------------------- mat-vecs
@triton.jit
def _linear_q8_0_kernel(out_ptr, w8_ptr, w16_ptr, x_ptr, N, K,
                        BLOCK_N: tl.constexpr, NB: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < N
    rows64 = rows.to(tl.int64)
    nbk = K // 32
    j = tl.arange(0, 32)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for b0 in range(0, nbk, NB):
        b = b0 + tl.arange(0, NB)
        bmask = b < nbk
        blk = rows64[:, None] * nbk + b[None, :]                        # [BLOCK_N, NB]
        m2 = rmask[:, None] & bmask[None, :]
        d = tl.load(w16_ptr + blk * 17, mask=m2, other=0).to(tl.float16, bitcast=True).to(tl.float32)
        q = tl.load(w8_ptr + blk[:, :, None] * 34 + 2 + j[None, None, :], mask=m2[:, :, None], other=0)
        xv = tl.load(x_ptr + b[:, None] * 32 + j[None, :], mask=bmask[:, None], other=0.0)  # [NB, 32]
        part = tl.sum(q.to(tl.float32) * xv[None, :, :], axis=2)       # [BLOCK_N, NB]
        acc += tl.sum(part * d, axis=1)
    tl.store(out_ptr + rows, acc, mask=rmask)


def run_linear_q8_0(out, w, x):
    """w: uint8 [N, K/32*34]; x: f32 [K]; out: f32 [N]."""
    N = w.shape[0]
    K = x.numel()
    BLOCK_N, NB = 4, 8
    _linear_q8_0_kernel[(triton.cdiv(N, BLOCK_N),)](out, w.view(torch.int8), w.view(torch.int16), x, N, K,
                                                    BLOCK_N=BLOCK_N, NB=NB, num_warps=4)


@triton.jit
def _mmvq_kernel(out_ptr, w8_ptr, w16_ptr, y8_ptr, y16_ptr, N, K,
                 BLOCK_N: tl.constexpr, NB: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < N
    rows64 = rows.to(tl.int64)
    nbk = K // 32
    j = tl.arange(0, 32)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for b0 in range(0, nbk, NB):
        b = b0 + tl.arange(0, NB)
        bmask = b < nbk
        blk = rows64[:, None] * nbk + b[None, :]
        m2 = rmask[:, None] & bmask[None, :]
        d0 = tl.load(w16_ptr + blk * 17, mask=m2, other=0).to(tl.float16, bitcast=True).to(tl.float32)
        q0 = tl.load(w8_ptr + blk[:, :, None] * 34 + 2 + j[None, None, :], mask=m2[:, :, None], other=0)
        d1 = tl.load(y16_ptr + b * 18, mask=bmask, other=0).to(tl.float16, bitcast=True).to(tl.float32)
        q1 = tl.load(y8_ptr + b[:, None] * 36 + 4 + j[None, :], mask=bmask[:, None], other=0)
        isum = tl.sum(q0.to(tl.int32) * q1.to(tl.int32)[None, :, :], axis=2)   # exact int dot
        acc += tl.sum(isum.to(tl.float32) * d0 * d1[None, :], axis=1)
    tl.store(out_ptr + rows, acc, mask=rmask)


def run_mul_mat_vec_q(out, w, yq, K):
    """w: uint8 [N, K/32*34] (q8_0); yq: uint8 [Kpad/32*36] (q8_1); out f32 [N]."""
    N = w.shape[0]
    BLOCK_N, NB = 4, 8
    _mmvq_kernel[(triton.cdiv(N, BLOCK_N),)](out, w.view(torch.int8), w.view(torch.int16),
                                             yq.view(torch.int8), yq.view(torch.int16), N, K,
                                             BLOCK_N=BLOCK_N, NB=NB, num_warps=4)


# ------------------------------------------------------ decode attention
@triton.jit
def _attn_split_kernel(m_ptr, l_ptr, acc_ptr, q_ptr, k_ptr, v_ptr, n_kv, C, NH, NH_KV,
                       scale, D: tl.constexpr, BLOCK_T: tl.constexpr):
    h = tl.program_id(0)
    sp = tl.program_id(1)
    nsp = tl.num_programs(1)
    hk = (h // (NH // NH_KV)).to(tl.int64)
    d = tl.arange(0, D)
    t = sp * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = t < n_kv
    t64 = t.to(tl.int64)
    q = tl.load(q_ptr + h * D + d)                                                     # [D]
    k = tl.load(k_ptr + (t64[:, None] * NH_KV + hk) * D + d[None, :], mask=tmask[:, None], other=0.0)
    s = tl.sum(k.to(tl.float32) * q[None, :], axis=1) * scale                          # [BLOCK_T]
    s = tl.where(tmask, s, -float("inf"))
    m = tl.max(s, axis=0)
    p = tl.exp(s - m)
    p = tl.where(tmask, p, 0.0)
    l = tl.sum(p, axis=0)
    v = tl.load(v_ptr + (hk * D + d[:, None]) * C + t64[None, :], mask=tmask[None, :], other=0.0)
    o = tl.sum(v.to(tl.float32) * p[None, :], axis=1)                                   # [D]
    idx = h * nsp + sp
    tl.store(m_ptr + idx, m)
    tl.store(l_ptr + idx, l)
    tl.store(acc_ptr + idx * D + d, o)


@triton.jit
def _attn_combine_kernel(out_ptr, m_ptr, l_ptr, acc_ptr, nsp, D: tl.constexpr, SPLITS: tl.constexpr):
    h = tl.program_id(0)
    sp = tl.arange(0, SPLITS)
    smask = sp < nsp
    m = tl.load(m_ptr + h * nsp + sp, mask=smask, other=-float("inf"))
    l = tl.load(l_ptr + h * nsp + sp, mask=smask, other=0.0)
    mg = tl.max(m, axis=0)
    w = tl.where(smask, tl.exp(m - mg), 0.0)
    d = tl.arange(0, D)
    acc = tl.load(acc_ptr + (h * nsp + sp)[:, None] * D + d[None, :], mask=smask[:, None], other=0.0)
    o = tl.sum(acc * w[:, None], axis=0) / tl.sum(l * w, axis=0)
    tl.store(out_ptr + h * D + d, o)


ATTN_BLOCK_T = 64


def attn_workspace(NH, n_kv, D, device):
    nsp = triton.cdiv(n_kv, ATTN_BLOCK_T)
    return (torch.empty(NH * nsp, device=device, dtype=torch.float32),
            torch.empty(NH * nsp, device=device, dtype=torch.float32),
            torch.empty(NH * nsp * D, device=device, dtype=torch.float32))


def run_attention(out, q, k_cache, v_cache, n_kv, scale, ws):
    """q: [NH, D] f32; k_cache: [C, NH_KV, D] f16; v_cache: [NH_KV, D, C] f16;
    out: [NH, D] f32; ws from attn_workspace."""
    NH, D = q.shape
    C, NH_KV, _ = k_cache.shape
    nsp = triton.cdiv(n_kv, ATTN_BLOCK_T)
    m, l, acc = ws
    _attn_split_kernel[(NH, nsp)](m, l, acc, q, k_cache, v_cache, n_kv, C, NH, NH_KV, scale,
                                  D=D, BLOCK_T=ATTN_BLOCK_T, num_warps=4)
    _attn_combine_kernel[(NH,)](out, m, l, acc, nsp, D=D, SPLITS=triton.next_power_of_2(nsp), num_warps=4)
