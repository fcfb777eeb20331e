//===- llk-run.cpp - run one tile kernel on the CPU interpreter -----------===//
//
//   llk-run examples/softmax.mlir -D BLOCK=128 --grid 4 \
//     --arg out=f32[4x100]:empty --arg x=f32[4x100]:randn \
//     --arg in_stride=i32:100 --arg out_stride=i32:100 --arg n=i32:100 \
//     --expect out=ref.bin --rtol 1e-5
//
// One --arg per kernel argument, in order: NAME=TYPE[DIMS]:FILL for a
// pointer (a buffer of DIMS elements of TYPE, filled with randn, rand, zeros,
// ones, iota, or empty: uninitialized, and reads of it before a write are
// errors), NAME=TYPE:VALUE for a scalar. Prints the buffers the kernel wrote
// (or those named by --print), saves (--save) or compares (--expect) them.
// Every failure is a message and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "llk/Compiler/KernelSource.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/InitAllDialects.h"
#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace llk;
using namespace llk::interp;
namespace cl = llvm::cl;

static cl::OptionCategory category("llk-run options");
static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<kernel.mlir>"), cl::cat(category));
static cl::list<std::string> defines("D", cl::Prefix,
                                     cl::desc("bind ${NAME} in the source to an integer or an "
                                              "element type"),
                                     cl::value_desc("NAME=VALUE"), cl::cat(category));
static cl::opt<std::string> kernelName("kernel", cl::desc("kernel to run (default: the only one)"),
                                       cl::cat(category));
static cl::opt<std::string> gridSpec("grid", cl::init("1"),
                                     cl::desc("programs along x[,y[,z]] (default 1)"),
                                     cl::cat(category));
static cl::list<std::string> argSpecs("arg",
                                      cl::desc("one per kernel argument, in order: "
                                               "NAME=TYPE[DIMS]:FILL or NAME=TYPE:VALUE"),
                                      cl::cat(category));
static cl::opt<uint64_t> seedOption("seed", cl::desc("seed of the random fills (default: random)"),
                                    cl::cat(category));
static cl::list<std::string> printNames("print",
                                        cl::desc("buffers to print (default: those written)"),
                                        cl::cat(category));
static cl::opt<unsigned> printLimit("print-limit", cl::init(16),
                                    cl::desc("elements printed per buffer (0: all)"),
                                    cl::cat(category));
static cl::list<std::string> saves("save", cl::desc("write a buffer's bytes to a file"),
                                   cl::value_desc("NAME=PATH"), cl::cat(category));
static cl::list<std::string> expects("expect",
                                     cl::desc("compare a buffer with a file of its raw elements"),
                                     cl::value_desc("NAME=PATH"), cl::cat(category));
static cl::opt<bool> deviceDebug("device-debug",
                                 cl::desc("run tile.print and tile.assert, as "
                                          "llkc --device-debug compiles them (default: "
                                          "LLK_DEVICE_DEBUG)"),
                                 cl::cat(category));
static cl::opt<double> rtol("rtol", cl::init(1e-5),
                            cl::desc("largest ||out - ref|| / ||ref|| for --expect"),
                            cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "llk-run") << message << "\n";
  return 1;
}

namespace {
struct ArgValue {
  std::string name;
  ElemType type;
  bool isBuffer = false;
  // Buffers.
  std::vector<int64_t> shape;
  std::string fill;
  std::vector<uint8_t> bytes, before;
  // Scalars: the value's bits in the type's width.
  uint64_t bits = 0;

  size_t count() const { return bytes.size() / elemTypeSize(type); }
  std::string typeText() const {
    std::string text = elemTypeName(type).str();
    if (isBuffer) {
      text += "[";
      for (size_t d = 0; d < shape.size(); ++d)
        text += (d ? "x" : "") + std::to_string(shape[d]);
      text += "]";
    }
    return text;
  }
};
} // namespace

/// The largest buffer: the interpreter takes seconds per million elements,
/// so this is far past any useful run, and each buffer is held twice.
static constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 30;

static const llvm::fltSemantics &floatSemantics(ElemType type) {
  switch (type) {
  case ElemType::F64: return llvm::APFloat::IEEEdouble();
  case ElemType::F32: return llvm::APFloat::IEEEsingle();
  case ElemType::F16: return llvm::APFloat::IEEEhalf();
  default: return llvm::APFloat::BFloat();
  }
}

