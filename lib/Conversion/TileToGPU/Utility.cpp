//===- Utility.cpp - what the tile-to-GPU lowering's files share ----------===//

#include "Utility.h"

#include "mlir/IR/IRMapping.h"

namespace llk::togpu {

bool hasTileType(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

/// Element types as stored in shared memory: i1 travels as i8.
Type storageType(Type elem) {
  return elem.isInteger(1) ? IntegerType::get(elem.getContext(), 8) : elem;
}

Value exchangeThroughShared(IndexEmitter &e, SharedScratch &scratch,
                            Operation *op, Value src, Type srcTileType,
                            Type dstTileType, ArrayRef<int64_t> srcStrides,
                            ArrayRef<int64_t> dstStrides, Value writers) {
  DistributedView srcView = viewOf(srcTileType), dstView = viewOf(dstTileType);
  auto srcVec = cast<VectorType>(src.getType());
  Type elem = srcVec.getElementType();
  Type stored = storageType(elem);
  int64_t bytes = byteWidth(stored);
  // Elements the two index spaces span (padding included).
  auto span = [](Type tileType, ArrayRef<int64_t> strides) {
    int64_t last = 0;
    for (auto [size, stride] :
         llvm::zip(cast<RankedTensorType>(tileType).getShape(), strides))
      last += (size - 1) * stride;
    return last + 1;
  };
  int64_t numElems =
      std::max(span(srcTileType, srcStrides), span(dstTileType, dstStrides));
  Value base = scratch.base(e.b, e.loc, op, numElems * bytes);
  if (elem != stored)
    src = arith::ExtUIOp::create(e.b, e.loc,
                                 VectorType::get(srcVec.getShape(), stored), src);

  // Byte offset of each register, and how many registers in a row are
  // adjacent in shared memory (then one vector access moves them).
  auto offsets = [&](const DistributedView &view, ArrayRef<int64_t> strides) {
    return registerOffsets(e, view, strides, bytes);
  };
  auto runLength = [&](const DistributedView &view, ArrayRef<int64_t> strides) {
    return sharedRunLength(view, strides[view.order[0]] == 1, bytes);
  };

  // Threads that hold copies of the same elements (a layout wider than its
  // tile) write them once: equal values, but still a racecheck hazard.
  if (!writers)
    writers = e.ownerPredicate(srcView);
  gpu::BarrierOp::create(e.b, e.loc);
  Value srcOffsets = offsets(srcView, srcStrides);
  {
    OpBuilder::InsertionGuard guard(e.b);
    if (writers)
      e.b.setInsertionPointToStart(
          scf::IfOp::create(e.b, e.loc, writers, /*withElseRegion=*/false).thenBlock());
    storeRuns(e, src, runLength(srcView, srcStrides), bytes, [&](int64_t r) {
      return byteAddress(e, base, e.extract(srcOffsets, r));
    });
  }
  gpu::BarrierOp::create(e.b, e.loc);

  Value dstOffsets = offsets(dstView, dstStrides);
  auto dstVecType = VectorType::get({dstView.totalElemsPerThread()}, stored);
  Value result =
      loadRuns(e, dstVecType, runLength(dstView, dstStrides), bytes, [&](int64_t r) {
        return byteAddress(e, base, e.extract(dstOffsets, r));
      });
  if (elem != stored)
    result = arith::TruncIOp::create(
        e.b, e.loc, VectorType::get(dstVecType.getShape(), elem), result);
  return result;
}

Value registerOffsets(IndexEmitter &e, const DistributedView &view,
                      ArrayRef<int64_t> strides, int64_t scale,
                      llvm::function_ref<Value(unsigned)> coordinates) {
  auto type = VectorType::get({view.totalElemsPerThread()}, e.b.getI32Type());
  Value total;
  for (unsigned d = 0; d < view.shape.size(); ++d) {
    Value coords = coordinates ? coordinates(d) : Value();
    if (!coords)
      coords = e.coordinates(view, d);
    Value term = arith::MulIOp::create(
        e.b, e.loc, coords,
        arith::ConstantOp::create(
            e.b, e.loc, DenseIntElementsAttr::get(type, int32_t(strides[d] * scale))));
    total = total ? arith::AddIOp::create(e.b, e.loc, total, term).getResult() : term;
  }
  return total;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

Value isFirstThread(IndexEmitter &e) {
  return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq, e.threadId(),
                               e.i32(0));
}

Value andPredicates(IndexEmitter &e, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return arith::AndIOp::create(e.b, e.loc, a, b);
}

Value shuffle(IndexEmitter &e, Value value, Value offset, gpu::ShuffleMode mode) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  auto shuffle32 = [&](Value v) {
    return gpu::ShuffleOp::create(b, loc, v, offset, e.i32(32), mode)
        .getShuffleResult();
  };
  if (bits == 32)
    return shuffle32(value);
  if (bits == 64) {
    // As a vector of its two 32-bit halves (llvm.bitcast: arith.bitcast
    // keeps shapes), each shuffled, then joined again.
    auto halvesType = VectorType::get({2}, b.getI32Type());
    Value halves = LLVM::BitcastOp::create(b, loc, halvesType, value);
    Value lo = shuffle32(e.extract(halves, 0)), hi = shuffle32(e.extract(halves, 1));
    return LLVM::BitcastOp::create(b, loc, type,
                                   e.fromElements(b.getI32Type(), {lo, hi}));
  }
  Type intType = b.getIntegerType(bits);
  Value asInt = type.isInteger() ? value
                                 : arith::BitcastOp::create(b, loc, intType, value).getResult();
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
  Value narrow = arith::TruncIOp::create(b, loc, intType, shuffle32(wide));
  return type.isInteger() ? narrow
                          : arith::BitcastOp::create(b, loc, type, narrow).getResult();
}

Value applyCombiner(OpBuilder &b, Region &combiner, Value lhs, Value rhs) {
  Block &body = combiner.front();
  IRMapping map;
  map.map(body.getArgument(0), lhs);
  map.map(body.getArgument(1), rhs);
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return map.lookup(body.getTerminator()->getOperand(0));
}

Value arithCombine(OpBuilder &b, Location loc, ArithCombiner kind, Value lhs,
                   Value rhs, arith::FastMathFlags addFlags) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case ArithCombiner::Sum:
    return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs, addFlags).getResult()
                   : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
  case ArithCombiner::Prod:
    return isFloat ? arith::MulFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MulIOp::create(b, loc, lhs, rhs).getResult();
  case ArithCombiner::Max:
    return isFloat ? arith::MaxNumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
  case ArithCombiner::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
  }
  llvm_unreachable("unknown combiner");
}

} // namespace llk::togpu
