//===- Executor.cpp - the interpreter's executor core ---------------------===//
//
// The memory model (registered buffers, checked accesses), one program's
// regions and control flow (scf, cf, func), the watchdog and the dispatch of
// every other op to its family's handler.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace llk;
using namespace llk::interp;
using namespace llk::interp::detail;

//===----------------------------------------------------------------------===//
// Registered memory
//===----------------------------------------------------------------------===//

Buffer *Memory::find(uint64_t address, uint64_t size) {
  auto it = buffers.upper_bound(address);
  if (it == buffers.begin())
    return nullptr;
  Buffer &buffer = std::prev(it)->second;
  uint64_t offset = address - buffer.base;
  if (offset < buffer.bytes && size <= buffer.bytes - offset)
    return &buffer;
  return nullptr;
}

std::string Memory::describeOutside(uint64_t address, uint64_t size) const {
  if (buffers.empty())
    return "which is not in any buffer (none is registered)";
  auto next = buffers.upper_bound(address);
  std::optional<std::string> after, before;
  uint64_t afterDistance = ~uint64_t(0), beforeDistance = ~uint64_t(0);
  if (next != buffers.begin()) {
    const Buffer &b = std::prev(next)->second;
    uint64_t end = b.base + b.bytes;
    std::string what = "buffer '" + b.name + "' (" + std::to_string(b.bytes) +
                       " bytes)";
    if (address < end) {
      return "which runs " + std::to_string(address + size - end) +
             " bytes past the end of " + what;
    }
    afterDistance = address - end;
    after = "which is " + std::to_string(afterDistance) +
            " bytes past the end of " + what;
  }
  if (next != buffers.end()) {
    const Buffer &b = next->second;
    beforeDistance = b.base - address;
    before = "which is " + std::to_string(beforeDistance) +
             " bytes before the start of buffer '" + b.name + "' (" +
             std::to_string(b.bytes) + " bytes)";
  }
  if (after && (!before || afterDistance <= beforeDistance))
    return *after;
  return *before;
}

Buffer *Executor::checkAccess(Operation *op, const char *what, bool reads,
                              uint64_t address, uint64_t size,
                              ArrayRef<int64_t> shape, size_t i) {
  // The messages are built only on failure: this runs once per element.
  auto accessor = [&] {
    std::string element =
        shape.empty() ? std::string("the scalar ") + what
                      : "element " + std::to_string(i) + " of the tile (index " +
                            formatIndex(shape, i) + ")";
    const char *verb = reads                                  ? " reads address "
                       : llvm::StringRef(what) == "prefetch" ? " prefetches address "
                                                             : " writes address ";
    return element + verb + hex(address);
  };
  Buffer *buffer = memory.find(address, size);
  if (!buffer) {
    fail(op, std::string("out-of-bounds ") + what + " in " + program() + ": " +
                 accessor() + " " + memory.describeOutside(address, size));
    return nullptr;
  }
  if (address % size != 0) {
    fail(op, std::string("misaligned ") + what + " in " + program() + ": " +
                 accessor() + ", which is not a multiple of " +
                 std::to_string(size) + " bytes (byte " +
                 std::to_string(address - buffer->base) + " of buffer '" +
                 buffer->name + "')");
    return nullptr;
  }
  if (reads && memory.options.checkUninitialized) {
    uint64_t offset = address - buffer->base;
    for (uint64_t b = offset; b < offset + size; ++b)
      if (!buffer->isWritten(b)) {
        fail(op, std::string("uninitialized ") + what + " in " + program() +
                     ": " + accessor() + " (byte " + std::to_string(offset) +
                     " of buffer '" + buffer->name + "', " +
                     std::to_string(buffer->bytes) +
                     " bytes), which nothing has written");
        return nullptr;
      }
  }
  return buffer;
}

//===----------------------------------------------------------------------===//
// Regions and control flow
//===----------------------------------------------------------------------===//

bool Executor::step(Operation &op) {
  if (maxSteps == 0 || ++steps <= maxSteps)
    return true;
  return fail(&op, program() + " of kernel '" + kernelName +
                       "' is still running after " + llvm::Twine(maxSteps) +
                       " ops, the interpreter's limit: does a loop never "
                       "end? (the limit is Options::maxSteps, or "
                       "LLK_INTERP_MAX_STEPS; 0 lifts it)");
}

