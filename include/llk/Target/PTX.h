//===- PTX.h - LLVM dialect to PTX through LLVM's NVPTX back end -*- C++ -*-===//

#ifndef LLK_TARGET_PTX_H
#define LLK_TARGET_PTX_H

#include "llk/Export.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>

namespace llk {

struct TargetOptions {
  /// sm_80, sm_86, sm_89, sm_90 or sm_90a.
  std::string arch = "sm_90";
  /// libdevice bitcode, linked when kernels call CUDA math functions.
  std::string libdevicePath;
};

/// Checks that `arch` names a supported target; returns a message if not.
LLK_API std::optional<std::string> checkArch(llvm::StringRef arch);

/// The PTX ISA version emitted for `arch`, times ten (80: PTX 8.0).
unsigned ptxVersion(llvm::StringRef arch);

/// The most bytes of parameters a kernel may take in the PTX emitted for
/// `arch` (ptxas rejects more).
int64_t maxKernelParamBytes(llvm::StringRef arch);

/// Translates the lowered `gpu.module` in `module` to LLVM IR for NVPTX,
/// links libdevice if needed, and optimizes at -O3. Errors are reported as
/// diagnostics on `module`.
/// With `timing`, the translation, the libdevice link and the optimization
/// are timed in that scope.
LLK_API mlir::FailureOr<std::unique_ptr<llvm::Module>>
translateToOptimizedLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                           const TargetOptions &options,
                           mlir::TimingScope *timing = nullptr);

/// Generates PTX for `llvmModule` with the NVPTX back end.
LLK_API mlir::FailureOr<std::string> emitPTX(mlir::ModuleOp module,
                                     llvm::Module &llvmModule,
                                     const TargetOptions &options);

/// Assembles `ptx` for `arch` into a cubin with the CUDA toolkit's ptxas at
/// `ptxas` (llk::env::ptxasPath() finds one). The error carries ptxas's
/// messages, or why it could not run.
LLK_API llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx,
                                                  llvm::StringRef arch,
                                                  llvm::StringRef ptxas);

} // namespace llk

#endif // LLK_TARGET_PTX_H
