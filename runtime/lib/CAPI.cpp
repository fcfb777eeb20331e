//===- CAPI.cpp - the C interface over llk::rt ----------------------------===//

#include "CAPIImpl.h"

#include "llk/Version.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace llk::rt;

namespace {
thread_local std::string lastError;
thread_local std::string lastCudaError;

struct HandleRegistry {
  std::mutex mutex;
  uintptr_t next = 1;
  std::unordered_map<uintptr_t, std::pair<capi::HandleKind, std::shared_ptr<void>>> live;
};

HandleRegistry &registry() {
  // Never destroyed: handles the program did not destroy stay as they were
  // (no driver call from a static destructor after the driver is gone).
  static HandleRegistry *registry = new HandleRegistry;
  return *registry;
}
} // namespace

uintptr_t llk::rt::capi::addHandle(HandleKind kind, std::shared_ptr<void> object) {
  HandleRegistry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  uintptr_t handle = r.next++;
  r.live.emplace(handle, std::make_pair(kind, std::move(object)));
  return handle;
}

std::shared_ptr<void> llk::rt::capi::findHandle(uintptr_t handle, HandleKind kind) {
  HandleRegistry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.live.find(handle);
  if (it == r.live.end() || it->second.first != kind)
    return nullptr;
  return it->second.second;
}

bool llk::rt::capi::removeHandle(uintptr_t handle, HandleKind kind) {
  std::shared_ptr<void> object; // released after the lock: unloads, frees
  HandleRegistry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.live.find(handle);
  if (it == r.live.end() || it->second.first != kind)
    return false;
  object = std::move(it->second.second);
  r.live.erase(it);
  return true;
}

llk_status llk::rt::capi::fail(const std::exception &e) {
  lastError = e.what();
  lastCudaError.clear();
  if (const auto *error = dynamic_cast<const Error *>(&e)) {
    lastCudaError = error->cudaName();
    switch (error->code()) {
    case ErrorCode::NoDriver: return LLK_ERROR_NO_DRIVER;
    case ErrorCode::Cuda: return LLK_ERROR_CUDA;
    case ErrorCode::InvalidArgument: return LLK_ERROR_INVALID_ARGUMENT;
    case ErrorCode::NotFound: return LLK_ERROR_NOT_FOUND;
    case ErrorCode::Compile: return LLK_ERROR_COMPILE;
    case ErrorCode::IO: return LLK_ERROR_IO;
    case ErrorCode::Execution: return LLK_ERROR_EXECUTION;
    }
  }
  return LLK_ERROR_INTERNAL;
}

llk_status llk::rt::capi::nullHandle(const char *what) {
  lastError = std::string("null ") + what;
  lastCudaError.clear();
  return LLK_ERROR_INVALID_ARGUMENT;
}

void llk::rt::capi::succeed() {
  lastError.clear();
  lastCudaError.clear();
}

ArgList llk::rt::capi::toArgList(const llk_arg *args, size_t count) {
  ArgList list;
  list.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const llk_arg &a = args[i];
    if (a.is_pointer == LLK_ARG_TENSOR_MAP) {
      if (a.type == LLK_UNTYPED)
        throw Error(ErrorCode::InvalidArgument,
                    "argument " + std::to_string(i) +
                        " is a tensor map that is not live (destroyed, or never created)");
      list.push_back(Arg::tensorMap(a.bits, toScalarType(a.type)));
    } else if (a.is_pointer) {
      std::optional<ScalarType> element;
      if (a.type != LLK_UNTYPED)
        element = toScalarType(a.type);
      list.push_back(Arg::pointer(a.bits, element));
    } else {
      list.push_back(Arg::scalar(toScalarType(a.type), a.bits));
    }
  }
  return list;
}

