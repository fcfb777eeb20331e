//===- TileOps.cpp - tile dialect operations ------------------------------===//
//
// Verifiers say what is wrong in the user's terms: which operand, which
// dimension, what was expected.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/Dialect/Tile/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace llk::tile;

static Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

static Attribute encodingOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

//===----------------------------------------------------------------------===//
// Result types that the assembly may leave out
//===----------------------------------------------------------------------===//
//
// Each directive parses an optional `-> type` (`: type` for make_range) and,
// where it is absent, infers the result type from the operands; it always
// prints the type, so printed IR reads the same whichever way it was
// written. An inference that fails (a layout it cannot derive) asks for the
// type at the position where it was expected.

/// `-> type`, or, if there is no arrow, `infer()`'s type (null: the error).
static ParseResult
parseOptionalResult(OpAsmParser &parser, Type &result, StringRef arrow,
                    function_ref<Type(std::string &why)> infer) {
  ParseResult present = arrow == "->" ? parser.parseOptionalArrow()
                                      : parser.parseOptionalColon();
  if (succeeded(present))
    return parser.parseType(result);
  std::string why;
  result = infer(why);
  if (!result)
    return parser.emitError(parser.getCurrentLocation())
           << "expected '" << arrow << "' and the result type: " << why;
  return success();
}

static ParseResult parseRangeType(OpAsmParser &parser, Type &result,
                                  IntegerAttr start, IntegerAttr end) {
  return parseOptionalResult(parser, result, ":", [&](std::string &why) -> Type {
    int64_t size = end.getInt() - start.getInt();
    if (size <= 0) {
      why = "the range is empty";
      return {};
    }
    return RankedTensorType::get({size}, parser.getBuilder().getI32Type());
  });
}
static void printRangeType(OpAsmPrinter &printer, Operation *, Type result,
                           IntegerAttr, IntegerAttr) {
  printer << ": " << result;
}

static ParseResult parseExpandedType(OpAsmParser &parser, Type &result,
                                     Type src, IntegerAttr axis) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) -> Type {
    auto tensor = dyn_cast<RankedTensorType>(src);
    int64_t at = axis.getInt();
    if (!tensor || at < 0 || at > tensor.getRank()) {
      why = "the axis is out of range";
      return {};
    }
    SmallVector<int64_t> shape(tensor.getShape());
    shape.insert(shape.begin() + at, 1);
    Attribute encoding;
    if (Attribute sliced = tensor.getEncoding()) {
      auto slice = dyn_cast<SliceLayoutAttr>(sliced);
      if (!slice || slice.getDim() != at) {
        why = "the operand's layout is no slice at this axis";
        return {};
      }
      encoding = slice.getParent();
    }
    return RankedTensorType::get(shape, tensor.getElementType(), encoding);
  });
}
static void printExpandedType(OpAsmPrinter &printer, Operation *, Type result,
                              Type, IntegerAttr) {
  printer << "-> " << result;
}

static ParseResult parseTransposedType(OpAsmParser &parser, Type &result,
                                       Type src) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) -> Type {
    auto tensor = dyn_cast<RankedTensorType>(src);
    if (!tensor || tensor.getRank() != 2 || tensor.getEncoding()) {
      why = "it is inferred for 2-D tiles without a layout only";
      return {};
    }
    return RankedTensorType::get({tensor.getDimSize(1), tensor.getDimSize(0)},
                                 tensor.getElementType());
  });
}
static void printTransposedType(OpAsmPrinter &printer, Operation *,
                                Type result, Type) {
  printer << "-> " << result;
}

static ParseResult parseBlockType(OpAsmParser &parser, Type &result,
                                  Type desc) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) -> Type {
    if (!isa<TensorDescType>(desc)) {
      why = "the operand is no tensor descriptor";
      return {};
    }
    return getDescriptorBlockType(desc);
  });
}
static void printBlockType(OpAsmPrinter &printer, Operation *, Type result,
                           Type) {
  printer << "-> " << result;
}

