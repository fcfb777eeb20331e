//===- Metadata.h - what a launcher needs to know about a kernel -*- C++ -*-===//
//
// llkc writes this beside the PTX (`<output>.json`) and the JIT caches it with
// the PTX: each kernel's name, its parameters in source order (pointer or
// scalar, and the type), the warps per program the thread block is sized
// from, the static shared memory it uses, the target and the constants bound
// into the source (integers; element types by name: "T": "bf16"). The
// runtime checks launch arguments against it.
//
// JSON form (format version 1):
//   {"format": 1, "compiler": "llk 0.1.0", "arch": "sm_90",
//    "constants": {"BLOCK": 4096},
//    "kernels": [{"name": "softmax_kernel", "num_warps": 8,
//                 "shared_bytes": 64, "dynamic_shared_bytes": 0,
//                 "params": [{"kind": "pointer", "type": "f32"},
//                            {"kind": "scalar", "type": "i32"}]}]}
// A pointer a kernel may read past its elements has "read_overrun_bytes": N
// (1 to 15; absent: 0).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_METADATA_H
#define LLK_COMPILER_METADATA_H

#include "llk/ConstantValue.h"
#include "llk/Export.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llk {

/// Version of the JSON layout; readers reject other versions.
constexpr int kMetadataFormat = 1;

struct KernelParam {
  /// TensorDesc: the address of a CUtensorMap in global memory (a
  /// !tile.tensordesc argument), passed like a pointer.
  enum class Kind { Pointer, Scalar, TensorDesc };
  Kind kind = Kind::Scalar;
  /// The scalar type, or for a pointer or descriptor its element type: i8,
  /// i16, i32, i64, f16, bf16, f32, f64.
  std::string type;
  /// For a descriptor: the box (rows, columns) its CUtensorMap must be
  /// encoded with (128-byte swizzle, row-major 2-D tensor).
  std::vector<int64_t> tmaBox;
  /// For a pointer: how many bytes past the last byte the kernel accesses
  /// through it (and before the first) it may read, never outside those
  /// bytes' 16-byte-aligned granules; 0 for most kernels. The buffer contract
  /// (docs/runtime.md): allocations cover whole 16-byte granules.
  int64_t readOverrunBytes = 0;

  bool operator==(const KernelParam &other) const {
    return kind == other.kind && type == other.type && tmaBox == other.tmaBox &&
           readOverrunBytes == other.readOverrunBytes;
  }
};

struct KernelMetadata {
  std::string name;
  std::vector<KernelParam> params;
  unsigned numWarps = 0;
  /// Static shared memory (`__llk_smem_<name>`), in bytes.
  int64_t sharedBytes = 0;
  /// Dynamic shared memory the kernel needs (its buffer when larger than the
  /// 48 KB a kernel may declare statically); launches must provide it.
  int64_t dynamicSharedBytes = 0;
  /// The kernel holds tile.grid_dependency_wait: it may be launched as a
  /// dependent launch (programmatic stream serialization).
  bool gridDependencyWait = false;
};

struct ModuleMetadata {
  std::string compiler; // "llk <version>"
  std::string arch;
  Constants constants;
  std::vector<KernelMetadata> kernels;
};

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
LLK_API bool fromJSON(const llvm::json::Value &value, ModuleMetadata &metadata,
              llvm::json::Path path);

/// Pretty-printed JSON text, ending with a newline.
LLK_API std::string metadataToJSON(const ModuleMetadata &metadata);
/// Parses and validates JSON text written by metadataToJSON.
LLK_API llvm::Expected<ModuleMetadata> parseMetadata(llvm::StringRef text);

} // namespace llk

#endif // LLK_COMPILER_METADATA_H
