//===- Executor.h - the interpreter's executor core -------------*- C++ -*-===//
//
// The core that every op family's file builds on: the registered memory,
// one program's execution state (its values, the watchdog, regions and
// control flow) and the table that maps each op to its handler.
//
// An op family is one file, ElementwiseOps.cpp, MemoryOps.cpp and so on,
// providing `registerXxxOps(OpHandlerTable &)`; getOpHandlers() lists them.
// The ops the table holds are exactly those of KernelOps.h, which the unit
// tests check (getInterpretedOpNames).
//
// Errors never abort: an op that fails records a message (Executor::fail)
// and returns false, which unwinds the run.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_INTERPRETER_EXECUTOR_H
#define LLK_LIB_INTERPRETER_EXECUTOR_H

#include "Values.h"

#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

namespace llk::interp::detail {

//===----------------------------------------------------------------------===//
// Registered memory
//===----------------------------------------------------------------------===//

struct Buffer {
  uint64_t base = 0, bytes = 0;
  std::string name;
  /// One bit per byte, set once written; empty when the buffer was
  /// registered as initialized.
  std::vector<uint64_t> written;

  bool isWritten(uint64_t offset) const {
    return written.empty() || (written[offset / 64] >> (offset % 64)) & 1;
  }
  void markWritten(uint64_t offset, uint64_t size) {
    if (written.empty())
      return;
    for (uint64_t b = offset; b < offset + size; ++b)
      written[b / 64] |= uint64_t(1) << (b % 64);
  }
};

struct Memory {
  Options options;
  std::map<uint64_t, Buffer> buffers; // by base address

  /// The buffer that holds all of [address, address + size), if any.
  Buffer *find(uint64_t address, uint64_t size);
  /// Says where `address` lies relative to the nearest buffer.
  std::string describeOutside(uint64_t address, uint64_t size) const;
};

//===----------------------------------------------------------------------===//
// Op handlers
//===----------------------------------------------------------------------===//

class Executor;

/// Runs `op` in `executor`: reads its operands' values and sets its
/// results'. Returns false after recording an error (Executor::fail).
using OpHandler = bool (*)(Executor &executor, mlir::Operation *op);

/// Each op's handler, by the op's TypeID.
class OpHandlerTable {
public:
  /// `handler` runs each of `Ops`.
  template <typename... Ops> void add(OpHandler handler) {
    (insert(mlir::TypeID::get<Ops>(), Ops::getOperationName(), handler), ...);
  }
  /// `Handler`, a `bool (Executor &, OpTy)`, runs OpTy.
  template <auto Handler> void add() {
    using OpTy = typename OpOf<decltype(Handler)>::type;
    add<OpTy>([](Executor &executor, mlir::Operation *op) {
      return Handler(executor, llvm::cast<OpTy>(op));
    });
  }
  /// `Ops` have no handler: the core runs them itself (terminators, which
  /// Executor::runRegion follows, and func.func, the kernel).
  template <typename... Ops> void addRunByCore() {
    (names.push_back(Ops::getOperationName()), ...);
  }

  /// The handler of `op`, or null.
  OpHandler lookup(mlir::Operation *op) const {
    return handlers.lookup(op->getName().getTypeID());
  }
  /// Every op the table was given, handled or run by the core, in the order
  /// given (a name given twice appears twice).
  llvm::ArrayRef<llvm::StringRef> getNames() const { return names; }

private:
  template <typename F> struct OpOf;
  template <typename OpTy> struct OpOf<bool (*)(Executor &, OpTy)> {
    using type = OpTy;
  };
  void insert(mlir::TypeID id, llvm::StringRef name, OpHandler handler) {
    handlers.try_emplace(id, handler);
    names.push_back(name);
  }

  llvm::DenseMap<mlir::TypeID, OpHandler> handlers;
  std::vector<llvm::StringRef> names;
};

/// The table of every op family, built once.
const OpHandlerTable &getOpHandlers();

// One per op family (its file): adds the family's handlers.
void registerControlFlowOps(OpHandlerTable &table); // Executor.cpp
void registerElementwiseOps(OpHandlerTable &table); // arith and math
void registerCastOps(OpHandlerTable &table);
void registerMemoryOps(OpHandlerTable &table);
void registerReduceOps(OpHandlerTable &table); // reductions and scans
void registerShapeOps(OpHandlerTable &table);
void registerDotOps(OpHandlerTable &table);
void registerGridOps(OpHandlerTable &table);
void registerRandomOps(OpHandlerTable &table); // tile.rand and its kin
void registerGatherOps(OpHandlerTable &table); // tile.gather, tile.histogram
void registerSortOps(OpHandlerTable &table); // tile.sort, tile.topk
void registerDebugOps(OpHandlerTable &table); // tile.print, assert, static_assert
void registerHintOps(OpHandlerTable &table); // tile.multiple_of and its kin, checked

//===----------------------------------------------------------------------===//
// One program's execution
//===----------------------------------------------------------------------===//

/// One program's execution state.
class Executor {
public:
  /// `maxSteps` (0: none) bounds the ops the program may execute;
  /// `deviceDebug` runs tile.print and tile.assert.
  Executor(Memory &memory, Grid grid, uint32_t x, uint32_t y, uint32_t z,
           llvm::StringRef kernelName, uint64_t maxSteps, bool deviceDebug)
      : memory(memory), grid(grid), pid{x, y, z}, kernelName(kernelName),
        maxSteps(maxSteps), deviceDebug(deviceDebug), handlers(getOpHandlers()) {}