extern "C" {

const char *llk_last_error(void) { return lastError.c_str(); }
const char *llk_last_cuda_error(void) { return lastCudaError.c_str(); }

const char *llk_version(void) { return LLK_VERSION_STRING; }

const char *llk_build_id(void) {
  static const std::string id = llk::buildId(); // lives as long as the process
  return id.c_str();
}

llk_arg llk_arg_ptr(uint64_t address, llk_type element) {
  return llk_arg{1, element, address};
}
llk_arg llk_arg_tensor_map(llk_tensor_map map) {
  llk_arg arg{LLK_ARG_TENSOR_MAP, LLK_UNTYPED, 0};
  capi::guard([&] {
    auto m = capi::lookup(map, "tensor map");
    arg = llk_arg{LLK_ARG_TENSOR_MAP, static_cast<llk_type>(m->map.type()),
                  m->map.address()};
  });
  return arg;
}
llk_arg llk_arg_i8(int8_t value) {
  return llk_arg{0, LLK_I8, static_cast<uint8_t>(value)};
}
llk_arg llk_arg_i16(int16_t value) {
  return llk_arg{0, LLK_I16, static_cast<uint16_t>(value)};
}
llk_arg llk_arg_i32(int32_t value) {
  return llk_arg{0, LLK_I32, static_cast<uint32_t>(value)};
}
llk_arg llk_arg_i64(int64_t value) {
  return llk_arg{0, LLK_I64, static_cast<uint64_t>(value)};
}
llk_arg llk_arg_f16(float value) { return llk_arg{0, LLK_F16, toHalfBits(value)}; }
llk_arg llk_arg_f16_bits(uint16_t bits) { return llk_arg{0, LLK_F16, bits}; }
llk_arg llk_arg_bf16(float value) {
  return llk_arg{0, LLK_BF16, toBFloat16Bits(value)};
}
llk_arg llk_arg_bf16_bits(uint16_t bits) { return llk_arg{0, LLK_BF16, bits}; }
llk_arg llk_arg_f32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return llk_arg{0, LLK_F32, bits};
}
llk_arg llk_arg_f64(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return llk_arg{0, LLK_F64, bits};
}

llk_status llk_device_count(int *count) {
  if (!count)
    return capi::nullHandle("count");
  return capi::guard([&] { *count = Device::count(); });
}

llk_status llk_device_open(int ordinal, llk_device *device) {
  if (!device)
    return capi::nullHandle("device");
  *device = nullptr;
  return capi::guard([&] {
    Device d = Device::open(ordinal);
    *device = capi::makeHandle<llk_device>(
        std::make_shared<llk_device_s>(llk_device_s{d, d.arch(), d.name()}));
  });
}

const char *llk_device_arch(llk_device device) {
  return capi::guardValue<const char *>("", [&] {
    // The string lives in the object, which lives while the handle does.
    return capi::lookup(device, "device")->arch.c_str();
  });
}

const char *llk_device_name(llk_device device) {
  return capi::guardValue<const char *>(
      "", [&] { return capi::lookup(device, "device")->name.c_str(); });
}

llk_status llk_device_destroy(llk_device device) {
  return capi::destroy(device, "device");
}

llk_status llk_module_load_ptx_file(llk_device device, const char *path,
                                    llk_module *module) {
  if (!path || !module)
    return capi::nullHandle("path or module");
  *module = nullptr;
  return capi::guard([&] {
    auto d = capi::lookup(device, "device");
    *module = capi::makeHandle<llk_module>(std::make_shared<llk_module_s>(
        llk_module_s{Module::loadPTXFile(d->device, path)}));
  });
}

llk_status llk_module_load_ptx(llk_device device, const char *ptx,
                               const char *metadata_json, llk_module *module) {
  if (!ptx || !metadata_json || !module)
    return capi::nullHandle("ptx, metadata or module");
  *module = nullptr;
  return capi::guard([&] {
    auto d = capi::lookup(device, "device");
    *module = capi::makeHandle<llk_module>(std::make_shared<llk_module_s>(
        llk_module_s{Module::loadPTX(d->device, ptx, metadata_json)}));
  });
}

llk_status llk_module_destroy(llk_module module) {
  return capi::destroy(module, "module");
}

