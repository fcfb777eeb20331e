#!/usr/bin/env python3
"""Apex LayerNorm/RMSNorm, forward and backward, checked against PyTorch
autograd (issue 5: "Norm backward is also checked against PyTorch autograd on
the device").

Runs ON THE GPU MACHINE (torch, numpy, the llk package), from the repo root:

    python3 bench/llama/norm_autograd.py --ptx-dir DIR [--seed N] [--factor F]

DIR holds llkc's PTX for the lines of examples/kernels.list (<name>.ptx with
<name>.ptx.json), as `scripts/gpu-check.sh prepare` packs them (carry/ptx).

For LayerNorm (y = gamma (x - mean) invvar + beta) and RMSNorm
(y = gamma x invvar), in f32, f16 and bf16, at 1x4096, 512x4096 and 333x4000:
random x, gamma (every third one negative), beta and dy as torch CUDA tensors
of the storage type; then

  llk     apex_*_fwd  -> y, mean, invvar;  apex_*_bwd (default mode: saved x,
          and memory-efficient mode: saved y, both on the forward's outputs)
          -> dx and per-chunk partials;  apex_norm_bwd_gamma (stage 2)
          -> dgamma, dbeta.  Launched with CuPy on the torch stream, through
          bench.py's loader (PTX + .json metadata, arguments checked).
  f64     torch autograd in float64 on the same (rounded) inputs: the reference.
  f32     torch autograd in float32 on the same inputs.
  torch   torch in the storage type ("its own error for that dtype"):
          F.layer_norm on f16/bf16 tensors (CUDA's native kernel, f32 inside),
          RMSNorm written in torch computing in f32 and rounding y to the
          storage type; gradients come back in the storage type. For f32 this
          is the f32 column.

Every output (y, mean, invvar, dx, dgamma, dbeta) is compared by relative
error ||out - ref|| / ||ref|| against float64. A row PASSes when llk's error is
finite and at most max(tol, min(F x torch's error for that dtype, F x tol)),
tol being the spec's (f32 1e-5, f16 1e-3, bf16 8e-3) and F = --factor
(default 4): within a small factor of torch's own error, or under the spec's
tolerance, but never above F x tol (a torch that is itself poor in a dtype,
e.g. a CPU bf16 LayerNorm accumulating in bf16, does not open the bound
without limit). The statistics (f32 in llk and in torch, from the same stored
inputs) are held to the f32 column with the f32 tol. A Markdown
table, then `N passed, N failed`; also $OUT/norm-autograd.md when $OUT is set.
Exit status 1 on any failure (missing PTX counts as one).

Without a GPU:
    python3 bench/llama/norm_autograd.py --dry-run [--emulate] [--ptx-dir DIR]
runs the torch side on the CPU (smaller shapes with --small); --emulate stands
in for the llk kernels with a torch float32 emulation that reads the very
Launch lists built for the GPU (arguments resolved by address), so the
argument order, grids, chunking and the table logic are exercised; with
--ptx-dir the launches are also checked against the PTX metadata.
"""
import argparse
import datetime
import json
import os
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import bench  # noqa: E402  (loader, launcher, rel_err, poison)
from llk_specs import Launch, cdiv, f32, i32, ptr  # noqa: E402

EPS = float(np.float32(1e-5))      # passed to the kernels as f32; the references use the same value
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
TOL = {"f32": 1e-5, "f16": 1e-3, "bf16": 8e-3}
# {label, n1, n2, rows_per_chunk}: as test/lib/Checks/LlamaApexChecks.cpp's GPU shapes
SHAPES = [("1x4096", 1, 4096, 1), ("512x4096", 512, 4096, 4), ("333x4000", 333, 4000, 4)]
SMALL_SHAPES = [("1x4096", 1, 4096, 1), ("64x4096", 64, 4096, 4), ("33x4000", 33, 4000, 4)]
STAGE2_BLOCK = 256                 # apex_norm_bwd_gamma: BLOCK=256 (kernels.list)
MAX_N2 = 4096                      # fwd G=512 (x8), bwd/rms BLOCK=4096 (kernels.list)