/// `src` reduced along `axis` into `elem`: a scalar for a 1-D tile; a laid-
/// out tile's result sliced from its layout.
static Type reducedType(Type src, IntegerAttr axis, Type elem,
                        std::string &why) {
  auto tensor = dyn_cast<RankedTensorType>(src);
  int64_t at = axis.getInt();
  if (!tensor || at < 0 || at >= tensor.getRank()) {
    why = "the axis is out of range";
    return {};
  }
  if (tensor.getRank() == 1)
    return elem ? elem : tensor.getElementType();
  SmallVector<int64_t> shape(tensor.getShape());
  shape.erase(shape.begin() + at);
  Attribute encoding;
  if (Attribute parent = tensor.getEncoding()) {
    auto blocked = dyn_cast<BlockedLayoutAttr>(parent);
    if (!blocked) {
      why = "the operand's layout cannot be sliced";
      return {};
    }
    encoding = SliceLayoutAttr::get(src.getContext(), at, blocked);
  }
  return RankedTensorType::get(shape, elem ? elem : tensor.getElementType(),
                               encoding);
}

static ParseResult parseReducedType(OpAsmParser &parser, Type &result,
                                    Type src, IntegerAttr axis) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) {
    return reducedType(src, axis, Type(), why);
  });
}
static ParseResult parseReducedType(OpAsmParser &parser, Type &result,
                                    Type src, IntegerAttr axis,
                                    ReduceKindAttr kind) {
  bool index = kind.getValue() == ReduceKind::ArgMax ||
               kind.getValue() == ReduceKind::ArgMin;
  return parseOptionalResult(parser, result, "->", [&](std::string &why) {
    return reducedType(src, axis,
                       index ? parser.getBuilder().getI32Type() : Type(), why);
  });
}
static void printReducedType(OpAsmPrinter &printer, Operation *, Type result,
                             Type, IntegerAttr, ReduceKindAttr = {}) {
  printer << "-> " << result;
}

static ParseResult parseDotType(OpAsmParser &parser, Type &result, Type a,
                                Type b) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) -> Type {
    auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
    if (!ta || !tb || ta.getRank() != 2 || tb.getRank() != 2 ||
        ta.getEncoding() || tb.getEncoding()) {
      why = "it is inferred for 2-D operands without layouts only";
      return {};
    }
    Builder builder = parser.getBuilder();
    Type acc = ta.getElementType().isInteger(8) ? Type(builder.getI32Type())
                                                : Type(builder.getF32Type());
    return RankedTensorType::get({ta.getDimSize(0), tb.getDimSize(1)}, acc);
  });
}
static void printDotType(OpAsmPrinter &printer, Operation *, Type result, Type,
                         Type) {
  printer << "-> " << result;
}

/// The operand types of a short form: `A` when both are A, else `A, B`.
static ParseResult parseOperandTypes(OpAsmParser &parser, Type &a, Type &b) {
  if (parser.parseType(a))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(b);
  b = a;
  return success();
}
static void printOperandTypes(OpAsmPrinter &printer, Operation *, Type a,
                              Type b) {
  printer << a;
  if (b != a)
    printer << ", " << b;
}

#define GET_OP_CLASSES
#include "llk/Dialect/Tile/IR/TileOps.cpp.inc"

/// Checks every tensor operand and result of `op` is a valid tile.
static LogicalResult verifyTiles(Operation *op) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifyTileType(op, type, "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifyTileType(op, type, "result #" + std::to_string(i))))
      return failure();
  return success();
}

/// Ops that keep every element where it is need one layout on operand and
/// result (when both have one).
static LogicalResult verifySameLayout(Operation *op, Type a, Type b,
                                      StringRef what) {
  Attribute ea = encodingOf(a), eb = encodingOf(b);
  if (ea && eb && ea != eb)
    return op->emitOpError() << what << " layouts differ";
  return success();
}

