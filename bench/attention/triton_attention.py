"""FlashAttention-2 in Triton, written for bench.py after Triton 3.6's
fused-attention tutorial (python/tutorials/06-fused-attention.py): its
structure — the forward's off-diagonal and diagonal stages (STAGE 3 = 1
then 2 when causal), the online softmax in exp2 with the scale folded into
log2(e), the backward's delta preprocess and one kernel that computes dK/dV
for a block of keys and dQ for a block of queries, the masked blocks split
by BLK_SLICE_FACTOR — its autotuning configurations and their pruning. Two
forward kernels, as the tutorial has: tensor descriptors (TMA, what it runs
on Hopper) and plain pointers (the fallback when descriptors are missing).

What it adds for the benchmark: grouped-query heads (query head h reads KV
head h // GROUP) and fewer queries than keys, causal aligned bottom-right
(KV_OFFSET = N_KV - N_Q, a multiple of BLOCK_M), for the Llama prompt case;
bf16 as well as f16 (the probabilities take the inputs' type). Like the
tutorial it needs the sequence lengths to be multiples of the blocks (128),
and the backward takes N_Q = N_KV and GROUP = 1.

Inputs are [B, H, N, D] contiguous; M (the forward's log-sum-exp, base 2,
of the scaled scores, as the tutorial keeps it) [B, H, N_Q] f32.
"""
import torch
import triton
import triton.language as tl

try:
    from triton.tools.tensor_descriptor import TensorDescriptor
    HAS_TENSOR_DESC = True
except ImportError:  # older Triton: the pointer kernel only
    HAS_TENSOR_DESC = False


# Set when the descriptor forward failed once (a Triton without what the
# tutorial uses): the pointer forward runs from then on.
tma_failure = None


def supports_tma():
    return HAS_TENSOR_DESC and tma_failure is None and torch.cuda.get_device_capability()[0] >= 9


# ----------------------------------------------------------------- forward
@triton.jit
def _stage_range(start_m, BLOCK_M: tl.constexpr, STAGE: tl.constexpr, N_KV, KV_OFFSET):
    """The keys of this stage: before the diagonal (1), on it (2), all (3)."""
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M + KV_OFFSET
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M + KV_OFFSET, (start_m + 1) * BLOCK_M + KV_OFFSET
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_KV
    return lo, hi