# ============================================================ launch specs
# Argument order from the headers of examples/llama/apex_*.mlir (and
# test/lib/Checks/LlamaApexChecks.cpp). Each PTX holds the _f32/_f16/_bf16
# functions of its source, so the entry is named.

def fwd_launch(norm, dt, n1, n2, o, t):
    if norm == "layer":
        # apex_layer_norm_fwd_T(y, mean, invvar, x, gamma, beta, n2, eps); grid n1
        return Launch(f"apex_layer_norm_fwd_{dt}.ptx", (n1,),
                      [ptr(o["y"]), ptr(o["mean"]), ptr(o["invvar"]), ptr(t["x"]), ptr(t["gamma"]),
                       ptr(t["beta"]), i32(n2), f32(EPS)], entry=f"apex_layer_norm_fwd_{dt}")
    # apex_rms_norm_fwd_T(y, invvar, x, gamma, n2, eps); grid n1
    return Launch(f"apex_rms_norm_fwd_{dt}.ptx", (n1,),
                  [ptr(o["y"]), ptr(o["invvar"]), ptr(t["x"]), ptr(t["gamma"]), i32(n2), f32(EPS)],
                  entry=f"apex_rms_norm_fwd_{dt}")


def bwd_launches(norm, dt, me, n1, n2, rpc, o, t, fw, scratch):
    """Stage 1 (apex_*_bwd, grid n_chunks) then stage 2 (apex_norm_bwd_gamma,
    grid ceil(n2/256)) once per weight. `fw` holds the forward's outputs (y,
    mean, invvar); saved = x, or y in memory-efficient mode."""
    n_chunks = cdiv(n1, rpc)
    pg = scratch("part_gamma", (n_chunks, n2))
    saved = fw["y"] if me else t["x"]
    ptx = f"apex_{norm}_norm_bwd{'_me' if me else ''}_{dt}.ptx"
    entry = f"apex_{norm}_norm_bwd_{dt}"
    if norm == "layer":
        pb = scratch("part_beta", (n_chunks, n2))
        # (dx, part_gamma, part_beta, dy, saved, mean, invvar, gamma, beta, n1, n2, rows_per_chunk, eps)
        s1 = Launch(ptx, (n_chunks,),
                    [ptr(o["dx"]), ptr(pg), ptr(pb), ptr(t["dy"]), ptr(saved), ptr(fw["mean"]),
                     ptr(fw["invvar"]), ptr(t["gamma"]), ptr(t["beta"]), i32(n1), i32(n2), i32(rpc),
                     f32(EPS)], entry=entry)
    else:
        # (dx, part_gamma, dy, saved, invvar, gamma, n1, n2, rows_per_chunk, eps)
        s1 = Launch(ptx, (n_chunks,),
                    [ptr(o["dx"]), ptr(pg), ptr(t["dy"]), ptr(saved), ptr(fw["invvar"]),
                     ptr(t["gamma"]), i32(n1), i32(n2), i32(rpc), f32(EPS)], entry=entry)
    runs = [s1]
    for out, part in (("dgamma", pg),) + ((("dbeta", pb),) if norm == "layer" else ()):
        # apex_norm_bwd_gamma_T(out, part, n_chunks, n2)
        runs.append(Launch(f"apex_norm_bwd_gamma_{dt}.ptx", (cdiv(n2, STAGE2_BLOCK),),
                           [ptr(o[out]), ptr(part), i32(n_chunks), i32(n2)],
                           entry=f"apex_norm_bwd_gamma_{dt}"))
    return runs


# ============================================================ runners
class GpuRunner:
    """Launches through the llk package (bench.py's LlkKernels: llk.load of
    the PTX and its .json, the arguments checked against its params)."""

    def __init__(self, ptx_dir):
        self.kernels = bench.LlkKernels(ptx_dir)

    def run(self, launches):
        for ln in launches:
            self.kernels.bind(ln.ptx, ln.entry, ln.grid, ln.args)()
        torch.cuda.synchronize()


