//===- CAPIImpl.h - what the C interface's handles hold ---------*- C++ -*-===//

#ifndef LLK_RUNTIME_LIB_CAPIIMPL_H
#define LLK_RUNTIME_LIB_CAPIIMPL_H

#include "llk/runtime.h"
#include "llk/runtime/Runtime.h"

#include <exception>
#include <string>

struct llk_device_s {
  llk::rt::Device device;
  std::string arch;
};
struct llk_module_s {
  llk::rt::Module module;
};
struct llk_kernel_s {
  llk::rt::Kernel kernel;
};
struct llk_buffer_s {
  llk::rt::DeviceMemory memory;
};

namespace llk::rt::capi {

/// Records the failure for llk_last_error and maps it to a status.
llk_status fail(const std::exception &e);
llk_status nullHandle(const char *what);
void succeed();

template <typename F> llk_status guard(F &&body) {
  try {
    body();
    succeed();
    return LLK_SUCCESS;
  } catch (const std::exception &e) {
    return fail(e);
  } catch (...) {
    return fail(std::runtime_error("unknown exception"));
  }
}

inline ScalarType toScalarType(llk_type type) {
  if (type > LLK_F64)
    throw Error(ErrorCode::InvalidArgument,
                "argument type " + std::to_string(int(type)) + " is not a scalar type");
  return static_cast<ScalarType>(type);
}

} // namespace llk::rt::capi

#endif // LLK_RUNTIME_LIB_CAPIIMPL_H
