//===- Interpreter.cpp - run tile kernels on the CPU ----------------------===//
//
// Values are dense row-major arrays of 8-byte elements: integers and
// pointers as int64 (integers sign-extended from their bit width, so i1 true
// is -1, as in LLVM), floats as the double holding their exact value (an f32,
// f16 or bf16 value is always representable). Every float op computes in the
// precision of its type (f32 and narrower in float, f64 in double) and rounds
// the result to the type, to nearest even.
//
// Errors never abort: an op that fails records a message and returns false,
// which unwinds the run.
//
//===----------------------------------------------------------------------===//

#include "llk/Interpreter/Interpreter.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/Environment.h"

#include "llk/Dialect/Tile/IR/KernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace llk;
using namespace llk::interp;
using llvm::APFloat;
using llvm::APInt;
using llvm::RoundingMode;

namespace {

//===----------------------------------------------------------------------===//
// Elements and tiles
//===----------------------------------------------------------------------===//

union Elem {
  int64_t i;
  double f;
};

/// A scalar (empty shape, one element) or a tile.
struct Tile {
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<Elem> data;
  size_t size() const { return data.size(); }
};

enum class FloatKind { F16, BF16, F32, F64 };

/// What an element type is, as the interpreter computes with it.
struct ElemInfo {
  enum { Int, Float, Ptr } kind;
  unsigned bits;          // integer width; float width; 64 for pointers
  FloatKind floatKind;    // floats
  unsigned pointeeBytes;  // pointers: bytes per element pointed to
  Type pointee;           // pointers: the pointee type
};

Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

ElemInfo infoOf(Type elem) {
  ElemInfo info{};
  if (auto ptr = dyn_cast<tile::PtrType>(elem)) {
    info.kind = ElemInfo::Ptr;
    info.bits = 64;
    info.pointee = ptr.getPointeeType();
    info.pointeeBytes = (info.pointee.getIntOrFloatBitWidth() + 7) / 8;
  } else if (elem.isIndex()) {
    info.kind = ElemInfo::Int;
    info.bits = 64;
  } else if (auto ft = dyn_cast<FloatType>(elem)) {
    info.kind = ElemInfo::Float;
    info.bits = ft.getWidth();
    info.floatKind = elem.isF16()    ? FloatKind::F16
                     : elem.isBF16() ? FloatKind::BF16
                     : elem.isF32()  ? FloatKind::F32
                                     : FloatKind::F64;
  } else {
    info.kind = ElemInfo::Int;
    info.bits = elem.getIntOrFloatBitWidth();
  }
  return info;
}

bool isSupportedElement(Type elem) {
  if (isa<tile::PtrType>(elem) || elem.isIndex())
    return true;
  if (auto ft = dyn_cast<FloatType>(elem))
    return elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64();
  if (auto it = dyn_cast<IntegerType>(elem))
    return it.getWidth() <= 64;
  return false;
}

/// `value` wrapped to `bits` bits and sign-extended (two's complement).
inline int64_t wrapInt(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  uint64_t shift = 64 - bits;
  return static_cast<int64_t>(value << shift) >> shift;
}

/// `value` (a `bits`-bit integer) zero-extended.
inline uint64_t zextInt(int64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
}

const llvm::fltSemantics &semanticsOf(FloatKind kind) {
  switch (kind) {
  case FloatKind::F16: return APFloat::IEEEhalf();
  case FloatKind::BF16: return APFloat::BFloat();
  case FloatKind::F32: return APFloat::IEEEsingle();
  case FloatKind::F64: return APFloat::IEEEdouble();
  }
  llvm_unreachable("float kind");
}

/// `x` rounded to the float type `kind` in mode `mode`, as a double.
double roundFloat(FloatKind kind, double x,
                  RoundingMode mode = RoundingMode::NearestTiesToEven) {
  if (kind == FloatKind::F64)
    return x;
  if (kind == FloatKind::F32 && mode == RoundingMode::NearestTiesToEven)
    return static_cast<double>(static_cast<float>(x));
  APFloat value(x);
  bool losesInfo;
  value.convert(semanticsOf(kind), mode, &losesInfo);
  value.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven,
                &losesInfo); // exact
  return value.convertToDouble();
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    uint32_t bits = 0x7f800000u | (mantissa << 13);
    std::memcpy(&magnitude, &bits, 4);
  } else {
    uint32_t bits = ((exponent + 112) << 23) | (mantissa << 13);
    std::memcpy(&magnitude, &bits, 4);
  }
  return sign ? -magnitude : magnitude;
}

/// A NaN of `kind` keeps its sign, quiet bit and payload (its high bits) on
/// its way through a double and back, as the GPU's moves keep every bit: a
/// float-to-double conversion would quiet a signaling NaN.
struct NaNLayout {
  unsigned width, mantissa;
};
NaNLayout nanLayout(FloatKind kind) {
  switch (kind) {
  case FloatKind::F16: return {16, 10};
  case FloatKind::BF16: return {16, 7};
  case FloatKind::F32: return {32, 23};
  case FloatKind::F64: return {64, 52};
  }
  llvm_unreachable("float kind");
}