static LogicalResult verifySameElementType(Operation *op, Type src, Type res) {
  if (elementTypeOf(src) != elementTypeOf(res))
    return op->emitOpError() << "result element type " << elementTypeOf(res)
                             << " differs from operand element type "
                             << elementTypeOf(src);
  return success();
}

LogicalResult MakeRangeOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  auto type = getType();
  if (type.getRank() != 1 || !type.getElementType().isInteger(32))
    return emitOpError() << "result must be a 1-D tile of i32, got " << type;
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (start < 0 || end <= start)
    return emitOpError() << "needs 0 <= start < end, got " << start << " to "
                         << end;
  if (end - start != type.getDimSize(0))
    return emitOpError() << "range " << start << " to " << end << " has "
                         << end - start << " elements but the result has "
                         << type.getDimSize(0);
  return success();
}

LogicalResult SplatOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  if (failed(verifySameLayout(*this, src, res, "operand and result")))
    return failure();
  if (src.getRank() != res.getRank())
    return emitOpError() << "operand rank " << src.getRank()
                         << " differs from result rank " << res.getRank()
                         << "; use tile.expand_dims to add dimensions";
  for (unsigned d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != res.getDimSize(d) && src.getDimSize(d) != 1)
      return emitOpError() << "can only broadcast dimensions of size 1, but "
                           << "dimension " << d << " goes from "
                           << src.getDimSize(d) << " to " << res.getDimSize(d);
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a tile "
                         << "of rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be the operand's with 1 "
                         << "inserted at " << axis;
  if (src.getEncoding() && res.getEncoding()) {
    auto slice = dyn_cast<SliceLayoutAttr>(src.getEncoding());
    if (!slice || slice.getDim() != axis ||
        slice.getParent() != res.getEncoding())
      return emitOpError() << "operand layout must be the result layout "
                           << "sliced at the expanded axis";
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError() << "cannot reshape " << getSrc().getType() << " ("
                         << getSrc().getType().getNumElements()
                         << " elements) to " << getType() << " ("
                         << getType().getNumElements() << " elements)";
  return success();
}

LogicalResult TransOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  if (src.getRank() != 2 || res.getRank() != 2)
    return emitOpError() << "transposes 2-D tiles only";
  if (src.getDimSize(0) != res.getDimSize(1) ||
      src.getDimSize(1) != res.getDimSize(0))
    return emitOpError() << "transposes " << src.getDimSize(0) << "x"
                         << src.getDimSize(1) << " into " << src.getDimSize(1)
                         << "x" << src.getDimSize(0) << ", but the result is "
                         << res.getDimSize(0) << "x" << res.getDimSize(1);
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  if (getSrc().getType().getShape() != getType().getShape())
    return emitOpError() << "changes the layout only, not the shape";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) -> convert(x): the middle layout is never observed.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

namespace {
/// A tile that is cheap to build in any layout is rebuilt in the converted
/// one rather than moved through shared memory: constants, splats, ranges;
/// a broadcast is rebuilt from its converted source.
struct RematerializeConvertedSource : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *src = op.getSrc().getDefiningOp();
    if (!src)
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(src)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat())
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, op.getType(), DenseElementsAttr::get(op.getType(),
                                                   dense.getSplatValue<Attribute>()));
      return success();
    }
    if (auto splat = dyn_cast<SplatOp>(src)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<MakeRangeOp>(src)) {
      rewriter.replaceOpWithNewOp<MakeRangeOp>(op, op.getType(), range.getStart(),
                                               range.getEnd());
      return success();
    }
    // A broadcast converts its source instead, which holds fewer elements
    // (and, built from ranges, is recomputed where it is converted).
    if (auto broadcast = dyn_cast<BroadcastOp>(src)) {
      RankedTensorType srcType = broadcast.getSrc().getType();
      Attribute layout = op.getType().getEncoding();
      if (!layout || !layoutFits(srcType, layout))
        return failure();
      auto converted = ConvertLayoutOp::create(
          rewriter, op.getLoc(), withLayout(srcType, layout), broadcast.getSrc());
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), converted);
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<RematerializeConvertedSource>(context);
}

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
        llvm::interleaveComma(types, os);
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

