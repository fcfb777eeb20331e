"""llk from Python: JIT-compile tile kernels, launch them on torch tensors,
CuPy arrays or (on the interpreter) numpy arrays, and autotune them.

    import llk
    softmax = llk.compile("examples/softmax.mlir", constants={"BLOCK": 4096}, num_warps=8)
    softmax[(rows,)](out, x, x.stride(0), out.stride(0), cols)

Pure Python over libllk.so's C interface (ctypes); docs/python.md has the
whole API. LLK_BACKEND=interpreter runs every kernel on llk's interpreter
on the host (numpy arrays, no GPU), as CI does.
"""
from ._arrays import Pointer, pointer as ptr
from ._autotune import Autotuner, Config, autotune
from ._capi import ArgumentError, CompileError, Error, ExecutionError, NoDriverError
from ._runtime import (Device, Kernel, Launch, Param, TensorDescriptor, build_id, compile,
                       default_device as device, load, version)

__all__ = ["Pointer", "ptr", "Autotuner", "Config", "autotune", "ArgumentError", "CompileError",
           "Error", "ExecutionError", "NoDriverError", "Device", "Kernel", "Launch", "Param",
           "TensorDescriptor", "build_id", "compile", "device", "load", "version"]
__version__ = "0.1.0"