/// Bits of `x` (already a value of `kind`, or rounded to nearest even).
uint64_t floatBits(FloatKind kind, double x) {
  if (kind != FloatKind::F64 && std::isnan(x)) {
    auto [width, mantissa] = nanLayout(kind);
    uint64_t d;
    std::memcpy(&d, &x, 8);
    uint64_t payload = (d & ((uint64_t(1) << 52) - 1)) >> (52 - mantissa);
    if (payload == 0) // only low payload bits: still a NaN
      payload = uint64_t(1) << (mantissa - 1);
    uint64_t exponent = ((uint64_t(1) << (width - 1 - mantissa)) - 1) << mantissa;
    return (d >> 63) << (width - 1) | exponent | payload;
  }
  switch (kind) {
  case FloatKind::F64: {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits;
  }
  case FloatKind::F32: {
    float f = static_cast<float>(x);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  default: {
    APFloat value(x);
    bool losesInfo;
    value.convert(semanticsOf(kind), RoundingMode::NearestTiesToEven, &losesInfo);
    return value.bitcastToAPInt().getZExtValue();
  }
  }
}

double floatFromBits(FloatKind kind, uint64_t bits) {
  if (kind != FloatKind::F64) {
    auto [width, mantissa] = nanLayout(kind);
    uint64_t exponent = ((uint64_t(1) << (width - 1 - mantissa)) - 1) << mantissa;
    uint64_t payload = bits & ((uint64_t(1) << mantissa) - 1);
    if ((bits & exponent) == exponent && payload) {
      uint64_t d = ((bits >> (width - 1)) & 1) << 63 | uint64_t(0x7ff) << 52 |
                   payload << (52 - mantissa);
      double nan;
      std::memcpy(&nan, &d, 8);
      return nan;
    }
  }
  switch (kind) {
  case FloatKind::F64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  case FloatKind::F32: {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  case FloatKind::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case FloatKind::BF16: {
    uint32_t b = static_cast<uint32_t>(bits & 0xffff) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  }
  llvm_unreachable("float kind");
}

/// The raw bits (zero-extended) of an element of type `info`.
uint64_t elemBits(const ElemInfo &info, Elem e) {
  if (info.kind == ElemInfo::Float)
    return floatBits(info.floatKind, e.f);
  return zextInt(e.i, info.bits);
}

Elem elemFromBits(const ElemInfo &info, uint64_t bits) {
  Elem e;
  if (info.kind == ElemInfo::Float)
    e.f = floatFromBits(info.floatKind, bits);
  else
    e.i = wrapInt(bits, info.bits);
  return e;
}

/// Value of masked-off loads without `other`:
/// NaN for floats, 0xDEADBEEF... truncated to the width for integers.
Elem poisonElem(const ElemInfo &info) {
  Elem e;
  if (info.kind == ElemInfo::Float)
    e.f = std::numeric_limits<double>::quiet_NaN();
  else
    e.i = wrapInt(0xDEADBEEFDEADBEEFull, info.bits);
  return e;
}

/// max.f32 / min.f32 as PTX defines them: a NaN operand is ignored, and
/// -0 < +0 (C's fmax and fmin may return either zero).
template <typename T> T maxNum(T x, T y) {
  if (x == y)
    return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}
template <typename T> T minNum(T x, T y) {
  if (x == y)
    return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}

/// Float to a `bits`-bit signed integer as PTX cvt.*i does: NaN to 0, values
/// out of range saturate. `x` is already rounded to an integral value.
int64_t saturateToInt(double x, unsigned bits, bool isUnsigned) {
  if (std::isnan(x))
    return 0;
  if (isUnsigned) {
    double max = std::ldexp(1.0, bits) - 1;
    if (x <= 0)
      return 0;
    if (x >= max)
      return wrapInt(bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1, bits);
    return wrapInt(static_cast<uint64_t>(x), bits);
  }
  double min = -std::ldexp(1.0, bits - 1);
  double max = std::ldexp(1.0, bits - 1); // exclusive
  if (x <= min)
    return bits >= 64 ? std::numeric_limits<int64_t>::min()
                      : -(int64_t(1) << (bits - 1));
  if (x >= max)
    return bits >= 64 ? std::numeric_limits<int64_t>::max()
                      : (int64_t(1) << (bits - 1)) - 1;
  return static_cast<int64_t>(x);
}

double roundIntegral(double x, tile::RoundingMode mode) {
  switch (mode) {
  case tile::RoundingMode::RTZ: return std::trunc(x);
  case tile::RoundingMode::RNE: return std::nearbyint(x); // default FE mode
  case tile::RoundingMode::RDN: return std::floor(x);
  case tile::RoundingMode::RUP: return std::ceil(x);
  }
  return x;
}

RoundingMode apfloatMode(tile::RoundingMode mode) {
  switch (mode) {
  case tile::RoundingMode::RNE: return RoundingMode::NearestTiesToEven;
  case tile::RoundingMode::RTZ: return RoundingMode::TowardZero;
  case tile::RoundingMode::RDN: return RoundingMode::TowardNegative;
  case tile::RoundingMode::RUP: return RoundingMode::TowardPositive;
  }
  return RoundingMode::NearestTiesToEven;
}

/// Signed (or unsigned) `bits`-bit integer to the float type `kind`, rounded
/// to nearest even once.
double intToFloat(int64_t value, unsigned bits, bool isUnsigned, FloatKind kind) {
  if (isUnsigned) {
    uint64_t u = zextInt(value, bits);
    if (kind == FloatKind::F64)
      return static_cast<double>(u);
    if (kind == FloatKind::F32)
      return static_cast<float>(u);
  } else {
    if (kind == FloatKind::F64)
      return static_cast<double>(value);
    if (kind == FloatKind::F32)
      return static_cast<float>(value);
  }
  APFloat result(semanticsOf(kind));
  result.convertFromAPInt(APInt(64, isUnsigned ? zextInt(value, bits)
                                               : static_cast<uint64_t>(value)),
                          !isUnsigned, RoundingMode::NearestTiesToEven);
  bool losesInfo;
  result.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven, &losesInfo);
  return result.convertToDouble();
}

std::string formatIndex(ArrayRef<int64_t> shape, size_t flat) {
  llvm::SmallVector<int64_t, 4> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

std::string formatLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

std::string hex(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(value, 2);
  return text;
}

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

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

struct Memory {
  Options options;
  std::map<uint64_t, Buffer> buffers; // by base address

  /// The buffer that holds all of [address, address + size), if any.
  Buffer *find(uint64_t address, uint64_t size) {
    auto it = buffers.upper_bound(address);
    if (it == buffers.begin())
      return nullptr;
    Buffer &buffer = std::prev(it)->second;
    uint64_t offset = address - buffer.base;
    if (offset < buffer.bytes && size <= buffer.bytes - offset)
      return &buffer;
    return nullptr;
  }

  /// Says where `address` lies relative to the nearest buffer.
  std::string describeOutside(uint64_t address, uint64_t size) {
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
};

/// One program's execution state.
class Executor {
public:
  /// `maxSteps` (0: none) bounds the ops the program may execute.
  Executor(Memory &memory, Grid grid, uint32_t x, uint32_t y, uint32_t z,
           llvm::StringRef kernelName, uint64_t maxSteps)
      : memory(memory), grid(grid), pid{x, y, z}, kernelName(kernelName),
        maxSteps(maxSteps) {}

  /// Runs the kernel body with `args` bound to its arguments.
  bool runKernel(func::FuncOp kernel, std::vector<Tile> args) {
    llvm::SmallVector<Tile, 4> results;
    return runRegion(kernel.getBody(), std::move(args), results);
  }

  std::string error;

private:
  Memory &memory;
  Grid grid;
  uint32_t pid[3];
  llvm::StringRef kernelName;
  uint64_t maxSteps;
  uint64_t steps = 0;
  llvm::DenseMap<Value, Tile> env;

  std::string program() const {
    return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) +
           ", " + std::to_string(pid[2]) + ")";
  }

  bool fail(Operation *op, const llvm::Twine &message) {
    error = formatLocation(op->getLoc()) + ": " + message.str();
    return false;
  }

  const Tile &get(Value value) {
    auto it = env.find(value);
    if (it == env.end()) {
      static const Tile empty;
      return empty;
    }
    return it->second;
  }

  static Tile makeTile(Type type) {
    Tile tile;
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      tile.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
      tile.data.resize(tensor.getNumElements());
    } else {
      tile.data.resize(1);
    }
    return tile;
  }

  void set(Value value, Tile tile) { env[value] = std::move(tile); }

  //===--------------------------------------------------------------------===//
  // Regions and control flow
  //===--------------------------------------------------------------------===//

  /// The watchdog: counts `op` against the program's limit.
  bool step(Operation &op) {
    if (maxSteps == 0 || ++steps <= maxSteps)
      return true;
    return fail(&op, program() + " of kernel '" +
                         kernelName + "' is still running after " +
                         llvm::Twine(maxSteps) +
                         " ops, the interpreter's limit: does a loop never "
                         "end? (the limit is Options::maxSteps, or "
                         "LLK_INTERP_MAX_STEPS; 0 lifts it)");
  }

  /// Runs `region` from its entry block with `args` bound to the block's
  /// arguments, following cf.br, cf.cond_br and cf.switch between its
  /// blocks, and returns in `results` the operands of the terminator that
  /// leaves it (func.return, scf.yield, scf.condition, tile.yield).
  bool runRegion(Region &region, std::vector<Tile> args,
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

  static Tile scalarInt(int64_t value) {
    Tile tile;
    tile.data.resize(1);
    tile.data[0].i = value;
    return tile;
  }

  bool executeFor(scf::ForOp op) {
    unsigned bits = infoOf(op.getInductionVar().getType()).bits;
    int64_t lb = get(op.getLowerBound()).data[0].i;
    int64_t ub = get(op.getUpperBound()).data[0].i;
    int64_t step = get(op.getStep()).data[0].i;
    bool isUnsigned = op.getUnsignedCmp();
    if (isUnsigned ? zextInt(step, bits) == 0 : step <= 0)
      return fail(op, "scf.for step must be positive, got " +
                          llvm::Twine(step) + " in " + program());
    std::vector<Tile> carried;
    for (Value init : op.getInitArgs())
      carried.push_back(get(init));
    auto below = [&](int64_t iv) {
      return isUnsigned ? zextInt(iv, bits) < zextInt(ub, bits) : iv < ub;
    };
    llvm::SmallVector<Tile, 4> results;
    for (int64_t iv = lb; below(iv);) {
      std::vector<Tile> args;
      args.push_back(scalarInt(iv));
      for (Tile &t : carried)
        args.push_back(std::move(t));
      if (!runRegion(op.getRegion(), std::move(args), results))
        return false;
      carried.assign(std::make_move_iterator(results.begin()),
                     std::make_move_iterator(results.end()));
      int64_t next = wrapInt(static_cast<uint64_t>(iv) + zextInt(step, bits), bits);
      // The compiled loop's increment wraps, and the wrapped value is below
      // the bound again: it would go on where the loop's definition stops.
      if (isUnsigned ? zextInt(next, bits) <= zextInt(iv, bits) : next <= iv)
        return fail(op, "the induction variable of scf.for overflows (" +
                            llvm::Twine(iv) + " + " + llvm::Twine(step) +
                            " wraps around) in " + program() +
                            "; the compiled loop would not stop there");
      iv = next;
    }
    for (auto [result, value] : llvm::zip(op.getResults(), carried))
      set(result, std::move(value));
    return true;
  }

  bool executeIf(scf::IfOp op) {
    bool cond = get(op.getCondition()).data[0].i != 0;
    Region &region = cond ? op.getThenRegion() : op.getElseRegion();
    if (region.empty())
      return true;
    llvm::SmallVector<Tile, 4> results;
    if (!runRegion(region, {}, results))
      return false;
    for (auto [result, value] : llvm::zip(op.getResults(), results))
      set(result, std::move(value));
    return true;
  }

  bool executeIndexSwitch(scf::IndexSwitchOp op) {
    int64_t value = get(op.getArg()).data[0].i;
    Region *region = &op.getDefaultRegion();
    for (auto [i, caseValue] : llvm::enumerate(op.getCases()))
      if (caseValue == value) {
        region = &op.getCaseRegions()[i];
        break;
      }
    llvm::SmallVector<Tile, 4> results;
    if (!runRegion(*region, {}, results))
      return false;
    for (auto [result, value] : llvm::zip(op.getResults(), results))
      set(result, std::move(value));
    return true;
  }

  bool executeWhile(scf::WhileOp op) {
    std::vector<Tile> carried;
    for (Value init : op.getInits())
      carried.push_back(get(init));
    llvm::SmallVector<Tile, 4> results;
    while (true) {
      if (!runRegion(op.getBefore(), std::move(carried), results))
        return false;
      // scf.condition(%cond) %args...
      bool cond = results[0].data[0].i != 0;
      carried.assign(std::make_move_iterator(results.begin() + 1),
                     std::make_move_iterator(results.end()));
      if (!cond)
        break;
      if (!runRegion(op.getAfter(), std::move(carried), results))
        return false;
      carried.assign(std::make_move_iterator(results.begin()),
                     std::make_move_iterator(results.end()));
    }
    for (auto [result, value] : llvm::zip(op.getResults(), carried))
      set(result, std::move(value));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Elementwise helpers
  //===--------------------------------------------------------------------===//

  /// Applies `f` elementwise in the precision of `kind`: `f` is called with
  /// float arguments for f32, f16 and bf16 (the result rounded to the type)
  /// and double for f64.
  template <typename F>
  static void floatMap(FloatKind kind, Tile &out, F f,
                       std::initializer_list<const Tile *> ins) {
    const Tile *a = ins.begin()[0];
    const Tile *b = ins.size() > 1 ? ins.begin()[1] : a;
    const Tile *c = ins.size() > 2 ? ins.begin()[2] : a;
    size_t n = out.size();
    // A scalar operand (e.g. a select's condition) is not needed here; all
    // operands have the result's shape.
    if (kind == FloatKind::F64) {
      for (size_t i = 0; i < n; ++i)
        out.data[i].f = f(a->data[i].f, b->data[i].f, c->data[i].f);
    } else if (kind == FloatKind::F32) {
      for (size_t i = 0; i < n; ++i)
        out.data[i].f = f(static_cast<float>(a->data[i].f),
                          static_cast<float>(b->data[i].f),
                          static_cast<float>(c->data[i].f));
    } else {
      for (size_t i = 0; i < n; ++i)
        out.data[i].f = roundFloat(kind, f(static_cast<float>(a->data[i].f),
                                           static_cast<float>(b->data[i].f),
                                           static_cast<float>(c->data[i].f)));
    }
  }

  template <typename F> bool floatUnary(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0));
    Tile out = makeTile(op->getResult(0).getType());
    floatMap(infoOf(elementTypeOf(op->getResult(0).getType())).floatKind, out,
             [&](auto x, auto, auto) { return f(x); }, {&a});
    set(op->getResult(0), std::move(out));
    return true;
  }

  template <typename F> bool floatBinary(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    Tile out = makeTile(op->getResult(0).getType());
    floatMap(infoOf(elementTypeOf(op->getResult(0).getType())).floatKind, out,
             [&](auto x, auto y, auto) { return f(x, y); }, {&a, &b});
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// `f(x, y, bits)` on sign-extended operands; the result is wrapped.
  template <typename F> bool intBinary(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
    Tile out = makeTile(op->getResult(0).getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i].i = wrapInt(f(a.data[i].i, b.data[i].i, bits), bits);
    set(op->getResult(0), std::move(out));
    return true;
  }

  template <typename F> bool intUnary(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0));
    unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
    Tile out = makeTile(op->getResult(0).getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i].i = wrapInt(f(a.data[i].i, bits), bits);
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// " at element i of the tile (index [..])", or nothing for a scalar;
  /// for messages (built only on failure).
  static std::string atElement(ArrayRef<int64_t> shape, size_t i) {
    return shape.empty() ? std::string()
                         : " at element " + std::to_string(i) +
                               " of the tile (index " + formatIndex(shape, i) + ")";
  }

  /// An integer op whose result MLIR defines as poison for some operands
  /// (shifts by the width or more; nsw, nuw and exact promises broken): the
  /// compiled kernel's LLVM may assume that never happens, so here it stops
  /// the run. `f(x, y, bits)` gives the result (x and y sign-extended) or,
  /// for poison, nothing and `why`.
  template <typename F> bool intBinaryOrPoison(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
    Tile out = makeTile(op->getResult(0).getType());
    std::string why;
    for (size_t i = 0; i < out.size(); ++i) {
      std::optional<uint64_t> r = f(a.data[i].i, b.data[i].i, bits, why);
      if (!r)
        return fail(op, "'" + op->getName().getStringRef() + "' gives poison " +
                            why + " in " + program() + atElement(out.shape, i));
      out.data[i].i = wrapInt(*r, bits);
    }
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// addi, subi, muli (kind 0, 1, 2): wrapping, unless nsw / nuw promise
  /// no signed / unsigned overflow.
  bool addSubMul(Operation *op, int kind) {
    auto flags = llvm::cast<arith::ArithIntegerOverflowFlagsInterface>(op);
    bool nsw = flags.hasNoSignedWrap(), nuw = flags.hasNoUnsignedWrap();
    return intBinaryOrPoison(op, [&](int64_t x, int64_t y, unsigned bits,
                                     std::string &why) -> std::optional<uint64_t> {
      auto exact = [&](__int128 a, __int128 b) -> __int128 {
        return kind == 0 ? a + b : kind == 1 ? a - b : a * b;
      };
      __int128 s = exact(x, y);
      __int128 u = exact(static_cast<__int128>(zextInt(x, bits)),
                         static_cast<__int128>(zextInt(y, bits)));
      if (nsw && s != wrapInt(static_cast<uint64_t>(s), bits)) {
        why = "(nsw, but the result overflows as a signed number)";
        return std::nullopt;
      }
      if (nuw && (u < 0 || (bits < 64 ? u >> bits : u >> 64) != 0)) {
        why = "(nuw, but the result overflows as an unsigned number)";
        return std::nullopt;
      }
      return static_cast<uint64_t>(s);
    });
  }

  enum class DivKind { DivS, DivU, RemS, RemU, CeilDivS, CeilDivU, FloorDivS };

  /// Integer division; division by zero and signed overflow (MIN / -1) are
  /// errors rather than undefined results.
  bool intDivide(Operation *op, DivKind kind) {
    const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
    Tile out = makeTile(op->getResult(0).getType());
    int64_t min = bits >= 64 ? std::numeric_limits<int64_t>::min()
                             : -(int64_t(1) << (bits - 1));
    bool isSigned = kind != DivKind::DivU && kind != DivKind::RemU &&
                    kind != DivKind::CeilDivU;
    bool exact = op->hasAttr("isExact"); // divsi, divui
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t x = a.data[i].i, y = b.data[i].i;
      auto where = [&] { return atElement(out.shape, i); };
      if (y == 0)
        return fail(op, "integer division by zero in " + program() + where());
      if (isSigned && x == min && y == -1)
        return fail(op, "signed division overflow (" + std::to_string(x) +
                            " / -1) in " + program() + where());
      bool remainder = isSigned ? x % y != 0 : zextInt(x, bits) % zextInt(y, bits) != 0;
      if (exact && remainder)
        return fail(op, "'" + op->getName().getStringRef() +
                            "' gives poison (exact, but " + std::to_string(x) +
                            " is not a multiple of " + std::to_string(y) + ") in " +
                            program() + where());
      int64_t r = 0;
      switch (kind) {
      case DivKind::DivS: r = x / y; break;
      case DivKind::RemS: r = x % y; break;
      case DivKind::DivU:
        r = static_cast<int64_t>(zextInt(x, bits) / zextInt(y, bits));
        break;
      case DivKind::RemU:
        r = static_cast<int64_t>(zextInt(x, bits) % zextInt(y, bits));
        break;
      case DivKind::CeilDivS:
        r = x / y + ((x % y != 0) && ((x < 0) == (y < 0)) ? 1 : 0);
        break;
      case DivKind::CeilDivU: {
        uint64_t ux = zextInt(x, bits), uy = zextInt(y, bits);
        r = static_cast<int64_t>(ux / uy + (ux % uy != 0 ? 1 : 0));
        break;
      }
      case DivKind::FloorDivS:
        r = x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0);
        break;
      }
      out.data[i].i = wrapInt(static_cast<uint64_t>(r), bits);
    }
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// arith.addui_extended: the wrapped sum and whether it carried out.
  bool addExtended(arith::AddUIExtendedOp op) {
    const Tile &a = get(op.getLhs()), &b = get(op.getRhs());
    unsigned bits = infoOf(elementTypeOf(op.getSum().getType())).bits;
    Tile sum = makeTile(op.getSum().getType());
    Tile overflow = makeTile(op.getOverflow().getType());
    for (size_t i = 0; i < sum.size(); ++i) {
      uint64_t x = zextInt(a.data[i].i, bits);
      uint64_t total = zextInt(static_cast<int64_t>(x + zextInt(b.data[i].i, bits)), bits);
      sum.data[i].i = wrapInt(total, bits);
      overflow.data[i].i = total < x ? -1 : 0;
    }
    set(op.getSum(), std::move(sum));
    set(op.getOverflow(), std::move(overflow));
    return true;
  }

  /// arith.mulsi_extended / mului_extended: the low and high halves of the
  /// double-width product.
  bool mulExtended(Operation *op, bool isSigned) {
    const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
    Tile low = makeTile(op->getResult(0).getType());
    Tile high = makeTile(op->getResult(1).getType());
    for (size_t i = 0; i < low.size(); ++i) {
      int64_t x = a.data[i].i, y = b.data[i].i;
      // Exact in 128 bits, wrapped to 2 * bits.
      unsigned __int128 p =
          isSigned ? static_cast<unsigned __int128>(static_cast<__int128>(x) * y)
                   : static_cast<unsigned __int128>(zextInt(x, bits)) * zextInt(y, bits);
      low.data[i].i = wrapInt(static_cast<uint64_t>(p), bits);
      high.data[i].i = wrapInt(static_cast<uint64_t>(p >> bits), bits);
    }
    set(op->getResult(0), std::move(low));
    set(op->getResult(1), std::move(high));
    return true;
  }

  /// math.ctlz / cttz / ctpop within the operand's width (ctlz and cttz of
  /// 0 are the width).
  bool countBits(Operation *op, int which /*0 ctlz, 1 cttz, 2 ctpop*/) {
    return intUnary(op, [which](int64_t x, unsigned bits) -> uint64_t {
      uint64_t u = zextInt(x, bits);
      if (which == 2)
        return llvm::popcount(u);
      if (u == 0)
        return bits;
      if (which == 0)
        return llvm::countl_zero(u) - (64 - bits);
      return llvm::countr_zero(u);
    });
  }

  /// math.isfinite / isinf / isnan.
  template <typename F> bool classify(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0));
    Tile out = makeTile(op->getResult(0).getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i].i = f(a.data[i].f) ? -1 : 0;
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// math.fpowi: a float to an integer power, in the float's precision.
  bool powi(math::FPowIOp op) {
    const Tile &a = get(op.getLhs()), &n = get(op.getRhs());
    FloatKind kind = infoOf(elementTypeOf(op.getType())).floatKind;
    Tile out = makeTile(op.getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i].f =
          kind == FloatKind::F64
              ? std::pow(a.data[i].f, static_cast<double>(n.data[i].i))
              : roundFloat(kind, std::pow(static_cast<float>(a.data[i].f),
                                          static_cast<float>(n.data[i].i)));
    set(op.getResult(), std::move(out));
    return true;
  }

  /// shli, shrsi, shrui (direction 0, 1, 2). A shift by the width or more
  /// is poison, and so are bits shifted out against an nsw / nuw (shli) or
  /// exact (shrsi, shrui) promise.
  bool shift(Operation *op, int direction) {
    bool nsw = false, nuw = false, exact = false;
    if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op)) {
      nsw = flags.hasNoSignedWrap();
      nuw = flags.hasNoUnsignedWrap();
    }
    if (auto exactAttr = op->getAttrOfType<UnitAttr>("isExact"))
      exact = true;
    return intBinaryOrPoison(op, [&](int64_t x, int64_t y, unsigned bits,
                                     std::string &why) -> std::optional<uint64_t> {
      uint64_t amount = zextInt(y, bits);
      if (amount >= bits) {
        why = "(it shifts by " + std::to_string(amount) + ", not less than the "
              "width, " + std::to_string(bits) + " bits)";
        return std::nullopt;
      }
      uint64_t ux = zextInt(x, bits);
      if (direction == 0) {
        uint64_t r = zextInt(static_cast<int64_t>(ux << amount), bits);
        if ((nsw && (wrapInt(r, bits) >> amount) != x) || (nuw && (r >> amount) != ux)) {
          why = std::string("(") + (nsw ? "nsw" : "nuw") + ", but it shifts out "
                "significant bits)";
          return std::nullopt;
        }
        return r;
      }
      if (exact && (ux & ((uint64_t(1) << amount) - 1)) != 0) {
        why = "(exact, but it shifts out nonzero bits)";
        return std::nullopt;
      }
      if (direction == 1)
        return static_cast<uint64_t>(x >> amount);
      return ux >> amount;
    });
  }

  bool compareInts(arith::CmpIOp op) {
    const Tile &a = get(op.getLhs()), &b = get(op.getRhs());
    unsigned bits = infoOf(elementTypeOf(op.getLhs().getType())).bits;
    Tile out = makeTile(op.getType());
    auto pred = op.getPredicate();
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t x = a.data[i].i, y = b.data[i].i;
      uint64_t ux = zextInt(x, bits), uy = zextInt(y, bits);
      bool r = false;
      switch (pred) {
      case arith::CmpIPredicate::eq: r = x == y; break;
      case arith::CmpIPredicate::ne: r = x != y; break;
      case arith::CmpIPredicate::slt: r = x < y; break;
      case arith::CmpIPredicate::sle: r = x <= y; break;
      case arith::CmpIPredicate::sgt: r = x > y; break;
      case arith::CmpIPredicate::sge: r = x >= y; break;
      case arith::CmpIPredicate::ult: r = ux < uy; break;
      case arith::CmpIPredicate::ule: r = ux <= uy; break;
      case arith::CmpIPredicate::ugt: r = ux > uy; break;
      case arith::CmpIPredicate::uge: r = ux >= uy; break;
      }
      out.data[i].i = r ? -1 : 0;
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  bool compareFloats(arith::CmpFOp op) {
    const Tile &a = get(op.getLhs()), &b = get(op.getRhs());
    Tile out = makeTile(op.getType());
    using P = arith::CmpFPredicate;
    P pred = op.getPredicate();
    for (size_t i = 0; i < out.size(); ++i) {
      double x = a.data[i].f, y = b.data[i].f;
      bool unordered = std::isnan(x) || std::isnan(y);
      bool r = false;
      switch (pred) {
      case P::AlwaysFalse: r = false; break;
      case P::OEQ: r = !unordered && x == y; break;
      case P::OGT: r = !unordered && x > y; break;
      case P::OGE: r = !unordered && x >= y; break;
      case P::OLT: r = !unordered && x < y; break;
      case P::OLE: r = !unordered && x <= y; break;
      case P::ONE: r = !unordered && x != y; break;
      case P::ORD: r = !unordered; break;
      case P::UEQ: r = unordered || x == y; break;
      case P::UGT: r = unordered || x > y; break;
      case P::UGE: r = unordered || x >= y; break;
      case P::ULT: r = unordered || x < y; break;
      case P::ULE: r = unordered || x <= y; break;
      case P::UNE: r = unordered || x != y; break;
      case P::UNO: r = unordered; break;
      case P::AlwaysTrue: r = true; break;
      }
      out.data[i].i = r ? -1 : 0;
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  bool select(arith::SelectOp op) {
    const Tile &cond = get(op.getCondition());
    const Tile &a = get(op.getTrueValue()), &b = get(op.getFalseValue());
    Tile out = makeTile(op.getType());
    bool scalarCond = cond.size() == 1 && out.size() != 1;
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i] = cond.data[scalarCond ? 0 : i].i ? a.data[i] : b.data[i];
    set(op.getResult(), std::move(out));
    return true;
  }

  bool constant(arith::ConstantOp op) {
    Tile out = makeTile(op.getType());
    Attribute value = op.getValue();
    ElemInfo info = infoOf(elementTypeOf(op.getType()));
    auto fromInt = [&](const APInt &v) {
      Elem e;
      e.i = info.bits == 1 ? (v.isZero() ? 0 : -1) : v.getSExtValue();
      return e;
    };
    auto fromFloat = [&](APFloat v) {
      bool losesInfo;
      v.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven, &losesInfo);
      Elem e;
      e.f = v.convertToDouble();
      return e;
    };
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      out.data[0] = fromInt(i.getValue());
    } else if (auto f = dyn_cast<FloatAttr>(value)) {
      out.data[0] = fromFloat(f.getValue());
    } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      bool isFloatElem = info.kind == ElemInfo::Float;
      if (dense.isSplat()) {
        Elem e = isFloatElem ? fromFloat(dense.getSplatValue<APFloat>())
                             : fromInt(dense.getSplatValue<APInt>());
        std::fill(out.data.begin(), out.data.end(), e);
      } else if (isFloatElem) {
        size_t i = 0;
        for (APFloat v : dense.getValues<APFloat>())
          out.data[i++] = fromFloat(v);
      } else {
        size_t i = 0;
        for (APInt v : dense.getValues<APInt>())
          out.data[i++] = fromInt(v);
      }
    } else {
      return fail(op, "the interpreter does not support this constant attribute");
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  /// Elementwise conversion with `f(Elem) -> Elem`.
  template <typename F> bool convert(Operation *op, F f) {
    const Tile &a = get(op->getOperand(0));
    Tile out = makeTile(op->getResult(0).getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i] = f(a.data[i]);
    set(op->getResult(0), std::move(out));
    return true;
  }

  /// tile.cast, as its description says.
  bool cast(tile::CastOp op) {
    Type srcType = elementTypeOf(op.getSrc().getType());
    Type dstType = elementTypeOf(op.getType());
    ElemInfo src = infoOf(srcType), dst = infoOf(dstType);
    bool srcFloat = src.kind == ElemInfo::Float, dstFloat = dst.kind == ElemInfo::Float;
    std::optional<tile::RoundingMode> rounding = op.getRounding();
    if (dstType.isInteger(1))
      return convert(op, [&](Elem x) {
        Elem e;
        e.i = (srcFloat ? x.f != 0 : x.i != 0) ? -1 : 0; // NaN != 0
        return e;
      });
    if (srcFloat && dstFloat) {
      RoundingMode mode = apfloatMode(rounding.value_or(tile::RoundingMode::RNE));
      return convert(op, [&](Elem x) {
        Elem e;
        e.f = roundFloat(dst.floatKind, x.f, mode); // widening is exact
        return e;
      });
    }
    if (srcFloat) {
      tile::RoundingMode mode = rounding.value_or(tile::RoundingMode::RTZ);
      return convert(op, [&](Elem x) {
        Elem e;
        e.i = saturateToInt(roundIntegral(x.f, mode), dst.bits, false);
        return e;
      });
    }
    bool srcBool = srcType.isInteger(1);
    if (dstFloat)
      return convert(op, [&](Elem x) {
        Elem e;
        e.f = srcBool ? (x.i ? 1.0 : 0.0)
                      : intToFloat(x.i, src.bits, false, dst.floatKind);
        return e;
      });
    return convert(op, [&](Elem x) {
      Elem e;
      e.i = wrapInt(srcBool ? zextInt(x.i, 1) : static_cast<uint64_t>(x.i), dst.bits);
      return e;
    });
  }

  bool bitcast(Operation *op) {
    ElemInfo src = infoOf(elementTypeOf(op->getOperand(0).getType()));
    ElemInfo dst = infoOf(elementTypeOf(op->getResult(0).getType()));
    return convert(op, [&](Elem x) { return elemFromBits(dst, elemBits(src, x)); });
  }

  //===--------------------------------------------------------------------===//
  // Shapes
  //===--------------------------------------------------------------------===//

  bool broadcast(tile::BroadcastOp op) {
    const Tile &src = get(op.getSrc());
    Tile out = makeTile(op.getType());
    size_t rank = out.shape.size();
    // Strides of the source, 0 along broadcast dimensions.
    llvm::SmallVector<int64_t, 4> strides(rank);
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      strides[d] = src.shape[d] == 1 ? 0 : stride;
      stride *= src.shape[d];
    }
    llvm::SmallVector<int64_t, 4> index(rank, 0);
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d)
        offset += index[d] * strides[d];
      out.data[i] = src.data[offset];
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < out.shape[d])
          break;
        index[d] = 0;
      }
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  /// Same elements, new shape (expand_dims, reshape, convert_layout).
  bool reshape(Operation *op) {
    Tile out = get(op->getOperand(0));
    out.shape = makeTile(op->getResult(0).getType()).shape;
    set(op->getResult(0), std::move(out));
    return true;
  }

  bool trans(tile::TransOp op) {
    const Tile &src = get(op.getSrc());
    Tile out = makeTile(op.getType());
    int64_t rows = src.shape[0], cols = src.shape[1];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out.data[c * rows + r] = src.data[r * cols + c];
    set(op.getResult(), std::move(out));
    return true;
  }

  bool splat(tile::SplatOp op) {
    Tile out = makeTile(op.getType());
    std::fill(out.data.begin(), out.data.end(), get(op.getSrc()).data[0]);
    set(op.getResult(), std::move(out));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  /// Checks an access of `size` bytes at `address` by element `i` of a tile
  /// of shape `shape` (a scalar access when `shape` is empty); returns its
  /// buffer, or null after recording an error.
  Buffer *check(Operation *op, const char *what, bool reads, uint64_t address,
                uint64_t size, ArrayRef<int64_t> shape, size_t i) {
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
      fail(op, std::string("out-of-bounds ") + what + " in " + program() +
                   ": " + accessor() + " " +
                   memory.describeOutside(address, size));
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
                       ": " + accessor() + " (byte " +
                       std::to_string(offset) + " of buffer '" + buffer->name +
                       "', " + std::to_string(buffer->bytes) +
                       " bytes), which nothing has written");
          return nullptr;
        }
    }
    return buffer;
  }

  static uint64_t readBits(uint64_t address, unsigned size) {
    uint64_t bits = 0;
    std::memcpy(&bits, reinterpret_cast<const void *>(address), size);
    return bits;
  }
  static void writeBits(uint64_t address, unsigned size, uint64_t bits) {
    std::memcpy(reinterpret_cast<void *>(address), &bits, size);
  }

  bool load(tile::LoadOp op) {
    const Tile &ptrs = get(op.getPtr());
    const Tile *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    const Tile *other = op.getOther() ? &get(op.getOther()) : nullptr;
    ElemInfo ptrInfo = infoOf(elementTypeOf(op.getPtr().getType()));
    ElemInfo info = infoOf(ptrInfo.pointee);
    unsigned size = ptrInfo.pointeeBytes;
    Tile out = makeTile(op.getType());
    for (size_t i = 0; i < out.size(); ++i) {
      if (mask && !mask->data[i].i) {
        out.data[i] = other ? other->data[i] : poisonElem(info);
        continue;
      }
      uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
      if (!check(op, "load", true, address, size, out.shape, i))
        return false;
      out.data[i] = elemFromBits(info, readBits(address, size));
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  /// A block of a tensor descriptor's tensor (TensorDescriptor): zeros past
  /// its edges, every element inside read from its buffer.
  bool descriptorLoad(tile::DescriptorLoadOp op) {
    const auto *desc = reinterpret_cast<const TensorDescriptor *>(
        static_cast<uintptr_t>(get(op.getDesc()).data[0].i));
    int64_t row = get(op.getRow()).data[0].i, col = get(op.getCol()).data[0].i;
    ElemInfo info = infoOf(op.getType().getElementType());
    unsigned size = (info.bits + 7) / 8;
    Tile out = makeTile(op.getType());
    int64_t cols = out.shape[1];
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t r = row + int64_t(i) / cols, c = col + int64_t(i) % cols;
      if (r < 0 || r >= desc->rows || c < 0 || c >= desc->cols) {
        out.data[i] = elemFromBits(info, 0);
        continue;
      }
      uint64_t address = reinterpret_cast<uintptr_t>(desc->base) +
                         uint64_t(r * desc->rowStride + c) * size;
      if (!check(op, "load", true, address, size, out.shape, i))
        return false;
      out.data[i] = elemFromBits(info, readBits(address, size));
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  /// A prefetch changes nothing, but its addresses must be valid.
  bool prefetch(tile::PrefetchOp op) {
    const Tile &ptrs = get(op.getPtr());
    const Tile *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    unsigned size = infoOf(elementTypeOf(op.getPtr().getType())).pointeeBytes;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      if (mask && !mask->data[i].i)
        continue;
      if (!check(op, "prefetch", false, static_cast<uint64_t>(ptrs.data[i].i),
                 size, ptrs.shape, i))
        return false;
    }
    return true;
  }

  bool store(tile::StoreOp op) {
    const Tile &ptrs = get(op.getPtr()), &values = get(op.getValue());
    const Tile *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    ElemInfo ptrInfo = infoOf(elementTypeOf(op.getPtr().getType()));
    ElemInfo info = infoOf(ptrInfo.pointee);
    unsigned size = ptrInfo.pointeeBytes;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      if (mask && !mask->data[i].i)
        continue;
      uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
      Buffer *buffer = check(op, "store", false, address, size, ptrs.shape, i);
      if (!buffer)
        return false;
      writeBits(address, size, elemBits(info, values.data[i]));
      buffer->markWritten(address - buffer->base, size);
    }
    return true;
  }

  /// f32 flushed to zero (sign kept) if subnormal, as atom.add.f32 on
  /// global memory treats its inputs and result.
  static float flushSubnormal(float x) {
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
  }

  bool atomicRMW(tile::AtomicRMWOp op) {
    const Tile &ptrs = get(op.getPtr()), &values = get(op.getValue());
    const Tile *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    ElemInfo ptrInfo = infoOf(elementTypeOf(op.getPtr().getType()));
    ElemInfo info = infoOf(ptrInfo.pointee);
    unsigned size = ptrInfo.pointeeBytes;
    bool isFloatElem = info.kind == ElemInfo::Float; // f32 (the verifier's)
    Tile out = makeTile(op.getType());
    for (size_t i = 0; i < out.size(); ++i) {
      // Masked-off elements touch nothing and return 0 (the op's contract).
      if (mask && !mask->data[i].i) {
        out.data[i] = elemFromBits(info, 0);
        continue;
      }
      uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
      Buffer *buffer = check(op, "atomic", true, address, size, out.shape, i);
      if (!buffer)
        return false;
      uint64_t oldBits = readBits(address, size);
      Elem old = elemFromBits(info, oldBits), value = values.data[i];
      uint64_t valueBits = elemBits(info, value);
      uint64_t newBits = oldBits;
      switch (op.getKind()) {
      case tile::AtomicRMWKind::Add:
        if (isFloatElem)
          newBits = floatBits(
              FloatKind::F32,
              flushSubnormal(flushSubnormal(static_cast<float>(old.f)) +
                             flushSubnormal(static_cast<float>(value.f))));
        else
          newBits = zextInt(static_cast<int64_t>(oldBits + valueBits), 32);
        break;
      case tile::AtomicRMWKind::Max:
      case tile::AtomicRMWKind::Min: {
        // Integers compare as signed; f32 as the GPU's atomics order its
        // bits (NaN included): as signed integers where the new value's
        // sign is clear, as unsigned (reversed) where it is set.
        bool isMax = op.getKind() == tile::AtomicRMWKind::Max;
        int32_t so = static_cast<int32_t>(oldBits), sv = static_cast<int32_t>(valueBits);
        uint32_t uo = static_cast<uint32_t>(oldBits), uv = static_cast<uint32_t>(valueBits);
        bool keepOld;
        if (!isFloatElem || sv >= 0)
          keepOld = isMax ? so >= sv : so <= sv;
        else
          keepOld = isMax ? uo <= uv : uo >= uv;
        newBits = keepOld ? oldBits : valueBits;
        break;
      }
      case tile::AtomicRMWKind::Xchg:
        newBits = valueBits;
        break;
      }
      writeBits(address, size, newBits);
      buffer->markWritten(address - buffer->base, size);
      out.data[i] = old;
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  bool atomicCAS(tile::AtomicCASOp op) {
    const Tile &ptrs = get(op.getPtr()), &cmp = get(op.getCmp()),
               &values = get(op.getValue());
    ElemInfo ptrInfo = infoOf(elementTypeOf(op.getPtr().getType()));
    ElemInfo info = infoOf(ptrInfo.pointee);
    unsigned size = ptrInfo.pointeeBytes;
    Tile out = makeTile(op.getType());
    for (size_t i = 0; i < out.size(); ++i) {
      uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
      Buffer *buffer = check(op, "atomic", true, address, size, out.shape, i);
      if (!buffer)
        return false;
      uint64_t old = readBits(address, size);
      // Compares bits, as atom.cas.b32 does.
      if (old == elemBits(info, cmp.data[i])) {
        writeBits(address, size, elemBits(info, values.data[i]));
        buffer->markWritten(address - buffer->base, size);
      }
      out.data[i] = elemFromBits(info, old);
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  bool addptr(tile::AddPtrOp op) {
    const Tile &ptrs = get(op.getPtr()), &offsets = get(op.getOffset());
    uint64_t size = infoOf(elementTypeOf(op.getPtr().getType())).pointeeBytes;
    Tile out = makeTile(op.getType());
    for (size_t i = 0; i < out.size(); ++i)
      out.data[i].i = static_cast<int64_t>(static_cast<uint64_t>(ptrs.data[i].i) +
                                           static_cast<uint64_t>(offsets.data[i].i) * size);
    set(op.getResult(), std::move(out));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Reductions and dot
  //===--------------------------------------------------------------------===//

  struct ReduceShape {
    int64_t outer, n, inner;
  };
  static ReduceShape reduceShape(const Tile &src, unsigned axis) {
    ReduceShape s{1, src.shape[axis], 1};
    for (unsigned d = 0; d < axis; ++d)
      s.outer *= src.shape[d];
    for (unsigned d = axis + 1; d < src.shape.size(); ++d)
      s.inner *= src.shape[d];
    return s;
  }

  bool reduce(tile::ReduceOp op) {
    const Tile &src = get(op.getSrc());
    ElemInfo info = infoOf(op.getSrc().getType().getElementType());
    ReduceShape s = reduceShape(src, op.getAxis());
    Tile out = makeTile(op.getType());
    bool isFloatElem = info.kind == ElemInfo::Float;
    std::vector<Elem> lane(s.n);
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t in = 0; in < s.inner; ++in) {
        for (int64_t j = 0; j < s.n; ++j)
          lane[j] = src.data[(o * s.n + j) * s.inner + in];
        Elem r{};
        switch (op.getKind()) {
        case tile::ReduceKind::Sum:
          // A butterfly tree, as the GPU's shuffles combine (n is a power of
          // two); every partial sum rounded to the element type.
          for (int64_t half = s.n / 2; half >= 1; half /= 2)
            for (int64_t j = 0; j < half; ++j) {
              if (isFloatElem)
                lane[j].f = info.floatKind == FloatKind::F64
                                ? lane[j].f + lane[j + half].f
                                : roundFloat(info.floatKind,
                                             static_cast<float>(lane[j].f) +
                                                 static_cast<float>(lane[j + half].f));
              else
                lane[j].i = wrapInt(static_cast<uint64_t>(lane[j].i) + lane[j + half].i,
                                    info.bits);
            }
          r = lane[0];
          break;
        case tile::ReduceKind::Max:
        case tile::ReduceKind::Min: {
          bool isMax = op.getKind() == tile::ReduceKind::Max;
          r = lane[0];
          for (int64_t j = 1; j < s.n; ++j) {
            if (isFloatElem) // NaN is ignored unless all are NaN, as fmaxf
              r.f = isMax ? maxNum(r.f, lane[j].f) : minNum(r.f, lane[j].f);
            else
              r.i = isMax ? std::max(r.i, lane[j].i) : std::min(r.i, lane[j].i);
          }
          break;
        }
        case tile::ReduceKind::ArgMax:
        case tile::ReduceKind::ArgMin: {
          bool isMax = op.getKind() == tile::ReduceKind::ArgMax;
          int64_t best = 0;
          for (int64_t j = 1; j < s.n; ++j) {
            bool better;
            if (isFloatElem) {
              double x = lane[j].f, b = lane[best].f;
              better = (std::isnan(b) && !std::isnan(x)) || (isMax ? x > b : x < b);
            } else {
              better = isMax ? lane[j].i > lane[best].i : lane[j].i < lane[best].i;
            }
            if (better)
              best = j;
          }
          r.i = best;
          break;
        }
        }
        out.data[o * s.inner + in] = r;
      }
    set(op.getResult(), std::move(out));
    return true;
  }

  bool genericReduce(tile::GenericReduceOp op) {
    const Tile &src = get(op.getSrc());
    ReduceShape s = reduceShape(src, op.getAxis());
    Tile out = makeTile(op.getType());
    Region &combiner = op.getCombiner();
    llvm::SmallVector<Tile, 1> results;
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t in = 0; in < s.inner; ++in) {
        Tile acc;
        acc.data.push_back(src.data[o * s.n * s.inner + in]);
        for (int64_t j = 1; j < s.n; ++j) {
          Tile next;
          next.data.push_back(src.data[(o * s.n + j) * s.inner + in]);
          std::vector<Tile> args;
          args.push_back(std::move(acc));
          args.push_back(std::move(next));
          if (!runRegion(combiner, std::move(args), results))
            return false;
          acc = std::move(results[0]);
        }
        out.data[o * s.inner + in] = acc.data[0];
      }
    set(op.getResult(), std::move(out));
    return true;
  }

  /// Rounds an f32 to tf32 (10 mantissa bits), to nearest with ties away from
  /// zero, as cvt.rna.tf32.f32 does.
  static float toTF32(float x) {
    if (!std::isfinite(x))
      return x;
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    bits = (bits + 0x1000u) & 0xffffe000u;
    float r;
    std::memcpy(&r, &bits, 4);
    return r;
  }

  bool dot(tile::DotOp op) {
    const Tile &a = get(op.getA()), &b = get(op.getB()), &acc = get(op.getAcc());
    Type elemA = op.getA().getType().getElementType();
    int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    Tile out = makeTile(op.getType());
    if (elemA.isInteger(8)) {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          uint64_t sum = static_cast<uint64_t>(acc.data[i * n + j].i);
          for (int64_t p = 0; p < k; ++p)
            sum += static_cast<uint64_t>(a.data[i * k + p].i * b.data[p * n + j].i);
          out.data[i * n + j].i = wrapInt(sum, 32);
        }
    } else {
      bool tf32 = elemA.isF32() &&
                  op.getPrecision().value_or(tile::DotPrecision::TF32) ==
                      tile::DotPrecision::TF32;
      auto input = [&](double x) {
        return tf32 ? toTF32(static_cast<float>(x)) : static_cast<float>(x);
      };
      // Products of f16, bf16 and tf32 values are exact in f32; the sum is
      // accumulated in f32, in k order.
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          float sum = static_cast<float>(acc.data[i * n + j].f);
          for (int64_t p = 0; p < k; ++p)
            sum = std::fma(input(a.data[i * k + p].f), input(b.data[p * n + j].f), sum);
          out.data[i * n + j].f = sum;
        }
    }
    set(op.getResult(), std::move(out));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Dispatch
  //===--------------------------------------------------------------------===//

  bool checkTypes(Operation &op) {
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

  bool execute(Operation &operation) {
    Operation *op = &operation;
    if (!checkTypes(operation))
      return false;
    using namespace arith;
    return llvm::TypeSwitch<Operation *, bool>(op)
        // Tile dialect.
        .Case([&](tile::ProgramIdOp o) {
          set(o.getResult(), scalarInt(pid[static_cast<int>(o.getAxis())]));
          return true;
        })
        .Case([&](tile::NumProgramsOp o) {
          uint32_t sizes[3] = {grid.x, grid.y, grid.z};
          set(o.getResult(), scalarInt(sizes[static_cast<int>(o.getAxis())]));
          return true;
        })
        .Case([&](tile::MakeRangeOp o) {
          Tile out = makeTile(o.getType());
          for (size_t i = 0; i < out.size(); ++i)
            out.data[i].i = o.getStart() + static_cast<int64_t>(i);
          set(o.getResult(), std::move(out));
          return true;
        })
        .Case([&](tile::SplatOp o) { return splat(o); })
        .Case([&](tile::BroadcastOp o) { return broadcast(o); })
        .Case<tile::ExpandDimsOp, tile::ReshapeOp, tile::ConvertLayoutOp>(
            [&](Operation *o) { return reshape(o); })
        .Case([&](tile::TransOp o) { return trans(o); })
        .Case([&](tile::AddPtrOp o) { return addptr(o); })
        .Case([&](tile::LoadOp o) { return load(o); })
        .Case([&](tile::DescriptorLoadOp o) { return descriptorLoad(o); })
        .Case([&](tile::StoreOp o) { return store(o); })
        .Case([&](tile::PrefetchOp o) { return prefetch(o); })
        .Case([&](tile::AtomicRMWOp o) { return atomicRMW(o); })
        .Case([&](tile::AtomicCASOp o) { return atomicCAS(o); })
        .Case<tile::BarrierOp, tile::GridDependencyWaitOp,
              tile::LaunchDependentsOp>([&](Operation *) { return true; })
        .Case([&](tile::ReduceOp o) { return reduce(o); })
        .Case([&](tile::GenericReduceOp o) { return genericReduce(o); })
        .Case([&](tile::CastOp o) { return cast(o); })
        .Case([&](tile::BitcastOp o) { return bitcast(o); })
        .Case([&](tile::DotOp o) { return dot(o); })
        // Control flow.
        .Case([&](scf::ForOp o) { return executeFor(o); })
        .Case([&](scf::IfOp o) { return executeIf(o); })
        .Case([&](scf::WhileOp o) { return executeWhile(o); })
        .Case([&](scf::IndexSwitchOp o) { return executeIndexSwitch(o); })
        // arith: constants, comparisons, selection.
        .Case([&](ConstantOp o) { return constant(o); })
        .Case([&](CmpIOp o) { return compareInts(o); })
        .Case([&](CmpFOp o) { return compareFloats(o); })
        .Case([&](SelectOp o) { return select(o); })
        // arith: integers (wrapping).
        .Case([&](AddIOp) { return addSubMul(op, 0); })
        .Case([&](SubIOp) { return addSubMul(op, 1); })
        .Case([&](MulIOp) { return addSubMul(op, 2); })
        .Case([&](AndIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned) {
            return static_cast<uint64_t>(x & y);
          });
        })
        .Case([&](OrIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned) {
            return static_cast<uint64_t>(x | y);
          });
        })
        .Case([&](XOrIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned) {
            return static_cast<uint64_t>(x ^ y);
          });
        })
        .Case([&](MaxSIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned) {
            return static_cast<uint64_t>(std::max(x, y));
          });
        })
        .Case([&](MinSIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned) {
            return static_cast<uint64_t>(std::min(x, y));
          });
        })
        .Case([&](MaxUIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned bits) {
            return std::max(zextInt(x, bits), zextInt(y, bits));
          });
        })
        .Case([&](MinUIOp) {
          return intBinary(op, [](int64_t x, int64_t y, unsigned bits) {
            return std::min(zextInt(x, bits), zextInt(y, bits));
          });
        })
        .Case([&](DivSIOp) { return intDivide(op, DivKind::DivS); })
        .Case([&](DivUIOp) { return intDivide(op, DivKind::DivU); })
        .Case([&](RemSIOp) { return intDivide(op, DivKind::RemS); })
        .Case([&](RemUIOp) { return intDivide(op, DivKind::RemU); })
        .Case([&](CeilDivSIOp) { return intDivide(op, DivKind::CeilDivS); })
        .Case([&](CeilDivUIOp) { return intDivide(op, DivKind::CeilDivU); })
        .Case([&](AddUIExtendedOp o) { return addExtended(o); })
        .Case([&](MulSIExtendedOp) { return mulExtended(op, true); })
        .Case([&](MulUIExtendedOp) { return mulExtended(op, false); })
        .Case([&](math::CountLeadingZerosOp) { return countBits(op, 0); })
        .Case([&](math::CountTrailingZerosOp) { return countBits(op, 1); })
        .Case([&](math::CtPopOp) { return countBits(op, 2); })
        .Case([&](FloorDivSIOp) { return intDivide(op, DivKind::FloorDivS); })
        .Case([&](ShLIOp) { return shift(op, 0); })
        .Case([&](ShRSIOp) { return shift(op, 1); })
        .Case([&](ShRUIOp) { return shift(op, 2); })
        .Case([&](math::AbsIOp) {
          return intUnary(op, [](int64_t x, unsigned) {
            return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
          });
        })
        // arith: floats, computed in their precision.
        .Case([&](AddFOp) { return floatBinary(op, [](auto x, auto y) { return x + y; }); })
        .Case([&](SubFOp) { return floatBinary(op, [](auto x, auto y) { return x - y; }); })
        .Case([&](MulFOp) { return floatBinary(op, [](auto x, auto y) { return x * y; }); })
        .Case([&](DivFOp) { return floatBinary(op, [](auto x, auto y) { return x / y; }); })
        .Case([&](RemFOp) {
          return floatBinary(op, [](auto x, auto y) { return std::fmod(x, y); });
        })
        .Case([&](MaxNumFOp) {
          return floatBinary(op, [](auto x, auto y) { return maxNum(x, y); });
        })
        .Case([&](MinNumFOp) {
          return floatBinary(op, [](auto x, auto y) { return minNum(x, y); });
        })
        .Case([&](MaximumFOp) {
          return floatBinary(op, [](auto x, auto y) {
            if (std::isnan(x) || std::isnan(y))
              return x + y; // NaN
            if (x == y)
              return std::signbit(x) ? y : x; // max(-0, +0) = +0
            return x > y ? x : y;
          });
        })
        .Case([&](MinimumFOp) {
          return floatBinary(op, [](auto x, auto y) {
            if (std::isnan(x) || std::isnan(y))
              return x + y;
            if (x == y)
              return std::signbit(x) ? x : y;
            return x < y ? x : y;
          });
        })
        .Case([&](NegFOp) { return floatUnary(op, [](auto x) { return -x; }); })
        // arith: conversions.
        .Case([&](TruncIOp o) {
          unsigned srcBits = infoOf(elementTypeOf(o.getIn().getType())).bits;
          unsigned bits = infoOf(elementTypeOf(o.getType())).bits;
          bool nsw = o.hasNoSignedWrap(), nuw = o.hasNoUnsignedWrap();
          const Tile &a = get(o.getIn());
          for (size_t i = 0; i < a.size(); ++i) {
            int64_t x = a.data[i].i;
            if ((nsw && wrapInt(static_cast<uint64_t>(x), bits) != x) ||
                (nuw && zextInt(x, srcBits) != zextInt(x, bits)))
              return fail(op, std::string("'arith.trunci' gives poison (") +
                                  (nsw ? "nsw" : "nuw") + ", but " +
                                  std::to_string(x) + " does not fit) in " +
                                  program() + atElement(a.shape, i));
          }
          return convert(op, [bits](Elem x) {
            x.i = wrapInt(static_cast<uint64_t>(x.i), bits);
            return x;
          });
        })
        .Case<ExtSIOp, IndexCastOp>([&](Operation *) {
          // Operands are sign-extended already: extending keeps the value,
          // truncating wraps it to the result's width.
          unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
          return convert(op, [bits](Elem x) {
            x.i = wrapInt(static_cast<uint64_t>(x.i), bits);
            return x;
          });
        })
        .Case<ExtUIOp, IndexCastUIOp>([&](Operation *) {
          unsigned srcBits = infoOf(elementTypeOf(op->getOperand(0).getType())).bits;
          unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
          return convert(op, [=](Elem x) {
            x.i = wrapInt(zextInt(x.i, srcBits), bits);
            return x;
          });
        })
        .Case<SIToFPOp, UIToFPOp>([&](Operation *) {
          unsigned srcBits = infoOf(elementTypeOf(op->getOperand(0).getType())).bits;
          FloatKind kind = infoOf(elementTypeOf(op->getResult(0).getType())).floatKind;
          bool isUnsigned = isa<UIToFPOp>(op);
          return convert(op, [=](Elem x) {
            Elem e;
            e.f = intToFloat(x.i, srcBits, isUnsigned, kind);
            return e;
          });
        })
        .Case<FPToSIOp, FPToUIOp>([&](Operation *) {
          unsigned bits = infoOf(elementTypeOf(op->getResult(0).getType())).bits;
          bool isUnsigned = isa<FPToUIOp>(op);
          return convert(op, [=](Elem x) {
            Elem e;
            e.i = saturateToInt(std::trunc(x.f), bits, isUnsigned);
            return e;
          });
        })
        .Case([&](ExtFOp) { return convert(op, [](Elem x) { return x; }); })
        .Case([&](TruncFOp o) { // to nearest even (KernelOps.h refuses modes)
          FloatKind kind = infoOf(elementTypeOf(o.getType())).floatKind;
          return convert(op, [=](Elem x) {
            x.f = roundFloat(kind, x.f);
            return x;
          });
        })
        .Case([&](arith::BitcastOp) { return bitcast(op); })
        // math, through the C library in the type's precision.
        .Case([&](math::AbsFOp) { return floatUnary(op, [](auto x) { return std::fabs(x); }); })
        .Case([&](math::SqrtOp) { return floatUnary(op, [](auto x) { return std::sqrt(x); }); })
        .Case([&](math::RsqrtOp) {
          return floatUnary(op, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
        })
        .Case([&](math::ExpOp) { return floatUnary(op, [](auto x) { return std::exp(x); }); })
        .Case([&](math::Exp2Op) { return floatUnary(op, [](auto x) { return std::exp2(x); }); })
        .Case([&](math::ExpM1Op) { return floatUnary(op, [](auto x) { return std::expm1(x); }); })
        .Case([&](math::LogOp) { return floatUnary(op, [](auto x) { return std::log(x); }); })
        .Case([&](math::Log2Op) { return floatUnary(op, [](auto x) { return std::log2(x); }); })
        .Case([&](math::Log10Op) { return floatUnary(op, [](auto x) { return std::log10(x); }); })
        .Case([&](math::Log1pOp) { return floatUnary(op, [](auto x) { return std::log1p(x); }); })
        .Case([&](math::SinOp) { return floatUnary(op, [](auto x) { return std::sin(x); }); })
        .Case([&](math::CosOp) { return floatUnary(op, [](auto x) { return std::cos(x); }); })
        .Case([&](math::TanOp) { return floatUnary(op, [](auto x) { return std::tan(x); }); })
        .Case([&](math::TanhOp) { return floatUnary(op, [](auto x) { return std::tanh(x); }); })
        .Case([&](math::AtanOp) { return floatUnary(op, [](auto x) { return std::atan(x); }); })
        .Case([&](math::AcosOp) { return floatUnary(op, [](auto x) { return std::acos(x); }); })
        .Case([&](math::AsinOp) { return floatUnary(op, [](auto x) { return std::asin(x); }); })
        .Case([&](math::AcoshOp) { return floatUnary(op, [](auto x) { return std::acosh(x); }); })
        .Case([&](math::AsinhOp) { return floatUnary(op, [](auto x) { return std::asinh(x); }); })
        .Case([&](math::AtanhOp) { return floatUnary(op, [](auto x) { return std::atanh(x); }); })
        .Case([&](math::CoshOp) { return floatUnary(op, [](auto x) { return std::cosh(x); }); })
        .Case([&](math::SinhOp) { return floatUnary(op, [](auto x) { return std::sinh(x); }); })
        .Case([&](math::ErfcOp) { return floatUnary(op, [](auto x) { return std::erfc(x); }); })
        .Case([&](math::FPowIOp o) { return powi(o); })
        .Case([&](math::IsFiniteOp) {
          return classify(op, [](double x) { return std::isfinite(x); });
        })
        .Case([&](math::IsInfOp) { return classify(op, [](double x) { return std::isinf(x); }); })
        .Case([&](math::IsNaNOp) { return classify(op, [](double x) { return std::isnan(x); }); })
        .Case([&](math::ErfOp) { return floatUnary(op, [](auto x) { return std::erf(x); }); })
        .Case([&](math::CbrtOp) { return floatUnary(op, [](auto x) { return std::cbrt(x); }); })
        .Case([&](math::FloorOp) { return floatUnary(op, [](auto x) { return std::floor(x); }); })
        .Case([&](math::CeilOp) { return floatUnary(op, [](auto x) { return std::ceil(x); }); })
        .Case([&](math::TruncOp) { return floatUnary(op, [](auto x) { return std::trunc(x); }); })
        .Case([&](math::RoundOp) { return floatUnary(op, [](auto x) { return std::round(x); }); })
        .Case([&](math::RoundEvenOp) {
          return floatUnary(op, [](auto x) { return std::nearbyint(x); });
        })
        .Case([&](math::Atan2Op) {
          return floatBinary(op, [](auto x, auto y) { return std::atan2(x, y); });
        })
        .Case([&](math::PowFOp) {
          return floatBinary(op, [](auto x, auto y) { return std::pow(x, y); });
        })
        .Case([&](math::CopySignOp) {
          return floatBinary(op, [](auto x, auto y) { return std::copysign(x, y); });
        })
        .Case([&](math::FmaOp) {
          const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1)),
                     &c = get(op->getOperand(2));
          Tile out = makeTile(op->getResult(0).getType());
          floatMap(infoOf(elementTypeOf(op->getResult(0).getType())).floatKind, out,
                   [](auto x, auto y, auto z) { return std::fma(x, y, z); },
                   {&a, &b, &c});
          set(op->getResult(0), std::move(out));
          return true;
        })
        .Default([&](Operation *o) {
          // run() refuses what KernelOps.h does not list: this is a gap
          // between that table and the interpreter.
          return fail(o, "the interpreter does not implement '" +
                             o->getName().getStringRef() +
                             "', which kernels may contain (KernelOps.h)");
        });
  }
};

} // namespace

