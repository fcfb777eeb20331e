//===- TileDialect.cpp - tile dialect registration and attributes --------===//

#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/Dialect/Tile/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace llk::tile;

#include "llk/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "llk/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "llk/Dialect/Tile/IR/TileTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "llk/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Prints layouts as aliases (#blocked, #blocked1, #slice, ...) declared once
/// at the top of the module: a laid-out tile type is then readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceLayoutAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "llk/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "llk/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "llk/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointee) {
  if (!pointee.isIntOrFloat())
    return emitError() << "pointee of !tile.ptr must be an integer or float "
                          "type, got "
                       << pointee;
  return success();
}

LogicalResult SharedType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 unsigned contiguousDim,
                                 SharedSwizzle swizzle) {
  if (shape.size() != 3)
    return emitError() << "!tile.shared holds slots of 2-D tiles: expected "
                          "3 dimensions (slots x rows x columns), got "
                       << shape.size();
  for (auto [d, size] : llvm::enumerate(shape))
    if (size <= 0)
      return emitError() << "!tile.shared dimension " << d
                         << " must be positive, got " << size;
  for (size_t d = 1; d < shape.size(); ++d)
    if (!llvm::isPowerOf2_64(shape[d]))
      return emitError() << "!tile.shared tile dimension " << d - 1
                         << " must be a power of two, got " << shape[d];
  if (!elementType.isIntOrFloat() || elementType.isInteger(1))
    return emitError() << "!tile.shared elements must be numbers of 8 bits "
                          "or more, got "
                       << elementType;
  if (contiguousDim >= shape.size() - 1)
    return emitError() << "!tile.shared contiguous dimension must be 0 or 1 "
                          "(a dimension of the tile), got "
                       << contiguousDim;
  if (swizzle == SharedSwizzle::Wgmma) {
    int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
    if (bytes != 2 && !isFp8(elementType))
      return emitError() << "!tile.shared swizzle = wgmma holds 16-bit "
                            "elements (f16, bf16) or fp8 (f8E4M3FN, f8E5M2), "
                            "got "
                         << elementType;
    // 64-byte rows (the 64-byte swizzle) only K-major, which fp8 always is.
    int64_t rowBytes = shape[1 + contiguousDim] * bytes;
    if (rowBytes % 128 != 0 && !(rowBytes == 64 && isFp8(elementType)))
      return emitError() << "!tile.shared swizzle = wgmma needs the "
                            "contiguous dimension to be whole 128-byte "
                            "slabs (fp8: or one of 64 bytes), got "
                         << rowBytes << " bytes";
  }
  return success();
}

int64_t SharedType::getSizeInBytes() const {
  int64_t bytes = getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t size : getShape())
    bytes *= size;
  return bytes;
}

Type SharedType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  unsigned contiguousDim = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("contiguous") || parser.parseEqual() ||
      parser.parseInteger(contiguousDim))
    return Type();
  SharedSwizzle swizzle = SharedSwizzle::Xor16;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("swizzle") || parser.parseEqual())
      return Type();
    StringRef name;
    SMLoc nameLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return Type();
    std::optional<SharedSwizzle> parsed = symbolizeSharedSwizzle(name);
    if (!parsed) {
      parser.emitError(nameLoc, "expected swizzle xor16 or wgmma, got '")
          << name << "'";
      return Type();
    }
    swizzle = *parsed;
  }
  if (parser.parseGreater())
    return Type();
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), shape, elementType, contiguousDim,
                    swizzle);
}

void SharedType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape())
    printer << size << "x";
  printer << getElementType() << ", contiguous = " << getContiguousDim();
  if (getSwizzle() != SharedSwizzle::Xor16)
    printer << ", swizzle = " << stringifySharedSwizzle(getSwizzle());
  printer << ">";
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> blockShape, Type elementType) {
  if (blockShape.size() != 2)
    return emitError() << "!tile.tensordesc reads 2-D blocks, got "
                       << blockShape.size() << " dimensions";
  for (auto [d, size] : llvm::enumerate(blockShape))
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "!tile.tensordesc block dimension " << d
                         << " must be a positive power of two, got " << size;
  // Kernel arguments (CUtensorMaps, read by TMA) are f16 or bf16
  // (ModuleChecks); a descriptor made in the kernel holds any number.
  if (!elementType.isIntOrFloat() || elementType.isInteger(1))
    return emitError() << "!tile.tensordesc elements must be numbers that "
                          "memory holds (not i1), got "
                       << elementType;
  return success();
}

Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return Type();
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), shape, elementType);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getBlockShape())
    printer << size << "x";
  printer << getElementType() << ">";
}