/// The element type both operands of a binary short form hold.
static LogicalResult verifyBinaryShortForm(Operation *op, Type lhs, Type rhs,
                                           bool integersOnly) {
  if (failed(verifyTiles(op)))
    return failure();
  Type a = elementTypeOf(lhs), b = elementTypeOf(rhs);
  if (a != b)
    return op->emitOpError()
           << "operands hold " << a << " and " << b
           << ": the short forms broadcast shapes, not element types (cast "
              "one with tile.cast)";
  if (isa<PtrType>(a))
    return op->emitOpError() << "takes numbers; advance pointers with "
                                "tile.addptr";
  if (integersOnly && !a.isInteger())
    return op->emitOpError() << "takes integers (or i1), not " << a;
  if (a.isInteger(1) && !integersOnly && !isa<CmpOp>(op))
    return op->emitOpError() << "takes numbers; on i1 masks use tile.and, "
                                "tile.or, tile.xor";
  return success();
}

#define LLK_BINARY_SHORT_FORM(Op, integersOnly)                               \
  LogicalResult Op::inferReturnTypes(                                         \
      MLIRContext *, std::optional<Location> location, ValueRange operands,   \
      DictionaryAttr, OpaqueProperties, RegionRange,                          \
      SmallVectorImpl<Type> &results) {                                       \
    return inferBroadcast(location, operands,                                 \
                          elementTypeOf(operands[0].getType()), results);     \
  }                                                                           \
  LogicalResult Op::verify() {                                                \
    return verifyBinaryShortForm(*this, getLhs().getType(),                   \
                                 getRhs().getType(), integersOnly);           \
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
  return verifyBinaryShortForm(*this, getLhs().getType(), getRhs().getType(),
                               false);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &results) {
  return inferBroadcast(location, operands,
                        elementTypeOf(operands[1].getType()), results);
}

LogicalResult WhereOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type a = elementTypeOf(getTrueValue().getType()),
       b = elementTypeOf(getFalseValue().getType());
  if (a != b)
    return emitOpError() << "values hold " << a << " and " << b
                         << ": the short forms broadcast shapes, not element "
                            "types (cast one with tile.cast)";
  return success();
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

/// The shared checks of memory operations: tiles are valid and the pointee
/// type is one that global memory can hold.
static LogicalResult verifyMemoryOp(Operation *op, Type ptrType) {
  if (failed(verifyTiles(op)))
    return failure();
  Type pointee = elementTypeOf(getPointeeValueType(ptrType));
  if (pointee.isInteger(1))
    return op->emitOpError() << "cannot access memory of i1; use i8";
  return success();
}

/// PTX spells a cache operator, an L1 eviction priority or `.volatile`, but
/// no combination of them.
static LogicalResult verifyHints(Operation *op, bool cache, bool evict,
                                 bool isVolatile) {
  if (int(cache) + int(evict) + int(isVolatile) > 1)
    return op->emitOpError() << "takes one of cache, evict and volatile: PTX "
                                "has no instruction that combines them";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())) ||
      failed(verifyHints(*this, bool(getCache()), bool(getEvict()),
                         getIsVolatile())))
    return failure();
  if (getOther() && !getMask())
    return emitOpError() << "'other' gives the masked-off elements and needs "
                            "a mask";
  if (getCache() && (*getCache() == CacheModifier::WB ||
                     *getCache() == CacheModifier::WT))
    return emitOpError() << "cache modifier '"
                         << stringifyCacheModifier(*getCache())
                         << "' applies to stores only";
  return success();
}

LogicalResult StoreOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())) ||
      failed(verifyHints(*this, bool(getCache()), bool(getEvict()), false)))
    return failure();
  if (getCache() && (*getCache() == CacheModifier::CA ||
                     *getCache() == CacheModifier::CV))
    return emitOpError() << "cache modifier '"
                         << stringifyCacheModifier(*getCache())
                         << "' applies to loads only";
  return success();
}

