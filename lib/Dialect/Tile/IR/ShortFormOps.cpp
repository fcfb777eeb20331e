//===- ShortFormOps.cpp - the short forms' types and verifiers ------------===//
//
// What TileShortForms.td declares, and tile.addptr's broadcasting operands:
// the broadcast result types (NumPy's rules, element types promoted as
// Triton promotes them) and the checks, before tile-desugar writes each out
// as explicit ops.
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"
#include "llk/Dialect/Tile/IR/ShortForms.h"

using namespace mlir;
using namespace llk::tile;

//===----------------------------------------------------------------------===//
// Broadcasting operands (the short forms, TileShortForms.td)
//===----------------------------------------------------------------------===//

/// The shape that `types` (scalars are of rank 0) broadcast to, NumPy's
/// rules: aligned at their last dimension, each dimension equal or 1. On
/// failure, `why` says which.
static std::optional<SmallVector<int64_t>>
broadcastShape(TypeRange types, std::string &why) {
  SmallVector<int64_t> shape;
  for (Type type : types) {
    ArrayRef<int64_t> other = shapeOf(type);
    if (other.size() > shape.size())
      shape.insert(shape.begin(), other.size() - shape.size(), 1);
    for (size_t i = 0; i < other.size(); ++i) {
      int64_t &size = shape[shape.size() - other.size() + i];
      if (other[i] == size || other[i] == 1)
        continue;
      if (size != 1) {
        llvm::raw_string_ostream os(why);
        os << "operands of types ";
        llvm::interleaveComma(types, os,
                              [&](Type t) { os << "'" << t << "'"; });
        os << " do not broadcast: dimension "
           << shape.size() - other.size() + i << " is " << size << " and "
           << other[i] << " (sizes must match or be 1, aligned at the last "
           << "dimension)";
        return std::nullopt;
      }
      size = other[i];
    }
  }
  return shape;
}

/// The result of a short form over `operands`: `elem` in their broadcast
/// shape (a scalar if every operand is one).
static LogicalResult inferBroadcast(std::optional<Location> location,
                                    ValueRange operands, Type elem,
                                    SmallVectorImpl<Type> &results) {
  std::string why;
  if (!elem) {
    if (location)
      emitError(*location) << "the operands' element types do not promote "
                              "to one (numbers do; pointers advance with "
                              "tile.addptr)";
    return failure();
  }
  for (Value operand : operands)
    if (encodingOf(operand.getType())) {
      if (location)
        emitError(*location) << "the short forms broadcast tiles without "
                                "layouts, before the layout passes";
      return failure();
    }
  std::optional<SmallVector<int64_t>> shape =
      broadcastShape(operands.getTypes(), why);
  if (!shape) {
    if (location)
      emitError(*location) << why;
    return failure();
  }
  bool anyTile = llvm::any_of(operands.getTypes(), [](Type t) {
    return isa<RankedTensorType>(t);
  });
  results.push_back(anyTile ? Type(RankedTensorType::get(*shape, elem)) : elem);
  return success();
}

LogicalResult AddPtrOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &results) {
  Type ptr = operands[0].getType(), offset = operands[1].getType();
  // The explicit form: the pointers' type, layout and all.
  if (shapeOf(ptr) == shapeOf(offset) &&
      isa<RankedTensorType>(ptr) == isa<RankedTensorType>(offset)) {
    results.push_back(ptr);
    return success();
  }
  return inferBroadcast(location, operands, elementTypeOf(ptr), results);
}

LogicalResult AddPtrOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type ptr = getPtr().getType(), offset = getOffset().getType();
  if (!isa<PtrType>(elementTypeOf(ptr)))
    return emitOpError() << "advances pointers, not " << elementTypeOf(ptr);
  if (elementTypeOf(offset).isInteger(1))
    return emitOpError() << "offsets must be integers wider than i1";
  return verifySameLayout(*this, ptr, offset, "pointer and offset");
}

bool llk::tile::isShortForm(Operation *op) {
  if (isa<AddOp, SubOp, MulOp, DivOp, RemOp, MinOp, MaxOp, AndOp, OrOp, XOrOp,
          CmpOp, WhereOp, MakeTensorDescOp, DescriptorStoreOp>(op))
    return true;
  if (auto addptr = dyn_cast<AddPtrOp>(op))
    return addptr.getPtr().getType() != addptr.getType() ||
           shapeOf(addptr.getOffset().getType()) != shapeOf(addptr.getType()) ||
           isa<RankedTensorType>(addptr.getOffset().getType()) !=
               isa<RankedTensorType>(addptr.getType());
  if (auto load = dyn_cast<DescriptorLoadOp>(op))
    return bool(load.getDesc().getDefiningOp<MakeTensorDescOp>());
  return false;
}

