"""libllk.so's C interface (llk/runtime.h) through ctypes.

The library is found, in order: $LLK_LIBRARY (a path), the build of the
checkout this package lives in (<repo>/build/lib/libllk.so), then the
dynamic loader's search path (an installed prefix on LD_LIBRARY_PATH or in
ld.so.conf). It is loaded RTLD_LOCAL, so that the LLVM and MLIR inside it
never interpose another library's (Triton's, say) in the same process.
"""
import ctypes
import os
import threading
from pathlib import Path

# llk_status
SUCCESS = 0
STATUS_NAMES = {1: "NO_DRIVER", 2: "CUDA", 3: "INVALID_ARGUMENT", 4: "NOT_FOUND",
                5: "COMPILE", 6: "IO", 7: "INTERNAL", 8: "EXECUTION"}

# llk_type, in the header's order
TYPES = ("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2")
TYPE_CODE = {name: code for code, name in enumerate(TYPES)}
UNTYPED = 255
ARG_TENSOR_MAP = 2


class Error(RuntimeError):
    """A failed llk call: `status` (COMPILE, CUDA, ...), the message, and
    `cuda_error` (CUDA_ERROR_..., empty when no driver call failed)."""

    def __init__(self, message, status="INTERNAL", cuda_error=""):
        super().__init__(message)
        self.status = status
        self.cuda_error = cuda_error


class CompileError(Error):
    """The source does not compile; the message has the diagnostics
    (file:line:col)."""


class ExecutionError(Error):
    """The interpreter stopped a kernel (an out-of-bounds access, a broken
    divisibility promise...): the message names the kernel and the
    location."""


class NoDriverError(Error):
    """No CUDA driver (libcuda.so.1) on this machine."""


class ArgumentError(Error, ValueError):
    """The runtime refused the call's arguments (a grid over the device's
    limits, shared memory, options, an argument that breaks its parameter's
    contract: a misaligned pointer, an integer that is not a multiple of its
    tile.divisibility)."""


_ERRORS = {"COMPILE": CompileError, "EXECUTION": ExecutionError, "NO_DRIVER": NoDriverError,
           "INVALID_ARGUMENT": ArgumentError}


class Arg(ctypes.Structure):
    _fields_ = [("is_pointer", ctypes.c_int), ("type", ctypes.c_int), ("bits", ctypes.c_uint64)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("is_pointer", ctypes.c_int), ("type", ctypes.c_int),
                ("is_tensor_desc", ctypes.c_int), ("tma_box", ctypes.c_int64 * 2),
                ("read_overrun_bytes", ctypes.c_int64)]


class LaunchOptions(ctypes.Structure):
    _fields_ = [("stream", ctypes.c_void_p), ("dynamic_shared_bytes", ctypes.c_uint),
                ("dependent_launch", ctypes.c_int), ("synchronize", ctypes.c_int)]


class JITStats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint) for name in
                ("compiles", "memory_hits", "disk_hits", "store_failures", "cubin_loads",
                 "ptx_loads")]


class Config(ctypes.Structure):
    _fields_ = [("defines", ctypes.POINTER(ctypes.c_char_p)), ("num_defines", ctypes.c_size_t),
                ("num_warps", ctypes.c_uint), ("num_stages", ctypes.c_uint)]


class AutotuneOptions(ctypes.Structure):
    _fields_ = [("warmup_ms", ctypes.c_double), ("rep_ms", ctypes.c_double),
                ("no_flush", ctypes.c_int)]


class Region(ctypes.Structure):
    _fields_ = [("address", ctypes.c_uint64), ("bytes", ctypes.c_size_t)]


class Timing(ctypes.Structure):
    _fields_ = [("median_ms", ctypes.c_double), ("p20_ms", ctypes.c_double),
                ("p80_ms", ctypes.c_double), ("reps", ctypes.c_int), ("from_cache", ctypes.c_int)]


