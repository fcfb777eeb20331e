//===- Runtime.h - load and launch llk kernels ------------------*- C++ -*-===//
//
// The CUDA driver is loaded with dlopen("libcuda.so.1") (or $LLK_CUDA_LIBRARY)
// on first use, so a program linked with this library starts on a machine
// without a GPU; there every call that needs the driver throws an llk::rt::Error
// with code NoDriver. Nothing here aborts the process: every failure is an
// Error carrying the CUDA error name and text and, for launches, the kernel's
// name.
//
// A device runs kernels on one of two backends: the CUDA driver, or llk's
// interpreter on the host (Backend::Interpreter, or LLK_BACKEND=interpreter),
// which needs no driver: memory is host memory, launches run every program
// of the grid on the CPU with every access checked, and kernels come from the
// JIT (LLKJIT), not from PTX.
//
//   auto device = rt::Device::open(0);
//   auto module = rt::Module::loadPTXFile(device, "softmax.ptx"); // + .json
//   rt::Kernel softmax = module.kernel("softmax_kernel");
//   rt::DeviceBuffer<float> x(device, n), y(device, n);
//   x.copyFrom(host);
//   softmax.launch(rows, {y, x, cols, cols, cols});
//   y.copyTo(host);
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_RUNTIME_H
#define LLK_RUNTIME_RUNTIME_H

#include "llk/ConstantValue.h"
#include "llk/Export.h"
#include "llk/KernelMetadata.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// The driver's opaque handle types, as cuda.h declares them.
struct CUstream_st;
struct CUevent_st;

namespace llk::rt {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

enum class ErrorCode {
  NoDriver,        // libcuda could not be loaded or lacks a needed entry point
  Cuda,            // a driver call failed; cudaName() says which error
  InvalidArgument, // arguments, grid, shared memory, options
  NotFound,        // a kernel name, a file
  Compile,         // the JIT's compiler or the driver's PTX JIT failed
  IO,              // reading or writing a file
  Execution,       // the interpreter stopped a kernel (out-of-bounds access...)
};

LLK_API const char *toString(ErrorCode code);

/// Whether the CUresult `cudaResult` is sticky: a kernel fault (an illegal
/// or misaligned address, an illegal instruction, a trap or device assert,
/// a timeout) or a lost device, which leaves the context unusable, so that
/// every later driver call in the process fails with it (cuda.h: "the
/// process must be terminated and relaunched"). Others (out of memory, an
/// invalid value, too many resources for a launch) leave it usable.
LLK_API bool isStickyCudaError(int cudaResult);

class LLK_API Error : public std::runtime_error {
public:
  Error(ErrorCode code, const std::string &message, std::string cudaName = "",
        int cudaResult = 0, std::string kernel = "");
  ErrorCode code() const { return code_; }
  /// CUDA_ERROR_..., empty when no driver call failed.
  const std::string &cudaName() const { return cudaName_; }
  int cudaResult() const { return cudaResult_; }
  /// The kernel the failure concerns, empty if none.
  const std::string &kernel() const { return kernel_; }
  /// Whether the CUDA context is lost: a sticky error (isStickyCudaError),
  /// after which every driver call in this process fails with it.
  bool contextLost() const;

private:
  ErrorCode code_;
  std::string cudaName_;
  int cudaResult_;
  std::string kernel_;
};

//===----------------------------------------------------------------------===//
// Kernel metadata (what llkc writes beside the PTX)
//===----------------------------------------------------------------------===//

// The schema is llk/KernelMetadata.h, which the compiler writes with: these
// are its structs.
using ScalarType = llk::ScalarType;
using ParamInfo = llk::KernelParam;
using KernelInfo = llk::KernelMetadata;
using ModuleInfo = llk::ModuleMetadata;

LLK_API const char *toString(ScalarType type);
LLK_API std::optional<ScalarType> parseScalarType(std::string_view name);
LLK_API size_t sizeOf(ScalarType type);

/// The buffer contract (docs/runtime.md): a kernel may read any byte of an
/// aligned 16-byte granule that holds a byte it accesses (a load of 1- or
/// 2-byte elements that are contiguous but not aligned reads the aligned
/// windows around them; the metadata's read_overrun_bytes says how far past
/// the last accessed byte, at most kBufferGranule - 1). Allocations start
/// 256-byte aligned, so a buffer whose allocation covers whole granules
/// honours it: DeviceMemory rounds every allocation up to a multiple of
/// kBufferGranule and zeroes the bytes past bytes().
using llk::kBufferGranule;

/// Parses the JSON metadata llkc writes (format 1); throws InvalidArgument
/// with the offending field on malformed input.
LLK_API ModuleInfo parseModuleInfo(std::string_view json);

//===----------------------------------------------------------------------===//
// Devices, streams, events, memory
//===----------------------------------------------------------------------===//

/// What runs a device's kernels.
enum class Backend {
  Cuda,        // the GPU, through the CUDA driver
  Interpreter, // llk's interpreter, on the host: no GPU, no driver
};
LLK_API const char *toString(Backend backend); // "cuda", "interpreter"
/// $LLK_BACKEND: unset, empty, "cuda" or "gpu": Cuda; "interpreter":
/// Interpreter; anything else throws InvalidArgument.
LLK_API Backend defaultBackend();

struct DeviceLimits {
  unsigned maxGrid[3] = {2147483647u, 65535u, 65535u};
  unsigned maxThreadsPerBlock = 1024;
  /// Shared memory a block may have without opting in, and with.
  unsigned sharedPerBlock = 48 * 1024;
  unsigned sharedPerBlockOptin = 48 * 1024;
};

class LLK_API Device {
public:
  /// Number of devices of `backend` (empty: defaultBackend()), the ordinals
  /// open() takes: CUDA's (throws NoDriver without a driver), or the
  /// interpreter's one.
  static int count(std::optional<Backend> backend = std::nullopt);
  /// On the CUDA backend, retains the device's primary context and makes it
  /// current on the calling thread. `backend` empty: defaultBackend()
  /// ($LLK_BACKEND). The interpreter has one device, 0.
  static Device open(int ordinal = 0, std::optional<Backend> backend = std::nullopt);

