//===- KernelMetadata.h - the kernel metadata schema ------------*- C++ -*-===//
//
// What a launcher needs to know about a kernel: its name, its parameters in
// source order (pointer, scalar or tensor descriptor, and the element type),
// the warps per program the thread block is sized from, the shared memory it
// uses, the target and the constants bound into the source. llkc writes it
// as JSON beside the PTX (`<output>.json`) and the JIT caches it with the PTX.
//
// The one definition of it: the structs below and the JSON names in
// `llk::metadata`, which both the compiler's writer (llk/Compiler/Metadata.h)
// and the runtime's reader (parseModuleInfo, llk/runtime/Runtime.h, whose
// KernelInfo and ParamInfo are these structs) use. Standard library only, as
// ConstantValue.h: the runtime is built without LLVM and its public headers
// include this one.
//
// JSON form (format version 2):
//   {"format": 2, "compiler": "llk 0.1.0", "arch": "sm_90",
//    "constants": {"BLOCK": 4096, "T": "bf16"},
//    "kernels": [{"name": "softmax_kernel", "num_warps": 8,
//                 "shared_bytes": 64, "dynamic_shared_bytes": 0,
//                 "grid_dependency_wait": false,
//                 "params": [{"kind": "pointer", "type": "f32"},
//                            {"kind": "scalar", "type": "i32"}]}]}
// A parameter with a `tile.divisibility` (or `tile.alignment`) promise has
// "divisibility": N (a power of two; absent: 1): a pointer's address is a
// multiple of N bytes, an integer's value a multiple of N. Launchers check
// it (the compiled kernel relies on it: vector widths, mask uniformity), and
// a pointer's natural alignment (its element's size) with it. Format 2 added
// it: a format-1 file has no contracts to check, so readers refuse it.
// A pointer a kernel may read past its elements has "read_overrun_bytes": N
// (1 to 15; absent: 0); a descriptor has "tma_box": [rows, columns] and
// "tma_swizzle": 128. "dynamic_shared_bytes" and "grid_dependency_wait" may
// be absent (0, false).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_KERNELMETADATA_H
#define LLK_KERNELMETADATA_H

#include "llk/ConstantValue.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llk {

/// Version of the JSON layout; readers reject other versions.
constexpr int kMetadataFormat = 2;

/// The buffer contract (docs/runtime.md): a kernel may read any byte of an
/// aligned 16-byte granule that holds a byte it accesses, so allocations
/// cover whole granules and a parameter's read_overrun_bytes is less than
/// one.
constexpr size_t kBufferGranule = 16;

/// The types of scalar parameters and of the elements pointers and
/// descriptors point at.
enum class ScalarType : uint8_t {
  I8, I16, I32, I64, F16, BF16, F32, F64, F8E4M3FN, F8E5M2
};

struct KernelParam {
  /// TensorDesc: the address of a CUtensorMap in global memory (a
  /// !tile.tensordesc argument), passed like a pointer.
  enum class Kind : uint8_t { Pointer, Scalar, TensorDesc };
  Kind kind = Kind::Scalar;
  /// The scalar type, or for a pointer or descriptor its element type.
  ScalarType type = ScalarType::I32;
  /// For a descriptor: the box (rows, columns) its CUtensorMap must be
  /// encoded with (128-byte swizzle, row-major 2-D tensor); empty until the
  /// compiler has lowered the kernel.
  std::vector<int64_t> tmaBox;
  /// For a pointer: how many bytes past the last byte the kernel accesses
  /// through it (and before the first) it may read, never outside those
  /// bytes' 16-byte-aligned granules; 0 for most kernels, less than
  /// kBufferGranule (the buffer contract).
  int64_t readOverrunBytes = 0;
  /// The argument's contract from `tile.divisibility` (or `tile.alignment`),
  /// a power of two: for a pointer, the byte alignment of its address; for
  /// an integer scalar, a divisor of its value; 1: no promise.
  int64_t divisibility = 1;

  /// Passed as a 64-bit address: a pointer, or a descriptor's CUtensorMap.
  bool passedAsPointer() const { return kind != Kind::Scalar; }
  bool isTensorDesc() const { return kind == Kind::TensorDesc; }
  /// "f32", "ptr<f32>" or "tensordesc<f16>".
  std::string str() const;

  bool operator==(const KernelParam &other) const {
    return kind == other.kind && type == other.type && tmaBox == other.tmaBox &&
           readOverrunBytes == other.readOverrunBytes &&
           divisibility == other.divisibility;
  }
  bool operator!=(const KernelParam &other) const { return !(*this == other); }
};