  /// Runs the kernel body with `args` bound to its arguments.
  bool runKernel(mlir::func::FuncOp kernel, std::vector<Tile> args) {
    llvm::SmallVector<Tile, 4> results;
    return runRegion(kernel.getBody(), std::move(args), results);
  }

  /// The message of the error that stopped the program.
  std::string error;

  //===--------------------------------------------------------------------===//
  // For the op handlers
  //===--------------------------------------------------------------------===//

  /// The value of `value` (an empty tile if it has none yet).
  const Tile &get(mlir::Value value) const {
    auto it = env.find(value);
    if (it == env.end()) {
      static const Tile empty;
      return empty;
    }
    return it->second;
  }
  void set(mlir::Value value, Tile tile) { env[value] = std::move(tile); }

  /// A tile of `type`'s shape (one element for a scalar), zeros.
  static Tile makeTile(mlir::Type type) {
    Tile tile;
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
      tile.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
      tile.data.resize(tensor.getNumElements());
    } else {
      tile.data.resize(1);
    }
    return tile;
  }
  static Tile scalarInt(int64_t value) {
    Tile tile;
    tile.data.resize(1);
    tile.data[0].i = value;
    return tile;
  }

  /// Records `message` at `op`'s location as the error; returns false.
  bool fail(mlir::Operation *op, const llvm::Twine &message) {
    error = formatLocation(op->getLoc()) + ": " + message.str();
    return false;
  }
  /// "program (x, y, z)", for messages.
  std::string program() const {
    return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) +
           ", " + std::to_string(pid[2]) + ")";
  }
  /// " at element i of the tile (index [..])", or nothing for a scalar;
  /// for messages (built only on failure).
  static std::string atElement(llvm::ArrayRef<int64_t> shape, size_t i) {
    return shape.empty() ? std::string()
                         : " at element " + std::to_string(i) +
                               " of the tile (index " + formatIndex(shape, i) + ")";
  }

  /// Whether tile.print and tile.assert run (Options::deviceDebug).
  bool runsDeviceDebug() const { return deviceDebug; }

  /// This program's id along `axis` (0 to 2), and the grid's size there.
  uint32_t programId(unsigned axis) const { return pid[axis]; }
  uint32_t numPrograms(unsigned axis) const {
    uint32_t sizes[3] = {grid.x, grid.y, grid.z};
    return sizes[axis];
  }

  /// Runs `region` from its entry block with `args` bound to the block's
  /// arguments, following cf.br, cf.cond_br and cf.switch between its
  /// blocks, and returns in `results` the operands of the terminator that
  /// leaves it (func.return, scf.yield, scf.condition, tile.yield).
  bool runRegion(mlir::Region &region, std::vector<Tile> args,
                 llvm::SmallVectorImpl<Tile> &results);

  /// Checks an access of `size` bytes at `address` by element `i` of a tile
  /// of shape `shape` (a scalar access when `shape` is empty): inside a
  /// registered buffer, aligned, and (when the options ask) of written bytes
  /// if it `reads`. Returns its buffer, or null after recording an error.
  /// `what` names the access in messages ("load", "store", "prefetch",
  /// "atomic").
  Buffer *checkAccess(mlir::Operation *op, const char *what, bool reads,
                      uint64_t address, uint64_t size,
                      llvm::ArrayRef<int64_t> shape, size_t i);

private:
  Memory &memory;
  Grid grid;
  uint32_t pid[3];
  llvm::StringRef kernelName;
  uint64_t maxSteps;
  bool deviceDebug;
  uint64_t steps = 0;
  const OpHandlerTable &handlers;
  llvm::DenseMap<mlir::Value, Tile> env;

  /// The watchdog: counts `op` against the program's limit.
  bool step(mlir::Operation &op);
  bool checkTypes(mlir::Operation &op);
  bool execute(mlir::Operation &op);
};

} // namespace llk::interp::detail

#endif // LLK_LIB_INTERPRETER_EXECUTOR_H
