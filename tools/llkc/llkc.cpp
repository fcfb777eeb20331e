//===- llkc.cpp - compile a tile kernel to PTX ----------------------------===//
//
//   llkc kernel.mlir -D BLOCK=1024 --num-warps 8 --arch sm_90 -o kernel.ptx
//
// Every failure is a diagnostic and exit code 1; nothing is written to the
// output unless compilation succeeds.
//
//===----------------------------------------------------------------------===//

#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/DebugOptions.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/Environment.h"
#include "llk/InitAllDialects.h"
#include "llk/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("llkc options");
static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<kernel.mlir>"),
                                          cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::init("-"),
                                           cl::desc("output file ('-' for stdout)"),
                                           cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> arch("arch", cl::init("sm_90"),
                                 cl::desc("target: sm_80, sm_86, sm_89, sm_90, sm_90a"),
                                 cl::cat(category));
static cl::opt<unsigned> numWarps("num-warps", cl::init(0),
                                  cl::desc("warps per program, overriding the "
                                           "kernels' tile.num_warps (default: "
                                           "theirs, else 4)"),
                                  cl::cat(category));
static cl::opt<unsigned> numStages("num-stages", cl::init(0),
                                   cl::desc("shared-memory stages of software-"
                                            "pipelined dot loops, overriding "
                                            "the kernels' tile.num_stages "
                                            "(default: theirs, else 3; 1: off)"),
                                   cl::cat(category));
static cl::opt<unsigned> minProgramsPerSM(
    "min-programs-per-sm", cl::init(0),
    cl::desc("programs that should fit on one SM at once (PTX "
             ".minnctapersm: ptxas caps the registers to fit them), "
             "overriding the kernels' tile.min_programs_per_sm"),
    cl::cat(category));
static cl::opt<bool> lateCopies(
    "late-copies", cl::init(false),
    cl::desc("pipelined loops start their cp.async copies after the dot "
             "rather than before it"),
    cl::cat(category));
static cl::opt<bool> mmaPrefetch(
    "mma-prefetch", cl::init(false),
    cl::desc("pipelined dot loops load the first mma.sync fragments of the "
             "next iteration at the end of the current one"),
    cl::cat(category));
static cl::opt<bool> deviceDebug(
    "device-debug", cl::init(false),
    cl::desc("compile tile.print and tile.assert in (without it they are "
             "erased)"),
    cl::cat(category));
static cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("bind ${NAME} in the source to an integer or an element "
                     "type (f16, bf16, ...)"),
            cl::value_desc("NAME=VALUE"), cl::cat(category));
static cl::opt<llk::Stage> emit(
    "emit", cl::init(llk::Stage::PTX), cl::desc("stage to write"),
    cl::values(
        clEnumValN(llk::Stage::Tile, "tile", "the specialized, verified tile IR"),
        clEnumValN(llk::Stage::Layout, "layout", "tile IR with layouts"),
        clEnumValN(llk::Stage::LLVMDialect, "llvm",
                   "the gpu.module in the LLVM and NVVM dialects"),
        clEnumValN(llk::Stage::LLVMIR, "llvm-ir", "optimized LLVM IR for NVPTX"),
        clEnumValN(llk::Stage::PTX, "ptx", "PTX (the default)"),
        clEnumValN(llk::Stage::Cubin, "cubin",
                   "a cubin, by the CUDA toolkit's ptxas ($LLK_PTXAS, else "
                   "$CUDA_HOME/bin/ptxas, else /usr/local/cuda/bin/ptxas)")),
    cl::cat(category));
static cl::opt<std::string> libdevice("libdevice", cl::init(""),
                                      cl::desc("libdevice bitcode (default: "
                                               "$LLK_LIBDEVICE, else the CUDA "
                                               "toolkit's)"),
                                      cl::cat(category));

