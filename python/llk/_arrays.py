"""What a kernel argument is: a device array (torch CUDA tensors, anything with
__cuda_array_interface__ such as CuPy arrays, CUDA DLPack tensors), a host
array (numpy arrays, torch CPU tensors, CPU DLPack tensors: staged through
device buffers for the launch), an explicit Pointer, or a Python scalar.
"""
import ctypes


# Element types by the names other libraries give them. Unsigned integers
# pass as the signed type of their width, as the C++ runtime's DeviceBuffer
# does (a uint8 buffer of q8_0 blocks is a ptr<i8>).
_TORCH = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
          "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16", "int32": "i32",
          "uint32": "i32", "int64": "i64", "uint64": "i64",
          "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2"}
# __array_interface__ / __cuda_array_interface__ typestr: kind and bytes.
_TYPESTR = {("f", 2): "f16", ("f", 4): "f32", ("f", 8): "f64", ("i", 1): "i8", ("u", 1): "i8",
            ("i", 2): "i16", ("u", 2): "i16", ("i", 4): "i32", ("u", 4): "i32", ("i", 8): "i64",
            ("u", 8): "i64"}
# DLPack: (type code, bits) -> llk type; codes 0 int, 1 uint, 2 float, 4 bfloat.
_DLPACK = {(2, 16): "f16", (4, 16): "bf16", (2, 32): "f32", (2, 64): "f64", (0, 8): "i8",
           (1, 8): "i8", (0, 16): "i16", (1, 16): "i16", (0, 32): "i32", (1, 32): "i32",
           (0, 64): "i64", (1, 64): "i64"}
# fp8 has no numpy dtype: pass a uint8 array's bytes with llk.ptr(a, 0, "f8E4M3FN").
SIZES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
         "f8E4M3FN": 1, "f8E5M2": 1}


def dtype_name(dtype):
    """llk's name of a dtype given as a string ("f16", "float16"), a numpy or
    torch dtype, or a numpy scalar type; None when it has none."""
    if isinstance(dtype, str):
        if dtype in SIZES:
            return dtype
        return _TORCH.get(dtype.replace("torch.", ""))
    text = str(dtype).replace("torch.", "")
    if text in _TORCH:
        return _TORCH[text]
    name = getattr(dtype, "__name__", None)  # np.float32 (a type)
    return _TORCH.get(name) if name else None


class Pointer:
    """A device address with its element type: what a !tile.ptr<T> parameter
    takes when there is no array to pass (a buffer viewed as another type, an
    offset into one).  llk.ptr(tensor, byte_offset, dtype) makes one."""

    __slots__ = ("address", "dtype", "keep")

    def __init__(self, address, dtype, keep=None):
        self.address = int(address)
        self.dtype = dtype_name(dtype)
        if self.dtype is None:
            raise TypeError(f"llk.Pointer: {dtype!r} is not an element type")
        self.keep = keep  # what the address points into, kept alive

    def __repr__(self):
        return f"llk.Pointer(0x{self.address:x}, {self.dtype})"


class ArrayView:
    """An array argument: where its first element is, its element type,
    whether it lives on the device, and the byte span its elements cover
    (low, high) — what a host array's staging copies and what autotuning
    restores."""

    __slots__ = ("address", "dtype", "device", "low", "high", "writable", "shape", "strides",
                 "framework", "obj")

    def __init__(self, address, dtype, device, shape, strides, itemsize, writable, framework,
                 obj):
        self.address, self.dtype, self.device = address, dtype, device
        self.shape, self.strides, self.writable = tuple(shape), strides, writable
        self.framework, self.obj = framework, obj
        if any(n == 0 for n in self.shape):
            self.low = self.high = address
            return
        if strides is None:  # C order, in elements
            strides, step = [], 1
            for n in reversed(self.shape):
                strides.insert(0, step)
                step *= n
            self.strides = tuple(strides)
        lo = sum(min(0, (n - 1) * s) for n, s in zip(self.shape, self.strides))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(self.shape, self.strides))
        self.low = address + lo * itemsize
        self.high = address + (hi + 1) * itemsize


