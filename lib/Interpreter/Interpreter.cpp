//===- Interpreter.cpp - run tile kernels on the CPU ----------------------===//
//
// The interpreter's interface: registering buffers, checking a launch (the
// kernel's ops against KernelOps.h, its arguments against the launch ABI and
// their hints) and running each program of the grid on an Executor
// (Executor.h); loading kernel sources; host data in kernels' element types.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llk/Compiler/KernelSource.h"
#include "llk/Dialect/Tile/IR/KernelOps.h"
#include "llk/Environment.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp;
using namespace llk::interp::detail;

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

  bool deviceDebug = impl->options.deviceDebug.value_or(
      env::isOn(env::Knob::DeviceDebug));
  for (uint32_t z = 0; z < grid.z; ++z)
    for (uint32_t y = 0; y < grid.y; ++y)
      for (uint32_t x = 0; x < grid.x; ++x) {
        Executor executor(*impl, grid, x, y, z, name, maxSteps, deviceDebug);
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
      .Case("f8E4M3FN", ElemType::F8E4M3FN)
      .Case("f8E5M2", ElemType::F8E5M2)
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
  case ElemType::F8E4M3FN: return "f8E4M3FN";
  case ElemType::F8E5M2: return "f8E5M2";
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
  case ElemType::F8E4M3FN: return b.getType<Float8E4M3FNType>();
  case ElemType::F8E5M2: return b.getType<Float8E5M2Type>();
  }
  return Type();
}

size_t llk::interp::elemTypeSize(ElemType type) {
  switch (type) {
  case ElemType::F64: case ElemType::I64: return 8;
  case ElemType::F32: case ElemType::I32: return 4;
  case ElemType::F16: case ElemType::BF16: case ElemType::I16: return 2;
  case ElemType::I8: case ElemType::F8E4M3FN: case ElemType::F8E5M2: return 1;
  }
  return 0;
}

bool llk::interp::isFloat(ElemType type) {
  return type == ElemType::F64 || type == ElemType::F32 ||
         type == ElemType::F16 || type == ElemType::BF16 ||
         type == ElemType::F8E4M3FN || type == ElemType::F8E5M2;
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
  case ElemType::F8E4M3FN: info = {ElemInfo::Float, 8, FloatKind::F8E4M3FN, 0, {}}; break;
  case ElemType::F8E5M2: info = {ElemInfo::Float, 8, FloatKind::F8E5M2, 0, {}}; break;
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