Type llk::tile::getPointeeValueType(Type ptrLike) {
  if (auto ptr = dyn_cast<PtrType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PtrType>(tensor.getElementType()))
      return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                   tensor.getEncoding());
  return Type();
}

Type llk::tile::withElementType(Type type, Type elem) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elem, tensor.getEncoding());
  return elem;
}

Type llk::tile::getMaskType(Type type) {
  return withElementType(type, IntegerType::get(type.getContext(), 1));
}

LogicalResult llk::tile::verifyTileType(Operation *op, Type type,
                                        StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  if (tensor.getRank() == 0)
    return op->emitOpError() << what
                             << " must have at least one dimension, got "
                             << type;
  if (Attribute encoding = tensor.getEncoding()) {
    int64_t layoutRank = -1;
    if (auto blocked = dyn_cast<BlockedLayoutAttr>(encoding))
      layoutRank = blocked.getRank();
    else if (auto slice = dyn_cast<SliceLayoutAttr>(encoding))
      layoutRank = slice.getParent().getRank() - 1;
    else
      return op->emitOpError() << what << " has encoding " << encoding
                               << ", which is not a tile layout";
    if (layoutRank != tensor.getRank())
      return op->emitOpError() << what << ": layout of rank " << layoutRank
                               << " on a tile of rank " << tensor.getRank();
  }
  for (auto [dim, size] : llvm::enumerate(tensor.getShape())) {
    if (ShapedType::isDynamic(size))
      return op->emitOpError() << what << " must have a static shape, got "
                               << type;
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return op->emitOpError()
             << what << " must have power-of-two dimensions, but dimension "
             << dim << " of " << type << " is " << size;
  }
  // A warp's repeated block comes whole along a dimension with warpRepeat
  // (the one rule of a distributed view the layout itself cannot check).
  if (auto unfit = getUnfitDimension(tensor))
    return op->emitOpError()
           << what << ": dimension " << unfit->first << " of " << type
           << " must be a multiple of " << unfit->second
           << ", the rows its layout's warps take with warpRepeat (a larger "
              "tile, or a layout without warpRepeat)";
  return success();
}

unsigned llk::tile::getNumWarps(Operation *op, unsigned defaultNumWarps) {
  auto func = isa<func::FuncOp>(op) ? cast<func::FuncOp>(op)
                                    : op->getParentOfType<func::FuncOp>();
  if (func)
    if (auto attr =
            func->getAttrOfType<IntegerAttr>(TileDialect::kNumWarpsAttr))
      return attr.getInt();
  return defaultNumWarps;
}

//===----------------------------------------------------------------------===//
// Discardable attributes on kernels and their arguments
//===----------------------------------------------------------------------===//

static LogicalResult verifyPowerOfTwoAttr(Operation *op, NamedAttribute attr,
                                          int64_t max) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getInt() <= 0 || value.getInt() > max ||
      !llvm::isPowerOf2_64(value.getInt()))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be a power-of-two integer in [1, " << max
                           << "], got " << attr.getValue();
  return success();
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kDivisibilityAttr && name != kAlignmentAttr)
    return op->emitError() << "unknown tile argument attribute '" << name
                           << "' (expected '" << kDivisibilityAttr << "' or '"
                           << kAlignmentAttr << "')";
  if (failed(verifyPowerOfTwoAttr(op, attr, 1 << 30)))
    return failure();
  // From the signature: a declaration has no entry block.
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || argIndex >= function.getNumArguments())
    return op->emitError() << "'" << name << "' applies to kernel arguments";
  Type argType = function.getArgumentTypes()[argIndex];
  if (!isa<PtrType>(argType) && !argType.isInteger())
    return op->emitError() << "'" << name << "' applies to pointer and "
                           << "integer arguments, but argument " << argIndex
                           << " has type " << argType;
  return success();
}