static LogicalResult verifyAtomicElement(Operation *op, Type ptrType) {
  Type elem = elementTypeOf(getPointeeValueType(ptrType));
  if (!elem.isF32() && !elem.isInteger(32))
    return op->emitOpError() << "atomics support f32 and i32 elements, got "
                             << elem;
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  return verifyAtomicElement(*this, getPtr().getType());
}

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  return verifyAtomicElement(*this, getPtr().getType());
}

/// Checks that `resultType` is `src` reduced along `axis` with elements of
/// `elem`: a scalar for a 1-D operand.
static LogicalResult verifyReduceShape(Operation *op, RankedTensorType src,
                                       int64_t axis, Type resultType,
                                       Type elem) {
  if (axis < 0 || axis >= src.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for a "
                             << "tile of rank " << src.getRank();
  if (src.getRank() == 1) {
    if (resultType != elem)
      return op->emitOpError() << "reducing a 1-D tile gives a scalar of type "
                               << elem << ", not " << resultType;
    return success();
  }
  auto res = dyn_cast<RankedTensorType>(resultType);
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  if (!res || res.getShape() != ArrayRef<int64_t>(expected) ||
      res.getElementType() != elem)
    return op->emitOpError() << "result must be a tile of " << elem
                             << " with the operand's shape less axis " << axis
                             << ", got " << resultType;
  if (src.getEncoding() && res.getEncoding()) {
    auto slice = dyn_cast<SliceLayoutAttr>(res.getEncoding());
    if (!slice || slice.getDim() != axis ||
        slice.getParent() != src.getEncoding())
      return op->emitOpError() << "result layout must be the operand layout "
                               << "sliced at the reduced axis";
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type elem = getSrc().getType().getElementType();
  if (isa<PtrType>(elem))
    return emitOpError() << "cannot reduce a tile of pointers";
  bool isArg = getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  if (getKind() == ReduceKind::Sum && elem.isInteger(1))
    return emitOpError() << "cannot sum i1; cast to an integer type first";
  Type resultElem = isArg ? IntegerType::get(getContext(), 32) : elem;
  return verifyReduceShape(*this, getSrc().getType(), getAxisAttr().getInt(),
                           getResult().getType(), resultElem);
}

LogicalResult GenericReduceOp::verifyRegions() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type elem = getSrc().getType().getElementType();
  Block &body = getCombiner().front();
  if (body.getNumArguments() != 2 ||
      body.getArgument(0).getType() != elem ||
      body.getArgument(1).getType() != elem)
    return emitOpError() << "combiner must take two arguments of type " << elem;
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != elem)
    return emitOpError() << "combiner must yield one value of type " << elem;
  // The lowering combines in a tree whose shape follows the layout, the
  // interpreter in order: only a pure function of two scalars gives the
  // same result both ways.
  WalkResult impure = body.walk([&](Operation *inner) {
    if (inner == yield.getOperation())
      return WalkResult::advance();
    auto isTile = [](Type t) { return isa<ShapedType>(t); };
    // Scalar conversions are pure functions like arith's; every other tile
    // op works on the program's tiles or memory.
    if (isa_and_nonnull<TileDialect>(inner->getDialect()) &&
        !isa<CastOp, BitcastOp>(inner)) {
      inner->emitOpError("cannot be in a tile.generic_reduce combiner, which "
                         "combines two scalars with arith, math, scf ops and "
                         "tile.cast/tile.bitcast");
      return WalkResult::interrupt();
    }
    if (llvm::any_of(inner->getOperandTypes(), isTile) ||
        llvm::any_of(inner->getResultTypes(), isTile)) {
      inner->emitOpError("works on a tile, but a tile.generic_reduce "
                         "combiner combines two scalars");
      return WalkResult::interrupt();
    }
    if (!isMemoryEffectFree(inner)) {
      inner->emitOpError("has side effects, which a tile.generic_reduce "
                         "combiner must not have: the order it runs in is "
                         "the lowering's");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (impure.wasInterrupted())
    return failure();
  return verifyReduceShape(*this, getSrc().getType(), getAxisAttr().getInt(),
                           getResult().getType(), elem);
}

/// Element types `tile.cast` converts among.
static bool isCastable(Type t) {
  return t.isF32() || t.isF16() || t.isBF16() || t.isF64() || t.isInteger(1) ||
         t.isInteger(8) || t.isInteger(16) || t.isInteger(32) ||
         t.isInteger(64);
}

LogicalResult CastOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type srcType = getSrc().getType(), resType = getType();
  if (shapeOf(srcType) != shapeOf(resType) ||
      isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resType))
    return emitOpError() << "changes element types only: " << srcType
                         << " and " << resType << " have different shapes";
  if (failed(verifySameLayout(*this, srcType, resType, "operand and result")))
    return failure();
  Type src = elementTypeOf(srcType), dst = elementTypeOf(resType);
  if (!isCastable(src) || !isCastable(dst))
    return emitOpError() << "cannot cast " << src << " to " << dst
                         << "; supported: f64, f32, f16, bf16, i64, i32, i16, "
                            "i8, i1";
  // A cast to the same type is the identity, whatever its rounding: one
  // source serves `-D T=f32` and `-D T=f16` (the folder removes it).
  if (!getRounding() || src == dst)
    return success();
  bool floatNarrowing = isa<FloatType>(src) && isa<FloatType>(dst) &&
                        dst.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth();
  // bf16 <-> f16 narrows in range or precision either way.
  floatNarrowing |= (src.isF16() && dst.isBF16()) || (src.isBF16() && dst.isF16());
  bool floatToInt = isa<FloatType>(src) && dst.isInteger() && !dst.isInteger(1);
  bool intToFloat = src.isInteger() && isa<FloatType>(dst);
  if (intToFloat && *getRounding() != RoundingMode::RNE)
    return emitOpError() << "int to float casts round to nearest even only";
  if (!floatNarrowing && !floatToInt && !intToFloat)
    return emitOpError() << "rounding applies to casts that can be inexact, "
                         << "not " << src << " to " << dst;
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult BitcastOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type srcType = getSrc().getType(), resType = getType();
  if (shapeOf(srcType) != shapeOf(resType) ||
      isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resType))
    return emitOpError() << "operand and result shapes differ";
  if (failed(verifySameLayout(*this, srcType, resType, "operand and result")))
    return failure();
  Type src = elementTypeOf(srcType), dst = elementTypeOf(resType);
  // Pointers reinterpret as pointers to another type, or as i64 addresses.
  if (isa<PtrType>(src) || isa<PtrType>(dst)) {
    Type other = isa<PtrType>(src) ? dst : src;
    if (!isa<PtrType>(other) && !other.isInteger(64))
      return emitOpError() << "a pointer bitcasts to a pointer or to i64, not "
                           << other;
    return success();
  }
  if (!src.isIntOrFloat() || !dst.isIntOrFloat() ||
      src.getIntOrFloatBitWidth() != dst.getIntOrFloatBitWidth())
    return emitOpError() << "bitcast needs numbers of equal width, got "
                         << src << " and " << dst;
  return success();
}

