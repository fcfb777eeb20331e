//===- CAPI.cpp - the C interface over llk::rt ----------------------------===//

#include "CAPIImpl.h"

#include <cstring>

using namespace llk::rt;

namespace {
thread_local std::string lastError;
thread_local std::string lastCudaError;
} // namespace

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

extern "C" {

const char *llk_last_error(void) { return lastError.c_str(); }
const char *llk_last_cuda_error(void) { return lastCudaError.c_str(); }

llk_arg llk_arg_ptr(uint64_t address, llk_type element) {
  return llk_arg{1, element, address};
}
llk_arg llk_arg_i32(int32_t value) {
  return llk_arg{0, LLK_I32, static_cast<uint32_t>(value)};
}
llk_arg llk_arg_i64(int64_t value) {
  return llk_arg{0, LLK_I64, static_cast<uint64_t>(value)};
}
llk_arg llk_arg_f32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return llk_arg{0, LLK_F32, bits};
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
    *device = new llk_device_s{d, d.arch()};
  });
}

const char *llk_device_arch(llk_device device) {
  return device ? device->arch.c_str() : "";
}

void llk_device_destroy(llk_device device) { delete device; }

llk_status llk_module_load_ptx_file(llk_device device, const char *path,
                                    llk_module *module) {
  if (!device || !path || !module)
    return capi::nullHandle("device, path or module");
  *module = nullptr;
  return capi::guard([&] {
    *module = new llk_module_s{Module::loadPTXFile(device->device, path)};
  });
}

llk_status llk_module_load_ptx(llk_device device, const char *ptx,
                               const char *metadata_json, llk_module *module) {
  if (!device || !ptx || !metadata_json || !module)
    return capi::nullHandle("device, ptx, metadata or module");
  *module = nullptr;
  return capi::guard([&] {
    *module = new llk_module_s{Module::loadPTX(device->device, ptx, metadata_json)};
  });
}

void llk_module_destroy(llk_module module) { delete module; }

llk_status llk_module_get_kernel(llk_module module, const char *name,
                                 llk_kernel *kernel) {
  if (!module || !kernel)
    return capi::nullHandle("module or kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    *kernel = new llk_kernel_s{module->module.kernel(name ? name : "")};
  });
}

size_t llk_kernel_num_params(llk_kernel kernel) {
  return kernel ? kernel->kernel.info().params.size() : 0;
}
unsigned llk_kernel_num_warps(llk_kernel kernel) {
  return kernel ? kernel->kernel.numWarps() : 0;
}
void llk_kernel_destroy(llk_kernel kernel) { delete kernel; }

llk_status llk_kernel_launch(llk_kernel kernel, const unsigned grid[3],
                             const llk_arg *args, size_t num_args, void *stream,
                             unsigned dynamic_shared_bytes) {
  if (!kernel || !grid || (num_args && !args))
    return capi::nullHandle("kernel, grid or args");
  return capi::guard([&] {
    ArgList list;
    for (size_t i = 0; i < num_args; ++i) {
      const llk_arg &a = args[i];
      if (a.is_pointer) {
        std::optional<ScalarType> element;
        if (a.type != LLK_UNTYPED)
          element = capi::toScalarType(a.type);
        list.push_back(Arg::pointer(a.bits, element));
      } else {
        list.push_back(Arg::scalar(capi::toScalarType(a.type), a.bits));
      }
    }
    LaunchOptions options;
    options.rawStream = static_cast<CUstream_st *>(stream);
    options.dynamicSharedBytes = dynamic_shared_bytes;
    kernel->kernel.launch(Grid(grid[0], grid[1], grid[2]), list, options);
  });
}

llk_status llk_buffer_create(llk_device device, size_t bytes, llk_buffer *buffer) {
  if (!device || !buffer)
    return capi::nullHandle("device or buffer");
  *buffer = nullptr;
  return capi::guard([&] {
    *buffer = new llk_buffer_s{DeviceMemory(device->device, bytes)};
  });
}
uint64_t llk_buffer_address(llk_buffer buffer) {
  return buffer ? buffer->memory.address() : 0;
}
llk_status llk_buffer_copy_from_host(llk_buffer buffer, const void *host, size_t bytes) {
  if (!buffer || (bytes && !host))
    return capi::nullHandle("buffer or host");
  return capi::guard([&] { buffer->memory.copyFromHost(host, bytes); });
}
llk_status llk_buffer_copy_to_host(llk_buffer buffer, void *host, size_t bytes) {
  if (!buffer || (bytes && !host))
    return capi::nullHandle("buffer or host");
  return capi::guard([&] { buffer->memory.copyToHost(host, bytes); });
}
void llk_buffer_destroy(llk_buffer buffer) { delete buffer; }

llk_status llk_synchronize(llk_device device) {
  if (!device)
    return capi::nullHandle("device");
  return capi::guard([&] { device->device.synchronize(); });
}

} // extern "C"