bool Executor::runRegion(Region &region, std::vector<Tile> args,
                         llvm::SmallVectorImpl<Tile> &results) {
  Block *block = &region.front();
  while (true) {
    for (auto [arg, value] : llvm::zip(block->getArguments(), args))
      set(arg, std::move(value));
    for (Operation &op : block->without_terminator())
      if (!step(op) || !execute(op))
        return false;
    Operation *terminator = block->getTerminator();
    if (!step(*terminator))
      return false;
    // The successor and the operands it receives.
    Block *next = nullptr;
    OperandRange operands = terminator->getOperands();
    if (auto br = dyn_cast<cf::BranchOp>(terminator)) {
      next = br.getDest();
      operands = br.getDestOperands();
    } else if (auto condBr = dyn_cast<cf::CondBranchOp>(terminator)) {
      bool taken = get(condBr.getCondition()).data[0].i != 0;
      next = taken ? condBr.getTrueDest() : condBr.getFalseDest();
      operands = taken ? condBr.getTrueDestOperands()
                       : condBr.getFalseDestOperands();
    } else if (auto switchOp = dyn_cast<cf::SwitchOp>(terminator)) {
      unsigned bits = infoOf(switchOp.getFlag().getType()).bits;
      int64_t flag = get(switchOp.getFlag()).data[0].i;
      next = switchOp.getDefaultDestination();
      operands = switchOp.getDefaultOperands();
      if (auto values = switchOp.getCaseValues())
        for (auto [i, value] : llvm::enumerate(values->getValues<APInt>()))
          if (wrapInt(value.getZExtValue(), bits) == flag) {
            next = switchOp.getCaseDestinations()[i];
            operands = switchOp.getCaseOperands(i);
            break;
          }
    }
    if (!next) {
      results.clear();
      for (Value operand : operands)
        results.push_back(get(operand));
      return true;
    }
    // Read every operand before binding any: a block may branch to
    // itself with its arguments permuted.
    args.clear();
    for (Value operand : operands)
      args.push_back(get(operand));
    block = next;
  }
}

/// Binds `op`'s results to `values`.
static void setResults(Executor &ex, Operation *op,
                       llvm::MutableArrayRef<Tile> values) {
  for (auto [result, value] : llvm::zip(op->getResults(), values))
    ex.set(result, std::move(value));
}

static bool executeFor(Executor &ex, scf::ForOp op) {
  unsigned bits = infoOf(op.getInductionVar().getType()).bits;
  int64_t lb = ex.get(op.getLowerBound()).data[0].i;
  int64_t ub = ex.get(op.getUpperBound()).data[0].i;
  int64_t step = ex.get(op.getStep()).data[0].i;
  bool isUnsigned = op.getUnsignedCmp();
  if (isUnsigned ? zextInt(step, bits) == 0 : step <= 0)
    return ex.fail(op, "scf.for step must be positive, got " +
                           llvm::Twine(step) + " in " + ex.program());
  std::vector<Tile> carried;
  for (Value init : op.getInitArgs())
    carried.push_back(ex.get(init));
  auto below = [&](int64_t iv) {
    return isUnsigned ? zextInt(iv, bits) < zextInt(ub, bits) : iv < ub;
  };
  llvm::SmallVector<Tile, 4> results;
  for (int64_t iv = lb; below(iv);) {
    std::vector<Tile> args;
    args.push_back(Executor::scalarInt(iv));
    for (Tile &t : carried)
      args.push_back(std::move(t));
    if (!ex.runRegion(op.getRegion(), std::move(args), results))
      return false;
    carried.assign(std::make_move_iterator(results.begin()),
                   std::make_move_iterator(results.end()));
    int64_t next = wrapInt(static_cast<uint64_t>(iv) + zextInt(step, bits), bits);
    // The compiled loop's increment wraps, and the wrapped value is below
    // the bound again: it would go on where the loop's definition stops.
    if (isUnsigned ? zextInt(next, bits) <= zextInt(iv, bits) : next <= iv)
      return ex.fail(op, "the induction variable of scf.for overflows (" +
                             llvm::Twine(iv) + " + " + llvm::Twine(step) +
                             " wraps around) in " + ex.program() +
                             "; the compiled loop would not stop there");
    iv = next;
  }
  setResults(ex, op, carried);
  return true;
}