_H = ctypes.c_void_p  # every handle
_P = ctypes.POINTER
_S = ctypes.c_int     # llk_status
_PROTOTYPES = {
    "llk_version": (ctypes.c_char_p, []),
    "llk_build_id": (ctypes.c_char_p, []),
    "llk_last_error": (ctypes.c_char_p, []),
    "llk_last_cuda_error": (ctypes.c_char_p, []),
    "llk_arg_ptr": (Arg, [ctypes.c_uint64, ctypes.c_int]),
    "llk_arg_tensor_map": (Arg, [_H]),
    "llk_arg_i8": (Arg, [ctypes.c_int8]),
    "llk_arg_i16": (Arg, [ctypes.c_int16]),
    "llk_arg_i32": (Arg, [ctypes.c_int32]),
    "llk_arg_i64": (Arg, [ctypes.c_int64]),
    "llk_arg_f16": (Arg, [ctypes.c_float]),
    "llk_arg_bf16": (Arg, [ctypes.c_float]),
    "llk_arg_f32": (Arg, [ctypes.c_float]),
    "llk_arg_f64": (Arg, [ctypes.c_double]),
    "llk_device_count": (_S, [_P(ctypes.c_int)]),
    "llk_device_open": (_S, [ctypes.c_int, _P(_H)]),
    "llk_device_arch": (ctypes.c_char_p, [_H]),
    "llk_device_name": (ctypes.c_char_p, [_H]),
    "llk_device_destroy": (_S, [_H]),
    "llk_module_load_ptx_file": (_S, [_H, ctypes.c_char_p, _P(_H)]),
    "llk_module_destroy": (_S, [_H]),
    "llk_module_get_kernel": (_S, [_H, ctypes.c_char_p, _P(_H)]),
    "llk_kernel_name": (ctypes.c_char_p, [_H]),
    "llk_kernel_num_params": (ctypes.c_size_t, [_H]),
    "llk_kernel_param_info": (_S, [_H, ctypes.c_size_t, _P(ParamInfo)]),
    "llk_kernel_param_divisibility": (_S, [_H, ctypes.c_size_t, _P(ctypes.c_int64)]),
    "llk_kernel_num_warps": (ctypes.c_uint, [_H]),
    "llk_kernel_shared_bytes": (ctypes.c_int64, [_H]),
    "llk_kernel_dynamic_shared_bytes": (ctypes.c_int64, [_H]),
    "llk_kernel_grid_dependency_wait": (ctypes.c_int, [_H]),
    "llk_kernel_occupancy": (_S, [_H, ctypes.c_uint, _P(ctypes.c_int)]),
    "llk_kernel_set_shared_memory_carveout": (_S, [_H, ctypes.c_int]),
    "llk_kernel_destroy": (_S, [_H]),
    "llk_kernel_launch_ex": (_S, [_H, _P(ctypes.c_uint), _P(Arg), ctypes.c_size_t,
                                  _P(LaunchOptions)]),
    "llk_tensor_map_create": (_S, [_H, _H, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_uint64,
                                   ctypes.c_uint64, ctypes.c_uint64, _P(_H)]),
    "llk_tensor_map_address": (ctypes.c_uint64, [_H]),
    "llk_tensor_map_destroy": (_S, [_H]),
    "llk_buffer_create": (_S, [_H, ctypes.c_size_t, _P(_H)]),
    "llk_buffer_address": (ctypes.c_uint64, [_H]),
    "llk_buffer_copy_from_host": (_S, [_H, ctypes.c_void_p, ctypes.c_size_t]),
    "llk_buffer_copy_to_host": (_S, [_H, ctypes.c_void_p, ctypes.c_size_t]),
    "llk_buffer_destroy": (_S, [_H]),
    "llk_synchronize": (_S, [_H]),
    "llk_jit_create": (_S, [_H, ctypes.c_char_p, _P(_H)]),
    "llk_jit_compile": (_S, [_H, ctypes.c_char_p, ctypes.c_char_p, _P(ctypes.c_char_p),
                             ctypes.c_size_t, ctypes.c_uint, ctypes.c_uint, ctypes.c_char_p,
                             ctypes.c_char_p, _P(_H)]),
    "llk_jit_get_stats": (_S, [_H, _P(JITStats)]),
    "llk_jit_destroy": (_S, [_H]),
    "llk_autotuner_create": (_S, [_H, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                  _P(Config), ctypes.c_size_t, _P(AutotuneOptions), _P(_H)]),
    "llk_autotuner_tune": (_S, [_H, ctypes.c_char_p, _P(ctypes.c_uint), _P(Arg), ctypes.c_size_t,
                                ctypes.c_void_p, _P(Region), ctypes.c_size_t,
                                _P(ctypes.c_size_t)]),
    "llk_autotuner_timing": (_S, [_H, ctypes.c_char_p, ctypes.c_size_t, _P(Timing)]),
    "llk_autotuner_kernel": (_S, [_H, ctypes.c_size_t, _P(_H)]),
    "llk_autotuner_destroy": (_S, [_H]),
}


def _candidates():
    env = os.environ.get("LLK_LIBRARY")
    if env:
        return [env]  # as given: a wrong path is an error, not a fallback
    repo = Path(__file__).resolve().parents[2]
    found = [str(repo / "build" / "lib" / "libllk.so")]
    return [p for p in found if os.path.exists(p)] + ["libllk.so"]


# RTLD_LOCAL: nothing of the library's is seen by others. RTLD_DEEPBIND:
# the library's references to what it defines itself bind to its own
# definitions before the process's. A libllk.so built with
# LLK_STATIC_LLVM=ON (the GPU carry's) holds its own C++ runtime, and
# torch puts the system's libstdc++ in the global scope (RTLD_GLOBAL):
# without DEEPBIND the library's code took that one's data (locale facet
# ids), and its string streams failed (the disk cache read no entry).
_MODE = ctypes.RTLD_LOCAL | getattr(os, "RTLD_DEEPBIND", 0)

_lib = None
_lock = threading.Lock()


def lib():
    """The loaded library, its functions typed (loaded on first use)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            errors = []
            for path in _candidates():
                try:
                    loaded = ctypes.CDLL(path, mode=_MODE)
                    break
                except OSError as e:
                    errors.append(f"{path}: {e}")
            else:
                raise Error("cannot load libllk.so (set LLK_LIBRARY to its path, or build the "
                            "checkout: scripts/build.sh): " + "; ".join(errors), "IO")
            for name, (restype, argtypes) in _PROTOTYPES.items():
                try:
                    f = getattr(loaded, name)
                except AttributeError:
                    raise Error(f"{path} has no {name}: an llk older than this package", "IO")
                f.restype, f.argtypes = restype, argtypes
            _lib = loaded
    return _lib


def last_error():
    return (lib().llk_last_error() or b"").decode(errors="replace")


def check(status, what=""):
    """Raises the Error of a failed status, with llk_last_error()."""
    if status == SUCCESS:
        return
    name = STATUS_NAMES.get(status, f"status {status}")
    message = last_error() or f"{what} failed ({name})"
    cuda = (lib().llk_last_cuda_error() or b"").decode()
    raise _ERRORS.get(name, Error)(message, name, cuda)


def check_value(value, what):
    """For the calls that return a value and set llk_last_error on failure."""
    error = last_error()
    if error:
        raise Error(f"{what}: {error}", "INVALID_ARGUMENT")
    return value
