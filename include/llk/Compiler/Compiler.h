//===- Compiler.h - the llk compiler as a library ---------------*- C++ -*-===//
//
// What llkc and the runtime's JIT share: the pass pipelines and the stages a
// kernel goes through (KernelSource.h binds the source's constants).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_COMPILER_H
#define LLK_COMPILER_COMPILER_H

#include "llk/Compiler/Metadata.h"
#include "llk/Export.h"
#include "llk/Target/PTX.h"
#include "llk/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/SourceMgr.h"
#include <map>
#include <string>

namespace llk {

/// Compiler version (llk/Version.h), part of every cache key.
constexpr llvm::StringLiteral kVersion = LLK_VERSION_STRING;

/// The stages `compile` can stop at and print.
enum class Stage {
  Tile,        // the specialized, verified tile IR
  Layout,      // tile IR with a distributed layout on every tile
  LLVMDialect, // the gpu.module in the LLVM and NVVM dialects
  LLVMIR,      // optimized LLVM IR for NVPTX
  PTX,
  Cubin,       // the PTX assembled by the CUDA toolkit's ptxas (binary)
};

/// Parses a stage name (tile, layout, llvm, llvm-ir, ptx, cubin).
LLK_API std::optional<Stage> parseStage(llvm::StringRef name);

struct CompileOptions {
  TargetOptions target;
  /// Warps per program: when set, overrides every kernel's `tile.num_warps`;
  /// otherwise kernels without that attribute get 4.
  std::optional<unsigned> numWarps;
  /// Shared-memory stages of software-pipelined dot loops: when set,
  /// overrides every kernel's `tile.num_stages`; otherwise kernels without
  /// that attribute get 3. 1 turns pipelining off.
  std::optional<unsigned> numStages;
  /// Programs that should fit on one SM at once: when set, overrides every
  /// kernel's `tile.min_programs_per_sm` (PTX .minnctapersm; ptxas caps the
  /// registers a thread to fit them).
  std::optional<unsigned> minProgramsPerSM;
  /// Pipelined loops start their copies after the dot
  /// (tile-software-pipeline's late-copies) rather than before it.
  bool lateCopies = false;
  /// Pipelined loops load the first mma.sync fragments of the next
  /// iteration at the end of the current one (nvvm-prefetch-mma-fragments).
  bool mmaPrefetch = false;
  /// tile.print and tile.assert are compiled in (llkc --device-debug, the
  /// JIT's LLK_DEVICE_DEBUG); otherwise tile-strip-device-debug erases them.
  bool deviceDebug = false;
  /// Values for the `${NAME}` placeholders of the source (KernelSource).
  Constants constants;
  /// When set, each stage the compile goes through is written there
  /// (1-tile.mlir, 2-layout.mlir, 3-llvm.mlir, 4-llvm-ir.ll, 5-kernel.ptx;
  /// the JIT's LLK_DUMP_IR).
  std::string dumpDirectory;
  /// Verify the IR after every pass, as mlir-opt does (llkc --verify-each:
  /// to find the pass that breaks it), rather than once after llk's own
  /// passes (LLVM's verifier checks what MLIR's conversions to the LLVM
  /// dialect make of it, after the translation); verifying a lowered GEMM a
  /// dozen times was 19% of its compile, once after the last pass 8%.
  bool verifyEachPass = false;
};

/// Why `numWarps` / `numStages` cannot override the kernels' (as
/// CompileOptions), or nothing when it can. llkc and compileModule share them.
LLK_API std::optional<std::string> checkNumWarps(unsigned numWarps);
LLK_API std::optional<std::string> checkNumStages(unsigned numStages);
LLK_API std::optional<std::string> checkMinProgramsPerSM(unsigned programs);
/// Why the pipelines cannot run with `options` (the arch and the three
/// overrides above), or nothing when they can: compileModule's check, and
/// the registered pipelines'.
LLK_API std::optional<std::string>
checkPipelineOptions(const CompileOptions &options);

/// Whether `arch` has warpgroup MMA (wgmma): sm_90a.
LLK_API bool hasWgmma(llvm::StringRef arch);
/// Whether `arch` has programmatic dependent launch (griddepcontrol): sm_90
/// and sm_90a.
LLK_API bool hasGridDependencyControl(llvm::StringRef arch);

// The pipelines, one per stage, each from the previous stage's IR. They read
// of `options` the target's arch, the three overrides and the mma.sync loop
// schedules (lateCopies, mmaPrefetch); compileModule runs them in turn, and
// llk-opt's registered pipelines `llk-layout` (tile + layout) and
// `llk-lower` (tile + lowering) take the same options as llkc.

/// The specialized source to tile IR: the short forms written out
/// (tile-desugar; a no-op after KernelSource, which runs it), the overrides
/// written into the kernels' attributes (tile-set-kernel-attrs), which the
/// later passes read.
LLK_API void buildTilePipeline(mlir::OpPassManager &pm,
                               const CompileOptions &options);

/// Tile IR to laid-out tile IR (tile-assign-layouts, between
/// canonicalizations); on sm_90a, dots are laid out for warpgroup MMA.
LLK_API void buildLayoutPipeline(mlir::OpPassManager &pm,
                                 const CompileOptions &options);

/// Laid-out tile IR to a gpu.module in the LLVM and NVVM dialects, software
/// pipelining dot loops first.
LLK_API void buildLoweringPipeline(mlir::OpPassManager &pm,
                                   const CompileOptions &options);

/// Runs the passes on `module` up to `stage` and writes that stage's text to
/// `output`. `configure` may add instrumentation (IR printing, timing) to
/// the pass manager. Failures are reported as diagnostics on the context.
/// When `metadata` is given and `stage` is llvm or later, it receives what a
/// launcher needs to know about each kernel (see Metadata.h). With `timing`,
/// the passes and the steps after them (translation to LLVM IR, its
/// optimization, PTX emission, ptxas) are timed in that scope.
LLK_API mlir::LogicalResult
compileModule(mlir::ModuleOp module, const CompileOptions &options, Stage stage,
              llvm::raw_ostream &output,
              llvm::function_ref<mlir::LogicalResult(mlir::PassManager &)>
                  configure = nullptr,
              ModuleMetadata *metadata = nullptr,
              mlir::TimingScope *timing = nullptr);

} // namespace llk

#endif // LLK_COMPILER_COMPILER_H
