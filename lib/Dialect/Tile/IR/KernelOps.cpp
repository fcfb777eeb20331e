//===- KernelOps.cpp - the operations a tile kernel may contain -----------===//

#include "llk/Dialect/Tile/IR/KernelOps.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace mlir;

namespace {

// Sorted (checked by the tests, and by an assertion below).
constexpr llvm::StringLiteral kKernelOps[] = {
    "arith.addf",
    "arith.addi",
    "arith.addui_extended",
    "arith.andi",
    "arith.bitcast",
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.cmpf",
    "arith.cmpi",
    "arith.constant",
    "arith.divf",
    "arith.divsi",
    "arith.divui",
    "arith.extf",
    "arith.extsi",
    "arith.extui",
    "arith.floordivsi",
    "arith.fptosi",
    "arith.fptoui",
    "arith.index_cast",
    "arith.index_castui",
    "arith.maximumf",
    "arith.maxnumf",
    "arith.maxsi",
    "arith.maxui",
    "arith.minimumf",
    "arith.minnumf",
    "arith.minsi",
    "arith.minui",
    "arith.mulf",
    "arith.muli",
    "arith.mulsi_extended",
    "arith.mului_extended",
    "arith.negf",
    "arith.ori",
    "arith.remf",
    "arith.remsi",
    "arith.remui",
    "arith.select",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
    "arith.sitofp",
    "arith.subf",
    "arith.subi",
    "arith.truncf",
    "arith.trunci",
    "arith.uitofp",
    "arith.xori",
    "cf.br",
    "cf.cond_br",
    "cf.switch",
    "func.func",
    "func.return",
    "math.absf",
    "math.absi",
    "math.acos",
    "math.acosh",
    "math.asin",
    "math.asinh",
    "math.atan",
    "math.atan2",
    "math.atanh",
    "math.cbrt",
    "math.ceil",
    "math.copysign",
    "math.cos",
    "math.cosh",
    "math.ctlz",
    "math.ctpop",
    "math.cttz",
    "math.erf",
    "math.erfc",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.floor",
    "math.fma",
    "math.fpowi",
    "math.isfinite",
    "math.isinf",
    "math.isnan",
    "math.log",
    "math.log10",
    "math.log1p",
    "math.log2",
    "math.powf",
    "math.round",
    "math.roundeven",
    "math.rsqrt",
    "math.sin",
    "math.sinh",
    "math.sqrt",
    "math.tan",
    "math.tanh",
    "math.trunc",
    "scf.condition",
    "scf.for",
    "scf.if",
    "scf.index_switch",
    "scf.while",
    "scf.yield",
    "tile.addptr",
    "tile.assert",
    "tile.atomic_cas",
    "tile.atomic_rmw",
    "tile.barrier",
    "tile.bitcast",
    "tile.broadcast",
    "tile.cast",
    "tile.convert_layout",
    "tile.descriptor_load",
    "tile.dot",
    "tile.expand_dims",
    "tile.gather",
    "tile.generic_reduce",
    "tile.generic_scan",
    "tile.grid_dependency_wait",
    "tile.histogram",
    "tile.launch_dependents",
    "tile.load",
    "tile.make_range",
    "tile.max_constancy",
    "tile.max_contiguous",
    "tile.multiple_of",
    "tile.num_programs",
    "tile.prefetch",
    "tile.print",
    "tile.program_id",
    "tile.rand",
    "tile.randint",
    "tile.randint4x",
    "tile.randn",
    "tile.reduce",
    "tile.reshape",
    "tile.scan",
    "tile.sort",
    "tile.splat",
    "tile.static_assert",
    "tile.store",
    "tile.topk",
    "tile.trans",
    "tile.yield",
};

// The kernel ops that may hold fp8 values, sorted. fp8 is for storage and
// dots: these move, select, reinterpret (tile.bitcast), convert (tile.cast)
// or multiply (tile.dot) them, which the lowering (which holds fp8 as
// bytes) and the interpreter implement. Any other op with an fp8 operand or
// result is refused, so that an op added to kKernelOps takes no fp8 until it
// is added here too (with its lowering and a test).
constexpr llvm::StringLiteral kFp8Ops[] = {
    "arith.constant",
    "arith.select",
    "cf.br",
    "cf.cond_br",
    "cf.switch",
    "func.return",
    "scf.condition",
    "scf.for",
    "scf.if",
    "scf.index_switch",
    "scf.while",
    "scf.yield",
    "tile.bitcast",
    "tile.broadcast",
    "tile.cast",
    "tile.convert_layout",
    "tile.descriptor_load",
    "tile.dot",
    "tile.expand_dims",
    "tile.gather",
    "tile.load",
    "tile.reshape",
    "tile.sort",
    "tile.splat",
    "tile.store",
    "tile.topk",
    "tile.trans",
    "tile.yield",
};

/// What to write instead of an op kernels may not contain, where there is
/// something.
/// The short forms are written out when a kernel source is parsed, so only
/// a module made some other way holds one.
constexpr llvm::StringLiteral kShortForm =
    "it is a short form that the tile-desugar pass writes out as explicit "
    "ops (KernelSource runs it on every kernel source it parses): run it first";

std::optional<llvm::StringRef> replacementOf(llvm::StringRef name) {
  constexpr llvm::StringLiteral kPipelined =
      "it is made by the tile-software-pipeline pass: write tile.load (or "
      "tile.descriptor_load) and tile.dot, and let llkc pipeline the loop";
  constexpr llvm::StringLiteral kThreads =
      "threads are not visible in a tile kernel: ops act on whole tiles "
      "(tile.make_range gives element indices)";
  auto hint = llvm::StringSwitch<llvm::StringRef>(name)
                  .Case("gpu.printf",
                        "use tile.print, which prints each element once, "
                        "labelled with its program and index (compiled in "
                        "with --device-debug or LLK_DEVICE_DEBUG=1)")
                  .Case("cf.assert",
                        "use tile.assert (compiled in with --device-debug or "
                        "LLK_DEVICE_DEBUG=1), or tile.static_assert for a "
                        "condition on constants")
                  .Case("gpu.block_id", "use tile.program_id")
                  .Case("gpu.grid_dim", "use tile.num_programs")
                  .Case("gpu.barrier", "use tile.barrier")
                  .Cases({"gpu.thread_id", "gpu.lane_id", "gpu.block_dim",
                          "gpu.subgroup_id", "gpu.num_subgroups",
                          "gpu.subgroup_size", "gpu.shuffle"},
                         kThreads)
                  .Cases({"tile.local_alloc", "tile.local_load",
                          "tile.async_copy", "tile.async_commit",
                          "tile.async_wait", "tile.async_tma_copy",
                          "tile.async_tma_wait", "tile.dot_wait"},
                         kPipelined)
                  .Cases({"tile.add", "tile.sub", "tile.mul", "tile.div",
                          "tile.rem", "tile.min", "tile.max", "tile.and",
                          "tile.or", "tile.xor", "tile.cmp", "tile.where",
                          "tile.make_tensor_desc", "tile.descriptor_store"},
                         kShortForm)
                  .Cases({"func.call", "func.call_indirect"},
                         "inline the callee")
                  .Case("scf.execute_region",
                        "use scf.if, or cf.br / cf.cond_br between the "
                        "kernel's blocks")
                  .Cases({"scf.forall", "scf.parallel"},
                         "use scf.for; a tile op already acts on all its "
                         "elements at once")
                  .Case("math.clampf", "use arith.maxnumf and arith.minnumf")
                  .Case("math.sincos", "use math.sin and math.cos")
                  .Case("math.ipowi", "multiply in an scf.for")
                  .Case("math.isnormal",
                        "compare math.absf of the value with the smallest "
                        "normal number")
                  .Default("");
  if (!hint.empty())
    return hint;
  if (name.starts_with("index."))
    return llvm::StringRef("use the arith op on index values");
  return std::nullopt;
}

} // namespace