struct Interpreter::Impl : Memory {};

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(Options options) : impl(std::make_unique<Impl>()) {
  impl->options = options;
}

Interpreter::~Interpreter() = default;

std::optional<std::string> Interpreter::addBuffer(const void *data,
                                                  uint64_t bytes,
                                                  std::string name,
                                                  bool initialized) {
  uint64_t base = reinterpret_cast<uintptr_t>(data);
  if (!data || bytes == 0)
    return "buffer '" + name + "' is empty (null or 0 bytes)";
  if (base + bytes < base)
    return "buffer '" + name + "' wraps around the address space";
  auto next = impl->buffers.lower_bound(base);
  if (next != impl->buffers.end() && next->first < base + bytes)
    return "buffer '" + name + "' overlaps buffer '" + next->second.name + "'";
  if (next != impl->buffers.begin()) {
    const Buffer &prev = std::prev(next)->second;
    if (prev.base + prev.bytes > base)
      return "buffer '" + name + "' overlaps buffer '" + prev.name + "'";
  }
  Buffer buffer;
  buffer.base = base;
  buffer.bytes = bytes;
  buffer.name = std::move(name);
  if (!initialized && impl->options.checkUninitialized)
    buffer.written.assign((bytes + 63) / 64, 0);
  impl->buffers.emplace(base, std::move(buffer));
  return std::nullopt;
}