struct KernelMetadata {
  std::string name;
  std::vector<KernelParam> params;
  /// Warps per program (1 to 32); the thread block has 32 times as many
  /// threads.
  unsigned numWarps = 4;
  /// Static shared memory (`__llk_smem_<name>`), in bytes.
  int64_t sharedBytes = 0;
  /// Dynamic shared memory the kernel needs (its buffer when larger than the
  /// 48 KB a kernel may declare statically); every launch provides it.
  int64_t dynamicSharedBytes = 0;
  /// The kernel holds tile.grid_dependency_wait: it may be launched as a
  /// dependent launch (programmatic stream serialization).
  bool gridDependencyWait = false;

  /// "softmax_kernel(ptr<f32>, i32, ...)".
  std::string signature() const;
};

struct ModuleMetadata {
  std::string compiler; // "llk <version>"
  std::string arch;     // "sm_90"
  Constants constants;  // as bound into the source
  std::vector<KernelMetadata> kernels;

  /// The kernel named `name`, or null.
  const KernelMetadata *find(std::string_view name) const;
};

/// The JSON names: of the members, of the parameter kinds and of the
/// scalar types, and the limits readers hold values to.
namespace metadata {

// The module's members.
inline constexpr std::string_view kFormat = "format";
inline constexpr std::string_view kCompiler = "compiler";
inline constexpr std::string_view kArch = "arch";
inline constexpr std::string_view kConstants = "constants";
inline constexpr std::string_view kKernels = "kernels";
// A kernel's.
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kNumWarps = "num_warps";
inline constexpr std::string_view kSharedBytes = "shared_bytes";
inline constexpr std::string_view kDynamicSharedBytes = "dynamic_shared_bytes";
inline constexpr std::string_view kGridDependencyWait = "grid_dependency_wait";
inline constexpr std::string_view kParams = "params";
// A parameter's.
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kType = "type";
inline constexpr std::string_view kReadOverrunBytes = "read_overrun_bytes";
inline constexpr std::string_view kTmaBox = "tma_box";
inline constexpr std::string_view kTmaSwizzle = "tma_swizzle";
inline constexpr std::string_view kDivisibility = "divisibility";

/// Every member name above, for tests that check a writer writes them all.
inline constexpr std::array<std::string_view, 17> kMemberNames = {
    kFormat,       kCompiler,           kArch,         kConstants,
    kKernels,      kName,               kNumWarps,     kSharedBytes,
    kDynamicSharedBytes, kGridDependencyWait, kParams, kKind,
    kType,         kReadOverrunBytes,   kTmaBox,       kTmaSwizzle,
    kDivisibility};

/// Each KernelParam::Kind's name, in enum order.
inline constexpr std::array<std::string_view, 3> kKindNames = {
    "pointer", "scalar", "tensordesc"};
/// Each ScalarType's name, in enum order.
inline constexpr std::array<std::string_view, 10> kScalarTypeNames = {
    "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64",
    "f8E4M3FN", "f8E5M2"};

/// num_warps is 1 to kMaxNumWarps.
inline constexpr int64_t kMaxNumWarps = 32;
/// read_overrun_bytes is 0 to kMaxReadOverrunBytes.
inline constexpr int64_t kMaxReadOverrunBytes = kBufferGranule - 1;
/// Each tma_box dimension is 1 to kMaxTmaBoxDim (cuTensorMapEncodeTiled's
/// limit).
inline constexpr int64_t kMaxTmaBoxDim = 256;
/// divisibility is a power of two, 1 to kMaxDivisibility (the dialect's
/// limit on tile.divisibility).
inline constexpr int64_t kMaxDivisibility = int64_t(1) << 30;
/// The only tma_swizzle: 128-byte swizzle, which the lowering's shared
/// layouts assume and the runtime encodes.
inline constexpr int64_t kTmaSwizzleBytes = 128;

inline std::string_view kindName(KernelParam::Kind kind) {
  return kKindNames[static_cast<size_t>(kind)];
}
inline std::optional<KernelParam::Kind> parseKind(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i)
    if (kKindNames[i] == name)
      return static_cast<KernelParam::Kind>(i);
  return std::nullopt;
}
inline std::string_view scalarTypeName(ScalarType type) {
  return kScalarTypeNames[static_cast<size_t>(type)];
}
inline std::optional<ScalarType> parseScalarType(std::string_view name) {
  for (size_t i = 0; i < kScalarTypeNames.size(); ++i)
    if (kScalarTypeNames[i] == name)
      return static_cast<ScalarType>(i);
  return std::nullopt;
}

} // namespace metadata

inline std::string KernelParam::str() const {
  std::string element(metadata::scalarTypeName(type));
  switch (kind) {
  case Kind::Pointer: return "ptr<" + element + ">";
  case Kind::TensorDesc: return "tensordesc<" + element + ">";
  case Kind::Scalar: break;
  }
  return element;
}

inline std::string KernelMetadata::signature() const {
  std::string s = name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + params[i].str();
  return s + ")";
}

inline const KernelMetadata *ModuleMetadata::find(std::string_view name) const {
  for (const KernelMetadata &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

} // namespace llk

#endif // LLK_KERNELMETADATA_H