static cl::opt<std::string> metadataFilename(
    "metadata", cl::init(""),
    cl::desc("where to write the kernels' launch metadata as JSON (default: "
             "<output>.json beside a PTX file; none for stdout)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> noMetadata("no-metadata", cl::init(false),
                                cl::desc("do not write launch metadata"),
                                cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each", cl::init(false),
    cl::desc("verify the IR after every pass (default: once, after llk's own passes)"),
    cl::cat(category));

// MLIR's timing and IR-printing options and the passes' debug output
// (builds with LLK_ENABLE_DEBUG_OUTPUT), listed by --help beside llkc's.
static cl::OptionCategory debugCategory("Timing and IR printing");
static bool isDebugOption(llvm::StringRef name) {
  return name.starts_with("mlir-timing") || name.starts_with("mlir-print-ir") ||
         name == "mlir-pass-statistics" ||
         name == "mlir-pass-statistics-display" || name == "debug" ||
         name == "debug-only";
}

static void printVersion(llvm::raw_ostream &os) {
  os << "llk " << LLK_VERSION_STRING << " (build " << llk::buildId()
     << ")\nLLVM " << LLVM_VERSION_STRING << "\n";
}

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "llkc") << message << "\n";
  return 1;
}

/// Whether paths `a` and `b` name one file: the same file where both exist
/// (links included), else the same absolute path.
static bool sameFile(llvm::StringRef a, llvm::StringRef b) {
  bool equivalent = false;
  if (!llvm::sys::fs::equivalent(a, b, equivalent))
    return equivalent;
  auto normalized = [](llvm::StringRef path) {
    llvm::SmallString<256> absolute(path);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    return absolute;
  };
  return normalized(a) == normalized(b);
}

