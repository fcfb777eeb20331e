"""Devices, the JIT, kernels and their launches."""
import collections
import ctypes
import os
import struct
import threading
from pathlib import Path

from . import _capi
from ._arrays import _TYPESTR, SIZES, Pointer, array_view, dtype_name
from ._capi import check, lib


# ---------------------------------------------------------------- devices
class Device:
    """A device of the backend LLK_BACKEND selects (the GPU through the CUDA
    driver, or llk's interpreter on the host), with its JIT (the disk cache
    of $LLK_CACHE_DIR)."""

    def __init__(self, ordinal=0):
        handle = ctypes.c_void_p()
        check(lib().llk_device_open(int(ordinal), ctypes.byref(handle)), "llk_device_open")
        self._handle = handle
        self.ordinal = int(ordinal)
        self.arch = lib().llk_device_arch(handle).decode()
        self.name = lib().llk_device_name(handle).decode()
        jit = ctypes.c_void_p()
        check(lib().llk_jit_create(handle, None, ctypes.byref(jit)), "llk_jit_create")
        self._jit = jit

    @property
    def interpreter(self):
        """Whether kernels run on llk's interpreter (host memory)."""
        return self.arch == "interpreter"

    def synchronize(self):
        check(lib().llk_synchronize(self._handle), "llk_synchronize")

    def jit_stats(self):
        """What this device's JIT has done: compiles, memory and disk hits,
        failed stores, modules loaded from a cubin or from PTX."""
        s = _capi.JITStats()
        check(lib().llk_jit_get_stats(self._jit, ctypes.byref(s)), "llk_jit_get_stats")
        return {name: getattr(s, name) for name, _ in _capi.JITStats._fields_}

    def __repr__(self):
        return f"llk.Device({self.ordinal}: {self.name}, {self.arch})"

    def __del__(self):
        if _capi._lib is not None and getattr(self, "_handle", None):
            lib().llk_jit_destroy(getattr(self, "_jit", None))
            lib().llk_device_destroy(self._handle)


_devices = {}
_devices_lock = threading.Lock()


def default_device(ordinal=0):
    """The device `ordinal` of the LLK_BACKEND backend, opened once
    (llk.device)."""
    with _devices_lock:
        if ordinal not in _devices:
            _devices[ordinal] = Device(ordinal)
        return _devices[ordinal]


class Buffer:
    """Device memory from the runtime (whole 16-byte granules, the buffer
    contract's padding zeroed); host memory on the interpreter."""

    def __init__(self, dev, nbytes):
        self.device, self.nbytes = dev, int(nbytes)
        handle = ctypes.c_void_p()
        check(lib().llk_buffer_create(dev._handle, self.nbytes, ctypes.byref(handle)),
              "llk_buffer_create")
        self._handle = handle
        self.address = lib().llk_buffer_address(handle)

    def copy_from_host(self, address, nbytes):
        check(lib().llk_buffer_copy_from_host(self._handle, ctypes.c_void_p(address), nbytes),
              "llk_buffer_copy_from_host")

    def copy_to_host(self, address, nbytes):
        check(lib().llk_buffer_copy_to_host(self._handle, ctypes.c_void_p(address), nbytes),
              "llk_buffer_copy_to_host")

    def __del__(self):
        if _capi._lib is not None and getattr(self, "_handle", None):
            lib().llk_buffer_destroy(self._handle)


# ---------------------------------------------------------------- sources
def read_source(path_or_source):
    """(text, name) of a kernel source: a path (a pathlib.Path, or a string
    without a newline naming an existing file or ending in .mlir) or the
    text itself."""
    if isinstance(path_or_source, os.PathLike):
        path = Path(path_or_source)
    elif isinstance(path_or_source, str):
        text = path_or_source
        if "\n" in text or not (text.endswith(".mlir") or os.path.isfile(text)):
            return text, "<source>"
        path = Path(text)
    else:
        raise TypeError(f"llk.compile takes a path or the source text, not "
                        f"{type(path_or_source).__name__}")
    try:
        return path.read_text(), str(path)
    except OSError as e:
        raise _capi.Error(f"cannot read the source '{path}': {e.strerror}", "NOT_FOUND") from None