void Interpreter::clearBuffers() { impl->buffers.clear(); }

std::optional<std::string> Interpreter::run(func::FuncOp kernel, Grid grid,
                                            llvm::ArrayRef<const void *> args) {
  if (!kernel || kernel.isExternal())
    return std::string("the kernel has no body");
  std::string name = kernel.getSymName().str();
  FunctionType type = kernel.getFunctionType();
  if (type.getNumResults() != 0)
    return "kernel '" + name + "' returns values; kernels return nothing";
  if (args.size() != type.getNumInputs())
    return "kernel '" + name + "' takes " + std::to_string(type.getNumInputs()) +
           " arguments, but " + std::to_string(args.size()) + " were given";
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return "the grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) +
           ", " + std::to_string(grid.z) + ") is empty; every dimension must "
           "be at least 1";

  // What the compiler would refuse (KernelOps.h), refused the same way.
  std::optional<std::string> refused;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == kernel.getOperation())
      return WalkResult::advance();
    if (std::optional<std::string> why = tile::whyNotKernelOp(op)) {
      refused = formatLocation(op->getLoc()) + ": " + *why;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (refused)
    return refused;

  std::vector<Tile> values;
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (isa<tile::TensorDescType>(argType)) {
      // The address of a TensorDescriptor, checked once here.
      const auto *desc = args[i] ? *static_cast<const TensorDescriptor *const *>(args[i])
                                 : nullptr;
      if (!desc || !desc->base || desc->rows < 0 || desc->cols < 0 ||
          desc->rowStride < desc->cols)
        return "argument " + std::to_string(i) + " of kernel '" + name +
               "' must point at a tensor descriptor (base, rows, cols and a "
               "row stride of at least cols)";
      Tile tile;
      tile.data.push_back(Elem{static_cast<int64_t>(reinterpret_cast<uintptr_t>(desc))});
      values.push_back(std::move(tile));
      continue;
    }
    if (isa<RankedTensorType>(argType) || !isSupportedElement(argType))
      return "kernel '" + name + "' argument " + std::to_string(i) +
             " has a type the launch ABI cannot pass";
    if (!args[i])
      return "argument " + std::to_string(i) + " of kernel '" + name +
             "' is a null pointer (it must point at the value)";
    ElemInfo info = infoOf(argType);
    unsigned bytes = info.kind == ElemInfo::Ptr ? 8 : (info.bits + 7) / 8;
    uint64_t bits = 0;
    std::memcpy(&bits, args[i], bytes);
    Tile tile;
    tile.data.push_back(elemFromBits(info, bits));
    // The compiled kernel relies on these hints (vector widths, mask
    // uniformity); a value that breaks one would run wrongly on the GPU.
    for (llvm::StringRef hint : {tile::TileDialect::kDivisibilityAttr,
                                 tile::TileDialect::kAlignmentAttr})
      if (auto attr = kernel.getArgAttrOfType<IntegerAttr>(i, hint)) {
        int64_t divisor = attr.getInt();
        int64_t value = tile.data[0].i;
        bool isPtr = info.kind == ElemInfo::Ptr;
        if (divisor > 0 && (isPtr ? static_cast<uint64_t>(value) % divisor
                                  : value % divisor) != 0)
          return "argument " + std::to_string(i) + " of kernel '" + name +
                 "' is " + (isPtr ? hex(value) : std::to_string(value)) +
                 ", but its " + hint.str() + " promises a multiple of " +
                 std::to_string(divisor) + (isPtr ? " bytes" : "");
      }
    values.push_back(std::move(tile));
  }

  uint64_t maxSteps = kDefaultMaxSteps;
  if (impl->options.maxSteps) {
    maxSteps = *impl->options.maxSteps;
  } else if (auto limit = env::get(env::Knob::InterpMaxSteps)) {
    if (llvm::StringRef(*limit).getAsInteger(10, maxSteps))
      return "LLK_INTERP_MAX_STEPS must be a number of ops (0: no limit), got '" +
             *limit + "'";
  }

  for (uint32_t z = 0; z < grid.z; ++z)
    for (uint32_t y = 0; y < grid.y; ++y)
      for (uint32_t x = 0; x < grid.x; ++x) {
        Executor executor(*impl, grid, x, y, z, name, maxSteps);
        if (!executor.runKernel(kernel, values))
          return executor.error;
      }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Loading kernels
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp>
llk::interp::parseKernelSource(MLIRContext &context, llvm::StringRef source,
                               llvm::StringRef bufferName,
                               const llk::Constants &constants,
                               std::string &error) {
  error.clear();
  llvm::raw_string_ostream errors(error);
  KernelSource kernelSource(
      context, llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), errors);
  OwningOpRef<ModuleOp> module = kernelSource.parse(constants);
  if (!module && error.empty())
    error = bufferName.str() + ": cannot parse the kernel source";
  return module;
}