llk_status llk_module_get_kernel(llk_module module, const char *name,
                                 llk_kernel *kernel) {
  if (!kernel)
    return capi::nullHandle("kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    auto m = capi::lookup(module, "module");
    *kernel = capi::makeHandle<llk_kernel>(
        std::make_shared<llk_kernel_s>(llk_kernel_s{m->module.kernel(name ? name : "")}));
  });
}

const char *llk_kernel_name(llk_kernel kernel) {
  return capi::guardValue<const char *>(
      "", [&] { return capi::lookup(kernel, "kernel")->kernel.name().c_str(); });
}

/// Parameter `index` of `k`, or InvalidArgument naming how many it has.
static const ParamInfo &paramAt(const KernelInfo &k, size_t index) {
  if (index >= k.params.size())
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + k.name + "' has " + std::to_string(k.params.size()) +
                    " parameters, not " + std::to_string(index + 1));
  return k.params[index];
}

llk_status llk_kernel_param(llk_kernel kernel, size_t index, int *is_pointer,
                            llk_type *type) {
  if (!is_pointer || !type)
    return capi::nullHandle("is_pointer or type");
  return capi::guard([&] {
    const ParamInfo &p = paramAt(capi::lookup(kernel, "kernel")->kernel.info(), index);
    *is_pointer = p.passedAsPointer();
    *type = static_cast<llk_type>(p.type);
  });
}

size_t llk_kernel_num_params(llk_kernel kernel) {
  return capi::guardValue<size_t>(0, [&] {
    return capi::lookup(kernel, "kernel")->kernel.info().params.size();
  });
}
unsigned llk_kernel_num_warps(llk_kernel kernel) {
  return capi::guardValue<unsigned>(
      0, [&] { return capi::lookup(kernel, "kernel")->kernel.numWarps(); });
}
llk_status llk_kernel_destroy(llk_kernel kernel) {
  return capi::destroy(kernel, "kernel");
}

llk_status llk_kernel_param_info(llk_kernel kernel, size_t index,
                                 llk_param_info *info) {
  if (!info)
    return capi::nullHandle("info");
  return capi::guard([&] {
    const ParamInfo &p = paramAt(capi::lookup(kernel, "kernel")->kernel.info(), index);
    *info = llk_param_info{};
    info->is_pointer = p.passedAsPointer();
    info->type = static_cast<llk_type>(p.type);
    info->is_tensor_desc = p.isTensorDesc();
    for (size_t d = 0; d < 2 && d < p.tmaBox.size(); ++d)
      info->tma_box[d] = p.tmaBox[d];
    info->read_overrun_bytes = p.readOverrunBytes;
  });
}

llk_status llk_kernel_param_divisibility(llk_kernel kernel, size_t index,
                                         int64_t *divisibility) {
  if (!divisibility)
    return capi::nullHandle("divisibility");
  return capi::guard([&] {
    *divisibility =
        paramAt(capi::lookup(kernel, "kernel")->kernel.info(), index).divisibility;
  });
}

int64_t llk_kernel_shared_bytes(llk_kernel kernel) {
  return capi::guardValue<int64_t>(
      0, [&] { return capi::lookup(kernel, "kernel")->kernel.info().sharedBytes; });
}
int64_t llk_kernel_dynamic_shared_bytes(llk_kernel kernel) {
  return capi::guardValue<int64_t>(0, [&] {
    return capi::lookup(kernel, "kernel")->kernel.info().dynamicSharedBytes;
  });
}
int llk_kernel_grid_dependency_wait(llk_kernel kernel) {
  return capi::guardValue<int>(0, [&] {
    return int(capi::lookup(kernel, "kernel")->kernel.info().gridDependencyWait);
  });
}

llk_status llk_kernel_occupancy(llk_kernel kernel, unsigned dynamic_shared_bytes,
                                int *programs_per_sm) {
  if (!programs_per_sm)
    return capi::nullHandle("programs_per_sm");
  return capi::guard([&] {
    *programs_per_sm =
        capi::lookup(kernel, "kernel")->kernel.maxActiveProgramsPerSM(dynamic_shared_bytes);
  });
}