/// Parses `text` as a value of `type` into `bits`: an integer in the type's
/// (signed) range, or a finite float rounded to the type once.
static std::optional<std::string> parseScalar(llvm::StringRef text, ElemType type,
                                              uint64_t &bits) {
  std::string typeName = elemTypeName(type).str();
  if (isFloat(type)) {
    llvm::APFloat value(floatSemantics(type));
    auto status = value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return "'" + text.str() + "' is not a number";
    }
    if (*status & llvm::APFloat::opOverflow)
      return "'" + text.str() + "' is out of range for " + typeName;
    if (!value.isFinite())
      return "'" + text.str() + "' is not a finite number";
    bits = value.bitcastToAPInt().getZExtValue();
    return std::nullopt;
  }
  llvm::StringRef digits = text;
  digits.consume_front("-");
  if (digits.empty() || !llvm::all_of(digits, llvm::isDigit))
    return typeName + " needs an integer, got '" + text.str() + "'";
  unsigned width = elemTypeSize(type) * 8;
  int64_t max = int64_t((uint64_t(1) << (width - 1)) - 1), min = -max - 1;
  int64_t value;
  if (text.getAsInteger(10, value) || value < min || value > max)
    return "'" + text.str() + "' is out of range for " + typeName + " [" +
           std::to_string(min) + ", " + std::to_string(max) + "]";
  bits = uint64_t(value) & (width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1);
  return std::nullopt;
}

/// Parses NAME=TYPE[DIMS]:FILL or NAME=TYPE:VALUE.
static std::optional<std::string> parseArg(llvm::StringRef spec, ArgValue &arg) {
  auto [name, rest] = spec.split('=');
  if (name.empty() || rest.empty())
    return "expected NAME=TYPE[DIMS]:FILL or NAME=TYPE:VALUE, got '" + spec.str() + "'";
  arg.name = name.str();
  auto [typeText, after] = rest.split(':');
  if (!rest.contains(':'))
    return "--arg " + arg.name + ": missing ':FILL' or ':VALUE' after the type";
  llvm::StringRef elem = typeText, dims;
  if (size_t open = typeText.find('['); open != llvm::StringRef::npos) {
    if (!typeText.ends_with("]"))
      return "--arg " + arg.name + ": unclosed '[' in '" + typeText.str() + "'";
    elem = typeText.take_front(open);
    dims = typeText.slice(open + 1, typeText.size() - 1);
    arg.isBuffer = true;
  }
  std::optional<ElemType> type = parseElemType(elem);
  if (!type)
    return "--arg " + arg.name + ": unknown element type '" + elem.str() +
           "'; expected f64, f32, f16, bf16, i64, i32, i16, i8, "
           "f8E4M3FN or f8E5M2";
  arg.type = *type;
  if (!arg.isBuffer) {
    if (auto error = parseScalar(after, arg.type, arg.bits))
      return "--arg " + arg.name + ": " + *error;
    return std::nullopt;
  }
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, 'x');
  uint64_t count = 1, size = elemTypeSize(arg.type);
  for (llvm::StringRef part : parts) {
    uint64_t d;
    if (part.getAsInteger(10, d) || d == 0)
      return "--arg " + arg.name + ": dimensions must be positive integers "
             "separated by 'x', got '[" + dims.str() + "]'";
    // count * d * size <= kMaxBufferBytes, without overflow.
    if (d > kMaxBufferBytes / size / count)
      return "--arg " + arg.name + ": " + elem.str() + "[" + dims.str() +
             "] is larger than llk-run's limit of " + std::to_string(kMaxBufferBytes) +
             " bytes a buffer";
    arg.shape.push_back(int64_t(d));
    count *= d;
  }
  static const char *fills[] = {"randn", "rand", "zeros", "ones", "iota", "empty"};
  if (!llvm::is_contained(fills, after))
    return "--arg " + arg.name + ": unknown fill '" + after.str() +
           "'; expected randn, rand, zeros, ones, iota or empty";
  arg.fill = after.str();
  arg.bytes.assign(count * elemTypeSize(arg.type), 0);
  return std::nullopt;
}

static void fillBuffer(ArgValue &arg, std::mt19937_64 &rng) {
  size_t size = elemTypeSize(arg.type);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  std::uniform_int_distribution<int> small(-100, 100);
  for (size_t i = 0; i < arg.count(); ++i) {
    double v = 0;
    if (arg.fill == "randn")
      v = isFloat(arg.type) ? normal(rng) : small(rng);
    else if (arg.fill == "rand")
      v = isFloat(arg.type) ? uniform(rng) : small(rng) + 100;
    else if (arg.fill == "ones")
      v = 1;
    else if (arg.fill == "iota")
      v = static_cast<double>(i);
    else if (arg.fill == "empty")
      v = isFloat(arg.type) ? NAN : -1; // poison, and reads are checked
    encodeElement(arg.type, v, &arg.bytes[i * size]);
  }
}

