//===- Metadata.h - the compiler's kernel metadata writer --------*- C++ -*-===//
//
// The kernel metadata llkc writes beside the PTX (`<output>.json`) and the
// JIT caches with it: its schema (the structs and the JSON names) is
// llk/KernelMetadata.h, which the runtime's reader shares. Here the compiler
// fills it in from the tile module (the parameters) and from the lowered one
// (warps, shared memory, TMA boxes, read overruns) and writes it as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_METADATA_H
#define LLK_COMPILER_METADATA_H

#include "llk/Export.h"
#include "llk/KernelMetadata.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <string>
#include <vector>

namespace llk {

/// The parameters of `kernel`, one per argument (its kind and type name).
/// Fails, with a diagnostic at the kernel, on a type no launcher can pass.
mlir::FailureOr<std::vector<KernelParam>> kernelParams(mlir::func::FuncOp kernel);

/// The bytes an argument of type `type` (one kernelParams accepts) takes in
/// a kernel's parameter space, and its alignment there: 8 for a pointer or
/// descriptor, a scalar's width.
int64_t kernelParamBytes(mlir::Type type);

/// Records each kernel's parameters from the tile module, before any pass
/// runs. Fails (with a diagnostic) on a parameter type a launcher cannot
/// pass.
LLK_API mlir::LogicalResult collectSignatures(mlir::ModuleOp tileModule,
                                      ModuleMetadata &metadata);

/// Fills in num_warps and shared_bytes from the lowered module (the gpu.module
/// in the LLVM and NVVM dialects). Fails if a kernel of `metadata` is missing
/// from it.
LLK_API mlir::LogicalResult completeFromLowered(mlir::ModuleOp lowered,
                                        ModuleMetadata &metadata);

LLK_API llvm::json::Value toJSON(const ModuleMetadata &metadata);

/// Pretty-printed JSON text, ending with a newline. The runtime reads it
/// (llk::rt::parseModuleInfo).
LLK_API std::string metadataToJSON(const ModuleMetadata &metadata);

} // namespace llk

#endif // LLK_COMPILER_METADATA_H
