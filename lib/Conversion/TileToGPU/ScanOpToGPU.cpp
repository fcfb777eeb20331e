//===- ScanOpToGPU.cpp - tile.scan and tile.generic_scan ------------------===//
//
// An inclusive scan along one axis, in O(N) combinations. Along the axis a
// thread's registers come in runs of consecutive elements, and the blocked
// layout orders an axis coordinate, slowest first, as: repetition of the
// whole pattern (p), warp, warp repeat (q), lane, element of the run. The
// scan follows that order: each run is scanned in registers; the runs'
// totals across lanes by a Hillis-Steele scan of shuffles (log2 lanes
// steps), each run then prefixed by the lanes before it; the q runs of a
// warp carried in registers; the warps' totals through shared memory, each
// warp prefixed by those before it; the p repetitions carried in registers.
// Every combination keeps the earlier part on the left, so a combiner need
// only be associative. A reversed scan runs each level from its other end.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-tile-to-gpu"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// `acc op next` for one of the scan ops.
Value combine(OpBuilder &b, Location loc, Operation *op, Value acc, Value next) {
  if (auto generic = dyn_cast<GenericScanOp>(op))
    return applyCombiner(b, generic.getCombiner(), acc, next);
  ArithCombiner kind;
  switch (cast<ScanOp>(op).getKind()) {
  case ScanKind::Sum: kind = ArithCombiner::Sum; break;
  case ScanKind::Prod: kind = ArithCombiner::Prod; break;
  case ScanKind::Max: kind = ArithCombiner::Max; break;
  case ScanKind::Min: kind = ArithCombiner::Min; break;
  }
  return arithCombine(b, loc, kind, acc, next);
}

/// One row of the scan: the registers of one combination of the other
/// dimensions' local indices, by run along the axis.
struct Row {
  /// runs[b][j]: register of element j of the thread's run b along the
  /// axis, both in ascending coordinate order.
  SmallVector<SmallVector<int64_t>> runs;
  /// Register of the row's first element (its other coordinates).
  int64_t first = 0;
};

