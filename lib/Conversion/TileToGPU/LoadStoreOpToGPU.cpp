//===- LoadStoreOpToGPU.cpp - global loads, stores, prefetches ------------===//
//
// tile.load and tile.store move each thread's registers in chunks as wide as
// the contiguity analysis allows (16 bytes for a vectorizable tile), each
// masked or hinted chunk one predicated PTX instruction; a contiguous run that
// is not aligned to its size is read as the two aligned windows around it and
// shifted into place. tile.prefetch is prefetch.global.L2 per contiguous run.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

std::string cacheSuffix(std::optional<CacheModifier> cache,
                        std::optional<EvictionPolicy> evict) {
  std::string s;
  if (cache)
    s += "." + stringifyCacheModifier(*cache).str();
  if (evict)
    s += ".L1::" + stringifyEvictionPolicy(*evict).str();
  return s;
}

/// How a chunk of `bytes` travels in PTX registers: `count` words of
/// `bits` each.
struct WordShape {
  unsigned bits, count;
  static WordShape of(int64_t bytes) {
    if (bytes >= 4)
      return {32, unsigned(bytes / 4)};
    return {unsigned(bytes * 8), 1};
  }
  std::string ptxType() const { return bits == 8 ? "u8" : "b" + std::to_string(bits); }
  /// Register constraint: 8-bit loads land in 16-bit registers.
  std::string constraint() const { return bits == 32 ? "r" : "h"; }
  Type regType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, bits == 32 ? 32 : 16);
  }
};

std::string operandList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{" : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? "}" : "");
}

std::string vecSuffix(unsigned count) {
  return count > 1 ? ".v" + std::to_string(count) : "";
}

/// Reinterprets the bits of a scalar or 1-D vector as `type` (same width).
Value bitcastTo(IndexEmitter &e, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromVec = dyn_cast<VectorType>(from), toVec = dyn_cast<VectorType>(type);
  if (!fromVec && !toVec)
    return arith::BitcastOp::create(e.b, e.loc, type, value);
  auto asVector = [](Type t) {
    return isa<VectorType>(t) ? cast<VectorType>(t) : VectorType::get({1}, t);
  };
  if (!fromVec)
    value = vector::BroadcastOp::create(e.b, e.loc, asVector(from), value);
  Value cast = vector::BitCastOp::create(e.b, e.loc, asVector(type), value);
  return toVec ? cast : e.extract(cast, 0);
}

/// Splits a value of `chunkType` (a scalar or vector) into PTX words.
SmallVector<Value> toWords(IndexEmitter &e, Value chunk, WordShape words) {
  MLIRContext *ctx = e.b.getContext();
  Type wordType = IntegerType::get(ctx, words.bits);
  Type asWords = words.count == 1 ? wordType
                                  : VectorType::get({words.count}, wordType);
  Value bits = bitcastTo(e, chunk, asWords);
  SmallVector<Value> result;
  for (unsigned i = 0; i < words.count; ++i) {
    Value w = words.count == 1 ? bits : e.extract(bits, i);
    if (words.bits == 8)
      w = arith::ExtUIOp::create(e.b, e.loc, words.regType(ctx), w);
    result.push_back(w);
  }
  return result;
}

Value fromWords(IndexEmitter &e, ArrayRef<Value> regs, WordShape words,
                Type chunkType) {
  MLIRContext *ctx = e.b.getContext();
  Type wordType = IntegerType::get(ctx, words.bits);
  SmallVector<Value> ws;
  for (Value r : regs)
    ws.push_back(words.bits == 8
                     ? arith::TruncIOp::create(e.b, e.loc, wordType, r).getResult()
                     : r);
  Value bits = words.count == 1 ? ws[0] : e.fromElements(wordType, ws);
  return bitcastTo(e, bits, chunkType);
}

/// Bytes of a chunk of registers: a scalar or a vector of them.
int64_t chunkBytes(Type chunkType) {
  if (auto vec = dyn_cast<VectorType>(chunkType))
    return vec.getNumElements() * byteWidth(vec.getElementType());
  return byteWidth(chunkType);
}

