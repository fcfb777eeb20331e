//===- InterpreterBackend.cpp - JIT modules for the interpreter -----------===//

#include "InterpreterBackend.h"

#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/Metadata.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/InitAllDialects.h"
#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llk::rt;

namespace {

/// A specialized tile module and its context; runs are serialized (the
/// interpreter walks the IR, and programs run one at a time anyway).
class InterpretedModule : public HostModule {
public:
  InterpretedModule() : context_(registry(), mlir::MLIRContext::Threading::DISABLED) {
    context_.loadAllAvailableDialects();
  }

  mlir::MLIRContext &context() { return context_; }

  std::optional<std::string> run(const KernelInfo &kernel, const Grid &grid,
                                 const std::vector<const void *> &args,
                                 const std::vector<Buffer> &buffers) override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string error;
    mlir::func::FuncOp func = llk::interp::findKernel(*module, kernel.name, error);
    if (!func)
      return error;
    llk::interp::Options options;
    if (deviceDebug)
      options.deviceDebug = true; // else LLK_DEVICE_DEBUG decides
    llk::interp::Interpreter interpreter(options);
    for (const Buffer &b : buffers)
      if (auto e = interpreter.addBuffer(reinterpret_cast<const void *>(b.address),
                                         b.bytes, b.name))
        return e;
    return interpreter.run(func, {grid.x, grid.y, grid.z}, args);
  }

private:
  static const mlir::DialectRegistry &registry() {
    static const mlir::DialectRegistry r = [] {
      mlir::DialectRegistry registry;
      llk::registerAllDialects(registry);
      return registry;
    }();
    return r;
  }
  mlir::MLIRContext context_;
  std::mutex mutex_;

public:
  mlir::OwningOpRef<mlir::ModuleOp> module; // after context_: destroyed first
  /// JITOptions::deviceDebug: tile.print and tile.assert run.
  bool deviceDebug = false;
};

} // namespace

Module llk::rt::detail::loadForInterpreter(const Device &device, const Source &source,
                                           const JITOptions &options) {
  auto host = std::make_shared<InterpretedModule>();
  host->deviceDebug = options.deviceDebug;
  std::string diagnostics;
  auto fail = [&]() -> Error {
    return Error(ErrorCode::Compile,
                 "cannot compile '" + source.name + "':\n" + diagnostics);
  };
  if (llvm::StringRef(source.text).trim().empty())
    throw Error(ErrorCode::Compile, "'" + source.name +
                                        "' is empty: expected a module of tile kernels");
  // Diagnostics point into the source as written, as the GPU path's do.
  host->module = llk::interp::parseKernelSource(host->context(), source.text,
                                                source.name, options.constants,
                                                diagnostics);
  if (!host->module)
    throw fail();

  llvm::raw_string_ostream diagStream(diagnostics);
  mlir::ScopedDiagnosticHandler handler(&host->context(), [&](mlir::Diagnostic &d) {
    diagStream << d.getLocation() << ": " << d << "\n";
    return mlir::success();
  });
  // The compiler's tile stage: the checks of a compile (num_warps, an empty
  // module) and the num_warps override, with no pass run.
  llk::CompileOptions compile;
  compile.numWarps = options.numWarps;
  compile.constants = options.constants;
  llk::ModuleMetadata metadata;
  if (mlir::failed(llk::compileModule(*host->module, compile, llk::Stage::Tile,
                                      llvm::nulls())) ||
      mlir::failed(llk::collectSignatures(*host->module, metadata))) {
    diagStream.flush();
    throw fail();
  }
  metadata.compiler = ("llk " + llk::kVersion).str();
  metadata.arch = device.arch();
  metadata.constants = options.constants;
  for (llk::KernelMetadata &kernel : metadata.kernels) {
    auto func = host->module->lookupSymbol<mlir::func::FuncOp>(kernel.name);
    kernel.numWarps = func ? llk::tile::getNumWarps(func, 4) : 4;
    kernel.sharedBytes = 0; // the interpreter has no shared memory
    // A descriptor's blocks are read whole (TensorMap passes the tensor, not
    // a box): the box is the block.
    for (auto [i, param] : llvm::enumerate(kernel.params))
      if (param.kind == llk::KernelParam::Kind::TensorDesc && func) {
        llvm::ArrayRef<int64_t> block =
            llvm::cast<llk::tile::TensorDescType>(func.getArgumentTypes()[i])
                .getBlockShape();
        param.tmaBox.assign(block.begin(), block.end());
      }
  }
  // The same metadata, and checks, as the GPU's modules.
  return Module::fromHost(device, parseModuleInfo(llk::metadataToJSON(metadata)),
                          std::move(host));
}