template <typename OpTy>
struct ScanLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexEmitter e(rewriter, loc);
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    auto tileType = cast<RankedTensorType>(op.getType());
    DistributedView view = viewOf(tileType);
    int64_t contig = view.contigPerThread(axis);
    int64_t numRuns = view.elemsPerThread(axis) / contig;
    int64_t repeat = view.warpRepeat[axis];
    if (numRuns % repeat != 0)
      return rewriter.notifyMatchFailure(op, "runs are not whole warp repeats");
    unsigned lanes = view.distinctLanes(axis), warps = view.distinctWarps(axis);
    LLVM_DEBUG(llvm::dbgs() << "[scan] " << op->getName() << " at " << loc << ": " << numRuns << " runs of "
                            << contig << " per thread, " << lanes << " lanes, "
                            << warps << " warps\n");

    // The thread's registers by row and run.
    SmallVector<Row> rows;
    llvm::DenseMap<int64_t, unsigned> rowOf; // first register -> row
    for (auto [r, local] : llvm::enumerate(view.localIndices())) {
      SmallVector<int64_t> start(local);
      start[axis] = 0;
      int64_t first = view.registerIndex(start);
      auto [it, inserted] = rowOf.try_emplace(first, rows.size());
      if (inserted) {
        rows.emplace_back();
        rows.back().first = first;
        rows.back().runs.assign(numRuns, SmallVector<int64_t>(contig));
      }
      rows[it->second].runs[local[axis] / contig][local[axis] % contig] = r;
    }

    SmallVector<Value> regs;
    Value input = adaptor.getSrc();
    for (int64_t r = 0; r < view.totalElemsPerThread(); ++r)
      regs.push_back(e.extract(input, r));
    auto combineInto = [&](Value acc, int64_t r) {
      regs[r] = combine(rewriter, loc, op, acc, regs[r]);
    };
    // Registers combined with `acc` only where `valid` holds.
    auto prefixWhere = [&](Value valid, Value acc, ArrayRef<int64_t> run) {
      for (int64_t r : run)
        regs[r] = arith::SelectOp::create(
            rewriter, loc, valid, combine(rewriter, loc, op, acc, regs[r]), regs[r]);
    };
    // Indices 0..n-1 in scan order.
    auto inScanOrder = [&](int64_t n) {
      SmallVector<int64_t> order;
      for (int64_t i = 0; i < n; ++i)
        order.push_back(reverse ? n - 1 - i : i);
      return order;
    };

    // 1. Each run, in registers.
    for (Row &row : rows)
      for (auto &run : row.runs) {
        SmallVector<int64_t> order = inScanOrder(contig);
        for (unsigned i = 1; i < order.size(); ++i)
          combineInto(regs[run[order[i - 1]]], run[order[i]]);
      }
    auto runTotal = [&](ArrayRef<int64_t> run) {
      return regs[run[reverse ? 0 : run.size() - 1]];
    };

    // 2. Across lanes: the position of the thread's lane in scan order.
    // Lanes past the distinct ones replicate them, with the same position.
    SmallVector<SmallVector<Value>> totals(rows.size()); // [row][run]
    if (lanes > 1) {
      unsigned stride = view.laneStride[axis];
      Value laneCoord = arith::AndIOp::create(rewriter, loc, e.laneCoord(view, axis),
                                              e.i32(lanes - 1));
      Value position = reverse ? arith::SubIOp::create(rewriter, loc,
                                                       e.i32(lanes - 1), laneCoord)
                                     .getResult()
                               : laneCoord;
      gpu::ShuffleMode toLater = reverse ? gpu::ShuffleMode::DOWN : gpu::ShuffleMode::UP;
      auto atLeast = [&](unsigned n) {
        return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                     position, e.i32(n));
      };
      // The lane holding the last position of this thread's lane group.
      Value lastLane = arith::AddIOp::create(
          rewriter, loc, e.laneId(),
          arith::MulIOp::create(
              rewriter, loc,
              arith::SubIOp::create(rewriter, loc, e.i32(reverse ? 0 : lanes - 1),
                                    laneCoord),
              e.i32(stride)));
      for (auto [row, rowTotals] : llvm::zip(rows, totals))
        for (auto &run : row.runs) {
          Value inclusive = runTotal(run);
          for (unsigned m = 1; m < lanes; m *= 2) {
            Value earlier = shuffle(e, inclusive, e.i32(m * stride), toLater);
            inclusive = arith::SelectOp::create(
                rewriter, loc, atLeast(m),
                combine(rewriter, loc, op, earlier, inclusive), inclusive);
          }
          Value exclusive = shuffle(e, inclusive, e.i32(stride), toLater);
          prefixWhere(atLeast(1), exclusive, run);
          rowTotals.push_back(shuffle(e, inclusive, lastLane, gpu::ShuffleMode::IDX));
        }
    } else {
      for (auto [row, rowTotals] : llvm::zip(rows, totals))
        for (auto &run : row.runs)
          rowTotals.push_back(runTotal(run));
    }

    // 3. The warp repeats (q) of each repetition (p), in registers: run
    // b = p * repeat + q.
    int64_t numReps = numRuns / repeat;
    SmallVector<SmallVector<Value>> repTotals(rows.size()); // [row][p]
    for (auto [row, rowTotals, reps] : llvm::zip(rows, totals, repTotals))
      for (int64_t p = 0; p < numReps; ++p) {
        SmallVector<int64_t> order = inScanOrder(repeat);
        Value carry = rowTotals[p * repeat + order[0]];
        for (unsigned i = 1; i < order.size(); ++i) {
          int64_t b = p * repeat + order[i];
          for (int64_t r : row.runs[b])
            combineInto(carry, r);
          carry = combine(rewriter, loc, op, carry, rowTotals[b]);
        }
        reps.push_back(carry);
      }

    // 4. Across warps, through shared memory: a slot per (row, p, warp).
    if (warps > 1) {
      Type elem = regs[0].getType();
      int64_t bytes = byteWidth(elem);
      SmallVector<int64_t> rowShape(tileType.getShape());
      rowShape.erase(rowShape.begin() + axis);
      SmallVector<int64_t> rowStrides = rowMajorStrides(rowShape);
      SmallVector<Value> coords;
      for (unsigned d = 0; d < view.shape.size(); ++d)
        coords.push_back(d == axis ? Value() : e.coordinates(view, d));
      int64_t numRows = tileType.getNumElements() / tileType.getShape()[axis];
      Value base = this->state.scratch.base(rewriter, loc, op,
                                            numRows * numReps * warps * bytes);
      Value warpCoord = arith::AndIOp::create(rewriter, loc, e.warpCoord(view, axis),
                                              e.i32(warps - 1));
      Value position = reverse ? arith::SubIOp::create(rewriter, loc,
                                                       e.i32(warps - 1), warpCoord)
                                     .getResult()
                               : warpCoord;
      auto slotAddress = [&](const Row &row, int64_t p, Value warp) {
        Value linear = e.i32(0);
        for (unsigned d = 0, k = 0; d < coords.size(); ++d) {
          if (d == axis)
            continue;
          linear = arith::AddIOp::create(
              rewriter, loc, linear,
              arith::MulIOp::create(rewriter, loc, e.extract(coords[d], row.first),
                                    e.i32(rowStrides[k++])));
        }
        Value slot = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(
                rewriter, loc,
                arith::AddIOp::create(rewriter, loc,
                                      arith::MulIOp::create(rewriter, loc, linear,
                                                            e.i32(numReps)),
                                      e.i32(p)),
                e.i32(warps)),
            warp);
        return byteAddress(e, base,
                           arith::MulIOp::create(rewriter, loc, slot, e.i32(bytes)));
      };
      // Replicas (lanes, warps) write the same values to the same slots.
      gpu::BarrierOp::create(rewriter, loc);
      for (auto [row, reps] : llvm::zip(rows, repTotals))
        for (int64_t p = 0; p < numReps; ++p)
          LLVM::StoreOp::create(rewriter, loc, reps[p], slotAddress(row, p, warpCoord),
                                bytes);
      gpu::BarrierOp::create(rewriter, loc);
      SmallVector<int64_t> order = inScanOrder(warps);
      for (auto [row, reps] : llvm::zip(rows, repTotals))
        for (int64_t p = 0; p < numReps; ++p) {
          // prefix: the warps before position k combined; picked for ours.
          Value prefix, mine;
          for (unsigned k = 0; k < warps; ++k) {
            Value total = LLVM::LoadOp::create(
                rewriter, loc, elem, slotAddress(row, p, e.i32(order[k])), bytes);
            if (k == 1)
              mine = prefix;
            else if (k > 1)
              mine = arith::SelectOp::create(
                  rewriter, loc,
                  arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        position, e.i32(k)),
                  prefix, mine);
            prefix = k == 0 ? total : combine(rewriter, loc, op, prefix, total);
          }
          Value later = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                                              position, e.i32(0));
          for (int64_t q = 0; q < repeat; ++q)
            prefixWhere(later, mine, row.runs[p * repeat + q]);
          reps[p] = prefix;
        }
    }

    // 5. The repetitions (p), in registers.
    for (auto [row, reps] : llvm::zip(rows, repTotals)) {
      SmallVector<int64_t> order = inScanOrder(numReps);
      Value carry = reps[order[0]];
      for (unsigned i = 1; i < order.size(); ++i) {
        for (int64_t q = 0; q < repeat; ++q)
          for (int64_t r : row.runs[order[i] * repeat + q])
            combineInto(carry, r);
        carry = combine(rewriter, loc, op, carry, reps[order[i]]);
      }
    }

    rewriter.replaceOp(op, e.fromElements(regs[0].getType(), regs));
    return success();
  }
};

} // namespace

void llk::togpu::populateScanOpToGPUPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<ScanLowering<ScanOp>, ScanLowering<GenericScanOp>>(
      converter, patterns.getContext(), state);
}
