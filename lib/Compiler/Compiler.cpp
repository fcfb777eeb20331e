//===- Compiler.cpp - the llk compiler as a library -----------------------===//

#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/ModuleChecks.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/NVVM/Transforms/Passes.h"
#include "llk/Dialect/Tile/IR/KernelOps.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"
#include "llk/Environment.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace mlir;
using namespace llk;

std::optional<Stage> llk::parseStage(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Stage>>(name)
      .Case("tile", Stage::Tile)
      .Case("layout", Stage::Layout)
      .Case("llvm", Stage::LLVMDialect)
      .Case("llvm-ir", Stage::LLVMIR)
      .Case("ptx", Stage::PTX)
      .Case("cubin", Stage::Cubin)
      .Default(std::nullopt);
}

/// Writes one stage of a compile to `directory`/`name` (CompileOptions::
/// dumpDirectory). A dump that cannot be written is a warning: the compile
/// goes on.
static void dumpStage(ModuleOp module, llvm::StringRef directory,
                      llvm::StringRef name,
                      llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (directory.empty())
    return;
  std::string path = (directory + "/" + name).str();
  std::error_code ec = llvm::sys::fs::create_directories(directory);
  if (!ec) {
    llvm::raw_fd_ostream out(path, ec);
    if (!ec) {
      print(out);
      out.close();
      if (!out.has_error())
        return;
      ec = out.error();
      out.clear_error();
    }
  }
  emitWarning(module.getLoc()) << "cannot write '" << path << "': " << ec.message();
}

namespace {
/// Writes the module as the pipeline has it at this point (dumpStage).
struct DumpStagePass
    : public PassWrapper<DumpStagePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DumpStagePass)
  DumpStagePass(std::string directory, std::string name)
      : directory(std::move(directory)), name(std::move(name)) {}
  llvm::StringRef getArgument() const override { return "llk-dump-stage"; }
  void runOnOperation() override {
    dumpStage(getOperation(), directory, name,
              [&](llvm::raw_ostream &os) { getOperation().print(os); });
    markAllAnalysesPreserved();
  }
  std::string directory, name;
};

