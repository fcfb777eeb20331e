//===- Driver.h - the CUDA driver, loaded at run time -----------*- C++ -*-===//
//
// libcuda is opened with dlopen on first use and every entry point is
// resolved through cuGetProcAddress for the API version of the cuda.h we
// were compiled against, so the signatures below are the ones that header
// declares. Nothing links against libcuda.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_LIB_DRIVER_H
#define LLK_RUNTIME_LIB_DRIVER_H

#include "llk/runtime/Runtime.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <type_traits>

namespace llk::rt::detail {

#define LLK_DRIVER_FUNCTIONS(X)                                                \
  X(cuInit, 2000)                                                              \
  X(cuDriverGetVersion, 2020)                                                  \
  X(cuGetErrorName, 6000)                                                      \
  X(cuGetErrorString, 6000)                                                    \
  X(cuDeviceGetCount, 2000)                                                    \
  X(cuDeviceGet, 2000)                                                         \
  X(cuDeviceGetName, 2000)                                                     \
  X(cuDeviceGetAttribute, 2000)                                                \
  X(cuDevicePrimaryCtxRetain, 7000)                                            \
  X(cuDevicePrimaryCtxRelease, 11000)                                          \
  X(cuCtxGetCurrent, 4000)                                                     \
  X(cuCtxSetCurrent, 4000)                                                     \
  X(cuCtxSynchronize, 2000)                                                    \
  X(cuModuleLoad, 2000)                                                        \
  X(cuModuleLoadDataEx, 2010)                                                  \
  X(cuModuleUnload, 2000)                                                      \
  X(cuModuleGetFunction, 2000)                                                 \
  X(cuFuncSetAttribute, 9000)                                                  \
  X(cuFuncGetAttribute, 2020)                                                  \
  X(cuLaunchKernelEx, 11060)                                                   \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050)                         \
  X(cuMemAlloc, 3020)                                                          \
  X(cuMemFree, 3020)                                                           \
  X(cuMemcpyHtoD, 3020)                                                        \
  X(cuMemcpyDtoH, 3020)                                                        \
  X(cuMemcpyHtoDAsync, 3020)                                                   \
  X(cuMemcpyDtoHAsync, 3020)                                                   \
  X(cuMemcpyDtoDAsync, 3020)                                                   \
  X(cuMemsetD8, 3020)                                                          \
  X(cuMemsetD8Async, 3020)                                                     \
  X(cuStreamCreate, 2000)                                                      \
  X(cuStreamDestroy, 4000)                                                     \
  X(cuStreamSynchronize, 2000)                                                 \
  X(cuStreamBeginCapture, 10010)                                               \
  X(cuStreamEndCapture, 10000)                                                 \
  X(cuEventCreate, 2000)                                                       \
  X(cuEventDestroy, 4000)                                                      \
  X(cuEventRecord, 2000)                                                       \
  X(cuEventSynchronize, 2000)                                                  \
  X(cuEventElapsedTime, 12080)                                                 \
  X(cuGraphInstantiateWithFlags, 11040)                                        \
  X(cuGraphLaunch, 10000)                                                      \
  X(cuGraphGetNodes, 10000)                                                    \
  X(cuGraphExecDestroy, 10000)                                                 \
  X(cuGraphDestroy, 10000)                                                      \
  X(cuTensorMapEncodeTiled, 12000)

struct Driver {
// Each entry point at the API version whose signature cuda.h declares for
// its plain name (cuda.h maps some names to _v2 entry points; others, like
// cuCtxSynchronize, gained a different signature in a later version that
// cuGetProcAddress would return for our CUDA_VERSION). The static_assert
// checks the pairing against cudaTypedefs.h.
#define LLK_DECLARE(name, version)                                             \
  static_assert(std::is_same_v<decltype(&::name), PFN_##name##_v##version>,    \
                #name ": version does not match cuda.h's declaration");        \
  decltype(&::name) name = nullptr;
  LLK_DRIVER_FUNCTIONS(LLK_DECLARE)
#undef LLK_DECLARE
  int version = 0;
};

/// The loaded, initialized driver; throws NoDriver (or Cuda, when cuInit
/// fails) with the reason, the same one on every call.
const Driver &driver();

/// "CUDA_ERROR_X (text)" for a result.
std::string describe(CUresult result);

/// Throws Error(Cuda) for a failed call: "<what> failed: CUDA_ERROR_X (text)".
void check(CUresult result, const char *what, const std::string &kernel = "");

} // namespace llk::rt::detail

#endif // LLK_RUNTIME_LIB_DRIVER_H
