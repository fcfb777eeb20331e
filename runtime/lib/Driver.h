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

namespace llk::rt::detail {

#define LLK_DRIVER_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoad)                                                              \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuGraphInstantiateWithFlags)                                                      \
  X(cuGraphLaunch)                                                             \
  X(cuGraphGetNodes)                                                           \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)

struct Driver {
#define LLK_DECLARE(name) decltype(&::name) name = nullptr;
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
