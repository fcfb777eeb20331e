//===- AssemblyTypes.cpp - result types the assembly may leave out --------===//
//
// The custom<...> type directives of TileOps.td and TileShortForms.td.
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace llk::tile;

//===----------------------------------------------------------------------===//
// Result types that the assembly may leave out
//===----------------------------------------------------------------------===//
//
// Each directive parses an optional `-> type` (`: type` for make_range) and,
// where it is absent, infers the result type from the operands; it always
// prints the type, so printed IR reads the same whichever way it was
// written. An inference that fails (a layout it cannot derive) asks for the
// type, at the op.

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
    return parser.emitError(parser.getNameLoc())
           << "expected '" << arrow << "' and the result type: " << why;
  return success();
}

ParseResult llk::tile::parseRangeType(OpAsmParser &parser, Type &result,
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
void llk::tile::printRangeType(OpAsmPrinter &printer, Operation *, Type result,
                           IntegerAttr, IntegerAttr) {
  printer << ": " << result;
}

ParseResult llk::tile::parseExpandedType(OpAsmParser &parser, Type &result,
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
void llk::tile::printExpandedType(OpAsmPrinter &printer, Operation *, Type result,
                              Type, IntegerAttr) {
  printer << "-> " << result;
}

ParseResult llk::tile::parseTransposedType(OpAsmParser &parser, Type &result,
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
void llk::tile::printTransposedType(OpAsmPrinter &printer, Operation *,
                                Type result, Type) {
  printer << "-> " << result;
}

ParseResult llk::tile::parseBlockType(OpAsmParser &parser, Type &result,
                                  Type desc) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) -> Type {
    if (!isa<TensorDescType>(desc)) {
      why = "the operand is no tensor descriptor";
      return {};
    }
    return getDescriptorBlockType(desc);
  });
}
void llk::tile::printBlockType(OpAsmPrinter &printer, Operation *, Type result,
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

ParseResult llk::tile::parseReducedType(OpAsmParser &parser, Type &result,
                                    Type src, IntegerAttr axis) {
  return parseOptionalResult(parser, result, "->", [&](std::string &why) {
    return reducedType(src, axis, Type(), why);
  });
}
ParseResult llk::tile::parseReducedType(OpAsmParser &parser, Type &result,
                                    Type src, IntegerAttr axis,
                                    ReduceKindAttr kind) {
  bool index = kind.getValue() == ReduceKind::ArgMax ||
               kind.getValue() == ReduceKind::ArgMin;
  return parseOptionalResult(parser, result, "->", [&](std::string &why) {
    return reducedType(src, axis,
                       index ? parser.getBuilder().getI32Type() : Type(), why);
  });
}
void llk::tile::printReducedType(OpAsmPrinter &printer, Operation *, Type result,
                             Type, IntegerAttr, ReduceKindAttr) {
  printer << "-> " << result;
}

ParseResult llk::tile::parseDotType(OpAsmParser &parser, Type &result, Type a,
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
void llk::tile::printDotType(OpAsmPrinter &printer, Operation *, Type result, Type,
                         Type) {
  printer << "-> " << result;
}

/// The operand types of a short form: `A` when both are A, else `A, B`.
ParseResult llk::tile::parseOperandTypes(OpAsmParser &parser, Type &a, Type &b) {
  if (parser.parseType(a))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(b);
  b = a;
  return success();
}
void llk::tile::printOperandTypes(OpAsmPrinter &printer, Operation *, Type a,
                              Type b) {
  printer << a;
  if (b != a)
    printer << ", " << b;
}
