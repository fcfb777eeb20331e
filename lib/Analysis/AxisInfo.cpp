//===- AxisInfo.cpp - pointer contiguity and divisibility -----------------===//

#include "llk/Analysis/AxisInfo.h"
#include "llk/Analysis/ArgumentHints.h"
#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Matchers.h"
#include <numeric>

using namespace mlir;
using namespace llk;
using namespace llk::tile;

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Largest power of two dividing `v` (capped); zero is divisible by all.
static int64_t powerOfTwoDivisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisibility;
  uint64_t u = v < 0 ? -uint64_t(v) : uint64_t(v);
  return std::min<int64_t>(AxisInfo::kMaxDivisibility, u & -u);
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

static int64_t capMul(int64_t a, int64_t b) {
  return std::min<int64_t>(AxisInfo::kMaxDivisibility,
                           std::min<int64_t>(a, AxisInfo::kMaxDivisibility) *
                               std::min<int64_t>(b, AxisInfo::kMaxDivisibility));
}

AxisInfo AxisInfo::unknown(ArrayRef<int64_t> shape) {
  AxisInfo info;
  info.contiguity.assign(shape.size(), 1);
  info.divisibility.assign(shape.size(), 1);
  info.constancy.assign(shape.size(), 1);
  return info;
}

AxisInfo AxisInfo::uniform(ArrayRef<int64_t> shape, int64_t div) {
  AxisInfo info = unknown(shape);
  info.scalarDivisibility = div;
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.divisibility[d] = div;
    info.constancy[d] = shape[d];
  }
  return info;
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  r.scalarDivisibility = gcd(a.scalarDivisibility, b.scalarDivisibility);
  if (a.constant != b.constant)
    r.constant.reset();
  return r;
}

AxisInfo AxisInfo::ofConstant(ArrayRef<int64_t> shape, int64_t value) {
  AxisInfo info = uniform(shape, powerOfTwoDivisor(value));
  info.constant = value;
  return info;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy &&
         scalarDivisibility == other.scalarDivisibility &&
         constant == other.constant;
}

AxisInfo AxisInfoAnalysis::get(Value value) const {
  auto it = facts.find(value);
  if (it != facts.end())
    return it->second;
  return AxisInfo::unknown(shapeOf(value.getType()));
}

int64_t llk::getArgDivisibility(Operation *kernel, unsigned index) {
  auto func = dyn_cast<func::FuncOp>(kernel);
  int64_t divisibility = 1;
  if (func)
    for (StringRef name :
         {TileDialect::kDivisibilityAttr, TileDialect::kAlignmentAttr})
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(index, name))
        divisibility = std::max<int64_t>(divisibility, attr.getInt());
  return divisibility;
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  // Kernel arguments carry the user's hints.
  if (auto func = dyn_cast<func::FuncOp>(root)) {
    for (BlockArgument arg : func.getArguments()) {
      int64_t div = getArgDivisibility(func, arg.getArgNumber());
      if (isa<PtrType>(arg.getType()) && div == 1)
        div = std::max<int64_t>(
            1, cast<PtrType>(arg.getType()).getPointeeType().getIntOrFloatBitWidth() / 8);
      facts[arg] = AxisInfo::uniform({}, div);
    }
  }
  root->walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
}

/// The divisibility along `d` of the elements of `info` at which runs of
/// `run` (a power of two) start, the runs of a result computed from it:
/// inside one of `info`'s own contiguous runs they are `run` apart, so
/// [4, 5, 6, 7] (divisibility 4) has runs of 2 starting at multiples of 2
/// and single elements divisible by nothing.
static int64_t divisibilityAtRuns(const AxisInfo &info, unsigned d,
                                  int64_t run) {
  if (run < info.contiguity[d])
    return std::min(info.divisibility[d], run);
  return info.divisibility[d];
}

/// Facts for `a + b` (also `ptr + offset * scale`), or `a - b`.
static AxisInfo addInfo(const AxisInfo &a, const AxisInfo &b, int64_t scale,
                        bool subtract = false) {
  AxisInfo r = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    // A contiguous run plus a constant stays contiguous (minus: only the
    // first operand's).
    r.contiguity[d] = gcd(a.contiguity[d], b.constancy[d]);
    if (!subtract)
      r.contiguity[d] = std::max(r.contiguity[d],
                                 gcd(b.contiguity[d], a.constancy[d]));
    int64_t run = r.contiguity[d];
    r.divisibility[d] = gcd(divisibilityAtRuns(a, d, run),
                            capMul(divisibilityAtRuns(b, d, run), scale));
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  r.scalarDivisibility =
      gcd(a.scalarDivisibility, capMul(b.scalarDivisibility, scale));
  r.constant.reset();
  if (a.constant && b.constant)
    r.constant = subtract ? *a.constant - *b.constant
                          : *a.constant + *b.constant * scale;
  return r;
}

