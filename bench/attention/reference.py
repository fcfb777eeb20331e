"""Float64 attention, forward and backward, in NumPy (what bench.py checks
every implementation against at small sizes; selftest_cpu.py checks it
against the definitions, element by element).

Arrays are [B, H, N, D]; K and V may have fewer heads (grouped-query
attention: query head h reads KV head h // (H // H_kv)). Causal masking is
aligned bottom-right: query i sees keys j <= i + n_k - n_q. lse is the
natural log-sum-exp of the scaled scores of each query row, [B, H, n_q].
"""
import numpy as np


def visible(n_q, n_k, causal):
    """[n_q, n_k] booleans: which keys each query sees."""
    if not causal:
        return np.ones((n_q, n_k), dtype=bool)
    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)


def _heads(q, k):
    B, H, n_q, d = q.shape
    h_kv = k.shape[1]
    if H % h_kv:
        raise ValueError(f"{H} query heads do not group over {h_kv} KV heads")
    if k.shape[0] != B or k.shape[3] != d:
        raise ValueError(f"K {k.shape} does not match Q {q.shape}")
    return H // h_kv


def _probabilities(q, k, b, h, group, scale, mask):
    """Scaled scores of head (b, h), their lse and softmax."""
    s = scale * (q[b, h] @ k[b, h // group].T)
    s = np.where(mask, s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    return lse, np.exp(s - lse[:, None])


def forward(q, k, v, causal, scale):
    """(o, lse) of attention in float64."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
    group = _heads(q, k)
    B, H, n_q, _ = q.shape
    mask = visible(n_q, k.shape[2], causal)
    if not mask.any(axis=1).all():
        raise ValueError("a query row sees no key (causal needs n_q <= n_k)")
    o = np.empty(q.shape[:3] + (v.shape[3],))
    lse = np.empty(q.shape[:3])
    for b in range(B):
        for h in range(H):
            lse[b, h], p = _probabilities(q, k, b, h, group, scale, mask)
            o[b, h] = p @ v[b, h // group]
    return o, lse


def backward(q, k, v, do, causal, scale):
    """(dq, dk, dv) of attention in float64: the gradients of
    sum(o * do) with o = forward(q, k, v); dK and dV summed over the query
    heads of each group."""
    q, k, v, do = (np.asarray(x, dtype=np.float64) for x in (q, k, v, do))
    group = _heads(q, k)
    B, H, n_q, _ = q.shape
    mask = visible(n_q, k.shape[2], causal)
    dq = np.zeros_like(q)
    dk = np.zeros_like(k)
    dv = np.zeros_like(v)
    for b in range(B):
        for h in range(H):
            hk = h // group
            _, p = _probabilities(q, k, b, h, group, scale, mask)
            o = p @ v[b, hk]
            delta = (o * do[b, h]).sum(axis=1, keepdims=True)
            dv[b, hk] += p.T @ do[b, h]
            ds = p * (do[b, h] @ v[b, hk].T - delta)
            dq[b, h] = scale * (ds @ k[b, hk])
            dk[b, hk] += scale * (ds.T @ q[b, h])
    return dq, dk, dv


def rel_error(got, want):
    """||got - want|| / ||want|| in float64 (Frobenius)."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))