def _constant(name, value):
    """NAME=VALUE as llkc's -D: an integer, or an element type (given by
    name or as a numpy/torch dtype)."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return f"{name}={value}"
    text = value if isinstance(value, str) else dtype_name(value)
    if not text:
        raise TypeError(f"constant {name}: {value!r} is neither an integer nor an element type")
    return f"{name}={text}"


def defines(constants):
    return [_constant(k, v) for k, v in sorted((constants or {}).items())]


def _c_strings(strings):
    array = (ctypes.c_char_p * max(1, len(strings)))(*[s.encode() for s in strings])
    return array


# ---------------------------------------------------------------- kernels
class Param:
    """One kernel parameter, as the launch metadata gives it: kind
    ("pointer", "tensordesc" or "scalar"), dtype (a scalar's type, a
    pointer's or descriptor's element type), a descriptor's TMA box (rows,
    columns), how far past (and before) its accessed bytes the kernel may
    read a pointer's memory (the buffer contract's read_overrun_bytes), and
    its contract (divisibility, its tile.divisibility: a pointer's address is
    a multiple of it in bytes, an integer a multiple of it; 1: none)."""

    __slots__ = ("index", "kind", "dtype", "tma_box", "read_overrun_bytes", "divisibility")

    def __init__(self, index, kind, dtype, tma_box=None, read_overrun_bytes=0, divisibility=1):
        self.index, self.kind, self.dtype = index, kind, dtype
        self.tma_box, self.read_overrun_bytes = tma_box, read_overrun_bytes
        self.divisibility = divisibility

    @property
    def alignment_mask(self):
        """The bits an argument must have clear: its divisibility's and, for
        a pointer, its element size's (the natural alignment) less one."""
        if self.kind == "pointer":
            return max(self.divisibility, SIZES[self.dtype]) - 1
        return self.divisibility - 1 if self.dtype in _INT_SLOT else 0

    def __str__(self):
        return {"pointer": f"ptr<{self.dtype}>", "tensordesc": f"tensordesc<{self.dtype}>"}.get(
            self.kind, self.dtype)

    def __repr__(self):
        return f"Param({self.index}, {self})"