@triton.jit
def _softmax_step(qk, m_i, l_i, acc, qk_scale, offs_m, offs_n, start_n, KV_OFFSET, STAGE: tl.constexpr):
    """The online softmax over one block of scores (masked on the
    diagonal): the probabilities, the new running max and sum, and the
    accumulator rescaled to that max."""
    if STAGE == 2:
        mask = offs_m[:, None] + KV_OFFSET >= (start_n + offs_n[None, :])
        qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]
    else:
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
    p = tl.math.exp2(qk)
    alpha = tl.math.exp2(m_i - m_ij)
    l_i = l_i * alpha + tl.sum(p, 1)
    return p, m_ij, l_i, acc * alpha[:, None]


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, start_m, qk_scale,  #
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,  #
                    STAGE: tl.constexpr, offs_m, offs_n, offs_d, N_KV, KV_OFFSET):
    lo, hi = _stage_range(start_m, BLOCK_M, STAGE, N_KV, KV_OFFSET)
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_base + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        p, m_i, l_i, acc = _softmax_step(qk, m_i, l_i, acc, qk_scale, offs_m, offs_n, start_n, KV_OFFSET, STAGE)
        v = tl.load(v_base + (start_n + offs_n)[:, None] * stride_kn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
    return acc, l_i, m_i


@triton.jit
def _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_kv, start_m, qk_scale,  #
                        BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,  #
                        STAGE: tl.constexpr, offs_m, offs_n, N_KV, KV_OFFSET):
    lo, hi = _stage_range(start_m, BLOCK_M, STAGE, N_KV, KV_OFFSET)
    offsetkv_y = offset_kv + lo
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([offsetkv_y, 0]).T
        qk = tl.dot(q, k)
        p, m_i, l_i, acc = _softmax_step(qk, m_i, l_i, acc, qk_scale, offs_m, offs_n, start_n, KV_OFFSET, STAGE)
        v = desc_v.load([offsetkv_y, 0])
        acc = tl.dot(p.to(q.dtype), v, acc)
        offsetkv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def _program(H, GROUP, N_Q, N_KV, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    """This program's query block and head (b·H + h), the first rows of the
    head's Q and of its KV head's K and V in [B·H·N, D] views, the query
    rows, and the softmax state to start from."""
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_row = (off_z * H + off_h) * N_Q
    kv_row = (off_z * (H // GROUP) + off_h // GROUP) * N_KV
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    return start_m, off_hz, q_row, kv_row, offs_m, m_i, l_i, acc


def _keep(conf):
    # The tutorial's: 8 warps only for blocks of 128 x 128 or more on Hopper.
    return not (torch.cuda.get_device_capability()[0] == 9
                and conf.kwargs["BLOCK_M"] * conf.kwargs["BLOCK_N"] < 128 * 128 and conf.num_warps == 8)


def _prune_invalid_configs(configs, named_args, **kwargs):
    # The tutorial's: no block of queries taller than the sequence, and when
    # causal (STAGE 3) none wider than tall; ours: the diagonal's offset a
    # whole number of query blocks.
    args = {**named_args, **kwargs}
    n_q, stage, offset = args["N_Q"], args["STAGE"], args["KV_OFFSET"]
    kept = [c for c in configs if c.kwargs["BLOCK_M"] <= n_q and offset % c.kwargs["BLOCK_M"] == 0
            and (stage == 1 or c.kwargs["BLOCK_M"] >= c.kwargs["BLOCK_N"])]
    return kept or configs[:1]


def _tma_pre_hook(nargs):
    bm, bn, d = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["HEAD_DIM"]
    nargs["desc_q"].block_shape = [bm, d]
    nargs["desc_o"].block_shape = [bm, d]
    nargs["desc_k"].block_shape = [bn, d]
    nargs["desc_v"].block_shape = [bn, d]


_configs = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=s, num_warps=w)
    for bm in [64, 128] for bn in [32, 64, 128] for s in [2, 3, 4] for w in [4, 8]
]
_configs_tma = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=s, num_warps=w, pre_hook=_tma_pre_hook)
    for bm in [64, 128] for bn in [32, 64, 128] for s in [2, 3, 4] for w in [4, 8]
]
_KEY = ["N_Q", "N_KV", "HEAD_DIM", "STAGE", "GROUP"]


@triton.autotune(configs=list(filter(_keep, _configs)), key=_KEY,
                 prune_configs_by={"early_config_prune": _prune_invalid_configs})
@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out,  #
              Z, H, GROUP, N_Q, N_KV, KV_OFFSET,  #
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
              STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m, off_hz, q_row, kv_row, offs_m, m_i, l_i, acc = _program(H, GROUP, N_Q, N_KV, BLOCK_M, HEAD_DIM)
    q_offset = q_row.to(tl.int64) * HEAD_DIM
    kv_offset = kv_row.to(tl.int64) * HEAD_DIM
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    q = tl.load(Q + q_offset + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    k_base = K + kv_offset
    v_base = V + kv_offset
    # Stage 1: off-band (causal: STAGE 3 gives 1 then 2; not: 3).
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, HEAD_DIM, start_m, qk_scale,  #
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n, offs_d,  #
                                        N_KV, KV_OFFSET)
    # Stage 2: on-band.
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, HEAD_DIM, start_m, qk_scale,  #
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, offs_d,  #
                                        N_KV, KV_OFFSET)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_Q + offs_m, m_i)
    tl.store(Out + q_offset + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(Out.type.element_ty))