def _torch_view(t):
    dtype = _TORCH.get(str(t.dtype).replace("torch.", ""))
    if dtype is None:
        raise TypeError(f"a torch tensor of {t.dtype}: llk kernels take "
                        f"{', '.join(sorted(set(_TORCH.values())))}")
    return ArrayView(t.data_ptr(), dtype, t.is_cuda, t.shape, tuple(t.stride()), t.element_size(),
                     True, "torch", t)


def _interface_view(x, interface, device):
    shape = tuple(interface["shape"])
    typestr = interface["typestr"]
    dtype = _TYPESTR.get((typestr[1], int(typestr[2:])))
    if dtype is None:
        raise TypeError(f"an array of {getattr(x, 'dtype', typestr)} ({typestr!r}): llk kernels "
                        "take f16, f32, f64 and integers of 8 to 64 bits (bf16 through torch, "
                        "DLPack or llk.ptr)")
    itemsize = int(typestr[2:])
    address, readonly = interface["data"]
    strides = interface.get("strides")
    if strides is not None:
        if any(s % itemsize for s in strides):
            raise TypeError("an array whose strides are not whole elements")
        strides = tuple(s // itemsize for s in strides)
    module = type(x).__module__.split(".")[0]
    return ArrayView(address or 0, dtype, device, shape, strides, itemsize, not readonly, module, x)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor)))]

_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_set_name = ctypes.pythonapi.PyCapsule_SetName
_capsule_set_name.restype = ctypes.c_int
_capsule_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]

_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13


def _dlpack_view(x):
    """The DLPack protocol (consumer side): the tensor's address, type and
    layout; the capsule is consumed and its deleter run (the caller's object
    keeps the memory)."""
    device_type, _ = x.__dlpack_device__()
    capsule = x.__dlpack__()
    managed = ctypes.cast(_capsule_get_pointer(capsule, b"dltensor"),
                          ctypes.POINTER(_DLManagedTensor))
    t = managed.contents.dl_tensor
    try:
        if t.dtype.lanes != 1 or (t.dtype.code, t.dtype.bits) not in _DLPACK:
            raise TypeError(f"a DLPack tensor of type code {t.dtype.code}, {t.dtype.bits} bits, "
                            f"{t.dtype.lanes} lanes: llk kernels take one-lane f16, bf16, f32, "
                            "f64 and integers of 8 to 64 bits")
        shape = [t.shape[i] for i in range(t.ndim)]
        strides = [t.strides[i] for i in range(t.ndim)] if t.strides else None
        address = (t.data or 0) + t.byte_offset
        dtype = _DLPACK[(t.dtype.code, t.dtype.bits)]
        on_device = device_type in (_DL_CUDA, _DL_CUDA_MANAGED)
        if device_type not in (_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED):
            raise TypeError(f"a DLPack tensor on device type {device_type}: llk takes CUDA "
                            "and host memory")
        view = ArrayView(address, dtype, on_device, shape, strides, t.dtype.bits // 8, True,
                         "dlpack", x)
    finally:
        _capsule_set_name(capsule, b"used_dltensor")
        if managed.contents.deleter:
            managed.contents.deleter(managed)
    return view


def array_view(x):
    """The ArrayView of an array argument, or None when x is no array."""
    module = type(x).__module__
    if module.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "is_cuda"):
        return _torch_view(x)
    interface = getattr(x, "__cuda_array_interface__", None)
    if interface is not None:
        return _interface_view(x, interface, True)
    interface = getattr(x, "__array_interface__", None)
    if interface is not None and not isinstance(x, type):
        return _interface_view(x, interface, False)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        return _dlpack_view(x)
    return None


def pointer(x, byte_offset=0, dtype=None):
    """A Pointer into array `x` (`byte_offset` bytes past its first
    element), typed `dtype` (default: the array's): for a parameter whose
    element type is not the array's (a byte buffer), or an offset."""
    view = array_view(x)
    if view is None:
        raise TypeError(f"llk.ptr: {type(x).__name__} is not an array")
    if not view.device:
        raise TypeError("llk.ptr: a host array has no device address (pass the array itself: "
                        "host arrays are copied to the device for a launch)")
    return Pointer(view.address + int(byte_offset), dtype or view.dtype, keep=x)