/// Verifies the module once, after llk's own passes (compileModule turns the
/// pass manager's verifier off): MLIR's conversions to the LLVM dialect come
/// next, and LLVM's verifier checks their output after the translation.
/// Verifying the lowered module instead was 8% of a large kernel's compile.
struct VerifyLoweredKernelsPass
    : public PassWrapper<VerifyLoweredKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyLoweredKernelsPass)
  llvm::StringRef getArgument() const override { return "llk-verify"; }
  void runOnOperation() override {
    if (failed(verify(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

std::optional<std::string> llk::checkNumWarps(unsigned numWarps) {
  if (numWarps == 0 || numWarps > 32 || !llvm::isPowerOf2_32(numWarps))
    return "--num-warps must be a power of two in [1, 32], got " +
           std::to_string(numWarps);
  return std::nullopt;
}

std::optional<std::string> llk::checkNumStages(unsigned numStages) {
  if (numStages == 0 || numStages > 8)
    return "--num-stages must be in [1, 8] (1: no pipelining), got " +
           std::to_string(numStages);
  return std::nullopt;
}

bool llk::hasWgmma(llvm::StringRef arch) { return arch == "sm_90a"; }

bool llk::hasGridDependencyControl(llvm::StringRef arch) {
  return arch.starts_with("sm_90");
}

/// PTX's fp8 conversions (cvt ...e4m3x2, e5m2x2): sm_89 has them, but
/// LLVM selects them from PTX 8.1, and llkc emits 7.8 for sm_8x.
static bool hasFp8Conversions(llvm::StringRef arch) {
  return arch.starts_with("sm_90");
}

std::optional<std::string> llk::checkMinProgramsPerSM(unsigned programs) {
  if (programs == 0 || programs > 32)
    return "--min-programs-per-sm must be in [1, 32], got " +
           std::to_string(programs);
  return std::nullopt;
}

std::optional<std::string>
llk::checkPipelineOptions(const CompileOptions &options) {
  if (auto why = checkArch(options.target.arch))
    return why;
  if (options.numWarps)
    if (auto why = checkNumWarps(*options.numWarps))
      return why;
  if (options.numStages)
    if (auto why = checkNumStages(*options.numStages))
      return why;
  if (options.minProgramsPerSM)
    return checkMinProgramsPerSM(*options.minProgramsPerSM);
  return std::nullopt;
}

void llk::buildTilePipeline(OpPassManager &pm, const CompileOptions &options) {
  // A no-op on what KernelSource parsed (it desugars); here so that llk-opt
  // replays llkc on any tile IR.
  pm.addPass(tile::createTileDesugar());
  tile::TileSetKernelAttrsOptions attrs;
  attrs.numWarps = options.numWarps.value_or(0);
  attrs.numStages = options.numStages.value_or(0);
  attrs.minProgramsPerSM = options.minProgramsPerSM.value_or(0);
  pm.addNestedPass<func::FuncOp>(tile::createTileSetKernelAttrs(attrs));
}

void llk::buildLayoutPipeline(OpPassManager &pm, const CompileOptions &options) {
  if (!options.deviceDebug)
    pm.addNestedPass<func::FuncOp>(tile::createTileStripDeviceDebug());
  pm.addNestedPass<func::FuncOp>(tile::createTileExpandRandom());
  tile::TileUpcastFp8DotsOptions fp8Options;
  fp8Options.wgmma = hasWgmma(options.target.arch);
  pm.addNestedPass<func::FuncOp>(tile::createTileUpcastFp8Dots(fp8Options));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  tile::TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps.value_or(4);
  layoutOptions.wgmma = hasWgmma(options.target.arch);
  pm.addNestedPass<func::FuncOp>(tile::createTileAssignLayouts(layoutOptions));
  pm.addPass(createCanonicalizerPass());
}

void llk::buildLoweringPipeline(OpPassManager &pm,
                                const CompileOptions &options) {
  bool wgmma = hasWgmma(options.target.arch);
  tile::TileSoftwarePipelineOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages.value_or(3);
  pipelineOptions.wgmma = wgmma;
  pipelineOptions.lateCopies = options.lateCopies;
  pm.addNestedPass<func::FuncOp>(
      tile::createTileSoftwarePipeline(pipelineOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(tile::createTileAllocateShared());
  ConvertTileToGPUOptions loweringOptions;
  loweringOptions.gridDependencyControl =
      hasGridDependencyControl(options.target.arch);
  loweringOptions.fp8Conversions = hasFp8Conversions(options.target.arch);
  pm.addPass(createConvertTileToGPU(loweringOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Always run: it also drops the dot lowering's tags.
  nvvm::NVVMPrefetchMmaFragmentsOptions prefetchOptions;
  prefetchOptions.enabled = options.mmaPrefetch;
  pm.addPass(nvvm::createNVVMPrefetchMmaFragments(prefetchOptions));
  if (!options.verifyEachPass)
    pm.addPass(std::make_unique<VerifyLoweredKernelsPass>());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // The math ops libdevice does not provide (trunc, absi, ctlz, ...).
  kernels.addPass(createConvertMathToLLVMPass());
  // NVVM ops that print their PTX (wgmma) become inline assembly.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

LogicalResult llk::compileModule(
    ModuleOp module, const CompileOptions &options, Stage stage,
    llvm::raw_ostream &output,
    llvm::function_ref<LogicalResult(PassManager &)> configure,
    ModuleMetadata *metadata, TimingScope *timing) {
  MLIRContext *ctx = module.getContext();
  if (module.getBody()->empty())
    return module.emitError("the source holds no kernel");
  // Bad options are the caller's: reported before the kernels are looked at.
  if (auto why = checkPipelineOptions(options))
    return module.emitError(*why);
  TimingScope untimed;
  TimingScope &timingScope = timing ? *timing : untimed;
  TimingScope checking = timingScope.nest("Check the kernels");
  // What the passes, the back end or ptxas would reject, as diagnostics.
  if (failed(checkKernelModule(module, options.target)))
    return failure();
  // Only what the interpreter runs the same way gets compiled.
  if (failed(tile::checkKernelOps(module)))
    return failure();

  ModuleMetadata info;
  if (metadata) {
    if (stage == Stage::Tile || stage == Stage::Layout)
      return module.emitError("kernel metadata needs the lowered module: "
                              "compile to llvm, llvm-ir or ptx");
    if (failed(collectSignatures(module, info)))
      return failure();
    info.compiler = ("llk " + kVersion).str();
    info.arch = options.target.arch;
    info.constants = options.constants;
  }
  checking.stop();

  const std::string &dump = options.dumpDirectory;
  PassManager pm(ctx);
  pm.enableVerifier(options.verifyEachPass);
  if (configure && failed(configure(pm)))
    return failure();
  if (timing)
    pm.enableTiming(*timing); // after configure's instrumentation
  buildTilePipeline(pm, options);
  if (!dump.empty())
    pm.addPass(std::make_unique<DumpStagePass>(dump, "1-tile.mlir"));
  if (stage != Stage::Tile) {
    buildLayoutPipeline(pm, options);
    if (!dump.empty())
      pm.addPass(std::make_unique<DumpStagePass>(dump, "2-layout.mlir"));
  }
  if (stage != Stage::Tile && stage != Stage::Layout) {
    buildLoweringPipeline(pm, options);
    if (!dump.empty())
      pm.addPass(std::make_unique<DumpStagePass>(dump, "3-llvm.mlir"));
  }
  if (failed(pm.run(module)))
    return failure();
  // Once, after the last pass, unless the pass manager did after each (a
  // lowering verifies after llk's passes: VerifyLoweredKernelsPass).
  if (!options.verifyEachPass && (stage == Stage::Tile || stage == Stage::Layout) &&
      failed(verify(module)))
    return failure();
  if (metadata) {
    TimingScope reading = timingScope.nest("Collect the launch metadata");
    if (failed(completeFromLowered(module, info)))
      return failure();
    *metadata = std::move(info);
  }
  if (stage == Stage::Tile || stage == Stage::Layout ||
      stage == Stage::LLVMDialect) {
    // As llk-opt prints it, so that a replay of a stage compares equal.
    module.print(output);
    output << "\n";
    return success();
  }

  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToOptimizedLLVMIR(module, llvmContext,
                                               options.target, &timingScope);
  if (failed(llvmModule))
    return failure();
  dumpStage(module, dump, "4-llvm-ir.ll",
            [&](llvm::raw_ostream &os) { (*llvmModule)->print(os, nullptr); });
  if (stage == Stage::LLVMIR) {
    (*llvmModule)->print(output, nullptr);
    return success();
  }
  TimingScope emitting = timingScope.nest("Emit PTX (NVPTX back end)");
  auto ptx = emitPTX(module, **llvmModule, options.target);
  emitting.stop();
  if (failed(ptx))
    return failure();
  dumpStage(module, dump, "5-kernel.ptx", [&](llvm::raw_ostream &os) { os << *ptx; });
  if (stage == Stage::PTX) {
    output << *ptx;
    return success();
  }
  std::optional<std::string> ptxas = env::ptxasPath();
  if (!ptxas)
    return module.emitError("no ptxas to make a cubin: set LLK_PTXAS, or "
                            "CUDA_HOME to a CUDA toolkit");
  TimingScope assembling = timingScope.nest("Assemble cubin (ptxas)");
  llvm::Expected<std::string> cubin =
      assembleCubin(*ptx, options.target.arch, *ptxas);
  if (!cubin)
    return module.emitError(llvm::toString(cubin.takeError()));
  output << *cubin;
  return success();
}
