//===- ModuleChecks.cpp - what the back end would reject, checked first ---===//

#include "llk/Compiler/ModuleChecks.h"
#include "llk/Compiler/Metadata.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace llk;

std::optional<std::string> llk::checkKernelName(llvm::StringRef name) {
  // The name as written, control characters escaped (UTF-8 stays).
  std::string shown;
  for (unsigned char c : name) {
    if (llvm::isPrint(c) || c >= 0x80) {
      shown += c;
    } else {
      shown += '\\';
      shown += llvm::hexdigit(c >> 4);
      shown += llvm::hexdigit(c & 15);
    }
  }
  if (name.empty())
    return std::string("a kernel needs a name: its PTX entry's");
  auto follows = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  bool identifier =
      llvm::all_of(name.drop_front(), follows) &&
      (llvm::isAlpha(name[0]) ||
       ((name[0] == '_' || name[0] == '$') && name.size() > 1));
  if (!identifier)
    return "kernel name '" + shown +
           "' is not a PTX identifier: use letters, digits, '_' and '$', "
           "starting with a letter (or with '_' or '$' and one more)";
  // PTX's one predefined identifier without a '%'.
  if (name == "WARP_SZ")
    return std::string("kernel name 'WARP_SZ' is reserved by PTX");
  // Symbols the module links or makes beside the kernels: CUDA's libdevice
  // functions, the kernels' shared-memory buffers.
  for (auto [prefix, owner] :
       {std::pair<llvm::StringRef, llvm::StringRef>{"__nv_", "CUDA's libdevice"},
        {kSharedPrefix, "llk's shared-memory buffers"}})
    if (name.starts_with(prefix))
      return "kernel name '" + shown + "' starts with '" + prefix.str() +
             "', which is reserved for " + owner.str();
  return std::nullopt;
}

/// `type`'s element: a scalar's, a tile's or a pointer's.
static Type elementOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto ptr = dyn_cast<tile::PtrType>(element))
    element = ptr.getPointeeType();
  return element;
}

/// Whether `type` is a float the NVPTX back end has no registers for: f80,
/// f128, tf32, the 8-bit and smaller formats (arithmetic in them ends the
/// process there) but e4m3 and e5m2, which tiles hold as bytes.
static bool isUnsupportedFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(elementOf(type));
  return floatType && !floatType.isF16() && !floatType.isBF16() &&
         !floatType.isF32() && !floatType.isF64() && !tile::isFp8(floatType);
}

LogicalResult llk::checkKernelModule(ModuleOp module,
                                     const TargetOptions &target) {
  bool ok = true;
  int64_t maxParamBytes = maxKernelParamBytes(target.arch);
  for (Operation &op : module.getBody()->getOperations()) {
    auto kernel = dyn_cast<func::FuncOp>(op);
    if (!kernel) {
      if (isa<ModuleOp>(op))
        op.emitError("nested modules are not supported: put the kernels "
                     "(func.func) at the top level of the file");
      else
        op.emitError("'")
            << op.getName()
            << "' is not supported at the top level: a kernel file holds "
               "func.func kernels only";
      ok = false;
      continue;
    }
    if (auto why = checkKernelName(kernel.getName())) {
      kernel.emitError(*why);
      ok = false;
    }
    if (failed(kernelParams(kernel))) {
      ok = false;
      continue;
    }
    // Values the kernel computes with (its arguments are checked above).
    kernel.walk([&](Operation *inner) {
      auto report = [&](Type type) {
        inner->emitError("type ")
            << type << " is not supported: kernels compute with f16, bf16, "
            << "f32 and f64 floats";
        ok = false;
        return WalkResult::interrupt();
      };
      for (Type type : inner->getResultTypes())
        if (isUnsupportedFloat(type))
          return report(type);
      for (Region &region : inner->getRegions())
        for (Block &block : region)
          for (Type type : block.getArgumentTypes())
            if (isUnsupportedFloat(type))
              return report(type);
      return WalkResult::advance();
    });
    // Each parameter is aligned to its size, as the NVPTX back end lays
    // them out.
    int64_t bytes = 0;
    for (Type type : kernel.getArgumentTypes()) {
      int64_t size = kernelParamBytes(type);
      bytes = llvm::alignTo(bytes, size) + size;
    }
    if (bytes > maxParamBytes) {
      unsigned version = ptxVersion(target.arch);
      kernel.emitError("kernel '")
          << kernel.getName() << "' takes " << bytes
          << " bytes of parameters, more than the " << maxParamBytes
          << " of PTX " << version / 10 << "." << version % 10 << " ("
          << target.arch << "): pass fewer arguments, or pass values in a "
          << "buffer";
      ok = false;
    }
  }
  return success(ok);
}