# Integer parameters: the values they take (signed, or unsigned as their
# bits) and the mask of their bits.
_INT_SLOT = {t: (-(1 << (n - 1)), 1 << n, (1 << n) - 1)
             for t, n in (("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64))}
_SCALAR_ARG = {"f16": "llk_arg_f16", "bf16": "llk_arg_bf16", "f32": "llk_arg_f32",
               "f64": "llk_arg_f64"}
# How a parameter's payload (llk_arg.bits) is packed: an integer's bits, a
# pointer's address, a descriptor's address, f16/bf16 bits ("Q"); an f32
# ("f", then zeros) or an f64 ("d") from a Python float.
_Grid3 = ctypes.c_uint * 3
_SLOT_INT, _SLOT_FLOAT, _SLOT_POINTER, _SLOT_OTHER = "int", "float", "pointer", "other"


# numpy scalar types (np.int32, ...) by llk type, as they are met.
_NUMPY_SCALAR_TYPES = {}


def _f32_bits(value):
    return lib().llk_arg_f32(value).bits


def _dtype_name_of(dtype, _names={}):
    """dtype_name, memoized by dtype object (numpy and torch dtypes are
    hashable)."""
    try:
        return _names[dtype]
    except KeyError:
        name = _names[dtype] = dtype_name(dtype)
        return name
    except TypeError:  # unhashable
        return dtype_name(dtype)


def _device_array(value, _kinds={}):
    """(address, dtype, framework) of a torch CUDA tensor or an object with
    __cuda_array_interface__ whose layout needs no checking (a pointer
    parameter takes any strides), else None (the caller converts it in
    full)."""
    kind = _kinds.get(type(value))
    if kind is None:
        module = type(value).__module__
        kind = _kinds[type(value)] = (
            "torch" if module.startswith("torch") and hasattr(value, "data_ptr") else
            "interface" if hasattr(type(value), "__cuda_array_interface__") else "other")
    if kind == "torch":
        if not value.is_cuda:
            return None
        dtype = _dtype_name_of(value.dtype)
        return None if dtype is None else (value.data_ptr(), dtype, "torch")
    if kind == "interface":
        interface = value.__cuda_array_interface__
        typestr = interface["typestr"]
        dtype = _TYPESTR.get((typestr[1], int(typestr[2:])))
        if dtype is None or interface.get("strides") is not None:
            return None
        return (interface["data"][0] or 0, dtype, type(value).__module__.split(".")[0])
    return None


def _grid(grid, meta):
    """(x, y, z) of a grid: an int, a tuple of 1 to 3 ints, or a function of
    the kernel's meta-parameters (its constants, num_warps, num_stages) that
    returns one; `meta` is those (a dict) or a function that makes them."""
    if callable(grid):
        grid = grid(meta() if callable(meta) else meta)
    if type(grid) is tuple and len(grid) == 3:  # the common case, quickly
        x, y, z = grid
        if type(x) is int and type(y) is int and type(z) is int and \
                0 < x < 2**32 and 0 < y < 2**32 and 0 < z < 2**32:
            return grid
    elif type(grid) is int:
        grid = (grid,)
    try:
        if isinstance(grid, (str, bytes)) or any(isinstance(g, float) for g in grid):
            raise TypeError
        dims = tuple(int(g) for g in grid)
    except (TypeError, ValueError):
        raise TypeError(f"a grid is an int, a tuple of 1 to 3 ints or a function of the "
                        f"meta-parameters returning one, not {grid!r}") from None
    if not 1 <= len(dims) <= 3 or any(d < 1 or d >= 2**32 for d in dims):
        raise ValueError(f"grid {grid}: 1 to 3 dimensions, each at least 1")
    return dims + (1,) * (3 - len(dims))


def _stream_of(framework, dev):
    """The current stream of the framework the arguments come from (as
    Triton launches on torch's), or the default stream."""
    if dev.interpreter:
        return None
    if framework == "torch":
        import torch
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:  # what torch.cuda.current_stream() reads, without the Stream
            return raw(torch._C._cuda_getDevice())
        return torch.cuda.current_stream().cuda_stream
    if framework == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    return None


def _stream_handle(stream):
    """A stream as given: None, an int (a CUstream), or an object with
    .cuda_stream (torch) or .ptr (CuPy)."""
    if stream is None or isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr", "handle"):
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    raise TypeError(f"stream {stream!r}: an int (a CUstream), a torch or CuPy stream, or None")


class TensorDescriptor:
    """A TMA descriptor (CUtensorMap) of a row-major 2-D device tensor for a
    !tile.tensordesc parameter, encoded with the box and swizzle the kernel's
    metadata gives. Kernel.tensor_descriptor(index, tensor) makes one; a
    tensor passed where a descriptor goes gets one (kept per tensor). It must
    live until the launches that read it have run."""

    def __init__(self, kernel, index, tensor):
        view = array_view(tensor)
        param = kernel.params[index] if 0 <= index < len(kernel.params) else None
        if param is None or param.kind != "tensordesc":
            raise TypeError(f"kernel '{kernel.name}': parameter {index} is "
                            f"{param or 'no parameter'}, not a tensor descriptor")
        if view is None or not view.device or len(view.shape) != 2:
            raise TypeError(f"kernel '{kernel.name}': a tensor descriptor needs a 2-D device "
                            f"tensor, not {type(tensor).__name__}"
                            + (f" of shape {view.shape}" if view else ""))
        if view.dtype != param.dtype:
            raise TypeError(f"kernel '{kernel.name}': argument {index} is a {view.dtype} tensor "
                            f"but the parameter is {param}; the signature is {kernel.signature}")
        rows, cols = view.shape
        row_stride, col_stride = view.strides
        if col_stride != 1 and cols > 1:
            raise TypeError(f"kernel '{kernel.name}': a tensor descriptor needs rows of "
                            f"contiguous elements (column stride {col_stride})")
        handle = ctypes.c_void_p()
        check(lib().llk_tensor_map_create(kernel.device._handle, kernel._handle, index,
                                          view.address, rows, cols,
                                          row_stride * SIZES[view.dtype], ctypes.byref(handle)),
              "llk_tensor_map_create")
        self._handle, self.tensor, self.dtype = handle, tensor, param.dtype
        self.shape, self.box = (rows, cols), param.tma_box
        self.address = lib().llk_tensor_map_address(handle)

    def __del__(self):
        if _capi._lib is not None and getattr(self, "_handle", None):
            lib().llk_tensor_map_destroy(self._handle)


class _Staging:
    """Host arrays passed to a launch: each span of host memory (overlapping
    spans merged, so that views of one array share one buffer) copied into a
    device buffer before the launch and back after it."""

    def __init__(self, dev, views):
        self.device = dev
        spans = sorted({(v.low, v.high) for v in views})
        merged = []
        for low, high in spans:
            if merged and low < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        self.buffers = []  # (host low, nbytes, Buffer, writable)
        for low, high in merged:
            buffer = Buffer(dev, high - low)
            buffer.copy_from_host(low, high - low)
            writable = all(v.writable for v in views if low <= v.low < high)
            self.buffers.append((low, high - low, buffer, writable))

    def address(self, view):
        for low, nbytes, buffer, _ in self.buffers:
            if low <= view.low < low + nbytes or (nbytes == 0 and view.low == low):
                return buffer.address + (view.address - low)
        raise AssertionError("an array that was not staged")

    def finish(self):
        """After the launch: every writable span copied back."""
        self.device.synchronize()
        for low, nbytes, buffer, writable in self.buffers:
            if writable and nbytes:
                buffer.copy_to_host(low, nbytes)


class _PreparedArgs:
    """A launch's arguments converted once: the C array, what keeps their
    memory alive, the staging of host arrays (per launch) and the framework
    whose current stream a launch without a stream uses.

    The common arguments take a short path, as a launch in a loop converts
    them each time: Python ints and floats, numpy scalars, llk.Pointers and
    device tensors (torch, __cuda_array_interface__) are checked against the
    kernel's precomputed slots and packed into the C array in one
    struct.pack; everything else (host arrays, DLPack, descriptors, f16/bf16
    scalars, the errors) goes through `_convert`."""

    def __init__(self, kernel, args):
        k = kernel
        if len(args) != len(k.params):
            raise TypeError(f"kernel '{k.name}' takes {len(k.params)} arguments, got "
                            f"{len(args)}; the signature is {k.signature}")
        self.kernel = kernel
        self.args = args
        self.keep = []
        self.host = []      # (index, ArrayView) of host arrays
        self._views = {}    # index -> ArrayView, of the arrays converted by _convert
        self.framework = None
        values = k._slots[:]  # [header, payload] per parameter
        keep = self.keep
        for (i, slot, param, dtype, lo, hi, mask, contract), value in zip(k._plan, args):
            t = type(value)
            if slot is _SLOT_INT:
                if t is not int:
                    value = self._scalar(i, param, value)
                if not lo <= value < hi:
                    self._fail(i, f"{value}, out of range", param, ValueError)
                if value & contract:
                    self._break_contract(i, param, value)
                values[2 * i + 1] = value & mask
            elif slot is _SLOT_FLOAT:
                values[2 * i + 1] = value if t is float else self._scalar(i, param, value)
            elif slot is _SLOT_POINTER and t is Pointer:
                if value.dtype != dtype:
                    self._fail(i, f"a pointer to {value.dtype}", param)
                if value.address & contract:
                    self._break_contract(i, param, value.address)
                keep.append(value.keep)
                values[2 * i + 1] = value.address
            else:
                device = _device_array(value) if slot is _SLOT_POINTER else None
                if device is None:
                    values[2 * i + 1] = self._convert(i, param, value)
                    continue
                address, array_dtype, framework = device
                if array_dtype != dtype:
                    self._fail(i, f"an array of {array_dtype}", param)
                if k.device.interpreter:
                    self._refuse_device_memory(i)
                if address & contract:
                    self._break_contract(i, param, address)
                self.framework = self.framework or framework
                keep.append(value)
                values[2 * i + 1] = address
        try:
            packed = k._pack(*values)
        except (struct.error, OverflowError):  # an f32 out of its range: inf, as C casts it
            for i, slot in enumerate(k._slot_kinds):
                if slot is _SLOT_FLOAT and k.params[i].dtype == "f32":
                    values[2 * i + 1] = _f32_bits(values[2 * i + 1])
            packed = k._pack_f32_as_bits(*values)
        self.c_args = k._c_args_type.from_buffer_copy(packed)

    def view(self, i):
        """The ArrayView of argument i (None when it is no array)."""
        if i not in self._views:
            value = self.args[i]
            self._views[i] = None if isinstance(value, (Pointer, TensorDescriptor)) else \
                array_view(value)
        return self._views[i]

    def _fail(self, i, what, param, cls=TypeError):
        k = self.kernel
        raise cls(f"kernel '{k.name}': argument {i} is {what} but the parameter is {param}; "
                  f"the signature is {k.signature}")

    def _break_contract(self, i, param, value):
        """Raises the ArgumentError of argument i breaking its parameter's
        contract (as the runtime's launch would, before it)."""
        k = self.kernel
        alignment = param.alignment_mask + 1
        if param.kind == "pointer":
            why = (f"as its tile.divisibility = {alignment} promises" if alignment == param.divisibility
                   else f"as its element type {param.dtype} needs")
            what = f"is the address {value:#x}, which is not {alignment}-byte aligned {why}"
        else:
            what = (f"is {value}, which is not a multiple of {alignment} as its "
                    f"tile.divisibility = {alignment} promises")
        raise _capi.ArgumentError(f"kernel '{k.name}': argument {i} ({param}) {what}; "
                                  f"the signature is {k.signature}", "INVALID_ARGUMENT")

    def _refuse_device_memory(self, i):
        raise TypeError(f"kernel '{self.kernel.name}': argument {i} is in GPU memory, but the "
                        "device is llk's interpreter (LLK_BACKEND=interpreter): pass host "
                        "arrays (numpy)")

    def _scalar(self, i, param, value):
        """A scalar argument that is no plain int (for an integer parameter)
        or float (for a floating-point one), as the Python number it stands
        for: numpy scalars must have the parameter's type."""
        dtype = _NUMPY_SCALAR_TYPES.get(type(value))
        if dtype is not None:
            if dtype != param.dtype:
                self._fail(i, f"a {value.dtype} scalar", param)
            return value.item()
        if type(value).__module__ == "numpy" and type(value).__name__ != "ndarray" and \
                getattr(value, "ndim", None) == 0 and _dtype_name_of(value.dtype):
            # A numpy scalar type: each of its values has one dtype.
            _NUMPY_SCALAR_TYPES[type(value)] = _dtype_name_of(value.dtype)
            return self._scalar(i, param, value)
        if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
            if _dtype_name_of(value.dtype) != param.dtype:
                self._fail(i, f"a {value.dtype} scalar", param)
            value = value.item()
        if param.dtype in _INT_SLOT:
            if not isinstance(value, int):  # bool is an int
                self._fail(i, f"{type(value).__name__} {value!r}"[:80], param)
            return int(value)
        if isinstance(value, (int, float)):
            return float(value)
        self._fail(i, f"{type(value).__name__} {value!r}"[:80], param)

    def _convert(self, i, param, value):
        """The payload (Arg.bits) of an argument off the short path."""
        k = self.kernel
        if param.kind == "tensordesc":
            if not isinstance(value, TensorDescriptor):
                value = k._descriptor_for(i, value)
            if value.dtype != param.dtype:
                self._fail(i, f"a descriptor of {value.dtype}", param)
            self.keep.append(value)
            return value.address
        if isinstance(value, TensorDescriptor):
            self._fail(i, "a tensor descriptor", param)
        if param.kind == "pointer":
            if isinstance(value, Pointer):
                if value.dtype != param.dtype:
                    self._fail(i, f"a pointer to {value.dtype}", param)
                if value.address & param.alignment_mask:
                    self._break_contract(i, param, value.address)
                self.keep.append(value.keep)
                return value.address
            try:
                view = array_view(value)
            except TypeError as e:
                raise TypeError(f"kernel '{k.name}': argument {i}: {e}") from None
            if view is None:
                self._fail(i, f"{type(value).__name__} {value!r}"[:80], param)
            if view.dtype != param.dtype:
                self._fail(i, f"an array of {view.dtype}", param)
            self._views[i] = view
            self.framework = self.framework or (view.framework if view.device else None)
            if view.device:
                if k.device.interpreter:
                    self._refuse_device_memory(i)
                if view.address & param.alignment_mask:
                    self._break_contract(i, param, view.address)
                self.keep.append(value)
                return view.address
            self.host.append((i, view))
            return 0  # set per launch
        # f16 and bf16 scalars: their bits, rounded by the C helpers.
        return getattr(lib(), _SCALAR_ARG[param.dtype])(self._scalar(i, param, value)).bits

    def stage(self):
        """The staging of this launch's host arrays (None when there are
        none), their addresses written into the C arguments."""
        if not self.host:
            return None
        staging = _Staging(self.kernel.device, [v for _, v in self.host])
        for i, view in self.host:
            self.c_args[i].bits = staging.address(view)
        return staging


class Launch:
    """A launch whose arguments are converted once (Kernel.bind): calling it
    launches again, on `stream` or else the current stream of the
    arguments' framework (torch's, CuPy's) at the time of the call."""

    __slots__ = ("kernel", "grid", "prepared", "options", "stream", "_c_grid", "_launch",
                 "_handle", "_num_args")

    def __init__(self, kernel, grid, args, stream=None, dependent=False, synchronize=False,
                 dynamic_shared_bytes=0):
        self.kernel = kernel
        self.grid = _grid(grid, kernel._make_meta)
        self._c_grid = _Grid3(*self.grid)
        self.prepared = _PreparedArgs(kernel, args)
        self.stream = _stream_handle(stream)
        self.options = _capi.LaunchOptions(None, int(dynamic_shared_bytes), int(bool(dependent)),
                                           int(bool(synchronize)))
        self._launch = lib().llk_kernel_launch_ex
        self._handle, self._num_args = kernel._handle, len(kernel.params)

    def __call__(self, stream=None):
        """Launches; `stream` (as Kernel.launch's) overrides the bound one."""
        p = self.prepared
        if stream is None:
            stream = self.stream
            if stream is None:
                stream = _stream_of(p.framework, self.kernel.device)
        elif type(stream) is not int:
            stream = _stream_handle(stream)
        self.options.stream = stream
        staging = p.stage() if p.host else None
        status = self._launch(self._handle, self._c_grid, p.c_args, self._num_args,
                              ctypes.byref(self.options))
        if status:
            check(status, "launch")
        if staging:
            staging.finish()


class Kernel:
    """A compiled kernel and its launch metadata. `kernel[grid](*args)`
    launches it: grid an int, a tuple, or a function of `kernel.meta`; args
    in the kernel's parameter order, checked against the metadata."""

    def __init__(self, handle, dev, constants=None, num_stages=None, source_name=None):
        L = lib()
        self._handle = handle
        self.device = dev
        self.name = L.llk_kernel_name(handle).decode()
        self.num_warps = L.llk_kernel_num_warps(handle)
        self.shared_bytes = L.llk_kernel_shared_bytes(handle)
        self.dynamic_shared_bytes = L.llk_kernel_dynamic_shared_bytes(handle)
        self.grid_dependency_wait = bool(L.llk_kernel_grid_dependency_wait(handle))
        params = []
        for i in range(L.llk_kernel_num_params(handle)):
            info = _capi.ParamInfo()
            check(L.llk_kernel_param_info(handle, i, ctypes.byref(info)), "llk_kernel_param_info")
            dtype = _capi.TYPES[info.type]
            divisibility = ctypes.c_int64()
            check(L.llk_kernel_param_divisibility(handle, i, ctypes.byref(divisibility)),
                  "llk_kernel_param_divisibility")
            if info.is_tensor_desc:
                params.append(Param(i, "tensordesc", dtype, tuple(info.tma_box)))
            elif info.is_pointer:
                params.append(Param(i, "pointer", dtype,
                                    read_overrun_bytes=info.read_overrun_bytes,
                                    divisibility=divisibility.value))
            else:
                params.append(Param(i, "scalar", dtype, divisibility=divisibility.value))
        self.params = tuple(params)
        self.constants = dict(constants or {})
        self.num_stages = num_stages
        self.source_name = source_name
        self.signature = f"{self.name}({', '.join(str(p) for p in self.params)})"
        self._descriptors = collections.OrderedDict()
        self._prepare_slots()

    def _prepare_slots(self):
        """What every launch's _PreparedArgs starts from: per parameter, how
        its payload is packed and the llk_arg header (is_pointer, type) as
        one little-endian word; the struct that packs them into the C array."""
        kinds, slots, formats = [], [], []
        for p in self.params:
            code = _capi.TYPE_CODE[p.dtype]
            if p.kind == "tensordesc":
                kinds.append(_SLOT_OTHER)
                header = _capi.ARG_TENSOR_MAP
            elif p.kind == "pointer":
                kinds.append(_SLOT_POINTER)
                header = 1
            elif p.dtype in _INT_SLOT:
                kinds.append(_SLOT_INT)
                header = 0
            elif p.dtype in ("f32", "f64"):
                kinds.append(_SLOT_FLOAT)
                header = 0
            else:
                kinds.append(_SLOT_OTHER)
                header = 0
            slots += [header | code << 32, 0]
            formats.append({"f32": "f4x", "f64": "d"}.get(p.dtype, "Q")
                           if kinds[-1] is _SLOT_FLOAT else "Q")
        self._slot_kinds, self._slots = tuple(kinds), slots
        self._plan = tuple((p.index, kind, p, p.dtype) + _INT_SLOT.get(p.dtype, (0, 0, 0)) +
                           (p.alignment_mask,) for p, kind in zip(self.params, kinds))
        self._pack = struct.Struct("<" + "".join("Q" + f for f in formats)).pack
        self._pack_f32_as_bits = struct.Struct("<" + "".join(
            "Q" + ("Q" if f == "f4x" else f) for f in formats)).pack
        self._c_args_type = _capi.Arg * max(1, len(self.params))
        if not self.params:  # one zero llk_arg, as the array has one element
            self._pack = self._pack_f32_as_bits = lambda: bytes(ctypes.sizeof(_capi.Arg))

    @property
    def meta(self):
        """What a grid function receives: the constants, num_warps and
        num_stages (None: the kernel's own)."""
        return self._make_meta()

    def _make_meta(self):
        return dict(self.constants, num_warps=self.num_warps, num_stages=self.num_stages)

    def bind(self, grid, *args, stream=None, dependent=False, synchronize=False,
             dynamic_shared_bytes=0):
        """The launch of these arguments, converted and checked once."""
        return Launch(self, grid, args, stream, dependent, synchronize, dynamic_shared_bytes)

    def launch(self, grid, *args, **options):
        """kernel[grid](*args, **options)."""
        self.bind(grid, *args, **options)()

    def __getitem__(self, grid):
        def launcher(*args, **options):
            self.bind(grid, *args, **options)()
        return launcher

    def occupancy(self, dynamic_shared_bytes=0):
        """Programs of this kernel that fit on one SM at once (with
        `dynamic_shared_bytes` on top of its own); 1 on the interpreter."""
        programs = ctypes.c_int()
        check(lib().llk_kernel_occupancy(self._handle, int(dynamic_shared_bytes),
                                         ctypes.byref(programs)), "llk_kernel_occupancy")
        return programs.value

    def set_shared_memory_carveout(self, percent):
        """The L1/shared-memory split this kernel prefers: -1 (the driver's
        default) or 0 to 100 percent of the most shared memory (100: as many
        programs an SM as shared memory allows). A hint."""
        check(lib().llk_kernel_set_shared_memory_carveout(self._handle, int(percent)),
              "llk_kernel_set_shared_memory_carveout")

    def tensor_descriptor(self, index, tensor):
        """A TensorDescriptor of `tensor` for parameter `index`."""
        return TensorDescriptor(self, index, tensor)

    # Descriptors made for tensors passed where a descriptor goes, by
    # address, shape and strides; the oldest dropped past this many (after
    # the device has finished with it).
    _DESCRIPTORS_KEPT = 256

    def _descriptor_for(self, index, tensor):
        view = array_view(tensor)
        key = (index, view.address, view.shape, view.strides) if view else None
        if key in self._descriptors:
            self._descriptors.move_to_end(key)
            return self._descriptors[key]
        descriptor = TensorDescriptor(self, index, tensor)
        self._descriptors[key] = descriptor
        if len(self._descriptors) > self._DESCRIPTORS_KEPT:
            self.device.synchronize()
            self._descriptors.popitem(last=False)
        return descriptor

    def __repr__(self):
        return f"<llk.Kernel {self.signature}, {self.num_warps} warps>"

    def __del__(self):
        if _capi._lib is not None and getattr(self, "_handle", None):
            lib().llk_kernel_destroy(self._handle)


def compile(path_or_source, constants=None, num_warps=None, num_stages=None, arch=None,
            kernel=None, device=None):
    """JIT-compiles a kernel (or finds it in the cache: memory, then the
    disk's $LLK_CACHE_DIR) and loads it.

    path_or_source: a .mlir path or the source text; constants: the ${NAME}
    bindings (integers, or element types such as "bf16" or torch.float16);
    num_warps, num_stages: override the kernel's own; arch: sm_80 ... sm_90a
    (default: the device's); kernel: its name, when the source has several;
    device: an llk.Device (default: device 0 of LLK_BACKEND)."""
    text, name = read_source(path_or_source)
    dev = device or default_device()
    bindings = defines(constants)
    handle = ctypes.c_void_p()
    check(lib().llk_jit_compile(dev._jit, text.encode(), name.encode(), _c_strings(bindings),
                                len(bindings), int(num_warps or 0), int(num_stages or 0),
                                arch.encode() if arch else None,
                                kernel.encode() if kernel else None, ctypes.byref(handle)),
          "llk_jit_compile")
    return Kernel(handle, dev, constants, num_stages, name)


def load(ptx_path, kernel=None, device=None):
    """A kernel from llkc's PTX (or cubin) and its metadata <path>.json."""
    dev = device or default_device()
    module = ctypes.c_void_p()
    check(lib().llk_module_load_ptx_file(dev._handle, str(ptx_path).encode(),
                                         ctypes.byref(module)), "llk_module_load_ptx_file")
    try:
        handle = ctypes.c_void_p()
        check(lib().llk_module_get_kernel(module, kernel.encode() if kernel else None,
                                          ctypes.byref(handle)), "llk_module_get_kernel")
    finally:
        lib().llk_module_destroy(module)  # the kernel keeps the module
    return Kernel(handle, dev, source_name=str(ptx_path))


def version():
    """llk's version ("0.1.0")."""
    return lib().llk_version().decode()


def build_id():
    """The compiler build's identity (part of every JIT cache key)."""
    return lib().llk_build_id().decode()
