//===- Compiler.cpp - the llk compiler as a library -----------------------===//

#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/ModuleChecks.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/KernelOps.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
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
      .Default(std::nullopt);
}

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

std::optional<std::string> llk::checkMinProgramsPerSM(unsigned programs) {
  if (programs == 0 || programs > 32)
    return "--min-programs-per-sm must be in [1, 32], got " +
           std::to_string(programs);
  return std::nullopt;
}

void llk::buildLayoutPipeline(OpPassManager &pm, unsigned numWarps,
                              bool wgmma) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  tile::TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = numWarps;
  layoutOptions.wgmma = wgmma;
  pm.addNestedPass<func::FuncOp>(tile::createTileAssignLayouts(layoutOptions));
  pm.addPass(createCanonicalizerPass());
}

void llk::buildLoweringPipeline(OpPassManager &pm,
                                const LoweringOptions &options) {
  tile::TilePipelineOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.wgmma = options.wgmma;
  pipelineOptions.lateCopies = options.lateCopies;
  pm.addNestedPass<func::FuncOp>(tile::createTilePipeline(pipelineOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertTileToGPUOptions loweringOptions;
  loweringOptions.wgmma = options.wgmma;
  loweringOptions.gridDependencyControl = options.gridDependencyControl;
  pm.addPass(createConvertTileToGPU(loweringOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Always run: it also drops the dot lowering's tags.
  MmaFragmentPrefetchOptions prefetchOptions;
  prefetchOptions.enabled = options.mmaPrefetch;
  pm.addPass(createMmaFragmentPrefetch(prefetchOptions));
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
    ModuleMetadata *metadata) {
  MLIRContext *ctx = module.getContext();
  if (module.getBody()->empty())
    return module.emitError("the source holds no kernel");
  // What the passes, the back end or ptxas would reject, as diagnostics.
  if (failed(checkKernelModule(module, options.target)))
    return failure();
  // Only what the interpreter runs the same way gets compiled.
  if (failed(tile::checkKernelOps(module)))
    return failure();

  // Options that override a kernel attribute on every kernel, checked first.
  auto overrideAttr = [&](std::optional<unsigned> value,
                          std::optional<std::string> (*check)(unsigned),
                          llvm::StringRef attr) -> LogicalResult {
    if (!value)
      return success();
    if (auto why = check(*value))
      return module.emitError(*why);
    for (auto func : module.getOps<func::FuncOp>())
      func->setAttr(attr, IntegerAttr::get(IntegerType::get(ctx, 32), *value));
    return success();
  };
  if (failed(overrideAttr(options.numWarps, checkNumWarps,
                          tile::TileDialect::kNumWarpsAttr)) ||
      failed(overrideAttr(options.numStages, checkNumStages,
                          tile::TileDialect::kNumStagesAttr)) ||
      failed(overrideAttr(options.minProgramsPerSM, checkMinProgramsPerSM,
                          tile::TileDialect::kMinProgramsPerSMAttr)))
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

  PassManager pm(ctx);
  if (configure && failed(configure(pm)))
    return failure();
  if (stage != Stage::Tile)
    buildLayoutPipeline(pm, options.numWarps.value_or(4),
                        hasWgmma(options.target.arch));
  if (stage != Stage::Tile && stage != Stage::Layout)
    buildLoweringPipeline(
        pm, {options.numStages.value_or(3), hasWgmma(options.target.arch),
             options.lateCopies, options.mmaPrefetch,
             hasGridDependencyControl(options.target.arch)});
  if (failed(pm.run(module)))
    return failure();
  if (metadata) {
    if (failed(completeFromLowered(module, info)))
      return failure();
    *metadata = std::move(info);
  }
  if (stage == Stage::Tile || stage == Stage::Layout ||
      stage == Stage::LLVMDialect) {
    module.print(output);
    return success();
  }

  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToOptimizedLLVMIR(module, llvmContext, options.target);
  if (failed(llvmModule))
    return failure();
  if (stage == Stage::LLVMIR) {
    (*llvmModule)->print(output, nullptr);
    return success();
  }
  auto ptx = emitPTX(module, **llvmModule, options.target);
  if (failed(ptx))
    return failure();
  output << *ptx;
  return success();
}