LogicalResult DotOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  auto a = getA().getType(), b = getB().getType(), c = getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands and result must be 2-D tiles";
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "a is " << a.getDimSize(0) << "x"
                         << a.getDimSize(1) << " (M x K) but b is "
                         << b.getDimSize(0) << "x" << b.getDimSize(1)
                         << " (K x N): K is " << a.getDimSize(1)
                         << " in a and " << b.getDimSize(0) << " in b";
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator must be " << a.getDimSize(0) << "x"
                         << b.getDimSize(1);
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"a", a},
                         {"b", b}, {"result", c}})
    if (t.getDimSize(0) < 16 || t.getDimSize(1) < 16)
      return emitOpError() << name << " must be at least 16x16, got " << t;
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  bool ok = (ea.isF16() && eb.isF16() && ec.isF32()) ||
            (ea.isBF16() && eb.isBF16() && ec.isF32()) ||
            (ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32)) ||
            (ea.isF32() && eb.isF32() && ec.isF32());
  if (!ok)
    return emitOpError() << "unsupported element types " << ea << " x " << eb
                         << " -> " << ec << "; supported: f16 x f16 -> f32, "
                         << "bf16 x bf16 -> f32, i8 x i8 -> i32, "
                            "f32 x f32 -> f32";
  if (getPrecision() && !ea.isF32())
    return emitOpError() << "precision applies to f32 operands only";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  SharedType type = getType();
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t size : type.getShape())
    bytes *= size;
  if (bytes > TileDialect::kMaxSharedBytes)
    return emitOpError() << "needs " << bytes
                         << " bytes of shared memory, more than the "
                         << TileDialect::kMaxSharedBytes
                         << " a program can have";
  return success();
}