OwningOpRef<ModuleOp>
llk::interp::loadKernelSource(MLIRContext &context, llvm::StringRef path,
                              const llk::Constants &constants,
                              std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = "cannot read '" + path.str() + "': " + file.getError().message();
    return nullptr;
  }
  return parseKernelSource(context, (*file)->getBuffer(), path, constants, error);
}

func::FuncOp llk::interp::findKernel(ModuleOp module, llvm::StringRef name,
                                     std::string &error) {
  std::vector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      kernels.push_back(func);
  std::string names;
  for (auto func : kernels)
    names += (names.empty() ? "" : ", ") + func.getSymName().str();
  if (!name.empty()) {
    for (auto func : kernels)
      if (func.getSymName() == name)
        return func;
    error = "no kernel named '" + name.str() + "'" +
            (names.empty() ? "; the module has none" : "; the module has: " + names);
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  error = kernels.empty() ? "the module holds no kernel"
                          : "the module holds several kernels (" + names +
                                "); name one";
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Host data
//===----------------------------------------------------------------------===//

std::optional<ElemType> llk::interp::parseElemType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElemType>>(name)
      .Case("f64", ElemType::F64)
      .Case("f32", ElemType::F32)
      .Case("f16", ElemType::F16)
      .Case("bf16", ElemType::BF16)
      .Case("i64", ElemType::I64)
      .Case("i32", ElemType::I32)
      .Case("i16", ElemType::I16)
      .Case("i8", ElemType::I8)
      .Default(std::nullopt);
}

llvm::StringRef llk::interp::elemTypeName(ElemType type) {
  switch (type) {
  case ElemType::F64: return "f64";
  case ElemType::F32: return "f32";
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  case ElemType::I64: return "i64";
  case ElemType::I32: return "i32";
  case ElemType::I16: return "i16";
  case ElemType::I8: return "i8";
  }
  return "?";
}

Type llk::interp::toMLIRType(MLIRContext &context, ElemType type) {
  Builder b(&context);
  switch (type) {
  case ElemType::F64: return b.getF64Type();
  case ElemType::F32: return b.getF32Type();
  case ElemType::F16: return b.getF16Type();
  case ElemType::BF16: return b.getBF16Type();
  case ElemType::I64: return b.getI64Type();
  case ElemType::I32: return b.getI32Type();
  case ElemType::I16: return b.getI16Type();
  case ElemType::I8: return b.getI8Type();
  }
  return Type();
}

size_t llk::interp::elemTypeSize(ElemType type) {
  switch (type) {
  case ElemType::F64: case ElemType::I64: return 8;
  case ElemType::F32: case ElemType::I32: return 4;
  case ElemType::F16: case ElemType::BF16: case ElemType::I16: return 2;
  case ElemType::I8: return 1;
  }
  return 0;
}

bool llk::interp::isFloat(ElemType type) {
  return type == ElemType::F64 || type == ElemType::F32 ||
         type == ElemType::F16 || type == ElemType::BF16;
}

static ElemInfo hostInfo(ElemType type) {
  ElemInfo info{};
  switch (type) {
  case ElemType::F64: info = {ElemInfo::Float, 64, FloatKind::F64, 0, {}}; break;
  case ElemType::F32: info = {ElemInfo::Float, 32, FloatKind::F32, 0, {}}; break;
  case ElemType::F16: info = {ElemInfo::Float, 16, FloatKind::F16, 0, {}}; break;
  case ElemType::BF16: info = {ElemInfo::Float, 16, FloatKind::BF16, 0, {}}; break;
  case ElemType::I64: info.kind = ElemInfo::Int; info.bits = 64; break;
  case ElemType::I32: info.kind = ElemInfo::Int; info.bits = 32; break;
  case ElemType::I16: info.kind = ElemInfo::Int; info.bits = 16; break;
  case ElemType::I8: info.kind = ElemInfo::Int; info.bits = 8; break;
  }
  return info;
}

void llk::interp::encodeElement(ElemType type, double value, void *dst) {
  ElemInfo info = hostInfo(type);
  Elem e;
  if (info.kind == ElemInfo::Float)
    e.f = roundFloat(info.floatKind, value);
  else
    e.i = saturateToInt(std::trunc(value), info.bits, false);
  uint64_t bits = elemBits(info, e);
  std::memcpy(dst, &bits, elemTypeSize(type));
}

double llk::interp::decodeElement(ElemType type, const void *src) {
  ElemInfo info = hostInfo(type);
  uint64_t bits = 0;
  std::memcpy(&bits, src, elemTypeSize(type));
  Elem e = elemFromBits(info, bits);
  return info.kind == ElemInfo::Float ? e.f : static_cast<double>(e.i);
}