llvm::ArrayRef<llvm::StringLiteral> llk::tile::getKernelOpNames() {
  assert(std::is_sorted(std::begin(kKernelOps), std::end(kKernelOps),
                        [](llvm::StringRef a, llvm::StringRef b) { return a < b; }) &&
         "kKernelOps must be sorted");
  return kKernelOps;
}

llvm::ArrayRef<llvm::StringLiteral> llk::tile::getFp8OpNames() {
  assert(std::is_sorted(std::begin(kFp8Ops), std::end(kFp8Ops),
                        [](llvm::StringRef a, llvm::StringRef b) { return a < b; }) &&
         "kFp8Ops must be sorted");
  return kFp8Ops;
}

bool llk::tile::holdsFp8(llvm::StringRef name) {
  llvm::ArrayRef<llvm::StringLiteral> names = getFp8OpNames();
  auto it = llvm::lower_bound(
      names, name, [](llvm::StringRef a, llvm::StringRef b) { return a < b; });
  return it != names.end() && *it == name;
}

bool llk::tile::isKernelOp(llvm::StringRef name) {
  llvm::ArrayRef<llvm::StringLiteral> names = getKernelOpNames();
  auto it = llvm::lower_bound(
      names, name, [](llvm::StringRef a, llvm::StringRef b) { return a < b; });
  return it != names.end() && *it == name;
}

