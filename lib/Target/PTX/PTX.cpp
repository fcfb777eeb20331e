//===- PTX.cpp - LLVM dialect to PTX through LLVM's NVPTX back end --------===//

#include "llk/Target/PTX.h"

#include "llvm/Support/CommandLine.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include <mutex>

using namespace mlir;
using namespace llk;

static constexpr llvm::StringLiteral kTriple = "nvptx64-nvidia-cuda";

std::optional<std::string> llk::checkArch(llvm::StringRef arch) {
  for (llvm::StringRef known : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"})
    if (arch == known)
      return std::nullopt;
  return "unsupported --arch '" + arch.str() +
         "'; expected sm_80, sm_86, sm_89, sm_90 or sm_90a";
}

unsigned llk::ptxVersion(llvm::StringRef arch) {
  // What the target needs: sm_90 arrived with PTX 7.8, sm_90a with 8.0.
  return arch.starts_with("sm_90") ? 80 : 78;
}

int64_t llk::maxKernelParamBytes(llvm::StringRef arch) {
  // PTX 8.1 raised the limit from 4352 bytes to 32764 (on sm_70 and later).
  return ptxVersion(arch) >= 81 ? 32764 : 4352;
}

static std::string ptxFeature(llvm::StringRef arch) {
  return "+ptx" + std::to_string(ptxVersion(arch));
}

static FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(ModuleOp module, const TargetOptions &options) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory addresses: a CTA's shared memory is at most
    // 227 KB, and 64-bit ones cost two registers and two instructions per
    // address computation (ldmatrix, cp.async and scratch addresses).
    auto &registered = llvm::cl::getRegisteredOptions();
    if (auto *shortPointers = registered.lookup("nvptx-short-ptr"))
      static_cast<llvm::cl::opt<bool> *>(shortPointers)->setValue(true);
  });
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError("NVPTX target unavailable: ") << error;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.arch, ptxFeature(options.arch), targetOptions,
      std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return module.emitError("cannot create the NVPTX target machine for ")
           << options.arch;
  return machine;
}

