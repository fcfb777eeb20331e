//===- llk-opt.cpp - mlir-opt with llk's dialect and passes ---------------===//
//
//   llk-opt examples/softmax.mlir -D BLOCK=4096 \
//       --llk-layout="num-warps=8" --llk-lower="num-warps=8"
//
// prints what `llkc --emit=llvm --num-warps 8` does. A kernel source with
// `${NAME}` placeholders (or any input given -D) is read as llkc reads it:
// specialized (KernelSource), with diagnostics in the text as written. Any
// other input goes to MLIR's mlir-opt driver as it is.
//
//===----------------------------------------------------------------------===//

#include "llk/Compiler/DebugOptions.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace llk::test {
void registerTestAxisInfoPass();
} // namespace llk::test

static cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("bind ${NAME} in the source to an integer or an element "
                     "type (f16, bf16, ...), as llkc does"),
            cl::value_desc("NAME=VALUE"));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "llk-opt") << message << "\n";
  return 1;
}

/// Runs the command line's passes on the kernel source `input` specialized
/// with `constants`, and prints the result to `output` as mlir-opt would.
static LogicalResult runOnKernelSource(std::unique_ptr<llvm::MemoryBuffer> input,
                                       const llk::Constants &constants,
                                       DialectRegistry &registry,
                                       const MlirOptMainConfig &config,
                                       llvm::raw_ostream &output) {
  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  // Diagnostics from here on point into the file as written.
  llk::KernelSource source(context, std::move(input), llvm::errs());
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();
  TimingScope parsing = timing.nest("Parse and bind constants");
  OwningOpRef<ModuleOp> module = source.parse(constants);
  parsing.stop();
  if (!module)
    return failure();
  PassManager pm(&context, ModuleOp::getOperationName(),
                 PassManager::Nesting::Implicit);
  pm.enableVerifier(config.shouldVerifyPasses());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableTiming(timing);
  if (failed(config.setupPassPipeline(pm)) || failed(pm.run(*module)))
    return failure();
  TimingScope printing = timing.nest("Output");
  module->print(output);
  output << "\n";
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  llk::registerAllDialects(registry);
  llk::registerAllPasses();
  llk::test::registerTestAxisInfoPass();
  llk::registerDebugOptions();
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "llk optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(llvm::outs(), nullptr, registry, config));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output)
    return fail(error);

  LogicalResult result = failure();
  if (defines.empty() && !input->getBuffer().contains("${")) {
    result = MlirOptMain(output->os(), std::move(input), registry, config);
  } else {
    // One specialized module: splitting would renumber its lines, and the
    // expected diagnostics of -verify-diagnostics are in the text as written.
    if (!config.inputSplitMarker().empty() || config.shouldVerifyDiagnostics())
      return fail("-split-input-file and -verify-diagnostics do not apply to "
                  "a kernel source with ${NAME} placeholders or -D");
    llvm::Expected<llk::Constants> constants = llk::parseDefines(defines);
    if (!constants)
      return fail(llvm::toString(constants.takeError()));
    result = runOnKernelSource(std::move(input), *constants, registry, config,
                               output->os());
  }
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