@triton.autotune(configs=list(filter(_keep, _configs_tma)), key=_KEY,
                 prune_configs_by={"early_config_prune": _prune_invalid_configs})
@triton.jit
def _attn_fwd_tma(sm_scale, M,  #
                  Z, H, GROUP, desc_q, desc_k, desc_v, desc_o, N_Q, N_KV, KV_OFFSET,  #
                  HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                  STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m, off_hz, q_row, offset_kv, offs_m, m_i, l_i, acc = _program(H, GROUP, N_Q, N_KV, BLOCK_M, HEAD_DIM)
    qo_offset_y = q_row + start_m * BLOCK_M
    offs_n = tl.arange(0, BLOCK_N)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([qo_offset_y, 0])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_kv, start_m, qk_scale,  #
                                            BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n,  #
                                            N_KV, KV_OFFSET)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_kv, start_m, qk_scale,  #
                                            BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n,  #
                                            N_KV, KV_OFFSET)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_Q + offs_m, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(q.dtype))


# ---------------------------------------------------------------- backward
@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    o = tl.load(O + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :])
    do = tl.load(DO + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :]).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


@triton.jit
def _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,  #
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr,  #
                   start_n, start_m, num_steps, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    curr_m = start_m
    step_m = BLOCK_M1
    for blk_idx in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        if MASK:
            mask = (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(do.dtype), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dk += tl.dot(dsT.to(qT.dtype), tl.trans(qT))
        curr_m += step_m
        qT_ptrs += step_m * stride_tok
        do_ptrs += step_m * stride_tok
    return dk, dv


@triton.jit
def _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,  #
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr,  #
                 start_m, start_n, num_steps, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    Di = tl.load(D + offs_m)
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    curr_n = start_n
    step_n = BLOCK_N2
    for blk_idx in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            mask = (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(mask, p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        # kT was pre-scaled: dq is de-scaled at the end.
        dq += tl.dot(ds.to(kT.dtype), tl.trans(kT))
        curr_n += step_n
        kT_ptrs += step_n * stride_tok
        vT_ptrs += step_n * stride_tok
    return dq


@triton.jit
def _attn_bwd(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D,  #
              stride_z, stride_h, stride_tok, stride_d, H, N_CTX,  #
              BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,  #
              BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,  #
              BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz
    offs_k = tl.arange(0, HEAD_DIM)

    # dK and dV of keys start_n ..: the masked (diagonal) query blocks in
    # slices of BLOCK_M1 // BLK_SLICE_FACTOR, then the others (all of them
    # without causality).
    start_n = pid * BLOCK_N1
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    if CAUSAL:
        start_m = start_n
        MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,  #
                                MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps, MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    else:
        start_m = 0
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,  #
                            BLOCK_M1, BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps, MASK=False)
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d, dv.to(v.dtype))
    dk *= sm_scale
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d, dk.to(k.dtype))

    # dQ of queries start_m ..: the diagonal's key blocks in slices, then the
    # ones before (all of them without causality).
    start_m = pid * BLOCK_M2
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    m = tl.load(M + offs_m)
    m = m[:, None]
    if CAUSAL:
        end_n = start_m + BLOCK_M2
        MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,  #
                          BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM, start_m, end_n - num_steps * MASK_BLOCK_N2,
                          num_steps, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
    else:
        end_n = N_CTX
    num_steps = end_n // BLOCK_N2
    dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,  #
                      BLOCK_M2, BLOCK_N2, HEAD_DIM, start_m, end_n - num_steps * BLOCK_N2, num_steps,
                      MASK=False)
    dq *= LN2
    tl.store(DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d, dq.to(q.dtype))