/// LLVM's fatal errors (report_fatal_error) end the process. compileModule
/// checks what the back end would reject before code generation, so one
/// that still comes is an llkc bug, or an LLVM option's doing: it gets an
/// llkc error and exit code 1, not an abort.
static void onFatalError(void *, const char *reason, bool) {
  llvm::WithColor::error(llvm::errs(), "llkc")
      << "fatal error in LLVM: " << reason
      << " (an llkc bug unless an LLVM option caused it: please report it "
         "with the input)\n";
  llvm::sys::RunInterruptHandlers();
  llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::install_fatal_error_handler(onFatalError);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  llk::registerDebugOptions();
  // --help lists llkc's own options and MLIR's timing and IR printing; the
  // rest of LLVM's and MLIR's (the back ends', ...) still work and are
  // listed by --help-hidden.
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option &option = *entry.second;
    if (isDebugOption(entry.first)) {
      option.addCategory(debugCategory);
      option.setHiddenFlag(cl::NotHidden);
      continue;
    }
    bool ours = llvm::any_of(option.Categories, [](cl::OptionCategory *c) {
      return c == &category || c->getName() == "Generic Options";
    });
    if (!ours && option.getOptionHiddenFlag() == cl::NotHidden)
      option.setHiddenFlag(cl::Hidden);
  }
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(argc, argv, "llk tile kernel compiler\n");

  llk::CompileOptions options;
  if (auto error = llk::checkArch(arch))
    return fail(*error);
  options.target.arch = arch;
  if (numWarps.getNumOccurrences()) {
    if (auto why = llk::checkNumWarps(numWarps))
      return fail(*why);
    options.numWarps = numWarps;
  }
  if (numStages.getNumOccurrences()) {
    if (auto why = llk::checkNumStages(numStages))
      return fail(*why);
    options.numStages = numStages;
  }
  if (minProgramsPerSM.getNumOccurrences()) {
    if (auto why = llk::checkMinProgramsPerSM(minProgramsPerSM))
      return fail(*why);
    options.minProgramsPerSM = minProgramsPerSM;
  }
  options.lateCopies = lateCopies;
  options.mmaPrefetch = mmaPrefetch;
  options.verifyEachPass = verifyEach;
  options.deviceDebug = deviceDebug;
  options.target.libdevicePath =
      libdevice.empty() ? llk::env::libdevicePath() : libdevice;
  llk::Stage stage = emit;
  llvm::Expected<llk::Constants> constants = llk::parseDefines(defines);
  if (!constants)
    return fail(llvm::toString(constants.takeError()));
  options.constants = std::move(*constants);

  // Launch metadata goes beside the PTX (or cubin), or where --metadata says.
  std::string metadataPath = metadataFilename;
  if (metadataPath.empty() &&
      (stage == llk::Stage::PTX || stage == llk::Stage::Cubin) &&
      outputFilename != "-")
    metadataPath = outputFilename + ".json";
  if (noMetadata)
    metadataPath.clear();
  // Neither output may replace the source, nor both go to one file.
  if (outputFilename != "-" && inputFilename != "-" &&
      sameFile(outputFilename, inputFilename))
    return fail("the output file '" + outputFilename + "' is the input file");
  if (!metadataPath.empty() && inputFilename != "-" &&
      sameFile(metadataPath, inputFilename))
    return fail("the metadata file '" + metadataPath + "' is the input file" +
                (metadataFilename.empty()
                     ? " (metadata goes beside the output unless --metadata "
                       "or --no-metadata says otherwise)"
                     : ""));
  if (!metadataPath.empty() && outputFilename != "-" &&
      sameFile(metadataPath, outputFilename))
    return fail("the metadata file '" + metadataPath + "' is the output file");

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
      llk::readKernelSource(inputFilename);
  if (!read)
    return fail(llvm::toString(read.takeError()));
  std::unique_ptr<llvm::MemoryBuffer> input = std::move(*read);
  if (input->getBuffer().trim().empty())
    return fail("'" + inputFilename + "' is empty: expected a module of tile "
                "kernels");

  // --mlir-timing: every step, from parsing to the output file.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  DialectRegistry registry;
  llk::registerAllDialects(registry);
  // Never destroyed, as clang's -disable-free: the process ends after the
  // compile, and tearing the IR and the context down was 5-9% of a large
  // kernel's compile.
  MLIRContext &context = *new MLIRContext(registry);
  context.loadAllAvailableDialects();
  // Diagnostics from here on point into the file as written.
  llk::KernelSource source(context, std::move(input), llvm::errs());
  TimingScope parsing = timing.nest("Parse and bind constants");
  OwningOpRef<ModuleOp> module = source.parse(options.constants);
  parsing.stop();
  if (!module)
    return 1;
  // (compileModule reports ops other than kernels where they are.)
  if (module->getBody()->empty())
    return fail("'" + inputFilename + "' holds no kernel (no func.func)");

  std::string text;
  llvm::raw_string_ostream stream(text);
  auto configure = [](PassManager &pm) { return applyPassManagerCLOptions(pm); };
  llk::ModuleMetadata metadata;
  if (failed(llk::compileModule(*module, options, stage, stream, configure,
                                metadataPath.empty() ? nullptr : &metadata,
                                &timing)))
    return 1;
  TimingScope writing = timing.nest("Write the output");

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output)
    return fail(error);
  output->os() << text;
  output->os().flush();
  if (output->os().has_error()) {
    output->os().clear_error();
    return fail("cannot write '" + outputFilename + "'");
  }
  std::unique_ptr<llvm::ToolOutputFile> metadataOutput;
  if (!metadataPath.empty()) {
    metadataOutput = openOutputFile(metadataPath, &error);
    if (!metadataOutput)
      return fail(error);
    metadataOutput->os() << llk::metadataToJSON(metadata);
    metadataOutput->os().flush();
    if (metadataOutput->os().has_error()) {
      metadataOutput->os().clear_error();
      return fail("cannot write '" + metadataPath + "'");
    }
  }
  output->keep();
  if (metadataOutput)
    metadataOutput->keep();
  llvm::BuryPointer(module.release().getOperation()); // as the context
  return 0;
}
