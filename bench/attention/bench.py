#!/usr/bin/env python3
"""FlashAttention benchmark (issue 23): llk (examples/attention/) vs a Triton
kernel written after Triton 3.6's fused-attention tutorial
(triton_attention.py) vs torch's scaled_dot_product_attention on its fastest
backend here (flash or cuDNN, named in the output), on the GPU machine
(torch, Triton, NumPy, the llk package).

    bench/attention/build_ptx.py build/attention-ptx --archs sm_90,sm_90a   # here
    python3 bench/attention/bench.py --ptx-dir build/attention-ptx [options]

First the float64 checks: at small shapes (tails, grouped-query heads, fewer
queries than keys) every implementation's forward (o; llk's lse too) and
backward (dQ, dK, dV) against reference.py's float64 attention. Then the
benchmark: forward and backward, causal and not, D 64 and 128, sequences
1k/4k/16k, batch x heads 4x32 and 16x16, f16 (--dtype bf16: bf16). At every
shape each implementation's outputs are checked against SDPA's (relative
Frobenius error), then SDPA, Triton and llk (the best of its builds, sm_90
and sm_90a) are timed in alternating rounds (odd ones in reverse order):
medians in TFLOP/s (the tutorial's count: 4·B·H·N²·D for the forward,
causal half of it, the backward 2.5x) and % of SDPA. Last the Llama prompt case: 512 new tokens
after 3584 cached, 32 query heads over 8 or 32 KV heads of 128, causal
(bottom-right), checked against float64 and timed beside llama.cpp's
63 TFLOP/s on the H100.

Outputs are poisoned (NaN) before every checked launch. The rows go to
--csv (default $OUT/attention.csv when $OUT is set, written as the run goes)
in bench/common's format; exit status 1 if any check failed. llk runs its
forward and its three backward kernels (delta, dK/dV, dQ); Triton the
tutorial's forward and its preprocess + backward kernel (K pre-scaled, as
the tutorial does, included); SDPA through autograd (its backward is
o.backward(do)), as a user runs it.

llk's kernels are loaded and launched through the llk package (llk.load of
build_ptx.py's PTX and metadata), each call converting its arguments as a
user's kernel[grid](*args) does.
"""
import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "common"))
sys.path.insert(0, str(HERE))
import numpy as np  # noqa: E402

import benchlib  # noqa: E402
import configs  # noqa: E402
import reference  # noqa: E402

# Issue 23: llama.cpp's CUDA flash attention, 512 queries over a 4096-token
# f16 cache, 32 heads x 128, on the H100.
LLAMA_CPP_TFLOPS = 63.0
# Relative Frobenius error allowed against float64 (f16 output rounding and
# the probabilities rounded to T before P·V: ~3e-4; bf16 8x) and against
# SDPA (both sides' errors, and sums over up to 16k keys).
TOLERANCES = {"f16": {"f64": 2e-3, "sdpa": 5e-3}, "bf16": {"f64": 1.6e-2, "sdpa": 4e-2}}
ARCHS = ("sm_90", "sm_90a")
ROUNDS = 3


@dataclass(frozen=True)
class Shape:
    batch: int
    heads: int
    heads_kv: int
    n_q: int
    n_k: int
    d: int
    causal: bool

    @property
    def group(self):
        return self.heads // self.heads_kv

    def label(self):
        heads = f"{self.heads}" if self.group == 1 else f"{self.heads}/{self.heads_kv}"
        seq = f"n{self.n_q}" if self.n_q == self.n_k else f"q{self.n_q} k{self.n_k}"
        return f"{self.batch}x{heads} {seq} d{self.d}" + (" causal" if self.causal else "")

    def pairs(self):
        """(query, key) pairs counted: causal counts the triangle half."""
        full = self.n_q * self.n_k
        return full - self.n_q * self.n_q / 2 if self.causal else full

    def flops(self, mode):
        """The tutorial's count: two matmuls of 2·pairs·D each a head; the
        backward 2.5x (2 for its own, 0.5 for the recomputation)."""
        fwd = 4.0 * self.batch * self.heads * self.pairs() * self.d
        return fwd * (2.5 if mode == "bwd" else 1.0)