# ------------------------------------------------------------------ host side
class TritonAttention:
    """forward(q, k, v) -> o (and keeps M); backward(do) -> dq, dk, dv: the
    tutorial's launches without autograd, so that they time as kernels."""

    PRE_BLOCK = 128
    # The tutorial's backward blocks and launch.
    BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, BLK_SLICE_FACTOR = 32, 128, 128, 32, 2
    NUM_WARPS, NUM_STAGES = 4, 5

    def __init__(self, causal, sm_scale, use_tma=None):
        self.causal = causal
        self.sm_scale = sm_scale
        self.use_tma = supports_tma() if use_tma is None else use_tma
        self.outputs = None  # (inputs' addresses, o, M, descriptors) of the last call

    def forward(self, q, k, v):
        B, H, n_q, d = q.shape
        h_kv, n_kv = k.shape[1], k.shape[2]
        assert q.is_contiguous() and k.is_contiguous() and v.is_contiguous()
        assert H % h_kv == 0 and n_kv >= n_q and d in (64, 128)
        # The outputs and descriptors of the same inputs are made once, so
        # that timed calls cost the host little more than the launch.
        key = (q.data_ptr(), k.data_ptr(), v.data_ptr(), q.shape, k.shape)
        if self.outputs is None or self.outputs[0] != key:
            o = torch.empty_like(q)
            M = torch.empty((B, H, n_q), device=q.device, dtype=torch.float32)
            descs = None
            if self.use_tma:
                dummy = [1, 1]
                desc = lambda t, rows: TensorDescriptor(t, shape=[rows, d], strides=[d, 1], block_shape=dummy)
                descs = (desc(q, B * H * n_q), desc(k, B * h_kv * n_kv), desc(v, B * h_kv * n_kv),
                         desc(o, B * H * n_q))
            self.outputs = (key, o, M, descs)
        _, o, M, descs = self.outputs
        stage = 3 if self.causal else 1
        offset = n_kv - n_q if self.causal else 0
        grid = lambda meta: (triton.cdiv(n_q, meta["BLOCK_M"]), B * H, 1)
        if self.use_tma:
            try:
                _attn_fwd_tma[grid](self.sm_scale, M, B, H, H // h_kv, *descs,
                                    N_Q=n_q, N_KV=n_kv, KV_OFFSET=offset, HEAD_DIM=d, STAGE=stage)
            except Exception as e:
                global tma_failure
                tma_failure = f"{type(e).__name__}: {e}"
                print(f"Triton's descriptor (TMA) forward failed, using its pointer forward: {tma_failure}")
                self.use_tma = False
        if not self.use_tma:
            _attn_fwd[grid](q, k, v, self.sm_scale, M, o, B, H, H // h_kv, N_Q=n_q, N_KV=n_kv,
                            KV_OFFSET=offset, HEAD_DIM=d, STAGE=stage)
        self.saved = (q, k, v, o, M)
        return o

    def backward(self, do):
        q, k, v, o, M = self.saved
        B, H, n, d = q.shape
        assert k.shape == q.shape and do.is_contiguous(), "the backward takes N_Q = N_KV, GROUP = 1"
        assert n % self.BLOCK_N1 == 0 and n % self.PRE_BLOCK == 0
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        # K pre-scaled by sm_scale / ln 2, as the tutorial does (M is base 2).
        arg_k = k * (self.sm_scale * 1.4426950408889634)
        delta = torch.empty_like(M)
        _attn_bwd_preprocess[(n // self.PRE_BLOCK, B * H)](o, do, delta, n, BLOCK_M=self.PRE_BLOCK,
                                                            HEAD_DIM=d)
        _attn_bwd[(n // self.BLOCK_N1, 1, B * H)](
            q, arg_k, v, self.sm_scale, do, dq, dk, dv, M, delta,
            q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, n,
            BLOCK_M1=self.BLOCK_M1, BLOCK_N1=self.BLOCK_N1, BLOCK_M2=self.BLOCK_M2, BLOCK_N2=self.BLOCK_N2,
            BLK_SLICE_FACTOR=self.BLK_SLICE_FACTOR, HEAD_DIM=d, CAUSAL=self.causal,
            num_warps=self.NUM_WARPS, num_stages=self.NUM_STAGES)
        return dq, dk, dv