  Backend backend() const;
  int ordinal() const;
  const std::string &name() const;
  int computeCapabilityMajor() const;
  int computeCapabilityMinor() const;
  /// "sm_90" and so on; "interpreter" on the interpreter.
  std::string arch() const;
  /// 0 on the interpreter.
  int driverVersion() const;
  const DeviceLimits &limits() const;
  /// Makes the device's context current on the calling thread.
  void makeCurrent() const;
  void synchronize() const;

  struct Impl;
  const std::shared_ptr<Impl> &impl() const { return impl_; }

private:
  explicit Device(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

class LLK_API Stream {
public:
  explicit Stream(const Device &device);
  ~Stream();
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  void synchronize() const;
  /// The CUDA stream; null on the interpreter.
  CUstream_st *handle() const { return stream_; }

  /// On the interpreter: launches and copies run when they are enqueued,
  /// except while a graph is captured, when they are recorded.
  struct HostState;

private:
  friend class Kernel;
  friend class DeviceMemory;
  friend class Graph;
  std::shared_ptr<Device::Impl> device_;
  CUstream_st *stream_ = nullptr;
  std::shared_ptr<HostState> host_;
};

struct LaunchOptions;

class LLK_API Event {
public:
  explicit Event(const Device &device);
  ~Event();
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  /// Records on `stream` (null: the default stream).
  void record(const Stream *stream = nullptr);
  /// Records on the stream a launch with `on` goes to (its `stream`, else its
  /// `rawStream`).
  void record(const LaunchOptions &on);
  void synchronize() const;
  /// Milliseconds from `start` to `end`, both recorded and complete. On the
  /// interpreter, host time between the two record() calls (launches run
  /// when they are enqueued).
  static float elapsedMs(const Event &start, const Event &end);

private:
  std::shared_ptr<Device::Impl> device_;
  CUevent_st *event_ = nullptr;
  double hostMs_ = -1; // interpreter: steady-clock time of record(); -1: none
};

/// Untyped device memory, freed on destruction: `bytes` (bytes()) rounded up
/// to a multiple of kBufferGranule, the rest zeroed. On the interpreter, host
/// memory (256-byte aligned, filled with 0xff bytes — NaN for floats — as a
/// GPU's is not zeroed) that kernels may access up to bytes(); copies are
/// memcpy. A size too large to round up throws InvalidArgument.
class LLK_API DeviceMemory {
public:
  DeviceMemory(const Device &device, size_t bytes);
  ~DeviceMemory();
  DeviceMemory(DeviceMemory &&other) noexcept;
  DeviceMemory &operator=(DeviceMemory &&other) noexcept;
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  uint64_t address() const { return address_; }
  size_t bytes() const { return bytes_; }
  /// Host to device (`bytes` from the start, at most bytes()).
  void copyFromHost(const void *host, size_t bytes, const Stream *stream = nullptr);
  void copyToHost(void *host, size_t bytes, const Stream *stream = nullptr) const;
  /// Device to device: the first `bytes` of `source` to the start of this
  /// (asynchronous on `stream`, else on the default stream).
  void copyFromDevice(const DeviceMemory &source, size_t bytes,
                      const Stream *stream = nullptr);
  void fill(uint8_t byte);
  /// The same, ordered on the stream a launch with `on` goes to.
  void fill(uint8_t byte, const LaunchOptions &on);
  /// Device to device, from or to memory this object does not own (a
  /// kernel argument's: another library's allocation), on the stream of
  /// `on`: `bytes` (at most bytes()) from `source` to the start of this, or
  /// from the start of this to `destination`. On the interpreter the other
  /// range must lie in one live allocation (InvalidArgument otherwise).
  void copyFromAddress(uint64_t source, size_t bytes, const LaunchOptions &on);
  void copyToAddress(uint64_t destination, size_t bytes, const LaunchOptions &on) const;

private:
  std::shared_ptr<Device::Impl> device_;
  uint64_t address_ = 0;
  size_t bytes_ = 0;
};

/// A CUtensorMap (TMA descriptor) in device memory for a row-major 2-D
/// tensor, encoded for a kernel's !tile.tensordesc parameter `param` (its
/// element type, its metadata's box, the 128-byte swizzle; zeros past the
/// edges): pass it as that argument. Throws InvalidArgument if `param` is
/// not a descriptor or the tensor breaks TMA's rules (a 16-byte aligned
/// address, a row stride that is a multiple of 16 bytes), Cuda if the driver
/// refuses the encoding.
class LLK_API TensorMap {
public:
  TensorMap(const Device &device, const ParamInfo &param, uint64_t address,
            uint64_t rows, uint64_t cols, uint64_t rowStrideBytes);
  ~TensorMap();
  TensorMap(TensorMap &&) noexcept;
  TensorMap &operator=(TensorMap &&) noexcept;
  /// The map's address in device memory: the kernel argument.
  uint64_t address() const;
  ScalarType type() const { return type_; }

private:
  std::unique_ptr<DeviceMemory> memory_;
  ScalarType type_;
};

/// Element types a buffer may hold, as kernels see them.
struct Half { uint16_t bits; };
struct BFloat16 { uint16_t bits; };
/// `value` rounded to f16 / bf16 (to nearest, ties to even; NaN stays a
/// quiet NaN): the bits of Half, BFloat16 and Arg::f16 / Arg::bf16.
LLK_API uint16_t toHalfBits(float value);
LLK_API uint16_t toBFloat16Bits(float value);
/// The value of f16 bits (exact; infinities and NaNs as such).
LLK_API float fromHalfBits(uint16_t bits);
template <typename T> struct ScalarTypeOf;
template <> struct ScalarTypeOf<int8_t> { static constexpr ScalarType value = ScalarType::I8; };
template <> struct ScalarTypeOf<uint8_t> { static constexpr ScalarType value = ScalarType::I8; };
template <> struct ScalarTypeOf<int16_t> { static constexpr ScalarType value = ScalarType::I16; };
template <> struct ScalarTypeOf<uint16_t> { static constexpr ScalarType value = ScalarType::I16; };
template <> struct ScalarTypeOf<int32_t> { static constexpr ScalarType value = ScalarType::I32; };
template <> struct ScalarTypeOf<uint32_t> { static constexpr ScalarType value = ScalarType::I32; };
template <> struct ScalarTypeOf<int64_t> { static constexpr ScalarType value = ScalarType::I64; };
template <> struct ScalarTypeOf<uint64_t> { static constexpr ScalarType value = ScalarType::I64; };
template <> struct ScalarTypeOf<Half> { static constexpr ScalarType value = ScalarType::F16; };
template <> struct ScalarTypeOf<BFloat16> { static constexpr ScalarType value = ScalarType::BF16; };
template <> struct ScalarTypeOf<float> { static constexpr ScalarType value = ScalarType::F32; };
template <> struct ScalarTypeOf<double> { static constexpr ScalarType value = ScalarType::F64; };

template <typename T> class DeviceBuffer {
public:
  /// Throws InvalidArgument when `count` elements are more than SIZE_MAX bytes.
  DeviceBuffer(const Device &device, size_t count)
      : memory_(device, bytesOf(count)), count_(count) {}
  size_t size() const { return count_; }
  size_t bytes() const { return memory_.bytes(); }
  uint64_t address() const { return memory_.address(); }
  void copyFrom(const T *host, size_t count, const Stream *stream = nullptr) {
    check(count);
    memory_.copyFromHost(host, count * sizeof(T), stream);
  }
  void copyFrom(const std::vector<T> &host) { copyFrom(host.data(), host.size()); }
  void copyTo(T *host, size_t count, const Stream *stream = nullptr) const {
    check(count);
    memory_.copyToHost(host, count * sizeof(T), stream);
  }
  std::vector<T> toVector() const {
    std::vector<T> host(count_);
    copyTo(host.data(), count_);
    return host;
  }
  void fillBytes(uint8_t byte) { memory_.fill(byte); }

private:
  static size_t bytesOf(size_t count) {
    if (count > SIZE_MAX / sizeof(T))
      throw Error(ErrorCode::InvalidArgument,
                  "a buffer of " + std::to_string(count) + " elements of " +
                      std::to_string(sizeof(T)) + " bytes is larger than memory");
    return count * sizeof(T);
  }
  void check(size_t count) const {
    if (count > count_)
      throw Error(ErrorCode::InvalidArgument,
                  "copy of " + std::to_string(count) +
                      " elements into a buffer of " + std::to_string(count_));
  }
  DeviceMemory memory_;
  size_t count_;
};

//===----------------------------------------------------------------------===//
// Arguments and launches
//===----------------------------------------------------------------------===//

/// One kernel argument: a device address (with its element type when known)
/// or a scalar. Scalars must have the parameter's exact type.
class LLK_API Arg {
public:
  Arg(int32_t v) : Arg(false, ScalarType::I32, static_cast<uint32_t>(v)) {}
  Arg(int64_t v) : Arg(false, ScalarType::I64, static_cast<uint64_t>(v)) {}
  Arg(float v);
  Arg(double v);
  template <typename T>
  Arg(const DeviceBuffer<T> &buffer)
      : Arg(true, ScalarTypeOf<T>::value, buffer.address()) {}
  Arg(const TensorMap &map) : Arg(true, map.type(), map.address()) {
    tensorMap_ = true;
  }
  static Arg pointer(uint64_t address, std::optional<ScalarType> element);
  /// The device address of a CUtensorMap of `element`s made elsewhere (a
  /// TensorMap's, through the C interface): what a !tile.tensordesc takes.
  static Arg tensorMap(uint64_t address, ScalarType element) {
    Arg a(true, element, address);
    a.tensorMap_ = true;
    return a;
  }
  static Arg scalar(ScalarType type, uint64_t bits) { return Arg(false, type, bits); }
  static Arg f16(uint16_t bits) { return Arg(false, ScalarType::F16, bits); }
  static Arg bf16(uint16_t bits) { return Arg(false, ScalarType::BF16, bits); }

  bool isPointer() const { return pointer_; }
  /// The address of a TensorMap (what a !tile.tensordesc parameter takes).
  bool isTensorMap() const { return tensorMap_; }
  /// For a pointer without a known element type, empty.
  std::optional<ScalarType> type() const {
    if (pointer_ && !typed_) return std::nullopt;
    return type_;
  }
  uint64_t bits() const { return bits_; }
  std::string str() const;

private:
  Arg(bool pointer, ScalarType type, uint64_t bits)
      : pointer_(pointer), typed_(true), type_(type), bits_(bits) {}
  bool pointer_;
  bool typed_;
  bool tensorMap_ = false;
  ScalarType type_;
  uint64_t bits_;
};

using ArgList = std::vector<Arg>;

/// Arguments laid out for cuLaunchKernel: one 8-byte slot per parameter.
struct PackedArgs {
  std::vector<uint64_t> slots;
  std::vector<void *> pointers() { // valid while `slots` is unchanged
    std::vector<void *> result;
    for (uint64_t &slot : slots)
      result.push_back(&slot);
    return result;
  }
};

/// Checks `args` against the kernel's parameters (count, pointer or scalar,
/// types, and the contracts: a pointer aligned to its divisibility and its
/// element's size, an integer a multiple of its divisibility) and packs
/// them; throws InvalidArgument naming the kernel, the argument, its value
/// and the contract. Every launch, on either backend, goes through it.
LLK_API PackedArgs packArgs(const KernelInfo &kernel, const ArgList &args);

struct LLK_API Grid {
  Grid(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
  unsigned x, y, z;
  std::string str() const;
};

/// Throws InvalidArgument if a dimension is zero or over the limits.
LLK_API void checkGrid(const KernelInfo &kernel, const Grid &grid,
               const DeviceLimits &limits);
/// Throws InvalidArgument if static plus dynamic shared memory is over what
/// the device allows a block, opted in.
LLK_API void checkSharedMemory(const KernelInfo &kernel, unsigned dynamicBytes,
                       const DeviceLimits &limits);

struct LaunchOptions {
  const Stream *stream = nullptr; // null: rawStream
  /// A CUstream made elsewhere (another library's), used when `stream` is
  /// null; null: the default stream.
  CUstream_st *rawStream = nullptr;
  unsigned dynamicSharedBytes = 0;
  /// Wait for the kernel and report its execution errors (an illegal
  /// address, a trap) as this launch's, with the kernel's name.
  bool synchronize = false;
  /// Programmatic dependent launch (sm_90 and later; captured into graphs
  /// as programmatic edges): the kernel may start while the one before it in
  /// the stream runs — once that one's programs have all executed
  /// tile.launch_dependents or exited — and waits for it in
  /// tile.grid_dependency_wait. Only for kernels holding that op
  /// (KernelInfo::gridDependencyWait; otherwise InvalidArgument); a plain
  /// launch on devices before sm_90 and on the interpreter.
  bool dependentLaunch = false;
};

class LLK_API Kernel {
public:
  const std::string &name() const { return info_->name; }
  const KernelInfo &info() const { return *info_; }
  unsigned numWarps() const { return info_->numWarps; }
  int64_t sharedBytes() const { return info_->sharedBytes; }
  /// Block = (numWarps * 32, 1, 1); grid = programs.
  void launch(const Grid &grid, const ArgList &args,
              const LaunchOptions &options = {}) const;
  /// Programs of this kernel that fit on one SM at once with
  /// `dynamicSharedBytes` on top of its own (cuOccupancyMaxActiveBlocks-
  /// PerMultiprocessor); 1 on the interpreter, which runs one at a time.
  int maxActiveProgramsPerSM(unsigned dynamicSharedBytes = 0) const;
  /// The carve-out of the unified L1/shared memory this kernel prefers, in
  /// percent of the most shared memory (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_
  /// MEMORY_CARVEOUT; -1: no preference, the driver's default; 100: as much
  /// shared memory as there is, so that more programs fit on an SM). A hint;
  /// nothing on the interpreter.
  void setSharedMemoryCarveout(int percent) const;

  struct Impl;

private:
  /// Raises the kernel's dynamic shared-memory limit to `dynamicBytes` when
  /// its shared memory passes 48 KB (once per size).
  void optInToDynamicShared(unsigned dynamicBytes) const;
  friend class Module;
  void launchOnHost(const Grid &grid, PackedArgs packed,
                    const LaunchOptions &options) const;
  Kernel(std::shared_ptr<Impl> impl, const KernelInfo *info)
      : impl_(std::move(impl)), info_(info) {}
  std::shared_ptr<Impl> impl_;
  const KernelInfo *info_;
};

/// What the interpreter backend runs, implemented by LLKJIT over
/// LLKInterpreter (so that this library needs no MLIR): the specialized tile
/// module of a JIT compile.
class LLK_API HostModule {
public:
  virtual ~HostModule() = default;
  /// Memory a kernel may access: every live allocation of the device.
  struct Buffer {
    uint64_t address;
    size_t bytes;
    std::string name; // for messages: "argument 1", "an allocation"
  };
  /// Runs `kernel` over `grid`; `args` has one pointer per parameter to its
  /// value (as cuLaunchKernel's kernelParams). Returns the interpreter's
  /// error (source location, program id, what went wrong), or nothing.
  virtual std::optional<std::string> run(const KernelInfo &kernel, const Grid &grid,
                                         const std::vector<const void *> &args,
                                         const std::vector<Buffer> &buffers) = 0;
};

class LLK_API Module {
public:
  /// cuModuleLoad of a PTX file; its metadata is read from `<path>.json`.
  static Module loadPTXFile(const Device &device, const std::string &path);
  /// cuModuleLoadDataEx of PTX text; failures carry the PTX JIT's log.
  static Module loadPTX(const Device &device, std::string_view ptx,
                        std::string_view metadataJson);
  static Module loadPTX(const Device &device, std::string_view ptx,
                        ModuleInfo info);
  /// cuModuleLoadDataEx of a cubin (ptxas's output, an ELF image) for the
  /// device's architecture: no PTX JIT. Compile when the driver refuses it.
  static Module loadCubin(const Device &device, std::string_view cubin,
                          ModuleInfo info);
  /// A module for the interpreter backend (the JIT makes these); the PTX
  /// loaders refuse an interpreter device.
  static Module fromHost(const Device &device, ModuleInfo info,
                         std::shared_ptr<HostModule> host);

  const ModuleInfo &info() const;
  /// The kernel named `name`; empty: the module's only kernel.
  Kernel kernel(std::string_view name = "") const;

  struct Impl;

private:
  explicit Module(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

/// A captured sequence of launches, replayed with one call.
class LLK_API Graph {
public:
  /// Captures what `body` enqueues on `stream` (which must not be the
  /// default stream) and instantiates it. On the interpreter, the launches
  /// and copies on `stream` are recorded (not run) and replayed in order.
  static Graph capture(const Stream &stream, const std::function<void()> &body);
  void launch(const Stream &stream) const;
  size_t nodeCount() const;

  struct Impl;

private:
  explicit Graph(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

/// Whether the driver library loads and initializes; never throws. `why`
/// receives the reason when it does not.
LLK_API bool driverAvailable(std::string *why = nullptr);

} // namespace llk::rt

#endif // LLK_RUNTIME_RUNTIME_H