/// Runs `region` (if it has a body) and binds `op`'s results to what it
/// yields.
static bool runRegionOf(Executor &ex, Operation *op, Region &region) {
  if (region.empty())
    return true;
  llvm::SmallVector<Tile, 4> results;
  if (!ex.runRegion(region, {}, results))
    return false;
  setResults(ex, op, results);
  return true;
}

static bool executeIf(Executor &ex, scf::IfOp op) {
  bool cond = ex.get(op.getCondition()).data[0].i != 0;
  return runRegionOf(ex, op, cond ? op.getThenRegion() : op.getElseRegion());
}

static bool executeIndexSwitch(Executor &ex, scf::IndexSwitchOp op) {
  int64_t value = ex.get(op.getArg()).data[0].i;
  Region *region = &op.getDefaultRegion();
  for (auto [i, caseValue] : llvm::enumerate(op.getCases()))
    if (caseValue == value) {
      region = &op.getCaseRegions()[i];
      break;
    }
  return runRegionOf(ex, op, *region);
}

static bool executeWhile(Executor &ex, scf::WhileOp op) {
  std::vector<Tile> carried;
  for (Value init : op.getInits())
    carried.push_back(ex.get(init));
  llvm::SmallVector<Tile, 4> results;
  while (true) {
    if (!ex.runRegion(op.getBefore(), std::move(carried), results))
      return false;
    // scf.condition(%cond) %args...
    bool cond = results[0].data[0].i != 0;
    carried.assign(std::make_move_iterator(results.begin() + 1),
                   std::make_move_iterator(results.end()));
    if (!cond)
      break;
    if (!ex.runRegion(op.getAfter(), std::move(carried), results))
      return false;
    carried.assign(std::make_move_iterator(results.begin()),
                   std::make_move_iterator(results.end()));
  }
  setResults(ex, op, carried);
  return true;
}

void llk::interp::detail::registerControlFlowOps(OpHandlerTable &table) {
  table.add<executeFor>();
  table.add<executeIf>();
  table.add<executeWhile>();
  table.add<executeIndexSwitch>();
  table.addRunByCore<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp,
                     func::FuncOp, func::ReturnOp, scf::ConditionOp,
                     scf::YieldOp, tile::YieldOp>();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

const OpHandlerTable &llk::interp::detail::getOpHandlers() {
  static const OpHandlerTable table = [] {
    OpHandlerTable table;
    registerControlFlowOps(table);
    registerElementwiseOps(table);
    registerCastOps(table);
    registerMemoryOps(table);
    registerReduceOps(table);
    registerShapeOps(table);
    registerDotOps(table);
    registerGridOps(table);
    registerRandomOps(table);
    registerGatherOps(table);
    registerSortOps(table);
    registerHintOps(table);
    registerDebugOps(table);
    return table;
  }();
  return table;
}

std::vector<llvm::StringRef> llk::interp::getInterpretedOpNames() {
  llvm::ArrayRef<llvm::StringRef> names = getOpHandlers().getNames();
  std::vector<llvm::StringRef> sorted(names.begin(), names.end());
  llvm::sort(sorted);
  return sorted;
}

bool Executor::checkTypes(Operation &op) {
  for (Type type : llvm::concat<Type>(op.getOperandTypes(), op.getResultTypes())) {
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      if (!tensor.hasStaticShape())
        return fail(&op, "the interpreter needs static shapes, got " +
                             llvm::Twine(std::to_string(tensor.getRank())) +
                             "-D tensor with a dynamic dimension");
      type = tensor.getElementType();
    }
    // (A tensor descriptor is the address of its TensorDescriptor.)
    if (!isSupportedElement(type) && !isa<tile::TensorDescType>(type)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      return fail(&op, "the interpreter does not support values of type " + text);
    }
  }
  return true;
}

bool Executor::execute(Operation &op) {
  if (!checkTypes(op))
    return false;
  if (OpHandler handler = handlers.lookup(&op))
    return handler(*this, &op);
  // run() refuses what KernelOps.h does not list: this is a gap between that
  // table and the interpreter's (which the unit tests compare).
  return fail(&op, "the interpreter does not implement '" +
                       op.getName().getStringRef() +
                       "', which kernels may contain (KernelOps.h)");
}