/// Loads a chunk (scalar or vector type) from `addr`. Unpredicated plain
/// loads stay LLVM loads; masked or hinted ones become one predicated PTX
/// instruction so that a masked-off vector costs no branch.
Value loadChunk(IndexEmitter &e, Value addr, Value pred, Value other,
                Type chunkType, LoadOp op) {
  int64_t bytes = chunkBytes(chunkType);
  std::string hints = cacheSuffix(op.getCache(), op.getEvict());
  if (!pred && hints.empty() && !op.getIsVolatile())
    return LLVM::LoadOp::create(e.b, e.loc, chunkType, addr, bytes);

  MLIRContext *ctx = e.b.getContext();
  WordShape words = WordShape::of(bytes);
  std::string asmText, constraints;
  SmallVector<Value> operands{addr};
  unsigned next = words.count + 1;
  if (pred)
    operands.push_back(pred), ++next;
  if (other) {
    for (auto [i, w] : llvm::enumerate(toWords(e, other, words))) {
      asmText += "mov.b" + std::to_string(words.bits == 8 ? 16 : words.bits) +
                 " $" + std::to_string(i) + ", $" + std::to_string(next + i) + ";\n\t";
      operands.push_back(w);
    }
  }
  if (pred)
    asmText += "@$" + std::to_string(words.count + 1) + " ";
  asmText += std::string("ld") + (op.getIsVolatile() ? ".volatile" : "") +
             ".global" + hints + vecSuffix(words.count) + "." + words.ptxType() +
             " " + operandList(0, words.count) + ", [$" +
             std::to_string(words.count) + "];";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += "=" + words.constraint() + ",";
  constraints += "l";
  if (pred)
    constraints += ",b";
  if (other)
    for (unsigned i = 0; i < words.count; ++i)
      constraints += "," + words.constraint();

  Type reg = words.regType(ctx);
  Type resultType =
      words.count == 1
          ? reg
          : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(words.count, reg));
  auto inlineAsm = e.inlineAsm(resultType, operands, asmText, constraints,
                               /*sideEffects=*/op.getIsVolatile());
  SmallVector<Value> regs;
  for (unsigned i = 0; i < words.count; ++i)
    regs.push_back(words.count == 1
                       ? inlineAsm.getResult(0)
                       : LLVM::ExtractValueOp::create(e.b, e.loc, inlineAsm.getResult(0),
                                                      ArrayRef<int64_t>{i})
                             .getResult());
  return fromWords(e, regs, words, chunkType);
}

void storeChunk(IndexEmitter &e, Value addr, Value pred, Value chunk,
                StoreOp op) {
  Type chunkType = chunk.getType();
  int64_t bytes = chunkBytes(chunkType);
  std::string hints = cacheSuffix(op.getCache(), op.getEvict());
  if (!pred && hints.empty()) {
    LLVM::StoreOp::create(e.b, e.loc, chunk, addr, bytes);
    return;
  }
  WordShape words = WordShape::of(bytes);
  SmallVector<Value> operands{addr};
  llvm::append_range(operands, toWords(e, chunk, words));
  std::string constraints = "l";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += "," + words.constraint();
  std::string asmText;
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
    asmText += "@$" + std::to_string(words.count + 1) + " ";
  }
  asmText += "st.global" + hints + vecSuffix(words.count) + "." +
             words.ptxType() + " [$0], " + operandList(1, words.count) + ";";
  e.inlineAsm(Type(), operands, asmText, constraints);
}

/// A run of `bytes` (4, 8 or 16) contiguous bytes at an address known to be
/// a multiple of `align` bytes only, read as the two aligned windows of
/// `bytes` bytes that hold its first and its last byte. Each window holds a
/// byte of the run, so it is as valid to read as the run: memory is mapped in
/// pages, and an aligned window never crosses one. When the run happens to be
/// aligned both windows are the same one (an L1 hit).
struct RealignedRun {
  Value address;
  SmallVector<Value> words; // both windows' words, in address order
};

RealignedRun loadWindows(IndexEmitter &e, Value address, Value pred,
                         int64_t bytes, LoadOp op) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type i32 = b.getI32Type();
  auto c64 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  unsigned n = bytes / 4;
  Type windowType = n == 1 ? i32 : Type(VectorType::get({n}, i32));
  Value windowMask = c64(~(bytes - 1));
  Value lo = arith::AndIOp::create(b, loc, address, windowMask);
  Value hi = arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, address, c64(bytes - 1)), windowMask);
  RealignedRun run{address, {}};
  for (Value window : {lo, hi}) {
    Value loaded = loadChunk(e, toGlobalPtr(e, window), pred, Value(), windowType, op);
    for (unsigned i = 0; i < n; ++i)
      run.words.push_back(n == 1 ? loaded : e.extract(loaded, i));
  }
  return run;
}