static AxisInfo mulInfo(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = (b.constant && *b.constant == 1)   ? a.contiguity[d]
                      : (a.constant && *a.constant == 1) ? b.contiguity[d]
                                                         : 1;
    int64_t run = r.contiguity[d];
    r.divisibility[d] = capMul(divisibilityAtRuns(a, d, run),
                               divisibilityAtRuns(b, d, run));
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  r.scalarDivisibility = capMul(a.scalarDivisibility, b.scalarDivisibility);
  r.constant.reset();
  if (a.constant && b.constant)
    r.constant = *a.constant * *b.constant;
  return r;
}

/// Facts shared by ops that are uniform where all their operands are.
static AxisInfo meetConstancy(ArrayRef<AxisInfo> operands,
                              ArrayRef<int64_t> shape) {
  AxisInfo r = AxisInfo::unknown(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t c = shape[d];
    for (const AxisInfo &o : operands)
      c = gcd(c, o.constancy[d]);
    r.constancy[d] = c;
  }
  return r;
}

void AxisInfoAnalysis::visit(Operation *op) {
  // A loop counter is as divisible as its start and step.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    int64_t div = std::gcd(get(loop.getLowerBound()).scalarDivisibility,
                           get(loop.getStep()).scalarDivisibility);
    facts[loop.getInductionVar()] = AxisInfo::uniform({}, div);
    // Loop-carried values start from their initial values' facts and are
    // weakened by what the body yields until nothing changes (the facts only
    // shrink, through gcds, so this ends quickly; after a few rounds they
    // give up to unknown).
    auto iterArgs = loop.getRegionIterArgs();
    for (auto [arg, init] : llvm::zip(iterArgs, loop.getInitArgs()))
      facts[arg] = get(init);
    constexpr int kRounds = 8;
    for (int round = 0; round <= kRounds; ++round) {
      for (Operation &inner : loop.getBody()->without_terminator())
        inner.walk<WalkOrder::PreOrder>([&](Operation *o) { visit(o); });
      if (round == kRounds)
        break;
      bool changed = false;
      for (auto [arg, yielded] : llvm::zip(iterArgs, loop.getYieldedValues())) {
        AxisInfo joined = round + 1 == kRounds
                              ? AxisInfo::unknown(shapeOf(arg.getType()))
                              : AxisInfo::join(get(arg), get(yielded));
        if (!(joined == get(arg))) {
          facts[arg] = joined;
          changed = true;
        }
      }
      if (!changed)
        break;
    }
    for (auto [arg, result] : llvm::zip(iterArgs, loop.getResults()))
      facts[result] = get(arg);
    return;
  }
  if (op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  Type type = result.getType();
  Type elem = getElementTypeOrSelf(type);
  if (!elem.isIntOrIndex() && !isa<PtrType>(elem))
    return;
  ArrayRef<int64_t> shape = shapeOf(type);
  auto in = [&](unsigned i) { return get(op->getOperand(i)); };
  std::optional<AxisInfo> info;

  APInt value;
  if (matchPattern(result, m_ConstantInt(&value))) {
    info = AxisInfo::ofConstant(shape, value.getSExtValue());
  } else if (auto range = dyn_cast<MakeRangeOp>(op)) {
    info = AxisInfo::unknown(shape);
    info->contiguity[0] = shape[0];
    info->divisibility[0] = powerOfTwoDivisor(range.getStart());
  } else if (isa<SplatOp>(op)) {
    info = AxisInfo::uniform(shape, in(0).scalarDivisibility);
    info->constant = in(0).constant;
  } else if (isa<arith::AddIOp>(op)) {
    info = addInfo(in(0), in(1), 1);
  } else if (auto addptr = dyn_cast<AddPtrOp>(op)) {
    auto ptr = cast<PtrType>(getElementTypeOrSelf(addptr.getPtr().getType()));
    int64_t bytes = std::max<unsigned>(
        1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
    info = addInfo(in(0), in(1), bytes);
  } else if (isa<arith::SubIOp>(op)) {
    info = addInfo(in(0), in(1), 1, /*subtract=*/true);
  } else if (isa<arith::MulIOp, arith::ShLIOp>(op)) {
    AxisInfo b = in(1);
    if (isa<arith::ShLIOp>(op)) {
      if (!b.constant || *b.constant < 0 || *b.constant > 30)
        return;
      b = AxisInfo::ofConstant(shape, int64_t(1) << *b.constant);
    }
    info = mulInfo(in(0), b);
  } else if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                 arith::RemUIOp>(op)) {
    AxisInfo a = in(0), b = in(1);
    info = meetConstancy({a, b}, shape);
    bool isRem = isa<arith::RemSIOp, arith::RemUIOp>(op);
    // The divisor is a power-of-two constant c, or only known to be uniform
    // and a multiple of c. Either way, runs of the dividend aligned to c stay
    // runs of the remainder, and blocks of c are uniform in the quotient.
    bool exact = b.constant && *b.constant > 0 && llvm::isPowerOf2_64(*b.constant);
    bool uniform = !shape.empty();
    for (unsigned d = 0; d < shape.size(); ++d)
      uniform &= b.constancy[d] == shape[d];
    int64_t c = exact ? *b.constant : uniform ? b.getDivisibility(0) : 1;
    if (c == 1)
      return void(facts[result] = *info);
    for (unsigned d = 0; d < shape.size(); ++d) {
      int64_t aligned = gcd(a.contiguity[d], a.divisibility[d]);
      if (isRem) {
        info->contiguity[d] = gcd(aligned, c);
        info->divisibility[d] = gcd(a.divisibility[d], c);
      } else {
        info->constancy[d] = std::max(info->constancy[d], gcd(aligned, c));
        // Divisibility speaks of every run's first element; the quotient of
        // a contiguous run has runs of length 1, so only an exact divisor of
        // a dividend that is uniform along d keeps a known divisibility.
        info->divisibility[d] =
            exact && a.contiguity[d] == 1 && a.divisibility[d] >= c
                ? a.divisibility[d] / c
                : 1;
      }
    }
    if (exact) {
      info->scalarDivisibility =
          isRem ? gcd(a.scalarDivisibility, c)
                : (a.scalarDivisibility >= c ? a.scalarDivisibility / c : 1);
      if (a.constant)
        info->constant = isRem ? *a.constant % c : *a.constant / c;
    }
  } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    AxisInfo a = in(0), b = in(1);
    info = meetConstancy({a, b}, shape);
    if (cmp.getPredicate() != arith::CmpIPredicate::eq &&
        cmp.getPredicate() != arith::CmpIPredicate::ne) {
      // `range < n`: an aligned contiguous block of `a` stays on one side of
      // a bound `b` that is divisible by the block size and uniform over it.
      for (unsigned d = 0; d < shape.size(); ++d) {
        int64_t blockA = gcd(a.contiguity[d], a.divisibility[d]);
        int64_t blockB = gcd(b.contiguity[d], b.divisibility[d]);
        int64_t block =
            std::max(gcd(blockA, gcd(b.divisibility[d], b.constancy[d])),
                     gcd(blockB, gcd(a.divisibility[d], a.constancy[d])));
        info->constancy[d] = std::max(info->constancy[d], block);
      }
    }
  } else if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
    info = meetConstancy({in(0), in(1)}, shape);
  } else if (isa<arith::SelectOp>(op)) {
    AxisInfo c = in(0), t = in(1), f = in(2);
    if (shape.empty()) {
      info = AxisInfo::uniform({}, gcd(t.scalarDivisibility,
                                       f.scalarDivisibility));
    } else {
      // Elements of either, so runs of one: each element's divisibility.
      info = meetConstancy({c, t, f}, shape);
      for (unsigned d = 0; d < shape.size(); ++d)
        info->divisibility[d] = gcd(divisibilityAtRuns(t, d, 1),
                                    divisibilityAtRuns(f, d, 1));
    }
  } else if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                 arith::IndexCastOp, CastOp, ConvertLayoutOp>(op)) {
    info = in(0);
  } else if (auto cast = dyn_cast<BitcastOp>(op)) {
    // An address keeps its alignment; contiguity counted in elements does
    // not survive a change of element size.
    AxisInfo src = in(0);
    info = AxisInfo::unknown(shape);
    info->scalarDivisibility = src.scalarDivisibility;
    for (unsigned d = 0; d < shape.size(); ++d) {
      info->divisibility[d] = src.divisibility[d];
      info->constancy[d] = src.constancy[d];
    }
    auto width = [](Type t) {
      Type e = getElementTypeOrSelf(t);
      if (auto p = dyn_cast<PtrType>(e))
        e = p.getPointeeType();
      return e.getIntOrFloatBitWidth();
    };
    if (width(cast.getSrc().getType()) == width(cast.getType()))
      info->contiguity = src.contiguity;
  } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    info = in(0);
    auto src = bcast.getSrc().getType();
    for (unsigned d = 0; d < shape.size(); ++d)
      if (src.getDimSize(d) != shape[d]) {
        info->contiguity[d] = 1;
        info->constancy[d] = shape[d];
      }
  } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    // Along the new dimension (of size 1) every element is a run: what
    // divides each element.
    info = in(0);
    int64_t div = AxisInfo::kMaxDivisibility;
    for (unsigned d = 0; d < info->getRank(); ++d)
      div = std::min(div, divisibilityAtRuns(*info, d, 1));
    unsigned axis = expand.getAxis();
    info->contiguity.insert(info->contiguity.begin() + axis, 1);
    info->divisibility.insert(info->divisibility.begin() + axis, div);
    info->constancy.insert(info->constancy.begin() + axis, 1);
  } else if (auto hint = dyn_cast<MultipleOfOp>(op)) {
    // The user's promise (checked by the interpreter): every element that
    // starts a run is a multiple of the value, so whatever runs the facts
    // have, their first elements are. Facts the analysis already proves
    // stronger stay.
    info = in(0);
    ArrayRef<int64_t> values = hint.getValues();
    if (shape.empty())
      info->scalarDivisibility =
          std::max(info->scalarDivisibility, values[0]);
    for (unsigned d = 0; d < shape.size(); ++d)
      info->divisibility[d] = std::max(info->divisibility[d], values[d]);
  } else if (auto hint = dyn_cast<MaxContiguousOp>(op)) {
    // Longer aligned runs start at a subset of the shorter ones' starts, so
    // the divisibility known there still holds.
    info = in(0);
    for (unsigned d = 0; d < shape.size(); ++d)
      info->contiguity[d] = std::max(info->contiguity[d], hint.getValues()[d]);
  } else if (auto hint = dyn_cast<MaxConstancyOp>(op)) {
    info = in(0);
    for (unsigned d = 0; d < shape.size(); ++d)
      info->constancy[d] = std::max(info->constancy[d], hint.getValues()[d]);
  } else if (isa<TransOp>(op)) {
    info = in(0);
    std::reverse(info->contiguity.begin(), info->contiguity.end());
    std::reverse(info->divisibility.begin(), info->divisibility.end());
    std::reverse(info->constancy.begin(), info->constancy.end());
  }
  if (info)
    facts[result] = *info;
}