/// Links the libdevice functions the kernels call, then hides every
/// non-kernel function so that the optimizer inlines and drops them.
static LogicalResult linkLibdevice(ModuleOp module, llvm::Module &llvmModule,
                                   const TargetOptions &options) {
  bool needsLibdevice = llvm::any_of(llvmModule.functions(), [](auto &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needsLibdevice)
    return success();
  if (options.libdevicePath.empty())
    return module.emitError("kernels call CUDA math functions but no "
                            "libdevice was given");
  // Loaded lazily: the linker materializes only the functions the kernels
  // call (and what they call). Parsing all of libdevice's ~350 functions
  // was over half of a small kernel's compile time.
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> libdevice =
      llvm::getLazyIRFileModule(options.libdevicePath, diag, llvmModule.getContext());
  if (!libdevice)
    return module.emitError("cannot load libdevice '")
           << options.libdevicePath << "': " << diag.getMessage();
  libdevice->setTargetTriple(llvmModule.getTargetTriple());
  libdevice->setDataLayout(llvmModule.getDataLayout());
  if (llvm::Linker::linkModules(llvmModule, std::move(libdevice),
                                llvm::Linker::LinkOnlyNeeded))
    return module.emitError("cannot link libdevice");
  return success();
}

/// A tile's masks are vectors of booleans (one lane per element a thread
/// holds), read a lane at a time where each access is predicated. The NVPTX
/// back end has no registers for <N x i1>: it packs them into 16-bit
/// integers and unpacks every lane with shifts and masks (tens of
/// instructions an iteration in a pipelined GEMM's copies). This rewrites
/// each constant-index lane read of a boolean vector computed by compares,
/// logic, selects, shuffles and inserts into the same operations on that
/// lane's scalars, so the vectors die; the optimizer cleans up after.
static void scalarizeBooleanLanes(llvm::Function &function) {
  llvm::DenseMap<std::pair<llvm::Value *, unsigned>, llvm::Value *> lanes;
  // Lane `i` of `vector`.
  std::function<llvm::Value *(llvm::Value *, unsigned)> lane =
      [&](llvm::Value *vector, unsigned i) -> llvm::Value * {
    if (auto *constant = dyn_cast<llvm::Constant>(vector))
      return constant->getAggregateElement(i);
    auto key = std::make_pair(vector, i);
    if (auto it = lanes.find(key); it != lanes.end())
      return it->second;
    // Where the lane can be computed: after the definition (an argument's
    // at the entry, a phi's after the block's phis).
    auto *inst = dyn_cast<llvm::Instruction>(vector);
    llvm::IRBuilder<> b(
        !inst                       ? &*function.getEntryBlock().getFirstInsertionPt()
        : isa<llvm::PHINode>(inst) ? &*inst->getParent()->getFirstInsertionPt()
                                    : inst->getNextNode());
    auto scalar = [&](llvm::Value *operand) -> llvm::Value * {
      if (!operand->getType()->isVectorTy())
        return operand;
      if (operand->getType()->getScalarType()->isIntegerTy(1))
        return lane(operand, i);
      return b.CreateExtractElement(operand, b.getInt64(i));
    };
    llvm::Value *result;
    if (auto *cmp = dyn_cast_or_null<llvm::CmpInst>(inst)) {
      result = b.CreateCmp(cmp->getPredicate(), scalar(cmp->getOperand(0)),
                           scalar(cmp->getOperand(1)));
    } else if (auto *binary = dyn_cast_or_null<llvm::BinaryOperator>(inst)) {
      result = b.CreateBinOp(binary->getOpcode(), scalar(binary->getOperand(0)),
                             scalar(binary->getOperand(1)));
    } else if (auto *select = dyn_cast_or_null<llvm::SelectInst>(inst)) {
      result = b.CreateSelect(scalar(select->getCondition()),
                              scalar(select->getTrueValue()),
                              scalar(select->getFalseValue()));
    } else if (auto *shuffle = dyn_cast_or_null<llvm::ShuffleVectorInst>(inst)) {
      int from = shuffle->getMaskValue(i);
      unsigned width = cast<llvm::FixedVectorType>(
                           shuffle->getOperand(0)->getType())->getNumElements();
      result = from < 0 ? llvm::PoisonValue::get(b.getInt1Ty())
               : unsigned(from) < width
                   ? lane(shuffle->getOperand(0), from)
                   : lane(shuffle->getOperand(1), from - width);
    } else if (auto *insert = dyn_cast_or_null<llvm::InsertElementInst>(inst);
               insert && isa<llvm::ConstantInt>(insert->getOperand(2))) {
      result = cast<llvm::ConstantInt>(insert->getOperand(2))->getZExtValue() == i
                   ? insert->getOperand(1)
                   : lane(insert->getOperand(0), i);
    } else {
      result = b.CreateExtractElement(vector, b.getInt64(i));
    }
    lanes[key] = result;
    return result;
  };
  SmallVector<llvm::ExtractElementInst *> reads;
  for (llvm::Instruction &inst : llvm::instructions(function))
    if (auto *read = dyn_cast<llvm::ExtractElementInst>(&inst))
      if (read->getType()->isIntegerTy(1) &&
          isa<llvm::ConstantInt>(read->getIndexOperand()) &&
          isa<llvm::FixedVectorType>(read->getVectorOperandType()))
        reads.push_back(read);
  for (llvm::ExtractElementInst *read : reads) {
    auto index = cast<llvm::ConstantInt>(read->getIndexOperand())->getZExtValue();
    unsigned width =
        cast<llvm::FixedVectorType>(read->getVectorOperandType())->getNumElements();
    llvm::Value *scalar = index < width
                              ? lane(read->getVectorOperand(), index)
                              : llvm::PoisonValue::get(read->getType());
    read->replaceAllUsesWith(scalar);
    read->eraseFromParent();
  }
}

FailureOr<std::unique_ptr<llvm::Module>>
llk::translateToOptimizedLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                                const TargetOptions &options,
                                TimingScope *timing) {
  TimingScope untimed;
  TimingScope &scope = timing ? *timing : untimed;
  gpu::GPUModuleOp gpuModule;
  module.walk([&](gpu::GPUModuleOp m) { gpuModule = m; });
  if (!gpuModule)
    return module.emitError("no gpu.module to translate; lower the kernels "
                            "first");
  TimingScope translating = scope.nest("Translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(gpuModule, context, "llk");
  translating.stop();
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");

  auto machine = createTargetMachine(module, options);
  if (failed(machine))
    return failure();
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout((*machine)->createDataLayout());
  // libdevice asks through __nvvm_reflect whether to flush denormals: no.
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            uint32_t(0));

  TimingScope linking = scope.nest("Link libdevice");
  if (failed(linkLibdevice(module, *llvmModule, options)))
    return failure();
  linking.stop();
  for (llvm::Function &f : llvmModule->functions())
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::Function &f : llvmModule->functions())
    if (!f.isDeclaration())
      scalarizeBooleanLanes(f);

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine->get());
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  TimingScope optimizing = scope.nest("Optimize LLVM IR (O3)");
  passes.run(*llvmModule, mam);
  return llvmModule;
}

FailureOr<std::string> llk::emitPTX(ModuleOp module, llvm::Module &llvmModule,
                                    const TargetOptions &options) {
  auto machine = createTargetMachine(module, options);
  if (failed(machine))
    return failure();
  std::string ptx;
  {
    llvm::raw_string_ostream stream(ptx);
    llvm::buffer_ostream buffer(stream);
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, buffer, nullptr,
                                        llvm::CodeGenFileType::AssemblyFile))
      return module.emitError("the NVPTX back end cannot emit PTX");
    codegen.run(llvmModule);
  }
  return ptx;
}