/// Shifts a run out of its windows: whole words by selects on the offset's
/// word bits (only those `align` leaves unknown), then the bytes within a
/// word by funnel shifts (PTX prmt/shf) where `align` < 4.
Value realign(IndexEmitter &e, const RealignedRun &run, Type chunkType,
              int64_t bytes, int64_t align) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type i32 = b.getI32Type();
  unsigned n = bytes / 4;
  Value offset = arith::AndIOp::create(
      b, loc, arith::TruncIOp::create(b, loc, i32, run.address), e.i32(bytes - 1));
  SmallVector<Value> words = run.words;
  Value wordOffset = arith::ShRUIOp::create(b, loc, offset, e.i32(2));
  for (unsigned m = 1; m < n; m *= 2) {
    if (4 * int64_t(m) < align)
      continue;
    Value bit = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, wordOffset, e.i32(m)), e.i32(0));
    SmallVector<Value> shifted;
    for (unsigned j = 0; j + m < words.size(); ++j)
      shifted.push_back(arith::SelectOp::create(b, loc, bit, words[j + m], words[j]));
    words = std::move(shifted);
  }
  SmallVector<Value> result(words.begin(), words.begin() + n);
  if (align < 4) {
    Value shift = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, offset, e.i32(3)), e.i32(3));
    for (unsigned i = 0; i < n; ++i)
      result[i] = LLVM::FshrOp::create(b, loc, i32, words[i + 1], words[i], shift);
  }
  Value bits = n == 1 ? result[0] : e.fromElements(i32, result);
  return bitcastTo(e, bits, chunkType);
}

struct LoadLowering : TilePattern<LoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, loadChunk(e, adaptor.getPtr(), adaptor.getMask(),
                                       adaptor.getOther(), op.getType(), op));
      return success();
    }
    MemoryAccess access = getMemoryAccess(op, state.axisInfoOf(op));
    auto resultType = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Type elem = resultType.getElementType();
    Value result = e.poison(resultType);
    int64_t w = access.width;
    Type chunkType = w == 1 ? elem : VectorType::get({w}, elem);
    bool realigned = access.realignFrom.has_value();
    // Realigned runs: every window load of the op is issued before any
    // register shuffling, so that they are all in flight at once.
    SmallVector<RealignedRun> runs;
    if (realigned)
      for (int64_t r = 0; r < resultType.getNumElements(); r += w)
        runs.push_back(loadWindows(
            e, e.extract(adaptor.getPtr(), r),
            adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value(),
            chunkBytes(chunkType), op));
    for (int64_t r = 0; r < resultType.getNumElements(); r += w) {
      Value pred = adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value();
      Value other = adaptor.getOther()
                        ? (w == 1 ? e.extract(adaptor.getOther(), r)
                                  : e.slice(adaptor.getOther(), r, w))
                        : Value();
      Value chunk;
      if (realigned) {
        chunk = realign(e, runs[r / w], chunkType, chunkBytes(chunkType),
                        *access.realignFrom);
        // Masked-off runs read nothing: they take `other`.
        if (pred && other)
          chunk = arith::SelectOp::create(rewriter, op.getLoc(), pred, chunk, other);
      } else {
        Value addr = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
        chunk = loadChunk(e, addr, pred, other, chunkType, op);
      }
      result = e.insertSlice(chunk, result, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StoreLowering : TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    if (!isa<RankedTensorType>(op.getPtr().getType())) {
      // A scalar store happens once, from thread 0.
      storeChunk(e, adaptor.getPtr(), andPredicates(e, isFirstThread(e), adaptor.getMask()),
                 adaptor.getValue(), op);
      rewriter.eraseOp(op);
      return success();
    }
    DistributedView view = viewOf(op.getPtr().getType());
    Value owner = e.ownerPredicate(view);
    int64_t w = getMemoryAccess(op, state.axisInfoOf(op)).width;
    int64_t n = view.totalElemsPerThread();
    for (int64_t r = 0; r < n; r += w) {
      Value addr = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
      Value pred = andPredicates(
          e, owner, adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value());
      Value chunk = w == 1 ? e.extract(adaptor.getValue(), r)
                           : e.slice(adaptor.getValue(), r, w);
      storeChunk(e, addr, pred, chunk, op);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// One `prefetch.global.L2` per contiguous run a thread holds (the run's
/// first address: a warp's runs tile its lines), predicated by the mask of
/// the run's first element; once per element where layouts replicate.
struct PrefetchLowering : TilePattern<PrefetchOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto emit = [&](Value address, Value pred) {
      SmallVector<Value> operands{toGlobalPtr(e, address)};
      std::string text = "prefetch.global.L2 [$0];", constraints = "l";
      if (pred) {
        operands.push_back(pred);
        text = "@$1 " + text;
        constraints += ",b";
      }
      e.inlineAsm(Type(), operands, text, constraints);
    };
    if (!isa<RankedTensorType>(op.getPtr().getType())) {
      emit(adaptor.getPtr(), adaptor.getMask());
      rewriter.eraseOp(op);
      return success();
    }
    DistributedView view = viewOf(op.getPtr().getType());
    Value owner = e.ownerPredicate(view);
    int64_t run = view.contigPerThread(view.order[0]);
    for (int64_t r = 0; r < view.totalElemsPerThread(); r += run)
      emit(e.extract(adaptor.getPtr(), r),
           andPredicates(e, owner,
                         adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value()));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// The pointer arguments of `func` that `ptr` (a pointer or pointer tile)
/// may point into, following pointer arithmetic, shape ops and loop-carried
/// values back to them; every pointer argument where a pointer comes from
/// elsewhere (a loaded pointer, an integer).
static llvm::SmallSetVector<unsigned, 4> pointerRoots(func::FuncOp func, Value ptr) {
  llvm::SmallSetVector<unsigned, 4> roots;
  bool unknown = false;
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> work{ptr};
  auto isPointerLike = [](Type type) {
    if (auto tile = dyn_cast<RankedTensorType>(type))
      type = tile.getElementType();
    return isa<PtrType>(type);
  };
  while (!work.empty() && !unknown) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == func.getOperation()) {
        roots.insert(arg.getArgNumber());
      } else if (auto loop = dyn_cast<scf::ForOp>(owner);
                 loop && arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        work.push_back(loop.getInitArgs()[i]);
        work.push_back(loop.getYieldedValues()[i]);
      } else {
        unknown = true;
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    unsigned result = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      work.push_back(loop.getInitArgs()[result]);
      work.push_back(loop.getYieldedValues()[result]);
    } else if (auto branch = dyn_cast<scf::IfOp>(def)) {
      work.push_back(branch.thenYield().getOperand(result));
      if (!branch.getElseRegion().empty())
        work.push_back(branch.elseYield().getOperand(result));
    } else if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp,
                   TransOp, ConvertLayoutOp, BitcastOp, arith::SelectOp>(def)) {
      for (Value operand : def->getOperands())
        if (isPointerLike(operand.getType()))
          work.push_back(operand);
    } else {
      unknown = true;
    }
  }
  if (unknown)
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<PtrType>(type))
        roots.insert(i);
  return roots;
}

