//===- AtomicOpToGPU.cpp - tile.atomic_rmw and tile.atomic_cas ------------===//
//
// One predicated atom instruction per element an owning thread holds (once,
// from thread 0, for a scalar atomic), ordered by the op's semantics at GPU
// scope; the old values go to the threads that replicate the element through
// shared memory.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// One atomic instruction on one element, predicated, ordered by `sem` at
/// GPU scope (PTX's default, relaxed, needs no qualifier); returns the old
/// value.
Value emitAtomic(IndexEmitter &e, MemorySemantic sem, StringRef opcode,
                 Value addr, ArrayRef<Value> values, Value pred) {
  Type type = values[0].getType();
  bool isFloat = isa<FloatType>(type);
  std::string reg = isFloat ? "f" : "r";
  std::string order = sem == MemorySemantic::Relaxed
                          ? ""
                          : "." + stringifyMemorySemantic(sem).str() + ".gpu";
  // A thread whose predicate is off gets 0: the old value of a masked-off
  // element (as tile.atomic_rmw defines it), never a stale register.
  std::string text = std::string(isFloat ? "mov.f32 $0, 0f00000000;"
                                         : "mov.b32 $0, 0;") +
                     "\n\t@$" + std::to_string(values.size() + 2) + " atom" +
                     order + ".global." + opcode.str() + " $0, [$1]";
  std::string constraints = "=" + reg + ",l";
  SmallVector<Value> operands{addr};
  for (auto [i, v] : llvm::enumerate(values)) {
    text += ", $" + std::to_string(i + 2);
    constraints += "," + reg;
    operands.push_back(v);
  }
  text += ";";
  constraints += ",b";
  operands.push_back(pred ? pred : e.i1(true));
  return e.inlineAsm(type, operands, text, constraints).getResult(0);
}

/// atomic_rmw on one element. f32 max/min use the integer order of IEEE
/// bits: signed max for non-negative values, unsigned min for negative ones.
Value emitAtomicRMW(IndexEmitter &e, AtomicRMWKind kind, MemorySemantic sem,
                    Value addr, Value value, Value pred) {
  Type type = value.getType();
  bool isFloat = type.isF32();
  switch (kind) {
  case AtomicRMWKind::Add:
    return emitAtomic(e, sem, isFloat ? "add.f32" : "add.s32", addr, value, pred);
  case AtomicRMWKind::Xchg:
    return emitAtomic(e, sem, "exch.b32", addr, value, pred);
  case AtomicRMWKind::Max:
  case AtomicRMWKind::Min: {
    bool isMax = kind == AtomicRMWKind::Max;
    if (!isFloat)
      return emitAtomic(e, sem, isMax ? "max.s32" : "min.s32", addr, value, pred);
    Value bits = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), value);
    Value nonNegative = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::sge,
                                              bits, e.i32(0));
    Value negative = arith::XOrIOp::create(e.b, e.loc, nonNegative, e.i1(true));
    // max: for v >= 0 signed max of the bits; for v < 0 unsigned min.
    // min: for v >= 0 signed min; for v < 0 unsigned max.
    Value a = emitAtomic(e, sem, isMax ? "max.s32" : "min.s32", addr, bits,
                         andPredicates(e, pred, nonNegative));
    Value b = emitAtomic(e, sem, isMax ? "min.u32" : "max.u32", addr, bits,
                         andPredicates(e, pred, negative));
    Value old = arith::SelectOp::create(e.b, e.loc, nonNegative, a, b);
    return arith::BitcastOp::create(e.b, e.loc, type, old);
  }
  }
  llvm_unreachable("unknown atomic kind");
}

/// Runs `perElement(register, pred)` for every register of a tile atomic
/// (or once for a scalar one, from thread 0, broadcasting the old value).
/// A scalar atomic is the program's: with release ordering, a barrier first
/// puts every thread's earlier accesses before thread 0's atomic.
template <typename Fn>
Value lowerAtomic(IndexEmitter &e, LoweringState &state, Operation *op,
                  MemorySemantic sem, Value mask, Type convertedResult,
                  Fn perElement) {
  if (!isa<VectorType>(convertedResult)) {
    if (sem == MemorySemantic::Release || sem == MemorySemantic::AcqRel)
      gpu::BarrierOp::create(e.b, e.loc);
    Value first = isFirstThread(e);
    Value old = perElement(-1, andPredicates(e, first, mask));
    // Thread 0 holds the old value; hand it to every thread.
    Value base = state.scratch.base(e.b, e.loc, op, 4);
    gpu::BarrierOp::create(e.b, e.loc);
    scf::IfOp guard = scf::IfOp::create(e.b, e.loc, first, false);
    {
      OpBuilder::InsertionGuard g(e.b);
      e.b.setInsertionPointToStart(guard.thenBlock());
      LLVM::StoreOp::create(e.b, e.loc, old, base, 4);
    }
    gpu::BarrierOp::create(e.b, e.loc);
    return LLVM::LoadOp::create(e.b, e.loc, old.getType(), base, 4);
  }
  DistributedView view = viewOf(op->getOperand(0).getType());
  Value owner = e.ownerPredicate(view);
  SmallVector<Value> olds;
  for (int64_t r = 0; r < view.totalElemsPerThread(); ++r)
    olds.push_back(perElement(
        r, andPredicates(e, owner, mask ? e.extract(mask, r) : Value())));
  Value result =
      e.fromElements(cast<VectorType>(convertedResult).getElementType(), olds);
  if (!owner || op->getResult(0).use_empty())
    return result;
  // Where the layout replicates elements, only their owners ran the atomics:
  // hand the old values to the other threads that hold those elements.
  Type tile = op->getResult(0).getType();
  SmallVector<int64_t> strides =
      rowMajorStrides(cast<RankedTensorType>(tile).getShape());
  return exchangeThroughShared(e, state.scratch, op, result, tile, tile, strides,
                               strides, owner);
}

struct AtomicRMWLowering : TilePattern<AtomicRMWOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value result = lowerAtomic(
        e, state, op, op.getSem(), adaptor.getMask(),
        getTypeConverter()->convertType(op.getType()),
        [&](int64_t r, Value pred) {
          Value addr = r < 0 ? adaptor.getPtr()
                             : toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
          Value value = r < 0 ? adaptor.getValue() : e.extract(adaptor.getValue(), r);
          return emitAtomicRMW(e, op.getKind(), op.getSem(), addr, value, pred);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AtomicCASLowering : TilePattern<AtomicCASOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value result = lowerAtomic(
        e, state, op, op.getSem(), Value(),
        getTypeConverter()->convertType(op.getType()),
        [&](int64_t r, Value pred) {
          Value addr = r < 0 ? adaptor.getPtr()
                             : toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
          Value cmp = r < 0 ? adaptor.getCmp() : e.extract(adaptor.getCmp(), r);
          Value value = r < 0 ? adaptor.getValue() : e.extract(adaptor.getValue(), r);
          Type type = value.getType();
          if (type.isF32()) {
            cmp = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), cmp);
            value = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), value);
          }
          Value old = emitAtomic(e, op.getSem(), "cas.b32", addr, {cmp, value}, pred);
          return type.isF32()
                     ? arith::BitcastOp::create(e.b, e.loc, type, old).getResult()
                     : old;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void llk::togpu::populateAtomicOpToGPUPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               LoweringState &state) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(
      converter, patterns.getContext(), state);
}