std::optional<std::string> llk::tile::whyNotKernelOp(llvm::StringRef name) {
  if (isKernelOp(name))
    return std::nullopt;
  std::string why = "'" + name.str() + "' cannot be used in a kernel";
  if (std::optional<llvm::StringRef> replacement = replacementOf(name))
    why += ": " + replacement->str();
  else
    why += " (neither llkc nor the interpreter supports it)";
  return why;
}

std::optional<std::string> llk::tile::whyNotKernelOp(Operation *op) {
  // A kernel op in a short form of it (tile.addptr of a scalar pointer and
  // tile offsets, a load of a descriptor made in the kernel).
  if (isShortForm(op))
    return "'" + op->getName().getStringRef().str() + "' of these operands " +
           "cannot be used in a kernel: " + kShortForm.str();
  if (std::optional<std::string> why = whyNotKernelOp(op->getName().getStringRef()))
    return why;
  // Lowered to LLVM's constrained fptrunc, whose rounding mode is only a
  // statement about the environment's: the GPU would round to nearest.
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (trunc.getRoundingmode())
      return std::string("'arith.truncf' with a rounding mode cannot be used "
                         "in a kernel: use tile.cast with rounding = rtz, rdn "
                         "or rup");
  // fp8 values only in the ops of kFp8Ops.
  if ((llvm::any_of(op->getOperandTypes(), llk::tile::isFp8) ||
       llvm::any_of(op->getResultTypes(), llk::tile::isFp8)) &&
      !holdsFp8(op->getName().getStringRef()))
    return "'" + op->getName().getStringRef().str() +
           "' computes in fp8, which kernels only load, store, convert "
           "(tile.cast) and multiply (tile.dot): tile.cast to f16 or f32 first";
  return std::nullopt;
}

LogicalResult llk::tile::checkKernelOps(ModuleOp module) {
  bool ok = true;
  for (Operation &top : module.getBody()->getOperations()) {
    if (top.getName().getStringRef() != "func.func") {
      top.emitError("a kernel module holds only func.func kernels, not '")
          << top.getName() << "'";
      ok = false;
      continue;
    }
    // In source order; what a refused op holds goes unreported.
    top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == &top)
        return WalkResult::advance();
      if (std::optional<std::string> why = whyNotKernelOp(op)) {
        op->emitError(*why);
        ok = false;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
  }
  return success(ok);
}