/// `attr` is an integer in [lo, hi]; `note` explains the range.
static LogicalResult verifyIntegerInRange(Operation *op, NamedAttribute attr,
                                          int64_t lo, int64_t hi,
                                          StringRef note = "") {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getInt() < lo || value.getInt() > hi)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be an integer in [" << lo << ", " << hi
                           << "]" << note << ", got " << attr.getValue();
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool kernelAttr = name == kNumWarpsAttr || name == kNumStagesAttr ||
                    name == kMinProgramsPerSMAttr;
  if (kernelAttr && !isa<func::FuncOp>(op))
    return op->emitError() << "'" << name << "' applies to kernel functions";
  if (name == kNumWarpsAttr)
    return verifyPowerOfTwoAttr(op, attr, 32);
  if (name == kNumStagesAttr)
    return verifyIntegerInRange(op, attr, 1, 8, " (1: no pipelining)");
  if (name == kMinProgramsPerSMAttr)
    return verifyIntegerInRange(op, attr, 1, 32);
  if (name == kMmaStepAttr) {
    StringRef opName = op->getName().getStringRef();
    if (opName != "nvvm.ldmatrix" && opName != "nvvm.mma.sync")
      return op->emitError() << "'" << name
                             << "' applies to nvvm.ldmatrix and nvvm.mma.sync";
    return verifyIntegerInRange(op, attr, 0, INT32_MAX, " (a K step)");
  }
  return op->emitError() << "unknown tile attribute '" << name << "'";
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

static bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

static unsigned product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> sizePerThread,
                          ArrayRef<unsigned> threadsPerWarp,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> order,
                          ArrayRef<unsigned> warpRepeat) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "#tile.blocked needs sizePerThread, threadsPerWarp, "
                          "warpsPerCTA and order of one non-zero rank";
  if (!isPermutation(order))
    return emitError() << "#tile.blocked order must be a permutation of [0, "
                       << rank << ")";
  for (ArrayRef<unsigned> values : {sizePerThread, threadsPerWarp, warpsPerCTA})
    for (unsigned v : values)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "#tile.blocked sizes must be powers of two";
  if (product(threadsPerWarp) != 32)
    return emitError() << "#tile.blocked threadsPerWarp must multiply to 32";
  if (!warpRepeat.empty()) {
    if (warpRepeat.size() != rank)
      return emitError() << "#tile.blocked warpRepeat needs one entry per "
                            "dimension ("
                         << rank << ")";
    for (unsigned v : warpRepeat)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "#tile.blocked sizes must be powers of two";
    if (product(warpRepeat) == 1)
      return emitError() << "#tile.blocked warpRepeat of all ones is the "
                            "default: omit it";
  }
  return success();
}

unsigned BlockedLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, BlockedLayoutAttr parent) {
  if (dim >= parent.getRank())
    return emitError() << "#tile.slice dim " << dim
                       << " is out of range for a parent of rank "
                       << parent.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor-core instructions
//===----------------------------------------------------------------------===//

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> instrShape,
                        ArrayRef<unsigned> warpsPerCTA) {
  if (version != 2 && version != 3)
    return emitError() << "#tile.mma version must be 2 (mma.sync) or 3 "
                          "(warpgroup MMA), got "
                       << version;
  if (instrShape.size() != 3 || warpsPerCTA.size() != 2)
    return emitError() << "#tile.mma takes an instrShape of 3 (M, N, K) and "
                          "warpsPerCTA of 2 (M, N) values";
  if (llvm::any_of(warpsPerCTA, [](unsigned w) {
        return w == 0 || !llvm::isPowerOf2_32(w);
      }))
    return emitError() << "#tile.mma warpsPerCTA must be powers of two";
  unsigned m = instrShape[0], n = instrShape[1], k = instrShape[2];
  if (version == 2 && (m != 16 || n != 8 || (k != 8 && k != 16 && k != 32)))
    return emitError() << "#tile.mma version 2 (mma.sync) instructions are "
                          "16x8x8, 16x8x16 or 16x8x32, got "
                       << m << "x" << n << "x" << k;
  if (version == 3 && (m != 64 || (k != 16 && k != 32) || n % 8 != 0 ||
                       n == 0 || n > 256))
    return emitError() << "#tile.mma version 3 (warpgroup MMA) instructions "
                          "are 64xNx16 (fp8: 64xNx32) with N a multiple of 8 "
                          "up to 256, got "
                       << m << "x" << n << "x" << k;
  if (version == 3 && (warpsPerCTA[0] % 4 != 0 || warpsPerCTA[1] != 1))
    return emitError() << "#tile.mma version 3 puts whole warpgroups (4 "
                          "warps) along M and one along N";
  return success();
}
