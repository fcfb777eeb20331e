//===- Driver.cpp - the CUDA driver, loaded at run time -------------------===//

#include "Driver.h"

#include "llk/Environment.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace llk::rt;
using namespace llk::rt::detail;

namespace {

struct Loaded {
  Driver driver;
  std::optional<Error> error;
};

std::optional<Error> load(Driver &d) {
  std::string library = llk::env::cudaLibrary();
  // Never closed: the driver stays loaded for the life of the process.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Error(ErrorCode::NoDriver, "no CUDA driver: cannot load " + library +
                                          ": " + (why ? why : "unknown error"));
  }
  using GetProc = CUresult (*)(const char *, void **, int, cuuint64_t,
                               CUdriverProcAddressQueryResult *);
  auto getProc = reinterpret_cast<GetProc>(dlsym(handle, "cuGetProcAddress_v2"));
  if (!getProc)
    return Error(ErrorCode::NoDriver,
                 "no CUDA driver: " + library +
                     " has no cuGetProcAddress_v2; a driver for CUDA 12 or "
                     "later is needed");
  std::string missing;
#define LLK_RESOLVE(name, version)                                                    \
  {                                                                            \
    void *fn = nullptr;                                                        \
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;       \
    CUresult r = getProc(#name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT,      \
                         &status);                                             \
    if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || !fn)     \
      missing += std::string(missing.empty() ? "" : ", ") + #name;             \
    else                                                                       \
      d.name = reinterpret_cast<decltype(d.name)>(fn);                         \
  }
  LLK_DRIVER_FUNCTIONS(LLK_RESOLVE)
#undef LLK_RESOLVE
  if (!missing.empty())
    return Error(ErrorCode::NoDriver,
                 "no usable CUDA driver: " + library +
                     " lacks entry points for CUDA " +
                     std::to_string(CUDA_VERSION / 1000) + "." +
                     std::to_string(CUDA_VERSION % 1000 / 10) + ": " + missing);
  CUresult r = d.cuInit(0);
  if (r != CUDA_SUCCESS)
    return Error(ErrorCode::Cuda, "cuInit failed: " + describe(r),
                 [&] {
                   const char *n = nullptr;
                   d.cuGetErrorName(r, &n);
                   return std::string(n ? n : "");
                 }(),
                 r);
  r = d.cuDriverGetVersion(&d.version);
  if (r != CUDA_SUCCESS)
    return Error(ErrorCode::Cuda, "cuDriverGetVersion failed: " + describe(r));
  return std::nullopt;
}

Loaded &loaded() {
  static Loaded state;
  static std::once_flag once;
  std::call_once(once, [] { state.error = load(state.driver); });
  return state;
}

} // namespace

const Driver &llk::rt::detail::driver() {
  Loaded &state = loaded();
  if (state.error)
    throw *state.error;
  return state.driver;
}

bool llk::rt::driverAvailable(std::string *why) {
  Loaded &state = loaded();
  if (state.error && why)
    *why = state.error->what();
  return !state.error;
}

bool llk::rt::isStickyCudaError(int cudaResult) {
  // By number: the newer codes are missing from an older cuda.h.
  switch (cudaResult) {
  case 214: // CUDA_ERROR_ECC_UNCORRECTABLE
  case 226: // CUDA_ERROR_CONTAINED
  case 700: // CUDA_ERROR_ILLEGAL_ADDRESS
  case 702: // CUDA_ERROR_LAUNCH_TIMEOUT
  case 709: // CUDA_ERROR_CONTEXT_IS_DESTROYED
  case 710: // CUDA_ERROR_ASSERT
  case 714: // CUDA_ERROR_HARDWARE_STACK_ERROR
  case 715: // CUDA_ERROR_ILLEGAL_INSTRUCTION
  case 716: // CUDA_ERROR_MISALIGNED_ADDRESS
  case 717: // CUDA_ERROR_INVALID_ADDRESS_SPACE
  case 718: // CUDA_ERROR_INVALID_PC
  case 719: // CUDA_ERROR_LAUNCH_FAILED
  case 721: // CUDA_ERROR_TENSOR_MEMORY_LEAK
  case 810: // CUDA_ERROR_MPS_CLIENT_TERMINATED
  case 911: // CUDA_ERROR_EXTERNAL_DEVICE
    return true;
  default:
    return false;
  }
}
static_assert(CUDA_ERROR_ILLEGAL_ADDRESS == 700 && CUDA_ERROR_MISALIGNED_ADDRESS == 716 &&
                  CUDA_ERROR_LAUNCH_FAILED == 719 && CUDA_ERROR_ASSERT == 710,
              "isStickyCudaError's numbers are cuda.h's");

bool llk::rt::Error::contextLost() const {
  return code_ == ErrorCode::Cuda && isStickyCudaError(cudaResult_);
}

std::string llk::rt::detail::describe(CUresult result) {
  const Driver &d = loaded().driver;
  const char *name = nullptr, *text = nullptr;
  if (!d.cuGetErrorName || d.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (!d.cuGetErrorString || d.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = nullptr;
  std::string s = name ? name : "CUresult " + std::to_string(int(result));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

void llk::rt::detail::check(CUresult result, const char *what,
                            const std::string &kernel) {
  if (result == CUDA_SUCCESS)
    return;
  const Driver &d = loaded().driver;
  const char *name = nullptr;
  if (!d.cuGetErrorName || d.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  std::string message =
      (kernel.empty() ? "" : "kernel '" + kernel + "': ") + what +
      " failed: " + describe(result);
  throw Error(ErrorCode::Cuda, message, name ? name : "", result, kernel);
}