MemoryAccess llk::togpu::getMemoryAccess(Operation *op,
                                         const AxisInfoAnalysis &axisInfo) {
  MemoryAccess access;
  Value ptr = op->getOperand(0);
  auto tile = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tile)
    return access;
  DistributedView view = viewOf(tile);
  unsigned fast = view.order[0];
  Value mask = isa<LoadOp>(op)    ? cast<LoadOp>(op).getMask()
               : isa<StoreOp>(op) ? cast<StoreOp>(op).getMask()
                                  : cast<AsyncCopyOp>(op).getMask();
  access.width = axisInfo.getAccessWidth(ptr, mask, view);
  if (!isa<LoadOp>(op))
    return access;
  // A contiguous run that is not aligned to its size: read the aligned
  // windows around it (loadWindows).
  int64_t run = std::min<int64_t>(axisInfo.getUnalignedLoadWidth(ptr, mask, fast),
                                  view.contigPerThread(fast));
  run = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, run));
  auto pointee = cast<PtrType>(tile.getElementType()).getPointeeType();
  int64_t bytes = run * byteWidth(pointee);
  if (run > access.width && bytes >= 4 && bytes <= 16) {
    int64_t div = axisInfo.get(ptr).divisibility[fast];
    access.width = run;
    access.realignFrom = std::min<int64_t>(div & -div, bytes / 2);
    // The window of a run's last byte ends at most bytes - align past it
    // (a run starts at a multiple of align), within that byte's 16-byte
    // granule (docs/runtime.md, the buffer contract).
    access.overrunBytes = bytes - *access.realignFrom;
  }
  return access;
}

SmallVector<int64_t> llk::togpu::getReadOverruns(func::FuncOp func,
                                                 const AxisInfoAnalysis &axisInfo) {
  SmallVector<int64_t> overruns;
  func.walk([&](LoadOp load) {
    MemoryAccess access = getMemoryAccess(load, axisInfo);
    if (!access.overrunBytes)
      return;
    overruns.resize(func.getNumArguments(), 0);
    for (unsigned arg : pointerRoots(func, load.getPtr()))
      overruns[arg] = std::max(overruns[arg], access.overrunBytes);
  });
  return overruns;
}

void llk::togpu::populateLoadStoreOpToGPUPatterns(const TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  LoweringState &state) {
  patterns.add<LoadLowering, StoreLowering, PrefetchLowering>(
      converter, patterns.getContext(), state);
}