/// A slot of `buffer` holds a tile of `tile`'s shape.
static LogicalResult verifySlotTile(Operation *op, SharedType buffer,
                                    RankedTensorType tile, StringRef what) {
  if (tile.getShape() != buffer.getSlotShape()) {
    auto diag = op->emitOpError() << what << " has shape ";
    llvm::interleave(tile.getShape(), diag, "x");
    diag << " but a slot of the buffer holds ";
    llvm::interleave(buffer.getSlotShape(), diag, "x");
    return diag;
  }
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  auto ptr = getPtr().getType();
  SharedType buffer = getBuffer().getType();
  if (failed(verifySlotTile(*this, buffer, ptr, "the pointer tile")))
    return failure();
  Type pointee = cast<PtrType>(ptr.getElementType()).getPointeeType();
  if (pointee != buffer.getElementType())
    return emitOpError() << "copies " << pointee << " elements into a buffer of "
                         << buffer.getElementType();
  return success();
}

/// A block of `desc` has `tile`'s shape and element type.
static LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                          ArrayRef<int64_t> shape, Type elem,
                                          StringRef what) {
  if (shape != desc.getBlockShape()) {
    auto diag = op->emitOpError() << what << " has shape ";
    llvm::interleave(shape, diag, "x");
    diag << " but the descriptor's blocks are ";
    llvm::interleave(desc.getBlockShape(), diag, "x");
    return diag;
  }
  if (elem != desc.getElementType())
    return op->emitOpError() << what << " holds " << elem
                             << " but the descriptor's elements are "
                             << desc.getElementType();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  if (getDesc().getDefiningOp<MakeTensorDescOp>() && getType().getEncoding())
    return emitOpError() << "reads a descriptor made in the kernel, a short "
                            "form that tile-desugar writes out before layouts";
  RankedTensorType type = getType();
  return verifyDescriptorBlock(*this, getDesc().getType(), type.getShape(),
                               type.getElementType(), "the result");
}

LogicalResult AsyncTmaCopyOp::verify() {
  SharedType buffer = getBuffer().getType();
  if (buffer.getContiguousDim() != 1)
    return emitOpError() << "copies row-major blocks, so the buffer's "
                            "contiguous dimension must be 1";
  return verifyDescriptorBlock(*this, getDesc().getType(),
                               buffer.getSlotShape(), buffer.getElementType(),
                               "a slot of the buffer");
}

LogicalResult AsyncWaitOp::verify() {
  if (getPendingAttr().getInt() < 0)
    return emitOpError() << "pending must be a count of copy groups (0 or "
                            "more), got "
                         << getPendingAttr().getInt();
  return success();
}

LogicalResult LocalLoadOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  SharedType buffer = getBuffer().getType();
  if (failed(verifySlotTile(*this, buffer, getType(), "the result")))
    return failure();
  return verifySameElementType(
      *this, RankedTensorType::get(buffer.getSlotShape(), buffer.getElementType()),
      getType());
}
