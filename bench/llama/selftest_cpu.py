#!/usr/bin/env python3
"""CPU self-test of bench.py's byte formats, references and index maps (needs
torch, no GPU): each reference is compared with an independent emulation of
the seed kernels' arithmetic (float32 where the kernels use it), and the
ggml ne/nb parameters of the cpy cases with the seed's own index math.

    python3 bench/llama/selftest_cpu.py        # prints 'N passed, N failed'
"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

import bench as B  # noqa: E402

torch.manual_seed(0)
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
    print(f"{'ok  ' if cond else 'FAIL'} {name} {detail}")


def rel(a, b):
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


# ---- q8_0 bytes
N, K = 8, 256
nb = K // 32
d = (torch.rand(N, nb) * 0.02 + 0.001).half()
qs = torch.randint(-127, 128, (N, nb, 32), dtype=torch.int8)
w = B.pack_q8_0(d, qs)
check("q8_0 row bytes", w.shape == (N, nb * 34))
raw = w.numpy().tobytes()
import struct  # noqa: E402
d_b = struct.unpack("<e", raw[34 * 3: 34 * 3 + 2])[0]
q_b = struct.unpack("<32b", raw[34 * 3 + 2: 34 * 4])
check("q8_0 block 3 = {f16 d; int8 qs[32]}", d_b == d[0, 3].item() and list(q_b) == qs[0, 3].tolist())
d2, qs2 = B.unpack_q8_0(w, nb)
check("q8_0 unpack", torch.equal(d2.view(N, nb), d) and torch.equal(qs2.view(N, nb, 32), qs))
# The buffer contract: llk kernels may read to the end of the last 16-byte
# granule; llk_buffer copies into zero-padded storage of whole granules.
w3 = B.pack_q8_0(d[:3, :1], qs[:3, :1])  # 3 blocks: 102 bytes
p3 = B.llk_buffer(w3)
store = torch.empty(0, dtype=torch.uint8).set_(p3.untyped_storage())
check("llk_buffer pads to 16-byte granules",
      torch.equal(p3, w3) and p3.shape == w3.shape and store.numel() == 112
      and store[102:].tolist() == [0] * 10, f"{store.numel()} bytes")
h = B.llk_buffer(torch.arange(9, dtype=torch.float16))
check("llk_buffer keeps dtype and values", h.dtype == torch.float16 and h.tolist() == list(range(9))
      and h.untyped_storage().nbytes() == 32)

# ---- q8_1 reference quantizer and bytes
R, Kx = 3, 1000
Kp = B.cdiv(Kx, 512) * 512
x = torch.randn(R, Kx, dtype=torch.float64)
x[1, 64:96] = 0.0  # an all-zero block
dr, sr, qr = B.quantize_q8_1_ref(x, Kp)
check("q8_1 padded blocks are zero", (dr[:, Kx // 32 + 1:] == 0).all().item() and (qr[:, Kx // 32 + 1:] == 0).all().item())
check("q8_1 zero block gives d=0, q=0", dr[1, 2].item() == 0 and (qr[1, 2] == 0).all().item())
check("q8_1 |q| <= 127 and amax -> ±127", qr.abs().max().item() == 127)
y = B.pack_q8_1(dr.half(), sr.half(), qr.to(torch.int8))
raw = y[0].numpy().tobytes()
dd, ss = struct.unpack("<ee", raw[36 * 5: 36 * 5 + 4])
check("q8_1 block 5 = {f16 d; f16 s; int8 qs[32]}",
      dd == dr[0, 5].half().item() and ss == sr[0, 5].half().item()
      and list(struct.unpack("<32b", raw[36 * 5 + 4: 36 * 6])) == qr[0, 5].to(torch.int8).tolist())


# emulate the seed quantize_q8_1 in float32 and run the quantize case's checker on it
def seed_quant(x32, Kp):
    R, K = x32.shape
    xp = torch.zeros(R, Kp, dtype=torch.float32)
    xp[:, :K] = x32
    xb = xp.view(R, Kp // 32, 32)
    amax = xb.abs().amax(-1)
    dq = amax / 127
    v = xb / torch.where(dq == 0, torch.ones_like(dq), dq)[..., None]
    q = torch.where(amax[..., None] == 0, torch.zeros_like(v), torch.sign(v) * torch.floor(v.abs() + 0.5))
    return B.pack_q8_1(dq.half(), xb.sum(-1).half(), q.to(torch.int8))


class A:
    quick = True


cases = {c.kernel + " " + c.label: c for c in B.build_cases(A, None, None, None)}
qc = [c for c in cases.values() if c.kernel == "quantize_q8_1"][1]  # 1×11008
x32 = torch.randn(1, 11008)
refq = qc.ref({"x": x32})
err, note = qc.check({"out": seed_quant(x32, qc.shape["Kp"])}, refq)
check("quantize check passes a float32 quantizer", err < 1e-3, f"err {err:.1e} {note}")
bad = seed_quant(x32, qc.shape["Kp"])
bad[0, 36 * 7 + 4] = bad[0, 36 * 7 + 4] + 3
err, note = qc.check({"out": bad}, refq)
check("quantize check catches a wrong quant", not (err <= qc.tol), note)
bad = seed_quant(x32, qc.shape["Kp"])
bad[0, 36 * 9: 36 * 9 + 2] = 0xFF  # d = NaN (poison left)
err, note = qc.check({"out": bad}, refq)
check("quantize check catches an unwritten d", not (err <= qc.tol), note)

# ---- mat-vec references vs float32 emulations of dmmv / mmvq
N, K = 64, 512
w = B.pack_q8_0((torch.rand(N, K // 32) * 0.02 + 0.001).half(), torch.randint(-127, 128, (N, K // 32, 32), dtype=torch.int8))
xv = torch.randn(K)
lc = B.Case  # noqa
d0, q0 = B.unpack_q8_0(w, K // 32)
dmmv32 = ((d0.float()[..., None] * q0.float()).reshape(N, K) * xv).sum(1)
ref = (d0.double()[..., None] * q0.double()).reshape(N, K) @ xv.double()
check("linear_q8_0 ref vs f32 dmmv", rel(dmmv32, ref) < 1e-5, f"{rel(dmmv32, ref):.1e}")
dr, sr, qr = B.quantize_q8_1_ref(xv.double()[None], 512)
yq = B.pack_q8_1(dr.half(), sr.half(), qr.to(torch.int8)).reshape(-1)
mm = [c for c in B.build_cases(A, None, None, None) if c.kernel == "mul_mat_vec_q"][0]
# reuse the case's reference on our small sizes
import types  # noqa: E402
d1, _, q1 = B.unpack_q8_1(yq, 16)
isum = (q0.int() * q1[0].int()[None]).sum(-1)
mmvq32 = (d0.float() * d1[0].float()[None] * isum.float()).sum(1)
ref2 = (isum.double() * d0.double() * d1[0].double()[None]).sum(1)
check("mmvq ref vs f32 dp4a emulation", rel(mmvq32, ref2) < 1e-5, f"{rel(mmvq32, ref2):.1e}")
check("mmvq approximates the f32 product (q8_1 error)", rel(ref2, ref) < 2e-2, f"{rel(ref2, ref):.1e}")

# ---- rope: float64 reference vs the seed's float32 formula at large positions
T, NH, D = 2048, 4, 128
rc = B.Case
cs = {c.kernel: c for c in B.build_cases(A, None, None, None)}
rope = cs["rope"]
xr = torch.randn(T * NH, D)
# the case's ref is built for its own shape; rebuild a small one with the same code
import importlib  # noqa: E402


def rope_ref(x, T, NH, D, n_past):
    xx = x.double().view(T, NH, D // 2, 2)
    pos = (n_past + torch.arange(T, dtype=torch.float64)).view(T, 1, 1)
    k = torch.arange(D // 2, dtype=torch.float64).view(1, 1, D // 2)
    th = pos * 10000.0 ** (-2.0 * k / D)
    c, s = torch.cos(th), torch.sin(th)
    return torch.stack([xx[..., 0] * c - xx[..., 1] * s, xx[..., 0] * s + xx[..., 1] * c], -1).reshape(T * NH, D)


for n_past in (0, 14000):
    ts = torch.tensor(10000.0 ** (-2.0 / D), dtype=torch.float32)
    pos = (torch.tensor(float(n_past)) + torch.arange(T).float()).repeat_interleave(NH)[:, None]
    th32 = pos * torch.pow(ts, torch.arange(D // 2).float())[None]
    c, s = torch.cos(th32.double()).float(), torch.sin(th32.double()).float()
    xx = xr.view(T * NH, D // 2, 2)
    out32 = torch.stack([xx[..., 0] * c - xx[..., 1] * s, xx[..., 0] * s + xx[..., 1] * c], -1).reshape(T * NH, D)
    e = rel(out32, rope_ref(xr, T, NH, D, n_past))
    tol = 1e-5 + 3e-7 * (n_past + T - 1)
    check(f"rope f32 formula within tolerance (max pos {n_past + T - 1})", e < tol, f"err {e:.1e} tol {tol:.1e}")
# the case's own reference equals the independent one
s = rope.shape
xq = torch.randn(s["T"] * s["NH"], s["D"])
check("rope case ref", rel(rope.ref({"x": xq}), rope_ref(xq, s["T"], s["NH"], s["D"], s["n_past"])) < 1e-15)
check("rope case ref layout: row = t*NH + h", rope.shape["NH"] == 32)

# ---- cpy: the case's ne/nb parameters under the seed's index math give the reference
for c in (cs["cpy_k"], cs["cpy_v"]):
    pass
for which in ("k", "v"):
    Tt, E = 16, 8  # small: rebuild the parameters the same way as the case
    Cc = Tt
    small = [cc for cc in B.build_cases(type("A2", (), {"quick": True}), None, None, None) if cc.kernel == f"cpy_{which}"][0]
    p = small.shape
    # emulate with the real sizes of the quick case but on index arrays only
    ne = p["ne"]
    i = torch.arange(ne, dtype=torch.int64)
    i02 = i // (p["ne00"] * p["ne01"]); i01 = (i - i02 * p["ne01"] * p["ne00"]) // p["ne00"]; i00 = i - i02 * p["ne01"] * p["ne00"] - i01 * p["ne00"]
    xo = i00 * p["nb00"] + i01 * p["nb01"] + i02 * p["nb02"]
    i12 = i // (p["ne10"] * p["ne11"]); i11 = (i - i12 * p["ne10"] * p["ne11"]) // p["ne10"]; i10 = i - i12 * p["ne10"] * p["ne11"] - i11 * p["ne10"]
    do = p["dst_offset_bytes"] + i10 * p["nb10"] + i11 * p["nb11"] + i12 * p["nb12"]
    check(f"cpy_{which}: src offsets are f32-aligned and distinct", (xo % 4 == 0).all().item() and xo.unique().numel() == ne)
    check(f"cpy_{which}: dst offsets cover the cache once", do.unique().numel() == ne and (do % 2 == 0).all().item())
    T_, E_ = p["T"], p["ne"] // p["T"]
    src = torch.arange(ne, dtype=torch.float64)  # src[t, e] = t*E + e
    dst = torch.empty(ne, dtype=torch.float64)
    dst[do // 2] = src[xo // 4]
    ref = small.ref({"src": src.view(T_, E_)})
    check(f"cpy_{which}: seed index map == reference layout", torch.equal(dst.view(ref.shape), ref.contiguous()))

# ---- attention reference vs the seed's 4-kernel pipeline in float32
NH, D, C = 4, 16, 64
q = torch.randn(NH, D)
Kc = torch.randn(C, NH, D).half()
Vc = torch.randn(NH, D, C).half()
scale = 1 / math.sqrt(D)
sc = torch.stack([(Kc[:, h, :].float() * q[h]).sum(1) for h in range(NH)]) * scale
pr = torch.softmax(sc, 1)
o32 = torch.stack([(Vc[h].float() * pr[h][None]).sum(1) for h in range(NH)])
# the case's own reference, at its own size, vs a float32 pipeline
ac = cs["attention"]
s = ac.shape
q = torch.randn(s["NH"], s["D"])
Kc = torch.randn(s["C"], s["NH_KV"], s["D"]).half()
Vc = torch.randn(s["NH_KV"], s["D"], s["C"]).half()
sc = torch.einsum("thd,hd->ht", Kc.float(), q) * s["scale"]
pr = torch.softmax(sc, 1)
o32 = torch.einsum("hdt,ht->hd", Vc.float(), pr)
o64 = ac.ref({"q": q, "k_cache": Kc, "v_cache": Vc})
check("attention ref vs f32 pipeline", rel(o32, o64) < 1e-5, f"{rel(o32, o64):.1e}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
