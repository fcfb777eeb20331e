//===- Runtime.cpp - devices, memory, modules, launches, graphs -----------===//

#include "Driver.h"

#include "llk/Environment.h"
#include "llk/Interpreter/TensorDescriptor.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <sstream>

using namespace llk::rt;
using namespace llk::rt::detail;

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

const char *llk::rt::toString(Backend backend) {
  return backend == Backend::Interpreter ? "interpreter" : "cuda";
}

Backend llk::rt::defaultBackend() {
  std::string value = llk::env::get(llk::env::Knob::Backend).value_or("");
  if (value.empty() || value == "cuda" || value == "gpu")
    return Backend::Cuda;
  if (value == "interpreter")
    return Backend::Interpreter;
  throw Error(ErrorCode::InvalidArgument,
              "LLK_BACKEND='" + value + "': expected 'cuda' or 'interpreter'");
}

struct Device::Impl {
  Backend backend = Backend::Cuda;
  int ordinal = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  int major = 0, minor = 0;
  DeviceLimits limits;
  // Interpreter: the live allocations (address -> bytes), which kernels may
  // access.
  std::mutex memoryMutex;
  std::map<uint64_t, size_t> allocations;

  bool host() const { return backend == Backend::Interpreter; }
  void makeCurrent() const {
    if (host())
      return;
    const Driver &d = driver();
    CUcontext current = nullptr;
    check(d.cuCtxGetCurrent(&current), "cuCtxGetCurrent");
    if (current != context)
      check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }
  ~Impl() {
    if (context) // the primary context stays for other users; drop our ref
      (void)driver().cuDevicePrimaryCtxRelease(device);
  }
};

int Device::count(std::optional<Backend> backend) {
  if (backend.value_or(defaultBackend()) == Backend::Interpreter)
    return 1;
  int n = 0;
  check(driver().cuDeviceGetCount(&n), "cuDeviceGetCount");
  return n;
}

Device Device::open(int ordinal, std::optional<Backend> backend) {
  if (backend.value_or(defaultBackend()) == Backend::Interpreter) {
    if (ordinal != 0)
      throw Error(ErrorCode::NotFound, "no interpreter device " +
                                           std::to_string(ordinal) +
                                           " (the interpreter has one, 0)");
    auto impl = std::make_shared<Impl>();
    impl->backend = Backend::Interpreter;
    impl->name = "llk interpreter (host)";
    // The GPU's limits (an H100's shared memory), so launches are checked
    // as they would be there.
    impl->limits.sharedPerBlockOptin = 227 * 1024;
    return Device(std::move(impl));
  }
  const Driver &d = driver();
  int n = count(Backend::Cuda);
  if (ordinal < 0 || ordinal >= n)
    throw Error(ErrorCode::NotFound, "no CUDA device " + std::to_string(ordinal) +
                                         " (the machine has " + std::to_string(n) + ")");
  auto impl = std::make_shared<Impl>();
  impl->ordinal = ordinal;
  check(d.cuDeviceGet(&impl->device, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof name - 1, impl->device), "cuDeviceGetName");
  impl->name = name;
  auto attribute = [&](CUdevice_attribute a) {
    int v = 0;
    check(d.cuDeviceGetAttribute(&v, a, impl->device), "cuDeviceGetAttribute");
    return v;
  };
  impl->major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  impl->minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  impl->limits.maxGrid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  impl->limits.maxGrid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  impl->limits.maxGrid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  impl->limits.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  impl->limits.sharedPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  impl->limits.sharedPerBlockOptin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  check(d.cuDevicePrimaryCtxRetain(&impl->context, impl->device),
        "cuDevicePrimaryCtxRetain");
  impl->makeCurrent();
  return Device(std::move(impl));
}

