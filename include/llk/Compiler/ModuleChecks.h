//===- ModuleChecks.h - what the back end would reject, checked first -*- C++ -*-===//
//
// The NVPTX back end reports some bad input with a fatal error (which ends
// the process: llkc's, or the JIT's host) and lets other bad input through
// to ptxas, which rejects the PTX. compileModule checks all of it on the
// tile module before any pass runs, as diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_MODULECHECKS_H
#define LLK_COMPILER_MODULECHECKS_H

#include "llk/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include <optional>
#include <string>

namespace llk {

/// Why `name` cannot name a kernel, or nothing when it can: a kernel's name
/// is its PTX entry's, so it must be a PTX identifier (a letter, then
/// letters, digits, '_' and '$'; or '_' or '$' followed by at least one of
/// those) other than those PTX and llk reserve.
std::optional<std::string> checkKernelName(llvm::StringRef name);

/// Checks that `module` holds only func.func kernels (no nested modules or
/// other top-level ops), that each kernel's name passes checkKernelName, that
/// a launcher can pass each of its arguments (kernelParams) and that they fit
/// the parameter space of the PTX emitted for `target`, and that the kernel
/// computes with no float but f16, bf16, f32 and f64. Each failure is a
/// diagnostic at the kernel, argument or op concerned.
mlir::LogicalResult checkKernelModule(mlir::ModuleOp module,
                                      const TargetOptions &target);

} // namespace llk

#endif // LLK_COMPILER_MODULECHECKS_H
