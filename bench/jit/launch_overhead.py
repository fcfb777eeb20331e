#!/usr/bin/env python3
"""The llk package's host cost of a launch, on any backend (CI: the
interpreter): a kernel that does nothing, with attention_fwd's signature (5
pointers, 9 i32 and an f32), launched as a user launches it.

    LLK_BACKEND=interpreter PYTHONPATH=python python3 bench/jit/launch_overhead.py [--seconds 1]

Prints, per way of launching, the median microseconds a call over 5 timed
batches:
  bind            kernel.bind(grid, *args): the arguments converted and checked
  launch unbound  kernel[grid](*args): bind, then launch
  launch bound    a bound Launch called again (what benchmarks time)
  C launch        llk_kernel_launch_ex alone on prepared arguments (the floor:
                  the runtime's launch, the interpreter's run of the empty kernel)
The gap between `launch bound` and `C launch` is the package's own per-launch
cost; `launch unbound` minus `C launch` that of converting the arguments.
"""
import argparse
import ctypes
import statistics
import time

import llk
from llk import _capi, _runtime

KERNEL = """
func.func @empty(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                 %o: !tile.ptr<f16>, %lse: !tile.ptr<f32>, %n_q: i32, %n_k: i32, %h: i32,
                 %group: i32, %sq0: i32, %sq1: i32, %sq2: i32, %sk0: i32, %sk1: i32,
                 %sk2: i32, %scale: f32) {
  return
}
"""


def per_call_us(fn, seconds):
    """Median over 5 batches of the microseconds a call of fn takes."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 10:  # calibrate
        fn()
        n += 1
    batch = max(1, n * 2 // 5)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - start) / batch * 1e6)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per way of launching")
    opts = parser.parse_args()
    dev = llk.device()
    kernel = llk.compile(KERNEL)
    buffers = [_runtime.Buffer(dev, 4096) for _ in range(5)]
    pointers = [llk.Pointer(b.address, "f16") for b in buffers[:4]]
    pointers.append(llk.Pointer(buffers[4].address, "f32"))
    args = pointers + [1024, 1024, 32, 1, 8192, 256, 64, 8192, 256, 64, 0.125]
    grid = (1, 1, 1)
    bound = kernel.bind(grid, *args)
    lib = _capi.lib()
    c_args = (_capi.Arg * len(args))(*[
        lib.llk_arg_ptr(p.address, _capi.TYPE_CODE[p.dtype]) for p in pointers] + [
        lib.llk_arg_i32(a) for a in args[5:-1]] + [lib.llk_arg_f32(args[-1])])
    c_grid = (ctypes.c_uint * 3)(*grid)
    options = _capi.LaunchOptions(None, 0, 0, 0)

    def c_launch():
        _capi.check(lib.llk_kernel_launch_ex(kernel._handle, c_grid, c_args, len(args),
                                             ctypes.byref(options)))

    ways = {"bind": lambda: kernel.bind(grid, *args),
            "launch unbound": lambda: kernel[grid](*args),
            "launch bound": bound,
            "C launch": c_launch}
    print(f"{dev}: {kernel.signature}")
    results = {name: per_call_us(fn, opts.seconds) for name, fn in ways.items()}
    for name, us in results.items():
        print(f"  {name:15s} {us:8.2f} us a call")
    print(f"  package's own cost: bound {results['launch bound'] - results['C launch']:.2f} us, "
          f"unbound {results['launch unbound'] - results['C launch']:.2f} us a launch")


if __name__ == "__main__":
    main()