llk_status llk_kernel_set_shared_memory_carveout(llk_kernel kernel, int percent) {
  return capi::guard(
      [&] { capi::lookup(kernel, "kernel")->kernel.setSharedMemoryCarveout(percent); });
}

llk_status llk_kernel_launch(llk_kernel kernel, const unsigned grid[3],
                             const llk_arg *args, size_t num_args, void *stream,
                             unsigned dynamic_shared_bytes) {
  llk_launch_options options = {stream, dynamic_shared_bytes, 0, 0};
  return llk_kernel_launch_ex(kernel, grid, args, num_args, &options);
}

llk_status llk_kernel_launch_ex(llk_kernel kernel, const unsigned grid[3],
                                const llk_arg *args, size_t num_args,
                                const llk_launch_options *options) {
  if (!grid || (num_args && !args))
    return capi::nullHandle("grid or args");
  return capi::guard([&] {
    auto k = capi::lookup(kernel, "kernel");
    ArgList list = capi::toArgList(args, num_args);
    LaunchOptions launch = capi::onStream(options ? options->stream : nullptr);
    if (options) {
      launch.dynamicSharedBytes = options->dynamic_shared_bytes;
      launch.dependentLaunch = options->dependent_launch != 0;
      launch.synchronize = options->synchronize != 0;
    }
    k->kernel.launch(Grid(grid[0], grid[1], grid[2]), list, launch);
  });
}

llk_status llk_tensor_map_create(llk_device device, llk_kernel kernel, size_t index,
                                 uint64_t address, uint64_t rows, uint64_t cols,
                                 uint64_t row_stride_bytes, llk_tensor_map *map) {
  if (!map)
    return capi::nullHandle("map");
  *map = nullptr;
  return capi::guard([&] {
    auto d = capi::lookup(device, "device");
    const ParamInfo &param =
        paramAt(capi::lookup(kernel, "kernel")->kernel.info(), index);
    *map = capi::makeHandle<llk_tensor_map>(std::make_shared<llk_tensor_map_s>(
        llk_tensor_map_s{TensorMap(d->device, param, address, rows, cols,
                                   row_stride_bytes)}));
  });
}
uint64_t llk_tensor_map_address(llk_tensor_map map) {
  return capi::guardValue<uint64_t>(
      0, [&] { return capi::lookup(map, "tensor map")->map.address(); });
}
llk_status llk_tensor_map_destroy(llk_tensor_map map) {
  return capi::destroy(map, "tensor map");
}

llk_status llk_buffer_create(llk_device device, size_t bytes, llk_buffer *buffer) {
  if (!buffer)
    return capi::nullHandle("buffer");
  *buffer = nullptr;
  return capi::guard([&] {
    auto d = capi::lookup(device, "device");
    *buffer = capi::makeHandle<llk_buffer>(
        std::make_shared<llk_buffer_s>(llk_buffer_s{DeviceMemory(d->device, bytes)}));
  });
}
uint64_t llk_buffer_address(llk_buffer buffer) {
  return capi::guardValue<uint64_t>(
      0, [&] { return capi::lookup(buffer, "buffer")->memory.address(); });
}
llk_status llk_buffer_copy_from_host(llk_buffer buffer, const void *host, size_t bytes) {
  if (bytes && !host)
    return capi::nullHandle("host");
  return capi::guard(
      [&] { capi::lookup(buffer, "buffer")->memory.copyFromHost(host, bytes); });
}
llk_status llk_buffer_copy_to_host(llk_buffer buffer, void *host, size_t bytes) {
  if (bytes && !host)
    return capi::nullHandle("host");
  return capi::guard(
      [&] { capi::lookup(buffer, "buffer")->memory.copyToHost(host, bytes); });
}
llk_status llk_buffer_destroy(llk_buffer buffer) {
  return capi::destroy(buffer, "buffer");
}

llk_status llk_synchronize(llk_device device) {
  return capi::guard([&] { capi::lookup(device, "device")->device.synchronize(); });
}

} // extern "C"