unsigned AxisInfoAnalysis::getMostContiguousDim(Value ptr) const {
  AxisInfo info = get(ptr);
  unsigned best = info.getRank() ? info.getRank() - 1 : 0;
  for (unsigned d = 0; d < info.getRank(); ++d)
    if (info.contiguity[d] > info.contiguity[best])
      best = d;
  return best;
}

unsigned AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask,
                                          unsigned dim) const {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return 1;
  auto ptrType = cast<PtrType>(type.getElementType());
  int64_t bytes =
      std::max<unsigned>(1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
  AxisInfo info = get(ptr);
  int64_t width = std::min<int64_t>(info.contiguity[dim], 16 / bytes);
  width = std::min<int64_t>(width,
                            std::max<int64_t>(1, info.divisibility[dim] / bytes));
  if (mask)
    width = std::min<int64_t>(width, get(mask).constancy[dim]);
  return std::max<int64_t>(1, width);
}

unsigned AxisInfoAnalysis::getAccessWidth(Value ptr, Value mask,
                                          const DistributedView &view) const {
  unsigned fast = view.order[0];
  return std::min<int64_t>(getVectorWidth(ptr, mask, fast),
                           view.contigPerThread(fast));
}

unsigned AxisInfoAnalysis::getUnalignedLoadWidth(Value ptr, Value mask,
                                                 unsigned dim) const {
  unsigned aligned = getVectorWidth(ptr, mask, dim);
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return aligned;
  auto ptrType = cast<PtrType>(type.getElementType());
  int64_t bytes =
      std::max<unsigned>(1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
  if (bytes >= 4)
    return aligned;
  AxisInfo info = get(ptr);
  int64_t width = std::min<int64_t>(info.contiguity[dim], 16 / bytes);
  if (mask)
    width = std::min<int64_t>(width, get(mask).constancy[dim]);
  width = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, width));
  // A realigned load reads two windows of the run's size; it pays only when
  // it moves at least a word a thread.
  if (width * bytes < 4 || width <= aligned)
    return aligned;
  return width;
}
