//===- DebugOpToGPU.cpp - tile.print and tile.assert ----------------------===//
//
// What is left of them after tile-strip-device-debug, in kernels built with
// device debug. Each element is printed by the one thread that owns it (the
// thread that would store it), in a loop over the thread's registers, with
// gpu.printf (vprintf) and the format of DeviceDebug.h; a scalar by the
// program's thread 0. A failing assertion prints its element the same way,
// then cf.assert, which the GPU-to-NVVM conversion turns into CUDA's
// __assertfail: the launch fails with CUDA_ERROR_ASSERT.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

#include "llk/Dialect/Tile/IR/DeviceDebug.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// The program id, as three i32.
SmallVector<Value> programIds(IndexEmitter &e) {
  SmallVector<Value> ids;
  for (gpu::Dimension d : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    ids.push_back(arith::IndexCastOp::create(e.b, e.loc, e.b.getI32Type(),
                                             gpu::BlockIdOp::create(e.b, e.loc, d)));
  return ids;
}

/// `value` (an element of `elem`, as converted) as printf's argument.
Value printfArgument(IndexEmitter &e, Value value, Type elem) {
  OpBuilder &b = e.b;
  switch (printedAs(elem)) {
  case PrintedAs::Int:
    if (value.getType().isInteger(32))
      return value;
    if (elem.isInteger(1))
      return arith::ExtUIOp::create(b, e.loc, b.getI32Type(), value);
    return arith::ExtSIOp::create(b, e.loc, b.getI32Type(), value);
  case PrintedAs::LongLong:
    return value;
  case PrintedAs::Address:
    if (isa<LLVM::LLVMPointerType>(value.getType()))
      return LLVM::PtrToIntOp::create(b, e.loc, b.getI64Type(), value);
    return value;
  case PrintedAs::Double:
    if (value.getType().isF64())
      return value;
    return arith::ExtFOp::create(b, e.loc, b.getF64Type(), value);
  }
  llvm_unreachable("unknown PrintedAs");
}

/// Runs `body` where `cond` holds (always when it is null).
void emitIf(IndexEmitter &e, Value cond, llvm::function_ref<void()> body) {
  if (!cond)
    return body();
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(
      scf::IfOp::create(e.b, e.loc, cond, /*withElseRegion=*/false).thenBlock());
  body();
}

/// Runs `body(r, index)` for every register r of a tile of `tileType` that
/// its thread owns, where `index` is the element's index (one i32 per
/// dimension): a loop over the registers, which reads them by r.
void forEachOwnedElement(IndexEmitter &e, Type tileType,
                         llvm::function_ref<void(Value, ArrayRef<Value>)> body) {
  DistributedView view = viewOf(tileType);
  SmallVector<Value> coords;
  for (unsigned d = 0; d < view.shape.size(); ++d)
    coords.push_back(e.coordinates(view, d));
  emitIf(e, e.ownerPredicate(view), [&] {
    OpBuilder &b = e.b;
    Value lower = arith::ConstantIndexOp::create(b, e.loc, 0);
    Value upper = arith::ConstantIndexOp::create(b, e.loc, view.totalElemsPerThread());
    Value step = arith::ConstantIndexOp::create(b, e.loc, 1);
    auto loop = scf::ForOp::create(b, e.loc, lower, upper, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    SmallVector<Value> index;
    for (Value c : coords)
      index.push_back(vector::ExtractOp::create(b, e.loc, c, OpFoldResult(r)));
    body(r, index);
  });
}

struct PrintLowering : TilePattern<PrintOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    SmallVector<Value> pid = programIds(e);
    auto printf = [&](const std::string &format, ValueRange args) {
      gpu::PrintfOp::create(rewriter, op.getLoc(), rewriter.getStringAttr(format), args);
    };
    ValueRange values = op.getValues();
    if (values.empty())
      ifFirstThread(e, nullptr, [&] {
        printf(printLineFormat(op.getPrefix(), 0, std::nullopt, std::nullopt), pid);
      });
    for (auto [k, value] : llvm::enumerate(values)) {
      Type elem = getElementTypeOrSelf(value.getType());
      Value converted = adaptor.getValues()[k];
      auto tile = dyn_cast<RankedTensorType>(value.getType());
      std::string format = printLineFormat(
          op.getPrefix(), tile ? tile.getRank() : 0, elem,
          values.size() > 1 ? std::optional<unsigned>(k) : std::nullopt);
      if (!tile) {
        ifFirstThread(e, nullptr, [&] {
          SmallVector<Value> args(pid);
          args.push_back(printfArgument(e, converted, elem));
          printf(format, args);
        });
        continue;
      }
      forEachOwnedElement(e, tile, [&](Value r, ArrayRef<Value> index) {
        SmallVector<Value> args(pid);
        args.append(index.begin(), index.end());
        Value element = vector::ExtractOp::create(rewriter, op.getLoc(), converted,
                                                  OpFoldResult(r));
        args.push_back(printfArgument(e, element, elem));
        printf(format, args);
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : TilePattern<AssertOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Location loc = op.getLoc();
    SmallVector<Value> pid = programIds(e);
    Value cond = adaptor.getCond();
    auto tile = dyn_cast<RankedTensorType>(op.getCond().getType());
    std::string format =
        assertLineFormat(loc, op.getMessage(), tile ? tile.getRank() : 0);
    auto printFailure = [&](ValueRange args) {
      gpu::PrintfOp::create(rewriter, loc, rewriter.getStringAttr(format), args);
    };
    Value holds = cond;
    if (!tile) {
      Value fails = arith::XOrIOp::create(rewriter, loc, cond, e.i1(true));
      ifFirstThread(e, fails, [&] { printFailure(pid); });
    } else {
      forEachOwnedElement(e, tile, [&](Value r, ArrayRef<Value> index) {
        Value element = vector::ExtractOp::create(rewriter, loc, cond, OpFoldResult(r));
        emitIf(e, arith::XOrIOp::create(rewriter, loc, element, e.i1(true)), [&] {
          SmallVector<Value> args(pid);
          args.append(index.begin(), index.end());
          printFailure(args);
        });
      });
      // Only the owners of failing elements stop the program: a replica
      // holds the same element.
      holds = vector::ReductionOp::create(rewriter, loc, vector::CombiningKind::AND,
                                          cond);
      if (Value owner = e.ownerPredicate(viewOf(tile)))
        holds = arith::OrIOp::create(
            rewriter, loc, holds, arith::XOrIOp::create(rewriter, loc, owner, e.i1(true)));
    }
    rewriter.replaceOpWithNewOp<cf::AssertOp>(op, holds, op.getMessage());
    return success();
  }
};

} // namespace

void llk::togpu::populateDebugOpToGPUPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              LoweringState &state) {
  patterns.add<PrintLowering, AssertLowering>(converter, patterns.getContext(),
                                              state);
}