def int_list(text):
    try:
        values = [int(x) for x in text.split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas, got {text!r}")
    if not values or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def batch_heads(text):
    pairs = []
    for item in text.split(","):
        b, sep, h = item.partition("x")
        if not sep or not b.isdigit() or not h.isdigit() or int(b) <= 0 or int(h) <= 0:
            raise argparse.ArgumentTypeError(f"expected BxH[,BxH...], got {text!r}")
        pairs.append((int(b), int(h)))
    return pairs


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ptx-dir", type=Path, required=True, help="build_ptx.py's output (sm_90 and sm_90a)")
    p.add_argument("--csv", type=Path, default=None,
                   help="write the rows there (default: $OUT/attention.csv when $OUT is set)")
    p.add_argument("--dtype", choices=configs.DTYPES, default="f16")
    p.add_argument("--modes", default="fwd,bwd", help="fwd, bwd or both")
    p.add_argument("--causal", choices=("both", "yes", "no"), default="both")
    p.add_argument("--head-dims", type=int_list, default=list(configs.HEAD_DIMS))
    p.add_argument("--seqs", type=int_list, default=[1024, 4096, 16384])
    p.add_argument("--batch-heads", type=batch_heads, default=[(4, 32), (16, 16)])
    p.add_argument("--archs", default=",".join(ARCHS), help="llk builds to time (the best stands for llk)")
    p.add_argument("--no-triton", action="store_true")
    p.add_argument("--no-llama", action="store_true", help="skip the Llama prompt case")
    p.add_argument("--no-checks", action="store_true", help="skip the float64 checks at small shapes")
    p.add_argument("--rounds", type=int, default=ROUNDS)
    p.add_argument("--quick", action="store_true", help="sequences 1k and 4k, one round")
    a = p.parse_args(argv)
    a.modes = a.modes.split(",")
    if not a.modes or any(m not in ("fwd", "bwd") for m in a.modes):
        p.error(f"--modes takes fwd, bwd or fwd,bwd, got {','.join(a.modes)!r}")
    bad = [d for d in a.head_dims if d not in configs.HEAD_DIMS]
    if bad:
        p.error(f"--head-dims: the kernels take {configs.HEAD_DIMS}, got {bad[0]}")
    a.archs = a.archs.split(",")
    if any(x not in ARCHS for x in a.archs):
        p.error(f"--archs takes some of {', '.join(ARCHS)}")
    if any(n % 128 for n in a.seqs):
        p.error("--seqs: multiples of 128 (the Triton tutorial's kernels need whole blocks)")
    if a.rounds <= 0:
        p.error("--rounds must be positive")
    if a.quick:
        a.seqs = [n for n in a.seqs if n <= 4096] or a.seqs[:1]
        a.rounds = 1
    if a.csv is None:
        a.csv = benchlib.default_csv_path("attention")
    return a


def causal_set(args):
    return {"both": (False, True), "yes": (True,), "no": (False,)}[args.causal]


def benchmark_shapes(args):
    return [Shape(b, h, h, n, n, d, causal) for d in args.head_dims for causal in causal_set(args)
            for n in args.seqs for (b, h) in args.batch_heads]


def check_shapes(args):
    """Small float64 checks: (shape, whether Triton takes it). Triton needs
    whole 128-blocks, the same number of queries and keys for its backward."""
    shapes = []
    for d in args.head_dims:
        for causal in causal_set(args):
            shapes.append((Shape(1, 4, 4, 256, 256, d, causal), True))
            shapes.append((Shape(1, 8, 2, 200, 328, d, causal), False))
    return shapes


def llama_shapes():
    return [Shape(1, 32, kv, 512, 4096, 128, True) for kv in (8, 32)]


def tflops(shape, mode, ms):
    return shape.flops(mode) / (ms * 1e-3) / 1e12


def sdpa_label(backend):
    return f"sdpa ({backend})"


def timing_rows(kernel, shape, mode, times, errors, backend, tol):
    """The CSV rows of one shape: `times` {contender: [ms per round]} with
    the SDPA contender named sdpa_label(backend), llk's as "llk <arch>" (the
    fastest that passes marked best), Triton's "triton"; `errors` {contender: rel error
    against SDPA} for all but SDPA. Each row: the median, TFLOP/s, % of SDPA
    and the ratios to Triton and SDPA."""
    median = {name: statistics.median(t) for name, t in times.items()}
    sdpa_name = sdpa_label(backend)
    passing = [n for n in median if n.startswith("llk") and errors[n] < tol]
    best_llk = min(passing, key=median.get) if passing else None
    rows = []
    for name, ms in median.items():
        impl = "sdpa" if name == sdpa_name else name.split()[0]
        row = dict(kernel=kernel, shape=shape.label(), impl=impl,
                   variant=f"{name} (best)" if name == best_llk else name, timing="events",
                   median_us=1e3 * ms, lo_us=1e3 * min(times[name]), hi_us=1e3 * max(times[name]),
                   ceiling=sdpa_name, ceiling_us=1e3 * median[sdpa_name],
                   throughput=tflops(shape, mode, ms), unit="TFLOP/s",
                   vs_triton=benchlib.ratio(median.get("triton"), ms),
                   vs_anchor=benchlib.ratio(median[sdpa_name], ms))
        if impl == "sdpa":
            row.update(check="unchecked", notes=f"backend {backend}; the reference of the others")
        else:
            err = errors[name]
            row.update(rel_err=err, tol=tol, check="PASS" if err < tol else "FAIL", notes="vs SDPA's output")
        rows.append(row)
    return rows


def results_csv(args, gpu, software):
    """The run's CSV (bench/common's format) with its header."""
    return benchlib.ResultsCsv(
        "attention", benchlib.command_line(), gpu,
        ceiling="torch scaled_dot_product_attention on its fastest backend here (flash or cuDNN), "
                "timed in the same rounds", anchor="sdpa",
        timing=f"CUDA events behind a GPU spin (the host's launch hidden), the median of {args.rounds} "
               "alternating rounds of each implementation (each round the median of its launches, "
               "100 ms of them at most)",
        software=software, llk_ptx=str(args.ptx_dir), dtype=args.dtype)


# ======================================================================== GPU
class LlkAttention:
    """examples/attention/'s kernels for one element type, head dim and
    causality, built for `arch` by build_ptx.py, loaded by the llk package
    (the arguments checked against the metadata, the dynamic shared memory
    set from it) and launched on torch's current stream (the tensors'
    framework's); its rows are named "llk <arch>"."""

    def __init__(self, ptx_dir, dtype, d, causal, arch):
        import llk
        self.arch = arch
        self.name = f"llk {arch}"
        self.kernels = {}
        for config in configs.configurations():
            if config.dtype != dtype or config.d != d or (config.causal != causal and
                                                          configs.KERNELS[config.kernel][2]):
                continue
            path = Path(ptx_dir) / f"{config.name(arch)}.ptx"
            if not path.exists():
                raise FileNotFoundError(f"{path}: run bench/attention/build_ptx.py")
            self.kernels[config.kernel] = (config, llk.load(path, kernel=config.entry))

    def _launch(self, kernel, grid, args):
        self.kernels[kernel][1].launch(grid, *args)

    @staticmethod
    def _strides(t):
        if t.stride(3) != 1 or any(s % 8 for s in t.stride()[:3]):
            raise ValueError(f"llk's kernels need the last dimension contiguous and the others "
                             f"strided by multiples of 8, got {t.stride()}")
        return [np.int32(s) for s in t.stride()[:3]]

    def _dims(self, q, k):
        B, H, n_q, _ = q.shape
        return B, H, n_q, k.shape[2], H // k.shape[1]

    def forward(self, q, k, v, o, lse, scale):
        B, H, n_q, n_k, group = self._dims(q, k)
        bm = self.kernels["fwd"][0].blocks.block_m
        args = [q, k, v, o, lse, np.int32(n_q), np.int32(n_k), np.int32(H), np.int32(group)]
        args += self._strides(q) + self._strides(k) + [np.float32(scale)]
        self._launch("fwd", (cdiv(n_q, bm), B * H, 1), args)

    def backward(self, q, k, v, o, lse, do, dq, dk, dv, delta, scale):
        B, H, n_q, n_k, group = self._dims(q, k)
        qs, ks = self._strides(q), self._strides(k)
        blocks = {name: self.kernels[name][0].blocks for name in ("bwd_preprocess", "bwd_dkdv", "bwd_dq")}
        self._launch("bwd_preprocess", (cdiv(n_q, blocks["bwd_preprocess"].block_m), B * H, 1),
                     [o, do, delta, np.int32(n_q), np.int32(H)] + qs)
        tail = [np.int32(n_q), np.int32(n_k), np.int32(H), np.int32(group)] + qs + ks + [np.float32(scale)]
        self._launch("bwd_dkdv", (cdiv(n_k, blocks["bwd_dkdv"].block_n), B * (H // group), 1),
                     [q, k, v, do, lse, delta, dk, dv] + tail)
        self._launch("bwd_dq", (cdiv(n_q, blocks["bwd_dq"].block_m), B * H, 1),
                     [q, k, v, do, lse, delta, dq] + tail)


def cdiv(a, b):
    return (a + b - 1) // b


class Run:
    """What the GPU part shares: torch, the implementations, the CSV."""

    def __init__(self, args):
        import torch
        self.args = args
        self.torch = torch
        self.dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
        self.tol = TOLERANCES[args.dtype]
        self.ok = True
        self.llk = {}
        # The spin's clock (torch.cuda._sleep counts cycles); None: no spin.
        self.cycles_per_us = benchlib.spin_cycles_per_us() if hasattr(torch.cuda, "_sleep") else None
        self.last_host_us = {}  # fn -> its last launch's host time (us)
        if not args.no_triton:
            import triton
            import triton_attention
            self.triton_version = triton.__version__
            self.ta = triton_attention
        from torch.nn.attention import SDPBackend
        self.backends = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
        cap = torch.cuda.get_device_capability()
        self.gpu = f"{torch.cuda.get_device_name()} (sm_{cap[0]}{cap[1]})"
        software = f"torch {torch.__version__}, llk package" + (
            "" if args.no_triton else f", triton {self.triton_version}")
        self.csv = results_csv(args, self.gpu, software)
        print(f"device: {self.gpu}, {software}", flush=True)

    # ------------------------------------------------------------ pieces
    def implementations(self, d, causal):
        out = []
        for arch in self.args.archs:
            key = (d, causal, arch)
            if key not in self.llk:
                self.llk[key] = LlkAttention(self.args.ptx_dir, self.args.dtype, d, causal, arch)
            out.append(self.llk[key])
        return out

    def tensors(self, shape):
        torch = self.torch
        make = lambda heads, n, d: torch.randn((shape.batch, heads, n, d), device="cuda",
                                               dtype=self.dtype).mul_(0.5)
        q = make(shape.heads, shape.n_q, shape.d)
        k = make(shape.heads_kv, shape.n_k, shape.d)
        v = make(shape.heads_kv, shape.n_k, shape.d)
        return q, k, v

    def sdpa(self, shape, backend, q, k, v):
        """SDPA's output on `backend`: the bottom-right causal mask where n_q <
        n_k, grouped heads by enable_gqa (or, where the backend refuses
        that, K and V repeated to every query head)."""
        torch = self.torch
        from torch.nn.attention import sdpa_kernel
        F = torch.nn.functional

        def attend(k, v, gqa):
            extra = {"enable_gqa": True} if gqa else {}
            if shape.causal and shape.n_q != shape.n_k:
                from torch.nn.attention.bias import causal_lower_right
                extra["attn_mask"] = causal_lower_right(shape.n_q, shape.n_k)
            else:
                extra["is_causal"] = shape.causal
            return F.scaled_dot_product_attention(q, k, v, scale=self.scale(shape), **extra)

        with sdpa_kernel(self.backends[backend]):
            if shape.group == 1:
                return attend(k, v, False)
            try:
                return attend(k, v, True)
            except RuntimeError:
                g = shape.group
                return attend(k.repeat_interleave(g, 1), v.repeat_interleave(g, 1), False)

    @staticmethod
    def scale(shape):
        return 1.0 / math.sqrt(shape.d)

    def rel(self, got, want):
        got, want = got.double(), want.double()
        return (self.torch.linalg.norm(got - want) / self.torch.linalg.norm(want)).item()

    def time_ms(self, fn, budget_ms=100.0, warm=False):
        """Median of CUDA-event-timed launches of fn (after a warm-up unless
        `warm`): as many as fit the budget, 1 to 50. Each start event is
        queued behind a GPU spin (torch.cuda._sleep) twice as long as the
        host took to launch fn last time (at least 100 us), so that all of
        fn's launches are queued while the GPU is busy: the interval is the
        kernels' time alone, not the Python launch path's (which differs
        between llk's package, Triton's and torch's; a backward is several
        launches, and a spin shorter than their host time would time the
        host between them)."""
        torch = self.torch
        h0 = time.perf_counter()
        if not warm:
            fn()
        host_us = (time.perf_counter() - h0) * 1e6 if not warm else self.last_host_us.get(fn, 100.0)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = []
        while True:
            if self.cycles_per_us:
                torch.cuda._sleep(int(max(100.0, 2.0 * host_us) * self.cycles_per_us))
            start.record()
            h0 = time.perf_counter()
            fn()
            host_us = (time.perf_counter() - h0) * 1e6
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
            if len(times) >= 50 or sum(times) >= budget_ms:
                self.last_host_us[fn] = host_us
                return statistics.median(times)

    def check(self, label, err, tol):
        good = err < tol
        self.ok &= good
        print(f"  check {label}: rel err {err:.2e} {'PASS' if good else 'FAIL'} (tol {tol:g})", flush=True)
        return "PASS" if good else "FAIL"

    # ------------------------------------------------------------ one shape
    def llk_forward(self, impl, shape, q, k, v):
        o = self.torch.full_like(q, float("nan"))
        lse = self.torch.full(q.shape[:3], float("nan"), device="cuda", dtype=self.torch.float32)
        impl.forward(q, k, v, o, lse, self.scale(shape))
        return o, lse

    def llk_backward(self, impl, shape, q, k, v, o, lse, do):
        torch = self.torch
        dq, dk, dv = (torch.full_like(t, float("nan")) for t in (q, k, v))
        delta = torch.full_like(lse, float("nan"))
        impl.backward(q, k, v, o, lse, do, dq, dk, dv, delta, self.scale(shape))
        return dq, dk, dv

    def triton_run(self, shape, q, k, v, do=None):
        t = self.ta.TritonAttention(shape.causal, self.scale(shape))
        o = t.forward(q, k, v)
        return (o,) if do is None else (o,) + t.backward(do)

    def sdpa_grads(self, shape, backend, q, k, v, do):
        q, k, v = (t.detach().requires_grad_() for t in (q, k, v))
        o = self.sdpa(shape, backend, q, k, v)
        o.backward(do)
        return o.detach(), q.grad, k.grad, v.grad

    def float64_checks(self):
        """Every implementation against reference.py at small shapes."""
        print("== float64 checks (small shapes)", flush=True)
        torch = self.torch
        for shape, triton_too in check_shapes(self.args):
            q, k, v = self.tensors(shape)
            do = torch.randn_like(q)
            host = [t.double().cpu().numpy() for t in (q, k, v, do)]
            o_ref, lse_ref = reference.forward(*host[:3], shape.causal, self.scale(shape))
            grads_ref = reference.backward(*host, shape.causal, self.scale(shape))
            runs = []
            for impl in self.implementations(shape.d, shape.causal):
                o, lse = self.llk_forward(impl, shape, q, k, v)
                grads = self.llk_backward(impl, shape, q, k, v, o, lse, do)
                runs.append((impl.name, o, lse, grads))
            for backend in self.backends:
                try:
                    o, *grads = self.sdpa_grads(shape, backend, q, k, v, do)
                    runs.append((f"sdpa {backend}", o, None, grads))
                except Exception as e:  # a backend that does not take this shape
                    print(f"  sdpa {backend} at {shape.label()}: {type(e).__name__}: {str(e)[:120]}")
            if triton_too and self.triton_enabled():
                o, *grads = self.triton_run(shape, q, k, v, do)
                runs.append(("triton", o, None, grads))
            for name, o, lse, grads in runs:
                errors = {"o": reference.rel_error(o.double().cpu().numpy(), o_ref)}
                if lse is not None:
                    errors["lse"] = reference.rel_error(lse.double().cpu().numpy(), lse_ref)
                for g, got, want in zip(("dq", "dk", "dv"), grads, grads_ref):
                    errors[g] = reference.rel_error(got.double().cpu().numpy(), want)
                for what, err in errors.items():
                    mode = "fwd" if what in ("o", "lse") else "bwd"
                    status = self.check(f"{name:11s} {what:3s} {shape.label()}", err, self.tol["f64"])
                    self.csv.add(kernel=f"attention_{mode}", shape=shape.label(), impl=name.split()[0],
                                 variant=f"{name} {what}", timing="check", rel_err=err, tol=self.tol["f64"],
                                 check=status, notes="vs float64 (reference.py)")

    def triton_enabled(self):
        return not self.args.no_triton

    def best_sdpa(self, shape, q, k, v, mode, do):
        """(backend, callable, output(s)) of the fastest SDPA backend that
        takes the shape."""
        torch = self.torch
        best = None
        for backend in self.backends:
            try:
                if mode == "fwd":
                    out = self.sdpa(shape, backend, q, k, v)
                    run = lambda b=backend: self.sdpa(shape, b, q, k, v)
                else:
                    qg, kg, vg = (t.detach().requires_grad_() for t in (q, k, v))
                    o = self.sdpa(shape, backend, qg, kg, vg)

                    def run(o=o, qg=qg, kg=kg, vg=vg):
                        qg.grad = kg.grad = vg.grad = None
                        o.backward(do, retain_graph=True)
                    run()
                    out = (qg.grad.clone(), kg.grad.clone(), vg.grad.clone())
                torch.cuda.synchronize()
                ms = self.time_ms(run)
            except Exception as e:
                print(f"  sdpa {backend} at {shape.label()} {mode}: {type(e).__name__}: {str(e)[:120]}")
                continue
            if best is None or ms < best[3]:
                best = (backend, run, out, ms)
        if best is None:
            raise RuntimeError(f"no SDPA backend takes {shape.label()}")
        return best[:3]

    def bench_shape(self, shape, mode, kernel=None):
        """Checks every implementation against SDPA at `shape`, then times
        them in alternating rounds; one CSV row each."""
        torch = self.torch
        kernel = kernel or f"attention_{mode}"
        q, k, v = self.tensors(shape)
        do = torch.randn_like(q) if mode == "bwd" else None
        backend, sdpa_run, sdpa_out = self.best_sdpa(shape, q, k, v, mode, do)
        contenders = {sdpa_label(backend): (sdpa_run, 0.0, "sdpa")}
        tol = self.tol["sdpa"]

        def errors_vs_sdpa(outs):
            want = (sdpa_out,) if mode == "fwd" else sdpa_out
            return max(self.rel(g, w) for g, w in zip(outs, want))

        for impl in self.implementations(shape.d, shape.causal):
            o, lse = self.llk_forward(impl, shape, q, k, v)
            if mode == "fwd":
                outs = (o,)
                run = lambda impl=impl, o=o, lse=lse: impl.forward(q, k, v, o, lse, self.scale(shape))
            else:
                dq, dk, dv = self.llk_backward(impl, shape, q, k, v, o, lse, do)
                outs = (dq, dk, dv)
                delta = torch.empty_like(lse)
                run = lambda impl=impl, o=o, lse=lse, g=(dq, dk, dv), delta=delta: impl.backward(
                    q, k, v, o, lse, do, *g, delta, self.scale(shape))
            contenders[impl.name] = (run, errors_vs_sdpa(outs), "llk")
        if self.triton_enabled() and (mode == "fwd" or shape.n_q == shape.n_k and shape.group == 1):
            t = self.ta.TritonAttention(shape.causal, self.scale(shape))
            o = t.forward(q, k, v)
            if mode == "fwd":
                outs = (o,)
                run = lambda t=t: t.forward(q, k, v)
            else:
                outs = t.backward(do)
                run = lambda t=t: t.backward(do)
            contenders["triton"] = (run, errors_vs_sdpa(outs), "triton")
            self.csv.meta["triton-forward"] = "tensor descriptors (TMA)" if t.use_tma else "pointers"
        for name, (_, err, impl) in contenders.items():
            if impl != "sdpa":
                self.check(f"{name:11s} vs SDPA {mode} {shape.label()}", err, tol)
        times = {name: [] for name in contenders}
        # Odd rounds run the contenders in reverse, so that none always runs
        # right after the same one (a GPU's clocks and caches remember it).
        for r in range(self.args.rounds):
            order = list(contenders.items())
            for name, (run, _, _) in (order[::-1] if r % 2 else order):
                times[name].append(self.time_ms(run, warm=r > 0))
        median = {name: statistics.median(t) for name, t in times.items()}
        errors = {name: err for name, (_, err, impl) in contenders.items() if impl != "sdpa"}
        rows = timing_rows(kernel, shape, mode, times, errors, backend, tol)
        for row in rows:
            self.csv.add(**row)
        sdpa_name = sdpa_label(backend)
        best_llk = min((n for n in median if n.startswith("llk")), key=median.get)
        pct = 100.0 * median[sdpa_name] / median[best_llk]
        vs_triton = f", {median['triton'] / median[best_llk]:.2f}x Triton" if "triton" in median else ""
        print(f"  {mode} {shape.label():28s} TFLOP/s: " +
              ", ".join(f"{name} {tflops(shape, mode, ms):6.1f}" for name, ms in median.items()) +
              f"  -> llk {pct:.0f}% of SDPA{vs_triton}", flush=True)
        self.save()
        return median, contenders

    def llama_prompt(self):
        """The Llama prompt case: float64 check of every implementation, then
        the forward timed."""
        print(f"== Llama prompt: 512 new tokens after 3584 cached (llama.cpp: {LLAMA_CPP_TFLOPS} TFLOP/s "
              "on the H100)", flush=True)
        for shape in llama_shapes():
            q, k, v = self.tensors(shape)
            o_ref, lse_ref = reference.forward(*(t.double().cpu().numpy() for t in (q, k, v)), True,
                                               self.scale(shape))
            for impl in self.implementations(shape.d, shape.causal):
                o, lse = self.llk_forward(impl, shape, q, k, v)
                for what, got, want in (("o", o, o_ref), ("lse", lse, lse_ref)):
                    err = reference.rel_error(got.double().cpu().numpy(), want)
                    status = self.check(f"{impl.name} {what} {shape.label()}", err, self.tol["f64"])
                    self.csv.add(kernel="attention_llama_prompt", shape=shape.label(), impl="llk",
                                 variant=f"{impl.name} {what}", timing="check", rel_err=err,
                                 tol=self.tol["f64"], check=status, notes="vs float64 (reference.py)")
            median, _ = self.bench_shape(shape, "fwd", kernel="attention_llama_prompt")
            best = min((n for n in median if n.startswith("llk")), key=median.get)
            print(f"  {shape.label()}: llk {tflops(shape, 'fwd', median[best]):.1f} TFLOP/s = "
                  f"{tflops(shape, 'fwd', median[best]) / LLAMA_CPP_TFLOPS:.2f}x llama.cpp's "
                  f"{LLAMA_CPP_TFLOPS}", flush=True)

    def save(self):
        if self.args.csv:
            self.csv.write(self.args.csv)


def main(argv=None):
    args = parse_args(argv)
    run = Run(args)
    t0 = time.time()
    torch = run.torch
    torch.manual_seed(0)
    if not args.no_checks:
        run.float64_checks()
        run.save()
    for mode in args.modes:
        print(f"== {mode}, {args.dtype} ({time.time() - t0:.0f} s)", flush=True)
        for shape in benchmark_shapes(args):
            try:
                run.bench_shape(shape, mode)
            except Exception as e:  # one shape's failure is a FAIL row, the run goes on
                run.ok = False
                print(f"  {mode} {shape.label()}: ERROR {type(e).__name__}: {e}", flush=True)
                run.csv.add(kernel=f"attention_{mode}", shape=shape.label(), impl="llk", check="ERROR",
                            notes=f"{type(e).__name__}: {str(e)[:200]}")
                run.save()
            torch.cuda.empty_cache()
    if not args.no_llama:
        run.llama_prompt()
    run.save()
    print(f"{'all checks passed' if run.ok else 'FAILED checks'}; {time.time() - t0:.0f} s"
          + (f"; {args.csv}" if args.csv else ""), flush=True)
    return 0 if run.ok else 1


if __name__ == "__main__":
    sys.exit(main())
