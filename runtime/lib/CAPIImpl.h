//===- CAPIImpl.h - what the C interface's handles hold ---------*- C++ -*-===//
//
// A C handle is a number from the handle registry, never the address of its
// object: a handle that was destroyed, is of another kind, or was never
// handed out is not found, and the call fails with INVALID_ARGUMENT instead
// of touching freed memory. Numbers are not reused, so a stale handle stays
// stale. A lookup returns a reference to the object, so a handle destroyed by
// one thread while another uses it lives until that use ends.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_LIB_CAPIIMPL_H
#define LLK_RUNTIME_LIB_CAPIIMPL_H

#include "llk/runtime.h"
#include "llk/runtime/Runtime.h"

#include <cstdint>
#include <exception>
#include <memory>
#include <string>

struct llk_device_s {
  llk::rt::Device device;
  std::string arch;
  std::string name;
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
struct llk_tensor_map_s {
  llk::rt::TensorMap map;
};
struct llk_jit_s;       // CAPIJIT.cpp: the JIT is only in libllk.so
struct llk_autotuner_s; // CAPIJIT.cpp

namespace llk::rt::capi {

enum class HandleKind { Device, Module, Kernel, Buffer, TensorMap, JIT, Autotuner };

/// The registry (thread-safe). `add` returns a new handle for `object`;
/// `find` the object of a live handle of `kind`, or null; `remove` forgets
/// a live handle of `kind` (the object goes with the last reference) and
/// says whether it was one.
uintptr_t addHandle(HandleKind kind, std::shared_ptr<void> object);
std::shared_ptr<void> findHandle(uintptr_t handle, HandleKind kind);
bool removeHandle(uintptr_t handle, HandleKind kind);

template <typename Handle> struct HandleTraits;
#define LLK_CAPI_HANDLE(HANDLE, KIND)                                          \
  template <> struct HandleTraits<HANDLE> {                                    \
    using Object = HANDLE##_s;                                                 \
    static constexpr HandleKind kind = HandleKind::KIND;                       \
    static constexpr const char *name = #HANDLE;                               \
  };
LLK_CAPI_HANDLE(llk_device, Device)
LLK_CAPI_HANDLE(llk_module, Module)
LLK_CAPI_HANDLE(llk_kernel, Kernel)
LLK_CAPI_HANDLE(llk_buffer, Buffer)
LLK_CAPI_HANDLE(llk_tensor_map, TensorMap)
LLK_CAPI_HANDLE(llk_jit, JIT)
LLK_CAPI_HANDLE(llk_autotuner, Autotuner)
#undef LLK_CAPI_HANDLE

/// Registers `object` under a new handle.
template <typename Handle>
Handle makeHandle(std::shared_ptr<typename HandleTraits<Handle>::Object> object) {
  return reinterpret_cast<Handle>(addHandle(HandleTraits<Handle>::kind, std::move(object)));
}

/// The object of `handle`; throws InvalidArgument when it is null or not a
/// live handle of its type. `what` names the argument in the message.
template <typename Handle>
std::shared_ptr<typename HandleTraits<Handle>::Object> lookup(Handle handle,
                                                              const char *what) {
  using Traits = HandleTraits<Handle>;
  if (!handle)
    throw Error(ErrorCode::InvalidArgument, std::string("null ") + what);
  std::shared_ptr<void> object =
      findHandle(reinterpret_cast<uintptr_t>(handle), Traits::kind);
  if (!object)
    throw Error(ErrorCode::InvalidArgument,
                std::string(what) + " is not a live " + Traits::name +
                    " (destroyed, or never created)");
  return std::static_pointer_cast<typename Traits::Object>(object);
}

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

/// For the entry points that return a value rather than a status: `body`'s
/// result, or `otherwise` with the failure recorded for llk_last_error.
template <typename T, typename F> T guardValue(T otherwise, F &&body) {
  T result = otherwise;
  guard([&] { result = body(); });
  return result;
}

/// _destroy: forgets a live handle; null is nothing to do (as free(NULL)).
template <typename Handle> llk_status destroy(Handle handle, const char *what) {
  if (!handle) {
    succeed();
    return LLK_SUCCESS;
  }
  return guard([&] {
    if (!removeHandle(reinterpret_cast<uintptr_t>(handle), HandleTraits<Handle>::kind))
      throw Error(ErrorCode::InvalidArgument,
                  std::string(what) + " is not a live " + HandleTraits<Handle>::name +
                      " (destroyed already, or never created)");
  });
}

inline ScalarType toScalarType(llk_type type) {
  if (static_cast<unsigned>(type) > LLK_F8E5M2) // garbage included
    throw Error(ErrorCode::InvalidArgument,
                "argument type " + std::to_string(int(type)) + " is not a scalar type");
  return static_cast<ScalarType>(type);
}

/// The C arguments as the runtime's (a scalar's or a tensor map's type
/// checked).
ArgList toArgList(const llk_arg *args, size_t count);

/// The options of a launch on `stream` (a CUstream, or null).
inline LaunchOptions onStream(void *stream) {
  LaunchOptions options;
  options.rawStream = static_cast<CUstream_st *>(stream);
  return options;
}

} // namespace llk::rt::capi

#endif // LLK_RUNTIME_LIB_CAPIIMPL_H
