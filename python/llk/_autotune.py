"""llk.autotune: the runtime's autotuner (llk_autotuner_*) over Python
arguments."""
import ctypes

from . import _capi
from ._capi import check, lib
from ._runtime import (Kernel, _grid, _PreparedArgs, _stream_handle, _stream_of, _c_strings,
                       default_device, defines, read_source)
from ._arrays import array_view


class Config:
    """One configuration: the constants it binds, num_warps, num_stages
    (None: the kernel's own), as triton.Config."""

    def __init__(self, constants=None, num_warps=4, num_stages=None):
        self.constants = dict(constants or {})
        self.num_warps = int(num_warps)
        self.num_stages = None if num_stages is None else int(num_stages)

    def __repr__(self):
        items = [f"{k}={v}" for k, v in sorted(self.constants.items())]
        items.append(f"num_warps={self.num_warps}")
        if self.num_stages is not None:
            items.append(f"num_stages={self.num_stages}")
        return "Config(" + ", ".join(items) + ")"


def _default_key(args):
    """An array's dtype and shape, a scalar's value, for each argument."""
    key = []
    for a in args:
        if hasattr(a, "item") and getattr(a, "ndim", None) == 0:  # a numpy scalar
            a = a.item()
        view = array_view(a) if not isinstance(a, (int, float)) else None
        key.append((view.dtype, view.shape) if view is not None else a)
    return tuple(key)


class Autotuner:
    """The configurations of one kernel of a source, tuned per key on the
    real arguments (the runtime's Autotuner: all compiled at once in
    parallel, each timed as triton.testing.do_bench times, the L2 flushed
    before each timed launch, the median kept; the winner persisted in the
    cache directory). `tuner[grid](*args)` tunes on the first call for the
    arguments' key, then launches the winner; grid is an int, a tuple or a
    function of the configuration's meta-parameters (its constants,
    num_warps, num_stages)."""

    def __init__(self, source, configs, key=None, kernel=None, restore=(), warmup=25, rep=100,
                 flush_l2=True, device=None):
        self.text, self.source_name = read_source(source)
        self.configs = list(configs)
        if not self.configs:
            raise ValueError("llk.autotune needs at least one Config")
        self.key, self.restore = key, tuple(restore)
        self.device = device or default_device()
        self._kernels = {}
        self._defines = [defines(c.constants) for c in self.configs]
        self._c_defines = [_c_strings(d) for d in self._defines]
        c_configs = (_capi.Config * len(self.configs))()
        for i, c in enumerate(self.configs):
            c_configs[i] = _capi.Config(self._c_defines[i], len(self._defines[i]), c.num_warps,
                                        c.num_stages or 0)
        options = _capi.AutotuneOptions(float(warmup), float(rep), int(not flush_l2))
        handle = ctypes.c_void_p()
        check(lib().llk_autotuner_create(self.device._jit, self.text.encode(),
                                         self.source_name.encode(),
                                         kernel.encode() if kernel else None, c_configs,
                                         len(self.configs), ctypes.byref(options),
                                         ctypes.byref(handle)), "llk_autotuner_create")
        self._handle = handle

    def kernel(self, index):
        """Configuration `index`'s kernel (compiled once)."""
        if index not in self._kernels:
            handle = ctypes.c_void_p()
            check(lib().llk_autotuner_kernel(self._handle, index, ctypes.byref(handle)),
                  "llk_autotuner_kernel")
            c = self.configs[index]
            self._kernels[index] = Kernel(handle, self.device, c.constants, c.num_stages,
                                          self.source_name)
        return self._kernels[index]

    def _key_of(self, args):
        if self.key is None:
            key = _default_key(args)
        elif callable(self.key):
            key = self.key(*args)
        else:
            key = tuple(_default_key([args[i]])[0] for i in self.key)
        return repr(key)

    def tune(self, grid, *args, stream=None):
        """The index of the best configuration for these arguments' key,
        tuning first unless it is known."""
        return self._run(grid, args, stream, launch=False)

    def best_config(self, grid, *args, stream=None):
        return self.configs[self.tune(grid, *args, stream=stream)]

    def timings(self, *args):
        """{Config: (median, p20, p80) ms} measured for the key of `args`
        (None entries: failed, or the winner came from the cache)."""
        key = self._key_of(args).encode()
        result = {}
        for i, c in enumerate(self.configs):
            t = _capi.Timing()
            check(lib().llk_autotuner_timing(self._handle, key, i, ctypes.byref(t)),
                  "llk_autotuner_timing")
            result[i] = None if t.median_ms != t.median_ms else (t.median_ms, t.p20_ms,
                                                                 t.p80_ms)
        return result

    def _run(self, grid, args, stream, launch):
        # Arguments converted against the first configuration's signature (the
        # runtime checks every configuration's).
        reference = self.kernel(0)
        prepared = _PreparedArgs(reference, args)
        grids = (ctypes.c_uint * (3 * len(self.configs)))()
        for i, c in enumerate(self.configs):
            meta = dict(c.constants, num_warps=c.num_warps, num_stages=c.num_stages)
            grids[3 * i:3 * i + 3] = _grid(grid, meta)
        stream = _stream_handle(stream)
        if stream is None:
            stream = _stream_of(prepared.framework, self.device)
        staging = prepared.stage()
        regions = (_capi.Region * max(1, len(self.restore)))()
        for n, index in enumerate(self.restore):
            view = prepared.view(index) if 0 <= index < len(args) else None
            if view is None:
                raise TypeError(f"llk.autotune: restore names argument {index}, which is not "
                                "an array")
            low = staging.address(view) - (view.address - view.low) if not view.device else \
                view.low
            regions[n] = _capi.Region(low, view.high - view.low)
        best = ctypes.c_size_t()
        check(lib().llk_autotuner_tune(self._handle, self._key_of(args).encode(), grids,
                                       prepared.c_args, len(args), stream, regions,
                                       len(self.restore), ctypes.byref(best)),
              "llk_autotuner_tune")
        if launch:
            winner = self.kernel(best.value)
            options = _capi.LaunchOptions(stream, 0, 0, 0)
            grid_of_best = (ctypes.c_uint * 3)(*grids[3 * best.value:3 * best.value + 3])
            check(lib().llk_kernel_launch_ex(winner._handle, grid_of_best, prepared.c_args,
                                             len(args), ctypes.byref(options)), "launch")
        if staging:
            staging.finish()
        return best.value

    def __getitem__(self, grid):
        def launcher(*args, stream=None):
            self._run(grid, args, stream, launch=True)
        return launcher

    def __del__(self):
        if _capi._lib is not None and getattr(self, "_handle", None):
            lib().llk_autotuner_destroy(self._handle)


def autotune(source, configs, key=None, kernel=None, restore=(), warmup=25, rep=100,
             flush_l2=True, device=None):
    """An Autotuner of `kernel` (default: the source's only kernel) of
    `source` (a path or the text) over `configs` (llk.Config).

    key: what changes the winner — None: every array's dtype and shape and
    every scalar's value; a list of argument indices; or a function of the
    arguments returning something hashable. restore: indices of array
    arguments the kernel overwrites that must look untouched after tuning
    (an output that is also an input). warmup, rep: do_bench's budgets in
    milliseconds; flush_l2: flush the L2 cache before each timed launch."""
    return Autotuner(source, configs, key, kernel, restore, warmup, rep, flush_l2, device)