Type llk::tile::getPromotedElementType(Type a, Type b) {
  if (a == b)
    return a;
  if (!a.isIntOrFloat() || !b.isIntOrFloat())
    return {};
  bool aFloat = isa<FloatType>(a), bFloat = isa<FloatType>(b);
  if (aFloat != bFloat)
    return aFloat ? a : b;
  unsigned aWidth = a.getIntOrFloatBitWidth(), bWidth = b.getIntOrFloatBitWidth();
  if (aWidth != bWidth)
    return aWidth > bWidth ? a : b;
  // Two floats of one width (f16 and bf16, the two f8s): neither holds the
  // other's values.
  return Float32Type::get(a.getContext());
}

/// The element types of a short form's number operands, promoted (null if
/// they do not: pointers of another type).
static Type promotedElementType(ValueRange operands) {
  Type elem = elementTypeOf(operands.front().getType());
  for (Value operand : operands.drop_front())
    if (elem)
      elem = getPromotedElementType(elem, elementTypeOf(operand.getType()));
  return elem;
}

/// Numbers (not pointers; integers only for `integersOnly`); i1 for the
/// bitwise ops and comparisons only.
static LogicalResult verifyNumberOperands(Operation *op, ValueRange operands,
                                          bool integersOnly) {
  if (failed(verifyTiles(op)))
    return failure();
  for (Value operand : operands) {
    Type elem = elementTypeOf(operand.getType());
    if (isa<PtrType>(elem))
      return op->emitOpError() << "takes numbers; advance pointers with "
                                  "tile.addptr";
    if (integersOnly && !elem.isInteger())
      return op->emitOpError() << "takes integers (or i1), not " << elem;
  }
  Type elem = promotedElementType(operands);
  if (elem.isInteger(1) && !integersOnly && !isa<CmpOp, WhereOp>(op))
    return op->emitOpError() << "takes numbers; on i1 masks use tile.and, "
                                "tile.or, tile.xor";
  return success();
}

#define LLK_BINARY_SHORT_FORM(Op, integersOnly)                               \
  LogicalResult Op::inferReturnTypes(                                         \
      MLIRContext *, std::optional<Location> location, ValueRange operands,   \
      DictionaryAttr, OpaqueProperties, RegionRange,                          \
      SmallVectorImpl<Type> &results) {                                       \
    return inferBroadcast(location, operands, promotedElementType(operands),  \
                          results);                                           \
  }                                                                           \
  LogicalResult Op::verify() {                                                \
    return verifyNumberOperands(*this, getOperands(), integersOnly);          \
  }
LLK_BINARY_SHORT_FORM(AddOp, false)
LLK_BINARY_SHORT_FORM(SubOp, false)
LLK_BINARY_SHORT_FORM(MulOp, false)
LLK_BINARY_SHORT_FORM(DivOp, false)
LLK_BINARY_SHORT_FORM(RemOp, false)
LLK_BINARY_SHORT_FORM(MinOp, false)
LLK_BINARY_SHORT_FORM(MaxOp, false)
LLK_BINARY_SHORT_FORM(AndOp, true)
LLK_BINARY_SHORT_FORM(OrOp, true)
LLK_BINARY_SHORT_FORM(XOrOp, true)
#undef LLK_BINARY_SHORT_FORM

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      ValueRange operands, DictionaryAttr,
                                      OpaqueProperties, RegionRange,
                                      SmallVectorImpl<Type> &results) {
  return inferBroadcast(location, operands,
                        IntegerType::get(context, 1), results);
}

LogicalResult CmpOp::verify() {
  return verifyNumberOperands(*this, getOperands(), false);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &results) {
  return inferBroadcast(location, operands,
                        promotedElementType(operands.drop_front()), results);
}

LogicalResult WhereOp::verify() {
  return verifyNumberOperands(*this, {getTrueValue(), getFalseValue()}, false);
}

Type llk::tile::getDescriptorBlockType(Type desc) {
  auto type = cast<TensorDescType>(desc);
  return RankedTensorType::get(type.getBlockShape(), type.getElementType());
}

LogicalResult MakeTensorDescOp::verify() {
  auto desc = cast<TensorDescType>(getType());
  if (getBase().getType().getPointeeType() != desc.getElementType())
    return emitOpError() << "describes a tensor of "
                         << getBase().getType().getPointeeType()
                         << " with blocks of " << desc.getElementType();
  for (Operation *user : getResult().getUsers())
    if (!isa<DescriptorLoadOp, DescriptorStoreOp>(user))
      return user->emitOpError()
             << "uses a descriptor made by tile.make_tensor_desc, which only "
                "tile.descriptor_load and tile.descriptor_store may use (it "
                "needs no loop or branch to carry it: it never changes)";
  return success();
}

LogicalResult DescriptorStoreOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  if (!getDesc().getDefiningOp<MakeTensorDescOp>())
    return emitOpError() << "stores through a descriptor made by "
                            "tile.make_tensor_desc; storing through a kernel "
                            "argument's CUtensorMap is not supported yet";
  return success();
}