class EmuRunner:
    """CPU stand-in for the kernels (dry runs): a float32 torch emulation of
    each kernel's formula, reading the same Launch lists. Pointers are
    resolved through a registry of the tensors the script made; programs
    outside the grid do nothing (their outputs stay NaN). With a PTX dir,
    the arguments are also checked against the kernels' .json metadata."""

    def __init__(self, ptx_dir=None):
        self.reg = {}
        self.dir = Path(ptx_dir) if ptx_dir else None

    def register(self, *ts):
        for t in ts:
            self.reg[int(t.data_ptr())] = t

    def _meta_check(self, ln):
        if self.dir is None:
            return
        path = self.dir / (ln.ptx + ".json")
        if not path.exists():
            raise bench.LlkMissing(f"{ln.ptx}.json not in {self.dir}")
        ks = [k for k in json.loads(path.read_text())["kernels"] if k["name"] == ln.entry]
        if not ks:
            raise RuntimeError(f"{ln.ptx}: no kernel {ln.entry}")
        bench.LlkModules.check_args(ks[0], ln.args, ln.ptx)

    def run(self, launches):
        for ln in launches:
            self._meta_check(ln)
            a = [(self.reg[int(x.value)] if x.kind == "pointer" else x.value.item()) for x in ln.args]
            self.me = "_bwd_me_" in ln.ptx      # MEMORY_EFFICIENT=1 (a compile-time constant)
            kind = ln.entry.rsplit("_", 1)[0]
            getattr(self, "_" + kind)(ln.grid, *a)

    @staticmethod
    def _store(dst, rows, val):
        dst.view(-1, val.shape[-1])[rows] = val.to(dst.dtype)

    def _apex_layer_norm_fwd(self, grid, y, mean, invvar, x, gamma, beta, n2, eps):
        n1 = min(grid[0], x.numel() // n2)
        xv = x.view(-1, n2)[:n1].float()
        m = xv.mean(1, keepdim=True)
        iv = torch.rsqrt(((xv - m) ** 2).mean(1, keepdim=True) + eps)
        mean[:n1], invvar[:n1] = m[:, 0], iv[:, 0]
        self._store(y, slice(0, n1), gamma.float() * ((xv - m) * iv) + beta.float())

    def _apex_rms_norm_fwd(self, grid, y, invvar, x, gamma, n2, eps):
        n1 = min(grid[0], x.numel() // n2)
        xv = x.view(-1, n2)[:n1].float()
        iv = torch.rsqrt((xv * xv).mean(1, keepdim=True) + eps)
        invvar[:n1] = iv[:, 0]
        self._store(y, slice(0, n1), gamma.float() * (xv * iv))

    def _bwd(self, layer, me, grid, dx, pg, pb, dy, saved, mean, invvar, gamma, beta, n1, n2, rpc, eps):
        g32 = gamma.float()
        clamp = torch.where(g32 >= 0, g32.clamp(min=eps), g32.clamp(max=-eps))
        for chunk in range(grid[0]):
            r0, r1 = chunk * rpc, min(chunk * rpc + rpc, n1)
            if r0 >= r1:
                continue
            d = dy.view(-1, n2)[r0:r1].float()
            s = saved.view(-1, n2)[r0:r1].float()
            iv = invvar[r0:r1, None]
            if me:
                xhat = ((s - beta.float()) if layer else s) / clamp
            else:
                xhat = ((s - mean[r0:r1, None]) if layer else s) * iv
            g = d * g32
            t = n2 * g - xhat * (g * xhat).sum(1, keepdim=True)
            if layer:
                t = t - g.sum(1, keepdim=True)
            self._store(dx, slice(r0, r1), t * (iv / n2))
            pg[chunk] = (d * xhat).sum(0)
            if layer:
                pb[chunk] = d.sum(0)

    def _apex_layer_norm_bwd(self, grid, dx, pg, pb, dy, saved, mean, invvar, gamma, beta, n1, n2, rpc, eps):
        self._bwd(True, self.me, grid, dx, pg, pb, dy, saved, mean, invvar, gamma, beta, n1, n2, rpc, eps)

    def _apex_rms_norm_bwd(self, grid, dx, pg, dy, saved, invvar, gamma, n1, n2, rpc, eps):
        self._bwd(False, self.me, grid, dx, pg, None, dy, saved, None, invvar, gamma, None, n1, n2, rpc, eps)

    def _apex_norm_bwd_gamma(self, grid, out, part, n_chunks, n2):
        cols = min(grid[0] * STAGE2_BLOCK, n2)
        out[:cols] = part.view(-1, n2)[:n_chunks, :cols].sum(0).to(out.dtype)


# ============================================================ torch side
def make_inputs(norm, dt, n1, n2, gen, dev):
    """As test/lib/Checks/LlamaApexChecks.cpp: LayerNorm x uniform in [1, 5] (mean
    off 0), RMSNorm x standard normal; gamma magnitudes in [0.5, 1.5], every
    third negative; beta uniform in [-1, 1]; dy standard normal. Made in f32,
    stored in the dtype; the references read the stored values."""
    T = DTYPES[dt]

    def u(shape, lo, hi):
        return torch.rand(shape, generator=gen, device=dev) * (hi - lo) + lo

    x = u((n1, n2), 1.0, 5.0) if norm == "layer" else torch.randn(n1, n2, generator=gen, device=dev)
    gamma = u((n2,), 0.5, 1.5)
    gamma[::3] = -gamma[::3]
    beta = u((n2,), -1.0, 1.0)
    dy = torch.randn(n1, n2, generator=gen, device=dev)
    return {"x": x.to(T), "gamma": gamma.to(T), "beta": beta.to(T), "dy": dy.to(T)}


def torch_norm(norm, t, n2, compute, native_notes):
    """Forward + backward with autograd. compute = torch.float64 / float32
    (inputs widened, everything in that type), or None: the storage type
    (F.layer_norm on it; RMSNorm in f32 inside, y rounded to it). Returns
    {y, mean, invvar, dx, dgamma, dbeta} (no stats for the storage type)."""
    T = t["x"].dtype
    cd = compute or T
    leaves = {k: t[k].detach().to(cd).clone().requires_grad_(True) for k in ("x", "gamma", "beta")}
    x, g, b = leaves["x"], leaves["gamma"], leaves["beta"]
    res = {}
    if norm == "layer":
        try:
            y = F.layer_norm(x, (n2,), g, b, EPS)
        except RuntimeError as e:  # e.g. half LayerNorm on an old CPU torch (dry run only)
            native_notes.add(f"F.layer_norm in {T} unavailable here ({str(e).splitlines()[0]}); "
                             "f32 inside, rounded")
            y = F.layer_norm(x.float(), (n2,), g.float(), b.float(), EPS).to(T)
        if compute is not None:
            with torch.no_grad():
                m = x.mean(1)
                res["mean"] = m
                res["invvar"] = torch.rsqrt(((x - m[:, None]) ** 2).mean(1) + EPS)
    else:
        wc = torch.float32 if compute is None and T != torch.float32 else cd
        xw = x.to(wc)
        iv = torch.rsqrt((xw * xw).mean(1, keepdim=True) + EPS)
        y = (g.to(wc) * (xw * iv)).to(cd)
        if compute is not None:
            res["invvar"] = iv[:, 0].detach()
    y.backward(t["dy"].to(cd))
    res.update(y=y.detach(), dx=x.grad, dgamma=g.grad)
    if norm == "layer":
        res["dbeta"] = b.grad
    return res


# ============================================================ main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-dir", default=None, help="llkc PTX + .json (kernels.list names)")
    ap.add_argument("--seed", type=int, default=1234, help="random seed (default 1234)")
    ap.add_argument("--factor", type=float, default=4.0,
                    help="PASS: llk error <= max(FACTOR x torch's error for the dtype, tol) (default 4)")
    ap.add_argument("--norms", default="layer,rms")
    ap.add_argument("--dtypes", default="f32,f16,bf16")
    ap.add_argument("--dry-run", action="store_true", help="no GPU: the torch side on the CPU")
    ap.add_argument("--emulate", action="store_true", help="(dry run) emulate the llk kernels in torch f32")
    ap.add_argument("--small", action="store_true", help="smaller row counts (quick CPU runs)")
    a = ap.parse_args()

    dev = "cpu" if a.dry_run else "cuda"
    if a.dry_run:
        runner = EmuRunner(a.ptx_dir) if a.emulate else None
    else:
        if not a.ptx_dir:
            ap.error("--ptx-dir is required (or --dry-run)")
        runner = GpuRunner(a.ptx_dir)
    shapes = SMALL_SHAPES if a.small else SHAPES
    norms = [s for s in a.norms.split(",") if s]
    dtypes = [s for s in a.dtypes.split(",") if s]
    torch.manual_seed(a.seed)

    rows, notes = [], set()
    passed = failed = 0

    def fmt(e):
        return "–" if e is None else ("NaN" if e != e else f"{e:.2e}")

    for norm in norms:
        for dt in dtypes:
            T = DTYPES[dt]
            for ci, (label, n1, n2, rpc) in enumerate(shapes):
                assert n2 % 16 == 0 and n2 <= MAX_N2
                bench.log(f"[{norm} {dt} {label}]")
                gen = torch.Generator(device=dev)
                gen.manual_seed(a.seed + 1009 * ci + 31 * dtypes.index(dt) + 7 * norms.index(norm))
                t = make_inputs(norm, dt, n1, n2, gen, dev)
                ref = torch_norm(norm, t, n2, torch.float64, notes)
                t32 = torch_norm(norm, t, n2, torch.float32, notes)
                tnat = t32 if T == torch.float32 else torch_norm(norm, t, n2, None, notes)
                ref_cpu = {k: v.cpu() for k, v in ref.items()}

                def err(v, k):
                    return bench.rel_err(v, ref_cpu[k])[0]

                # ---- llk
                llk = {}          # mode -> {output: tensor} or an error string
                if runner is not None:
                    n_chunks = cdiv(n1, rpc)
                    scr = {}

                    def scratch(name, shape):
                        if name not in scr:
                            scr[name] = torch.full(shape, float("nan"), dtype=torch.float32, device=dev)
                            if isinstance(runner, EmuRunner):
                                runner.register(scr[name])
                        return scr[name]

                    def outs(names):
                        o = {}
                        for k in names:
                            if k in ("mean", "invvar"):
                                o[k] = torch.empty(n1, dtype=torch.float32, device=dev)
                            elif k in ("y", "dx"):
                                o[k] = torch.empty(n1, n2, dtype=T, device=dev)
                            else:
                                o[k] = torch.empty(n2, dtype=T, device=dev)
                            bench.poison(o[k])
                        if isinstance(runner, EmuRunner):
                            runner.register(*o.values())
                        return o

                    if isinstance(runner, EmuRunner):
                        runner.register(*t.values())
                    fwd_names = ["y", "mean", "invvar"] if norm == "layer" else ["y", "invvar"]
                    bwd_names = ["dx", "dgamma", "dbeta"] if norm == "layer" else ["dx", "dgamma"]
                    fw = outs(fwd_names)
                    try:
                        runner.run([fwd_launch(norm, dt, n1, n2, fw, t)])
                        llk["fwd"] = fw
                    except Exception as e:
                        llk["fwd"] = e
                    for me in (False, True):
                        mode = "bwd-me" if me else "bwd"
                        if isinstance(llk["fwd"], Exception):
                            llk[mode] = RuntimeError("forward failed")
                            continue
                        o = outs(bwd_names)
                        for v in scr.values():
                            bench.poison(v)
                        try:
                            runner.run(bwd_launches(norm, dt, me, n1, n2, rpc, o, t, fw, scratch))
                            llk[mode] = o
                        except Exception as e:
                            llk[mode] = e
                    for v in llk.values():
                        if isinstance(v, Exception) and not isinstance(v, bench.LlkMissing):
                            traceback.print_exception(type(v), v, v.__traceback__)

                # ---- rows
                for mode, names in (("fwd", ["y", "mean", "invvar"]), ("bwd", ["dx", "dgamma", "dbeta"]),
                                    ("bwd-me", ["dx", "dgamma", "dbeta"])):
                    for k in names:
                        if k not in ref:
                            continue
                        e32 = err(t32[k], k)
                        stat = k in ("mean", "invvar")
                        enat = e32 if stat else err(tnat[k], k)
                        tol = TOL["f32" if stat else dt]
                        bound = max(tol, min(a.factor * enat, a.factor * tol))
                        basis = "f32" if stat or T == torch.float32 else dt
                        r = llk.get(mode)
                        if r is None:
                            el, check, note = None, "n/a", "torch only (dry run)"
                        elif isinstance(r, Exception):
                            msg = str(r).splitlines()[0] if str(r) else type(r).__name__
                            el, note = None, msg
                            check = "MISSING" if isinstance(r, bench.LlkMissing) else "ERROR"
                            failed += 1
                        else:
                            el, note = bench.rel_err(r[k], ref_cpu[k])
                            ok = el == el and el <= bound
                            check = "PASS" if ok else "FAIL"
                            passed += ok
                            failed += not ok
                        ratio = "–" if el is None or el != el or enat == 0 else f"{el / enat:.2f}"
                        rows.append(f"| {norm} | {dt} | {label} | {mode} | {k} | {fmt(el)} | {fmt(e32)} "
                                    f"| {fmt(enat) if T != torch.float32 and not stat else '='} | {ratio} "
                                    f"| {bound:.1e} ({basis}) | {check} | {note} |")
                        if check in ("FAIL", "ERROR", "MISSING"):
                            bench.log(f"  {mode} {k}: {check} llk {fmt(el)} torch {fmt(enat)} bound {bound:.1e} {note}")
                del t, ref, t32, tnat, llk
                if dev == "cuda":
                    torch.cuda.empty_cache()

    if dev == "cuda":
        props = torch.cuda.get_device_properties(0)
        device = f"{props.name} (sm_{props.major}{props.minor})"
    else:
        device = "CPU (dry run" + (", llk emulated in torch f32)" if a.emulate else ", no llk)")
    header = [
        "# Apex LayerNorm/RMSNorm: llk vs PyTorch autograd",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- device: {device}; torch {torch.__version__}",
        f"- llk PTX: {a.ptx_dir or '(none)'}",
        f"- command: python3 bench/llama/norm_autograd.py {' '.join(sys.argv[1:])}",
        f"- seed {a.seed}; eps {EPS!r}; rows_per_chunk 4 (1 for one row); stage 2 BLOCK {STAGE2_BLOCK}",
        "- errors: ||out - ref|| / ||ref|| against torch autograd in float64 on the same stored inputs. "
        "llk: our kernels (bwd: saved x; bwd-me: memory-efficient, saved y from our forward; "
        "dgamma/dbeta through stage 2). torch f32: autograd in float32. torch dtype: torch in the "
        "storage type ('=': same as f32). bound = max(tol, min(factor x torch's error for the dtype, "
        "factor x tol)), "
        f"factor {a.factor:g}, tol f32 1e-5 / f16 1e-3 / bf16 8e-3; mean/invvar (f32, from the "
        "stored inputs) against torch f32 with the f32 tol.",
    ] + [f"- note: {n}" for n in sorted(notes)] + [
        "",
        "| norm | dtype | shape | mode | output | llk err | torch f32 err | torch dtype err | llk/torch "
        "| bound | check | notes |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    text = "\n".join(header + rows + ["", f"{passed} passed, {failed} failed"]) + "\n"
    print(text)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["OUT"]) / "norm-autograd.md").write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