Backend Device::backend() const { return impl_->backend; }
int Device::ordinal() const { return impl_->ordinal; }
const std::string &Device::name() const { return impl_->name; }
int Device::computeCapabilityMajor() const { return impl_->major; }
int Device::computeCapabilityMinor() const { return impl_->minor; }
std::string Device::arch() const {
  if (impl_->host())
    return "interpreter";
  return "sm_" + std::to_string(impl_->major) + std::to_string(impl_->minor);
}
int Device::driverVersion() const { return impl_->host() ? 0 : driver().version; }
const DeviceLimits &Device::limits() const { return impl_->limits; }
void Device::makeCurrent() const { impl_->makeCurrent(); }
void Device::synchronize() const {
  if (impl_->host())
    return; // launches and copies finish before they return
  impl_->makeCurrent();
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

struct Stream::HostState {
  // While a graph is captured: what the stream's launches and copies do.
  bool capturing = false;
  std::vector<std::function<void()>> captured;
};

/// On an interpreter stream that is capturing a graph, records `work` and
/// returns true; otherwise does nothing and returns false.
static bool captureOnHost(const Stream *stream,
                          const std::shared_ptr<Stream::HostState> &state,
                          std::function<void()> work) {
  if (!stream || !state || !state->capturing)
    return false;
  state->captured.push_back(std::move(work));
  return true;
}

static double hostNowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Stream::Stream(const Device &device) : device_(device.impl()) {
  if (device_->host()) {
    host_ = std::make_shared<HostState>();
    return;
  }
  device_->makeCurrent();
  CUstream s = nullptr;
  check(driver().cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  stream_ = s;
}
Stream::~Stream() {
  if (stream_) {
    device_->makeCurrent();
    (void)driver().cuStreamDestroy(stream_);
  }
}
Stream::Stream(Stream &&o) noexcept
    : device_(std::move(o.device_)), stream_(o.stream_), host_(std::move(o.host_)) {
  o.stream_ = nullptr;
}
Stream &Stream::operator=(Stream &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(stream_, o.stream_);
  std::swap(host_, o.host_);
  return *this;
}
void Stream::synchronize() const {
  if (host_)
    return;
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

Event::Event(const Device &device) : device_(device.impl()) {
  if (device_->host())
    return;
  device_->makeCurrent();
  CUevent e = nullptr;
  check(driver().cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
  event_ = e;
}
Event::~Event() {
  if (event_)
    (void)driver().cuEventDestroy(event_);
}
Event::Event(Event &&o) noexcept
    : device_(std::move(o.device_)), event_(o.event_), hostMs_(o.hostMs_) {
  o.event_ = nullptr;
}
Event &Event::operator=(Event &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(event_, o.event_);
  std::swap(hostMs_, o.hostMs_);
  return *this;
}
void Event::record(const Stream *stream) {
  if (device_->host()) {
    if (stream && stream->handle())
      throw Error(ErrorCode::InvalidArgument,
                  "an interpreter event recorded on a CUDA stream");
    hostMs_ = hostNowMs();
    return;
  }
  check(driver().cuEventRecord(event_, stream ? stream->handle() : nullptr),
        "cuEventRecord");
}
void Event::record(const LaunchOptions &on) {
  if (on.stream || !on.rawStream) {
    record(on.stream);
    return;
  }
  if (device_->host())
    throw Error(ErrorCode::InvalidArgument,
                "an interpreter event recorded on a CUDA stream");
  check(driver().cuEventRecord(event_, on.rawStream), "cuEventRecord");
}
void Event::synchronize() const {
  if (device_->host())
    return;
  check(driver().cuEventSynchronize(event_), "cuEventSynchronize");
}
float Event::elapsedMs(const Event &start, const Event &end) {
  if (start.device_->host() || end.device_->host()) {
    if (!start.device_->host() || !end.device_->host())
      throw Error(ErrorCode::InvalidArgument,
                  "elapsed time between an interpreter event and a CUDA event");
    if (start.hostMs_ < 0 || end.hostMs_ < 0)
      throw Error(ErrorCode::InvalidArgument,
                  "elapsed time of an event that was never recorded");
    return float(end.hostMs_ - start.hostMs_);
  }
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, start.event_, end.event_),
        "cuEventElapsedTime");
  return ms;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static constexpr size_t kHostAlignment = 256; // as cuMemAlloc's

/// `bytes` rounded up to a multiple of `align` (a power of two); throws
/// InvalidArgument where that is not a size_t.
static size_t roundUpSize(size_t bytes, size_t align) {
  if (bytes > SIZE_MAX - (align - 1))
    throw Error(ErrorCode::InvalidArgument,
                "cannot allocate " + std::to_string(bytes) +
                    " bytes: larger than memory");
  return (bytes + align - 1) & ~(align - 1);
}

DeviceMemory::DeviceMemory(const Device &device, size_t bytes)
    : device_(device.impl()), bytes_(bytes) {
  if (!bytes) // cuMemAlloc rejects 0 bytes; an empty buffer has address 0
    return;
  // The buffer contract: whole granules, the padding zeroed (so that the
  // bytes a kernel may read past its elements are initialized).
  size_t padded = roundUpSize(bytes, kBufferGranule);
  if (device_->host()) {
    // Rounded here to the alignment, which aligned new would otherwise do
    // itself, past SIZE_MAX for sizes near it.
    size_t hostBytes = roundUpSize(padded, kHostAlignment);
    void *p = ::operator new(hostBytes, std::align_val_t(kHostAlignment), std::nothrow);
    if (!p)
      throw Error(ErrorCode::InvalidArgument,
                  "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    std::memset(p, 0xff, bytes);
    std::memset(static_cast<char *>(p) + bytes, 0, padded - bytes);
    address_ = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> lock(device_->memoryMutex);
    device_->allocations[address_] = bytes;
    return;
  }
  device_->makeCurrent();
  const Driver &d = driver();
  CUdeviceptr p = 0;
  check(d.cuMemAlloc(&p, padded), "cuMemAlloc");
  address_ = p;
  if (padded > bytes) {
    // Done before any stream (ours are non-blocking) can read it.
    CUresult r = d.cuMemsetD8(p + bytes, 0, padded - bytes);
    if (r == CUDA_SUCCESS)
      r = d.cuStreamSynchronize(nullptr);
    if (r != CUDA_SUCCESS) {
      (void)d.cuMemFree(p);
      address_ = 0;
      check(r, "cuMemsetD8 of the allocation's padding");
    }
  }
}
DeviceMemory::~DeviceMemory() {
  if (address_ && device_->host()) {
    {
      std::lock_guard<std::mutex> lock(device_->memoryMutex);
      device_->allocations.erase(address_);
    }
    ::operator delete(reinterpret_cast<void *>(address_),
                      std::align_val_t(kHostAlignment));
  } else if (address_) {
    device_->makeCurrent();
    (void)driver().cuMemFree(address_);
  }
}
DeviceMemory::DeviceMemory(DeviceMemory &&o) noexcept
    : device_(std::move(o.device_)), address_(o.address_), bytes_(o.bytes_) {
  o.address_ = 0;
  o.bytes_ = 0;
}
DeviceMemory &DeviceMemory::operator=(DeviceMemory &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(address_, o.address_);
  std::swap(bytes_, o.bytes_);
  return *this;
}
static void checkRange(size_t bytes, size_t capacity) {
  if (bytes > capacity)
    throw Error(ErrorCode::InvalidArgument,
                "copy of " + std::to_string(bytes) + " bytes with a buffer of " +
                    std::to_string(capacity));
}
void DeviceMemory::copyFromHost(const void *host, size_t bytes, const Stream *stream) {
  checkRange(bytes, bytes_);
  if (!bytes)
    return;
  if (device_->host()) {
    void *dst = reinterpret_cast<void *>(address_);
    auto copy = [dst, host, bytes] { std::memcpy(dst, host, bytes); };
    if (!captureOnHost(stream, stream ? stream->host_ : nullptr, copy))
      copy();
    return;
  }
  device_->makeCurrent();
  if (stream)
    check(driver().cuMemcpyHtoDAsync(address_, host, bytes, stream->handle()),
          "cuMemcpyHtoDAsync");
  else
    check(driver().cuMemcpyHtoD(address_, host, bytes), "cuMemcpyHtoD");
}
void DeviceMemory::copyToHost(void *host, size_t bytes, const Stream *stream) const {
  checkRange(bytes, bytes_);
  if (!bytes)
    return;
  if (device_->host()) {
    const void *src = reinterpret_cast<const void *>(address_);
    auto copy = [src, host, bytes] { std::memcpy(host, src, bytes); };
    if (!captureOnHost(stream, stream ? stream->host_ : nullptr, copy))
      copy();
    return;
  }
  device_->makeCurrent();
  if (stream)
    check(driver().cuMemcpyDtoHAsync(host, address_, bytes, stream->handle()),
          "cuMemcpyDtoHAsync");
  else
    check(driver().cuMemcpyDtoH(host, address_, bytes), "cuMemcpyDtoH");
}
void DeviceMemory::copyFromDevice(const DeviceMemory &source, size_t bytes,
                                  const Stream *stream) {
  checkRange(bytes, bytes_);
  checkRange(bytes, source.bytes_);
  if (!bytes)
    return;
  device_->makeCurrent();
  check(driver().cuMemcpyDtoDAsync(address_, source.address_, bytes,
                                   stream ? stream->handle() : nullptr),
        "cuMemcpyDtoDAsync");
}
void DeviceMemory::fill(uint8_t byte) {
  if (!bytes_)
    return;
  if (device_->host()) {
    std::memset(reinterpret_cast<void *>(address_), byte, bytes_);
    return;
  }
  device_->makeCurrent();
  check(driver().cuMemsetD8(address_, byte, bytes_), "cuMemsetD8");
}

/// The CUDA stream of a launch with `on`; on the interpreter none, and a raw
/// CUDA stream is refused.
static CUstream streamOf(const Device::Impl &device, const LaunchOptions &on,
                         const char *what) {
  CUstream stream = on.stream ? on.stream->handle() : on.rawStream;
  if (device.host() && stream)
    throw Error(ErrorCode::InvalidArgument,
                std::string(what) + " on a CUDA stream on the interpreter backend");
  return stream;
}

/// On the interpreter: [address, address + bytes) lies in one live
/// allocation (memory from elsewhere is not the device's).
static void checkHostRange(Device::Impl &device, uint64_t address, size_t bytes,
                           const char *what) {
  std::lock_guard<std::mutex> lock(device.memoryMutex);
  auto it = device.allocations.upper_bound(address);
  if (it != device.allocations.begin()) {
    --it;
    if (address - it->first <= it->second && bytes <= it->second - (address - it->first))
      return;
  }
  throw Error(ErrorCode::InvalidArgument,
              std::string(what) + ": " + std::to_string(bytes) + " bytes at " +
                  std::to_string(address) + " are not in one allocation of the device");
}

void DeviceMemory::fill(uint8_t byte, const LaunchOptions &on) {
  CUstream stream = streamOf(*device_, on, "fill");
  if (device_->host()) {
    fill(byte);
    return;
  }
  if (!bytes_)
    return;
  device_->makeCurrent();
  check(driver().cuMemsetD8Async(address_, byte, bytes_, stream), "cuMemsetD8Async");
}

/// A device-to-device copy between an allocation of `device` and `other`, an
/// address it does not own (on the interpreter, checked to lie in one live
/// allocation), on the stream of `on`.
static void copyWithAddress(Device::Impl &device, uint64_t destination, uint64_t source,
                            uint64_t other, size_t bytes, const LaunchOptions &on) {
  CUstream stream = streamOf(device, on, "copy");
  if (!bytes)
    return;
  if (device.host()) {
    checkHostRange(device, other, bytes,
                   other == source ? "copy from an address" : "copy to an address");
    std::memmove(reinterpret_cast<void *>(destination),
                 reinterpret_cast<const void *>(source), bytes);
    return;
  }
  device.makeCurrent();
  check(driver().cuMemcpyDtoDAsync(destination, source, bytes, stream),
        "cuMemcpyDtoDAsync");
}

void DeviceMemory::copyFromAddress(uint64_t source, size_t bytes,
                                   const LaunchOptions &on) {
  checkRange(bytes, bytes_);
  copyWithAddress(*device_, address_, source, source, bytes, on);
}

void DeviceMemory::copyToAddress(uint64_t destination, size_t bytes,
                                 const LaunchOptions &on) const {
  checkRange(bytes, bytes_);
  copyWithAddress(*device_, destination, address_, destination, bytes, on);
}

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

TensorMap::TensorMap(const Device &device, const ParamInfo &param,
                     uint64_t address, uint64_t rows, uint64_t cols,
                     uint64_t rowStrideBytes)
    : type_(param.type) {
  auto invalid = [](const std::string &why) {
    return Error(ErrorCode::InvalidArgument, "tensor map: " + why);
  };
  if (!param.isTensorDesc())
    throw invalid("the parameter (" + param.str() +
                  ") is not a !tile.tensordesc");
  CUtensorMapDataType dataType;
  switch (param.type) {
  case ScalarType::F16: dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
  case ScalarType::BF16: dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
  // TMA moves bytes: fp8 blocks travel as 8-bit integers.
  case ScalarType::F8E4M3FN:
  case ScalarType::F8E5M2: dataType = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  default: throw invalid(std::string("no TMA for ") + toString(param.type));
  }
  size_t elementBytes = sizeOf(param.type);
  if (address % 16 || rowStrideBytes % 16)
    throw invalid("TMA needs a 16-byte aligned address and a row stride that "
                  "is a multiple of 16 bytes, got address " +
                  std::to_string(address) + " and stride " +
                  std::to_string(rowStrideBytes));
  if (!rows || !cols || rowStrideBytes < cols * elementBytes)
    throw invalid("a " + std::to_string(rows) + "x" + std::to_string(cols) +
                  " tensor does not fit rows " +
                  std::to_string(rowStrideBytes) + " bytes apart");
  if (device.impl()->host()) {
    // The interpreter reads the blocks itself, with TMA's zero fill.
    const llk::interp::TensorDescriptor desc{
        reinterpret_cast<const void *>(static_cast<uintptr_t>(address)),
        static_cast<int64_t>(rows), static_cast<int64_t>(cols),
        static_cast<int64_t>(rowStrideBytes / elementBytes)};
    memory_ = std::make_unique<DeviceMemory>(device, sizeof desc);
    memory_->copyFromHost(&desc, sizeof desc);
    return;
  }
  // 64-byte aligned, as CUtensorMap is declared.
  alignas(64) CUtensorMap map;
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {rowStrideBytes};
  cuuint32_t box[2] = {cuuint32_t(param.tmaBox[1]), cuuint32_t(param.tmaBox[0])};
  cuuint32_t elementStrides[2] = {1, 1};
  device.impl()->makeCurrent();
  check(driver().cuTensorMapEncodeTiled(
            &map, dataType, 2, reinterpret_cast<void *>(address), dims, strides,
            box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
        "cuTensorMapEncodeTiled");
  memory_ = std::make_unique<DeviceMemory>(device, sizeof(map));
  memory_->copyFromHost(&map, sizeof(map));
}
TensorMap::~TensorMap() = default;
TensorMap::TensorMap(TensorMap &&) noexcept = default;
TensorMap &TensorMap::operator=(TensorMap &&) noexcept = default;
uint64_t TensorMap::address() const { return memory_->address(); }

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

struct Module::Impl {
  std::shared_ptr<Device::Impl> device;
  CUmodule module = nullptr;
  std::shared_ptr<HostModule> host; // the interpreter's
  ModuleInfo info;
  ~Impl() {
    if (module) {
      device->makeCurrent();
      (void)driver().cuModuleUnload(module);
    }
  }
};

struct Kernel::Impl {
  std::shared_ptr<Module::Impl> module;
  CUfunction function = nullptr;
  std::mutex mutex;
  unsigned dynamicLimitSet = 0; // MAX_DYNAMIC_SHARED_SIZE_BYTES we raised to
};

static void checkArch(const Device::Impl &device, const ModuleInfo &info) {
  // sm_XY[a]: PTX for sm_XY runs on X.Y and later, sm_XYa only on X.Y.
  std::string arch = info.arch;
  if (arch.rfind("sm_", 0) != 0 || arch.size() < 5)
    return; // unknown form: let the driver judge
  bool archSpecific = arch.back() == 'a';
  std::string digits = arch.substr(3, arch.size() - 3 - archSpecific);
  int number = 0;
  try {
    number = std::stoi(digits);
  } catch (const std::exception &) {
    return;
  }
  int device10 = device.major * 10 + device.minor;
  if (archSpecific ? number != device10 : number > device10)
    throw Error(ErrorCode::InvalidArgument,
                "the module was compiled for " + arch + " but device " +
                    std::to_string(device.ordinal) + " (" + device.name +
                    ") is sm_" + std::to_string(device10));
}

static std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad())
    throw Error(ErrorCode::IO, "cannot read '" + path + "'");
  return s.str();
}

/// cuModuleLoadDataEx with the JIT's logs; throws Compile with the log.
static CUmodule loadData(const std::string &ptx, const std::string &what) {
  std::vector<char> errorLog(16384, 0), infoLog(4096, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(uintptr_t(errorLog.size() - 1)),
                    infoLog.data(),
                    reinterpret_cast<void *>(uintptr_t(infoLog.size() - 1))};
  CUmodule module = nullptr;
  CUresult r = driver().cuModuleLoadDataEx(&module, ptx.c_str(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    driver().cuGetErrorName(r, &name);
    std::string log(errorLog.data());
    throw Error(r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_IMAGE ||
                        r == CUDA_ERROR_NO_BINARY_FOR_GPU
                    ? ErrorCode::Compile
                    : ErrorCode::Cuda,
                "cuModuleLoadDataEx of " + what + " failed: " + describe(r) +
                    (log.empty() ? "" : "\nPTX JIT log:\n" + log),
                name ? name : "", r);
  }
  return module;
}

static void refuseOnInterpreter(const Device &device, const std::string &what) {
  if (device.backend() == Backend::Interpreter)
    throw Error(ErrorCode::InvalidArgument,
                "cannot load " + what +
                    " on the interpreter backend: the interpreter runs DSL "
                    "sources; use the JIT (rt::JIT::compile)");
}

Module Module::loadPTXFile(const Device &device, const std::string &path) {
  refuseOnInterpreter(device, "the PTX file '" + path + "'");
  auto impl = std::make_shared<Impl>();
  impl->device = device.impl();
  std::string metadataPath = path + ".json";
  std::string json;
  try {
    json = readFile(metadataPath);
  } catch (const Error &e) {
    throw Error(ErrorCode::NotFound,
                std::string(e.what()) + ": llkc writes a kernel's launch "
                                        "metadata beside its PTX");
  }
  impl->info = parseModuleInfo(json);
  checkArch(*impl->device, impl->info);
  impl->device->makeCurrent();
  CUresult r = driver().cuModuleLoad(&impl->module, path.c_str());
  if (r == CUDA_ERROR_FILE_NOT_FOUND)
    throw Error(ErrorCode::NotFound, "cuModuleLoad: cannot open '" + path + "'",
                "CUDA_ERROR_FILE_NOT_FOUND", r);
  if (r != CUDA_SUCCESS) {
    // cuModuleLoad gives no log; load the text again to get the JIT's.
    if (r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_IMAGE ||
        r == CUDA_ERROR_NO_BINARY_FOR_GPU)
      impl->module = loadData(readFile(path), "'" + path + "'");
    else
      check(r, ("cuModuleLoad of '" + path + "'").c_str());
  }
  return Module(std::move(impl));
}

Module Module::loadPTX(const Device &device, std::string_view ptx,
                       std::string_view metadataJson) {
  return loadPTX(device, ptx, parseModuleInfo(metadataJson));
}

Module Module::loadPTX(const Device &device, std::string_view ptx, ModuleInfo info) {
  refuseOnInterpreter(device, "PTX");
  auto impl = std::make_shared<Impl>();
  impl->device = device.impl();
  impl->info = std::move(info);
  checkArch(*impl->device, impl->info);
  impl->device->makeCurrent();
  impl->module = loadData(std::string(ptx), "PTX in memory");
  return Module(std::move(impl));
}

Module Module::loadCubin(const Device &device, std::string_view cubin, ModuleInfo info) {
  refuseOnInterpreter(device, "a cubin");
  if (cubin.substr(0, 4) != "\x7f" "ELF")
    throw Error(ErrorCode::InvalidArgument, "not a cubin: no ELF header");
  auto impl = std::make_shared<Impl>();
  impl->device = device.impl();
  impl->info = std::move(info);
  checkArch(*impl->device, impl->info);
  impl->device->makeCurrent();
  impl->module = loadData(std::string(cubin), "a cubin");
  return Module(std::move(impl));
}

Module Module::fromHost(const Device &device, ModuleInfo info,
                        std::shared_ptr<HostModule> host) {
  if (device.backend() != Backend::Interpreter)
    throw Error(ErrorCode::InvalidArgument,
                "a module for the interpreter needs an interpreter device");
  if (!host)
    throw Error(ErrorCode::InvalidArgument, "Module::fromHost: no module");
  auto impl = std::make_shared<Impl>();
  impl->device = device.impl();
  impl->info = std::move(info);
  impl->host = std::move(host);
  return Module(std::move(impl));
}

const ModuleInfo &Module::info() const { return impl_->info; }

Kernel Module::kernel(std::string_view name) const {
  const KernelInfo *info = nullptr;
  if (name.empty()) {
    if (impl_->info.kernels.size() != 1)
      throw Error(ErrorCode::InvalidArgument,
                  "the module has " + std::to_string(impl_->info.kernels.size()) +
                      " kernels: name the one to launch");
    info = &impl_->info.kernels.front();
  } else {
    info = impl_->info.find(name);
  }
  if (!info) {
    std::string names;
    for (const KernelInfo &k : impl_->info.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    throw Error(ErrorCode::NotFound, "no kernel '" + std::string(name) +
                                         "' in the module (it has: " + names + ")",
                "", 0, std::string(name));
  }
  auto kernel = std::make_shared<Kernel::Impl>();
  kernel->module = impl_;
  if (impl_->host)
    return Kernel(std::move(kernel), info);
  impl_->device->makeCurrent();
  check(driver().cuModuleGetFunction(&kernel->function, impl_->module,
                                     info->name.c_str()),
        "cuModuleGetFunction", info->name);
  return Kernel(std::move(kernel), info);
}

void Kernel::launch(const Grid &grid, const ArgList &args,
                    const LaunchOptions &options) const {
  const KernelInfo &info = *info_;
  Device::Impl &device = *impl_->module->device;
  PackedArgs packed = packArgs(info, args);
  checkGrid(info, grid, device.limits);
  checkSharedMemory(info, options.dynamicSharedBytes, device.limits);
  if (options.dependentLaunch && !info.gridDependencyWait)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + info.name +
                    "': a dependent launch needs tile.grid_dependency_wait in "
                    "the kernel, before what it shares with the kernel ahead "
                    "of it in the stream");
  if (impl_->module->host) {
    launchOnHost(grid, std::move(packed), options);
    return;
  }
  const Driver &d = driver();
  device.makeCurrent();
  // The kernel's own dynamic shared memory comes first, then the caller's.
  unsigned dynamicBytes = unsigned(info.dynamicSharedBytes) + options.dynamicSharedBytes;
  optInToDynamicShared(dynamicBytes);
  std::vector<void *> pointers = packed.pointers();
  CUstream stream = options.stream ? options.stream->handle() : options.rawStream;
  // One launch call; a dependent launch (sm_90 and later) adds its attribute.
  CUlaunchAttribute dependent = {};
  dependent.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  dependent.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config = {};
  config.gridDimX = grid.x;
  config.gridDimY = grid.y;
  config.gridDimZ = grid.z;
  config.blockDimX = info.numWarps * 32;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = dynamicBytes;
  config.hStream = stream;
  if (options.dependentLaunch && device.major >= 9) {
    config.attrs = &dependent;
    config.numAttrs = 1;
  }
  check(d.cuLaunchKernelEx(&config, impl_->function,
                           pointers.empty() ? nullptr : pointers.data(), nullptr),
        "cuLaunchKernelEx", info.name);
  if (options.synchronize)
    check(d.cuStreamSynchronize(stream), "cuStreamSynchronize after the launch",
          info.name);
}

void Kernel::optInToDynamicShared(unsigned dynamicBytes) const {
  // Past 48 KB in all, a block must opt in to its dynamic shared memory
  // (before a launch, and before the occupancy calculator counts it).
  if (info_->sharedBytes + dynamicBytes <= impl_->module->device->limits.sharedPerBlock)
    return;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->dynamicLimitSet >= dynamicBytes)
    return;
  check(driver().cuFuncSetAttribute(impl_->function,
                                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    int(dynamicBytes)),
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", info_->name);
  impl_->dynamicLimitSet = dynamicBytes;
}

int Kernel::maxActiveProgramsPerSM(unsigned dynamicSharedBytes) const {
  if (impl_->module->host)
    return 1;
  impl_->module->device->makeCurrent();
  unsigned dynamicBytes = unsigned(info_->dynamicSharedBytes) + dynamicSharedBytes;
  optInToDynamicShared(dynamicBytes);
  int programs = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &programs, impl_->function, int(info_->numWarps * 32), size_t(dynamicBytes)),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor", info_->name);
  return programs;
}

void Kernel::setSharedMemoryCarveout(int percent) const {
  if (percent < -1 || percent > 100)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + info_->name + "': a shared-memory carve-out is -1 or 0 to 100 "
                "percent, not " + std::to_string(percent),
                "", 0, info_->name);
  if (impl_->module->host)
    return;
  impl_->module->device->makeCurrent();
  check(driver().cuFuncSetAttribute(impl_->function,
                                    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent),
        "cuFuncSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT)", info_->name);
}

/// Runs the kernel on the interpreter over every live allocation of the
/// device; an interpreter error becomes Execution, with the kernel's name.
static void runOnHost(const std::shared_ptr<Module::Impl> &module,
                      const KernelInfo &info, const Grid &grid, PackedArgs &packed) {
  std::vector<HostModule::Buffer> buffers;
  {
    Device::Impl &device = *module->device;
    std::lock_guard<std::mutex> lock(device.memoryMutex);
    for (const auto &[address, bytes] : device.allocations)
      buffers.push_back({address, bytes, "an allocation"});
  }
  // Name each buffer by the first pointer argument into it.
  for (size_t i = 0; i < info.params.size(); ++i) {
    if (!info.params[i].passedAsPointer())
      continue;
    uint64_t address = packed.slots[i];
    for (HostModule::Buffer &b : buffers)
      if (address >= b.address && address - b.address < b.bytes &&
          b.name == "an allocation")
        b.name = "argument " + std::to_string(i);
  }
  std::vector<const void *> args;
  for (void *p : packed.pointers())
    args.push_back(p);
  if (std::optional<std::string> error = module->host->run(info, grid, args, buffers))
    throw Error(ErrorCode::Execution,
                "kernel '" + info.name + "' failed on the interpreter: " + *error, "",
                0, info.name);
}

void Kernel::launchOnHost(const Grid &grid, PackedArgs packed,
                          const LaunchOptions &options) const {
  if (!options.stream && options.rawStream)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + name() +
                    "': a raw CUstream cannot be used on the interpreter backend",
                "", 0, name());
  if (options.stream && !options.stream->host_)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + name() + "': a CUDA stream on the interpreter backend",
                "", 0, name());
  std::shared_ptr<Module::Impl> module = impl_->module;
  const KernelInfo *info = info_;
  auto run = [module, info, grid, packed]() mutable {
    runOnHost(module, *info, grid, packed);
  };
  if (!captureOnHost(options.stream, options.stream ? options.stream->host_ : nullptr,
                     run))
    run();
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

struct Graph::Impl {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  bool host = false; // the interpreter's: `nodes` replayed in order
  std::vector<std::function<void()>> nodes;
  ~Impl() {
    if (exec)
      (void)driver().cuGraphExecDestroy(exec);
    if (graph)
      (void)driver().cuGraphDestroy(graph);
  }
};

Graph Graph::capture(const Stream &stream, const std::function<void()> &body) {
  if (stream.host_) {
    Stream::HostState &state = *stream.host_;
    if (state.capturing)
      throw Error(ErrorCode::InvalidArgument, "the stream is already capturing a graph");
    state.capturing = true;
    state.captured.clear();
    auto impl = std::make_shared<Impl>();
    impl->host = true;
    try {
      body();
    } catch (...) {
      state.capturing = false;
      state.captured.clear();
      throw;
    }
    state.capturing = false;
    impl->nodes = std::move(state.captured);
    state.captured.clear();
    return Graph(std::move(impl));
  }
  if (!stream.handle())
    throw Error(ErrorCode::InvalidArgument,
                "a graph is captured on a stream of its own, not the default one");
  const Driver &d = driver();
  check(d.cuStreamBeginCapture(stream.handle(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
        "cuStreamBeginCapture");
  auto impl = std::make_shared<Impl>();
  try {
    body();
  } catch (...) {
    CUgraph partial = nullptr;
    if (d.cuStreamEndCapture(stream.handle(), &partial) == CUDA_SUCCESS && partial)
      (void)d.cuGraphDestroy(partial);
    throw;
  }
  check(d.cuStreamEndCapture(stream.handle(), &impl->graph), "cuStreamEndCapture");
  check(d.cuGraphInstantiateWithFlags(&impl->exec, impl->graph, 0),
        "cuGraphInstantiate");
  return Graph(std::move(impl));
}

void Graph::launch(const Stream &stream) const {
  if (impl_->host != bool(stream.host_))
    throw Error(ErrorCode::InvalidArgument,
                "a graph is launched on a stream of the backend it was captured on");
  if (impl_->host) {
    for (const std::function<void()> &node : impl_->nodes)
      node();
    return;
  }
  check(driver().cuGraphLaunch(impl_->exec, stream.handle()), "cuGraphLaunch");
}

size_t Graph::nodeCount() const {
  if (impl_->host)
    return impl_->nodes.size();
  size_t n = 0;
  check(driver().cuGraphGetNodes(impl_->graph, nullptr, &n), "cuGraphGetNodes");
  return n;
}
