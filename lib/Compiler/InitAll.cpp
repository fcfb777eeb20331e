//===- InitAll.cpp - every dialect and pass llk uses ----------------------===//

#include "llk/InitAllDialects.h"
#include "llk/Compiler/Compiler.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/NVVM/Transforms/Passes.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void llk::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::gpu::GPUDialect, mlir::vector::VectorDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                  mlir::index::IndexDialect, mlir::ub::UBDialect>();
  // convert-gpu-to-nvvm lowers every dialect through these interfaces.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::vector::registerConvertVectorToLLVMInterface(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

namespace {
/// llkc's code-generation options, as the registered pipelines take them
/// (`--llk-lower="arch=sm_90a num-warps=8"`). 0 leaves a kernel's own.
struct PipelineCLOptions : mlir::PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> arch{*this, "arch",
                           llvm::cl::desc("target: sm_80, sm_86, sm_89, "
                                          "sm_90, sm_90a"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{
      *this, "num-warps",
      llvm::cl::desc("warps per program, overriding the kernels' "
                     "tile.num_warps (0: theirs, else 4)"),
      llvm::cl::init(0)};
  Option<unsigned> numStages{
      *this, "num-stages",
      llvm::cl::desc("shared-memory stages of software-pipelined dot loops, "
                     "overriding the kernels' tile.num_stages (0: theirs, "
                     "else 3; 1: off)"),
      llvm::cl::init(0)};
  Option<unsigned> minProgramsPerSM{
      *this, "min-programs-per-sm",
      llvm::cl::desc("programs that should fit on one SM at once, overriding "
                     "the kernels' tile.min_programs_per_sm (0: theirs)"),
      llvm::cl::init(0)};
  Option<bool> lateCopies{
      *this, "late-copies",
      llvm::cl::desc("pipelined loops start their cp.async copies after the "
                     "dot (llk-lower)"),
      llvm::cl::init(false)};
  Option<bool> mmaPrefetch{
      *this, "mma-prefetch",
      llvm::cl::desc("pipelined dot loops load the next iteration's first "
                     "mma.sync fragments early (llk-lower)"),
      llvm::cl::init(false)};
  Option<bool> deviceDebug{
      *this, "device-debug",
      llvm::cl::desc("keep tile.print and tile.assert (llk-layout; llkc "
                     "--device-debug)"),
      llvm::cl::init(false)};

  llk::CompileOptions toCompileOptions() const {
    llk::CompileOptions options;
    options.target.arch = arch;
    auto given = [](unsigned v) {
      return v ? std::optional<unsigned>(v) : std::nullopt;
    };
    options.numWarps = given(numWarps);
    options.numStages = given(numStages);
    options.minProgramsPerSM = given(minProgramsPerSM);
    options.lateCopies = lateCopies;
    options.mmaPrefetch = mmaPrefetch;
    options.deviceDebug = deviceDebug;
    return options;
  }
};

using PipelineBuilder = void (*)(mlir::OpPassManager &,
                                 const llk::CompileOptions &);

/// Registers `name`: the tile pipeline, then `build`, both with llkc's
/// options (checked as llkc checks them).
void registerCompilerPipeline(llvm::StringRef name, llvm::StringRef summary,
                              PipelineBuilder build) {
  mlir::registerPassPipeline(
      name, summary,
      [build](mlir::OpPassManager &pm, llvm::StringRef text,
              llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                  errorHandler) -> mlir::LogicalResult {
        PipelineCLOptions cl;
        if (mlir::failed(cl.parseFromString(text)))
          return mlir::failure();
        llk::CompileOptions options = cl.toCompileOptions();
        if (auto why = llk::checkPipelineOptions(options))
          return errorHandler(*why);
        llk::buildTilePipeline(pm, options);
        build(pm, options);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> print) {
        print(PipelineCLOptions());
      });
}
} // namespace

void llk::registerAllPasses() {
  tile::registerTilePasses();
  registerLLKConversionPasses();
  nvvm::registerLLKNVVMPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSCFToControlFlowPass();
  mlir::registerConvertGpuOpsToNVVMOps();
  mlir::registerReconcileUnrealizedCastsPass();
  // llkc's stages (compileModule): `llk-opt kernel.mlir -D ... --llk-layout
  // --llk-lower`, with llkc's options, prints what `llkc --emit=llvm` does.
  registerCompilerPipeline("llk-layout",
                           "Tile IR to laid-out tile IR (llkc --emit=layout)",
                           llk::buildLayoutPipeline);
  registerCompilerPipeline(
      "llk-lower",
      "Laid-out tile IR to the LLVM and NVVM dialects (llkc --emit=llvm)",
      llk::buildLoweringPipeline);
}
