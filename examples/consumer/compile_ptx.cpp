// The compiler's C++ API (llk::compiler, over MLIR): binds a kernel source's
// constants, compiles it to PTX with its launch metadata, and prints both's
// sizes. No device needed. Exit status 0 on success, 1 on a compile error
// (reported with file:line:col), 2 on bad arguments.
//
//   compile_ptx kernel.mlir NAME=VALUE...
#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: compile_ptx kernel.mlir [NAME=VALUE]...\n";
    return 2;
  }
  llk::CompileOptions options;
  options.target.arch = "sm_90";
  for (int i = 2; i < argc; ++i) {
    auto binding = llk::parseDefine(argv[i]);
    if (!binding) {
      llvm::errs() << llvm::toString(binding.takeError()) << "\n";
      return 2;
    }
    options.constants.insert(*binding);
  }
  auto file = llvm::MemoryBuffer::getFile(argv[1]);
  if (!file) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  llk::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llk::KernelSource source(context, std::move(*file), llvm::errs());
  mlir::OwningOpRef<mlir::ModuleOp> module = source.parse(options.constants);
  if (!module)
    return 1;
  std::string ptx;
  llvm::raw_string_ostream out(ptx);
  llk::ModuleMetadata metadata;
  if (mlir::failed(llk::compileModule(*module, options, llk::Stage::PTX, out,
                                      nullptr, &metadata)))
    return 1;
  out.flush();
  llvm::outs() << "llk " << llk::kVersion << ": " << metadata.kernels.size()
               << " kernel(s), " << ptx.size() << " bytes of PTX, "
               << llk::metadataToJSON(metadata).size() << " bytes of metadata\n";
  return ptx.find(".entry") == std::string::npos;
}