static std::string describeKernelArgs(mlir::func::FuncOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(kernel.getArgumentTypes(), os);
  return text;
}

static void printBuffer(const ArgValue &arg) {
  size_t size = elemTypeSize(arg.type), n = arg.count();
  size_t shown = printLimit == 0 ? n : std::min<size_t>(n, printLimit);
  llvm::outs() << arg.name << " " << arg.typeText() << " = [";
  for (size_t i = 0; i < shown; ++i)
    llvm::outs() << (i ? ", " : "")
                 << llvm::format("%.6g", decodeElement(arg.type, &arg.bytes[i * size]));
  if (shown < n)
    llvm::outs() << ", ... (" << n << " elements)";
  llvm::outs() << "]\n";
}

/// Splits NAME=PATH and finds the buffer NAME.
static ArgValue *namedBuffer(llvm::StringRef spec, const char *option,
                             std::vector<ArgValue> &args, std::string &path,
                             std::string &error) {
  auto [name, file] = spec.split('=');
  if (name.empty() || file.empty()) {
    error = std::string(option) + " expects NAME=PATH, got '" + spec.str() + "'";
    return nullptr;
  }
  path = file.str();
  for (ArgValue &arg : args)
    if (arg.name == name) {
      if (!arg.isBuffer) {
        error = std::string(option) + ": '" + name.str() + "' is a scalar, not a buffer";
        return nullptr;
      }
      return &arg;
    }
  error = std::string(option) + ": no --arg named '" + name.str() + "'";
  return nullptr;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "run a tile kernel on the CPU interpreter\n");

  llk::Constants constants;
  for (const std::string &define : defines) {
    auto binding = llk::parseDefine(define);
    if (!binding)
      return fail(llvm::toString(binding.takeError()));
    constants.insert_or_assign(binding->first, binding->second);
  }
  Grid grid;
  {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(gridSpec).split(parts, ',');
    uint32_t *dims[3] = {&grid.x, &grid.y, &grid.z};
    // CUDA's limits, which the GPU would hold the same launch to.
    const uint64_t limits[3] = {(uint64_t(1) << 31) - 1, 65535, 65535};
    if (parts.size() > 3)
      return fail("--grid takes at most 3 dimensions, got '" + gridSpec + "'");
    for (size_t i = 0; i < parts.size(); ++i) {
      uint64_t d;
      if (parts[i].trim().getAsInteger(10, d) || d == 0)
        return fail("--grid expects positive integers x[,y[,z]], got '" + gridSpec + "'");
      if (d > limits[i])
        return fail("--grid " + llvm::Twine("xyz"[i]) + " is " + llvm::Twine(d) +
                    ", above CUDA's limit of " + llvm::Twine(limits[i]));
      *dims[i] = uint32_t(d);
    }
  }

  std::vector<ArgValue> args(argSpecs.size());
  for (size_t i = 0; i < argSpecs.size(); ++i) {
    if (auto error = parseArg(argSpecs[i], args[i]))
      return fail(*error);
    for (size_t j = 0; j < i; ++j)
      if (args[j].name == args[i].name)
        return fail("--arg name '" + args[i].name + "' is used twice");
  }

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  auto module = loadKernelSource(context, inputFilename, constants, error);
  if (!module) {
    llvm::errs() << error;
    return 1;
  }
  mlir::func::FuncOp kernel = findKernel(*module, kernelName, error);
  if (!kernel)
    return fail(error);

  // Arguments must match the kernel's, in number and type.
  auto types = kernel.getArgumentTypes();
  if (types.size() != args.size())
    return fail("kernel '" + kernel.getSymName() + "' takes " +
                llvm::Twine(types.size()) + " arguments (" + describeKernelArgs(kernel) +
                "), but " + llvm::Twine(args.size()) + " --arg were given");
  for (size_t i = 0; i < args.size(); ++i) {
    mlir::Type want = types[i];
    mlir::Type elem = toMLIRType(context, args[i].type);
    std::string wantText;
    llvm::raw_string_ostream os(wantText);
    os << want;
    if (auto ptr = llvm::dyn_cast<tile::PtrType>(want)) {
      if (!args[i].isBuffer || ptr.getPointeeType() != elem) {
        std::string pointee;
        llvm::raw_string_ostream ps(pointee);
        ps << ptr.getPointeeType();
        return fail("--arg " + args[i].name + " (" + args[i].typeText() + ") is argument " +
                    llvm::Twine(i) + " of '" + kernel.getSymName() + "', which is " +
                    wantText + ": give a buffer of " + pointee + ", e.g. " +
                    args[i].name + "=" + pointee + "[1024]:randn");
      }
    } else if (args[i].isBuffer || want != elem) {
      return fail("--arg " + args[i].name + " (" + args[i].typeText() + ") is argument " +
                  llvm::Twine(i) + " of '" + kernel.getSymName() + "', which is the scalar " +
                  wantText);
    }
  }

  uint64_t seed = seedOption.getNumOccurrences() ? seedOption.getValue()
                                                  : std::random_device{}();
  std::mt19937_64 rng(seed);
  Options options;
  options.checkUninitialized = true;
  if (deviceDebug)
    options.deviceDebug = true;
  Interpreter interpreter(options);
  KernelArgs launch;
  bool anyRandom = false;
  for (ArgValue &arg : args) {
    if (!arg.isBuffer) {
      // The bits in the type's width, zero above it: as add<T> of the value.
      launch.add<uint64_t>(arg.bits);
      continue;
    }
    anyRandom |= arg.fill == "randn" || arg.fill == "rand";
    fillBuffer(arg, rng);
    arg.before = arg.bytes;
    if (auto err = interpreter.addBuffer(arg.bytes.data(), arg.bytes.size(), arg.name,
                                         arg.fill != "empty"))
      return fail(*err);
    launch.addPointer(arg.bytes.data());
  }
  if (anyRandom)
    llvm::outs() << "seed " << seed << " (--seed " << seed << " repeats this run)\n";

  if (auto err = interpreter.run(kernel, grid, launch.pointers()))
    return fail(*err);
  llvm::outs() << "ran " << kernel.getSymName() << " over " << grid.x << "x" << grid.y
               << "x" << grid.z << " programs\n";

  for (ArgValue &arg : args) {
    bool named = llvm::is_contained(printNames, arg.name);
    bool wrote = arg.isBuffer && arg.bytes != arg.before;
    if (arg.isBuffer && (named || (printNames.empty() && wrote)))
      printBuffer(arg);
  }
  for (const std::string &name : printNames)
    if (!llvm::any_of(args, [&](const ArgValue &a) { return a.name == name && a.isBuffer; }))
      return fail("--print: no buffer named '" + name + "'");

  for (const std::string &spec : saves) {
    std::string path;
    ArgValue *arg = namedBuffer(spec, "--save", args, path, error);
    if (!arg)
      return fail(error);
    std::error_code ec;
    llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    file.write(reinterpret_cast<const char *>(arg->bytes.data()), arg->bytes.size());
    file.close();
    if (file.has_error()) { // a full disk: an error, not the stream's abort
      std::string why = file.error().message();
      file.clear_error();
      return fail("cannot write '" + path + "': " + why);
    }
  }

  bool mismatch = false;
  for (const std::string &spec : expects) {
    std::string path;
    ArgValue *arg = namedBuffer(spec, "--expect", args, path, error);
    if (!arg)
      return fail(error);
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file)
      return fail("cannot read '" + path + "': " + file.getError().message());
    llvm::StringRef ref = (*file)->getBuffer();
    if (ref.size() != arg->bytes.size())
      return fail("--expect " + arg->name + ": '" + path + "' has " +
                  llvm::Twine(ref.size()) + " bytes, but " + arg->name + " (" +
                  arg->typeText() + ") has " + llvm::Twine(arg->bytes.size()));
    size_t size = elemTypeSize(arg->type);
    double diff = 0, norm = 0, maxAbs = 0;
    for (size_t i = 0; i < arg->count(); ++i) {
      double got = decodeElement(arg->type, &arg->bytes[i * size]);
      double want = decodeElement(arg->type, ref.data() + i * size);
      diff += (got - want) * (got - want);
      norm += want * want;
      maxAbs = std::max(maxAbs, std::abs(got - want));
      if (std::isnan(got) != std::isnan(want))
        diff = NAN;
    }
    double rel = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
    bool ok = rel <= rtol;
    mismatch |= !ok;
    llvm::outs() << arg->name << " vs " << path << ": rel. error "
                 << llvm::format("%.3g", rel) << ", max abs error "
                 << llvm::format("%.3g", maxAbs) << (ok ? " <= " : " > ") << "rtol "
                 << llvm::format("%g", rtol.getValue()) << (ok ? ": ok\n" : ": MISMATCH\n");
  }
  return mismatch ? 1 : 0;
}
