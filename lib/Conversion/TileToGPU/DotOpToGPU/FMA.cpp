//===- FMA.cpp - tile.dot as an FMA loop ----------------------------------===//
//
// The exact dot: one FMA per accumulator register and element of K, in K
// order, operands read from row-major shared memory.
//
//===----------------------------------------------------------------------===//

#include "DotOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace llk::togpu {

Value lowerFmaDot(IndexEmitter &e, SharedScratch &scratch, DotOp op, Value a,
                  Value b, Value acc) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getType();
  int64_t K = aType.getDimSize(1);
  Type elem = aType.getElementType(), accElem = cType.getElementType();
  int64_t bytes = byteWidth(elem);
  int64_t aBytes = aType.getNumElements() * bytes;
  int64_t bOffset = llvm::alignTo(aBytes, 16);
  Value base = scratch.base(e.b, e.loc, op, bOffset + bType.getNumElements() * bytes);
  SharedOperand aSmem(base, aType, 1, /*swizzled=*/false);
  SharedOperand bSmem(byteAddress(e, base, e.i32(bOffset)), bType, 1,
                      /*swizzled=*/false);
  gpu::BarrierOp::create(e.b, e.loc);
  stageOperand(e, a, aType, aSmem);
  stageOperand(e, b, bType, bSmem);
  gpu::BarrierOp::create(e.b, e.loc);

  DistributedView view = viewOf(cType);
  Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
  SmallVector<Value> rowOf, colOf;
  for (int64_t i = 0; i < view.elemsPerThread(0); ++i)
    rowOf.push_back(e.extract(rows, view.registerIndex({i, 0})));
  for (int64_t j = 0; j < view.elemsPerThread(1); ++j)
    colOf.push_back(e.extract(cols, view.registerIndex({0, j})));

  Value lb = arith::ConstantIndexOp::create(e.b, e.loc, 0);
  Value ub = arith::ConstantIndexOp::create(e.b, e.loc, K);
  Value step = arith::ConstantIndexOp::create(e.b, e.loc, 1);
  auto loop = scf::ForOp::create(
      e.b, e.loc, lb, ub, step, ValueRange{acc},
      [&](OpBuilder &nb, Location nl, Value iv, ValueRange iters) {
        IndexEmitter ie(nb, nl);
        Value k = arith::IndexCastOp::create(nb, nl, nb.getI32Type(), iv);
        auto widen = [&](Value v) -> Value {
          if (elem.isInteger(8))
            return arith::ExtSIOp::create(nb, nl, accElem, v);
          if (elem != accElem)
            return arith::ExtFOp::create(nb, nl, accElem, v);
          return v;
        };
        SmallVector<Value> aVals, bVals;
        for (Value row : rowOf)
          aVals.push_back(widen(LLVM::LoadOp::create(
              nb, nl, elem, aSmem.tileAddress(ie, row, k), bytes)));
        for (Value col : colOf)
          bVals.push_back(widen(LLVM::LoadOp::create(
              nb, nl, elem, bSmem.tileAddress(ie, k, col), bytes)));
        Value result = iters[0];
        for (auto [r, local] : llvm::enumerate(view.localIndices())) {
          Value x = aVals[local[0]], y = bVals[local[1]];
          Value c = ie.extract(result, r);
          Value d = isa<FloatType>(accElem)
                        ? LLVM::FMAOp::create(nb, nl, x, y, c).getResult()
                        : arith::AddIOp::create(
                              nb, nl, c, arith::MulIOp::create(nb, nl, x, y))
                              .getResult();
          result = vector::InsertOp::create(nb, nl, d, result,
                                            ArrayRef<int64_t>{int64_t(r)});
        }
        scf::YieldOp::create(nb, nl, result);
      });
  return loop.getResult(0);
}

} // namespace llk::togpu
