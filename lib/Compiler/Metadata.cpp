//===- Metadata.cpp - kernel metadata for launchers -----------------------===//

#include "llk/Compiler/Metadata.h"
#include "llk/Analysis/ArgumentHints.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llk;

/// The metadata's type of a scalar parameter or of what a pointer points at.
static std::optional<ScalarType> scalarTypeOf(Type type) {
  if (auto i = dyn_cast<IntegerType>(type); i && i.isSignless())
    switch (i.getWidth()) {
    case 8: return ScalarType::I8;
    case 16: return ScalarType::I16;
    case 32: return ScalarType::I32;
    case 64: return ScalarType::I64;
    default: return std::nullopt;
    }
  if (type.isF16()) return ScalarType::F16;
  if (type.isBF16()) return ScalarType::BF16;
  if (type.isF32()) return ScalarType::F32;
  if (type.isF64()) return ScalarType::F64;
  if (isa<Float8E4M3FNType>(type)) return ScalarType::F8E4M3FN;
  if (isa<Float8E5M2Type>(type)) return ScalarType::F8E5M2;
  return std::nullopt;
}

FailureOr<std::vector<KernelParam>> llk::kernelParams(func::FuncOp kernel) {
  std::vector<KernelParam> params;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    KernelParam param;
    std::optional<ScalarType> scalar;
    auto argumentError = [&, i = i] {
      InFlightDiagnostic diag =
          emitError(kernel.isDeclaration() ? kernel.getLoc()
                                           : kernel.getArgument(i).getLoc(),
                    "kernel argument ");
      diag << i;
      return diag;
    };
    if (auto ptr = dyn_cast<tile::PtrType>(type)) {
      param.kind = KernelParam::Kind::Pointer;
      scalar = scalarTypeOf(ptr.getPointeeType());
    } else if (auto desc = dyn_cast<tile::TensorDescType>(type)) {
      param.kind = KernelParam::Kind::TensorDesc;
      scalar = scalarTypeOf(desc.getElementType());
      // A CUtensorMap the kernel reads by TMA: the types its lowering takes.
      Type elem = desc.getElementType();
      if (!elem.isF16() && !elem.isBF16() && !tile::isFp8(elem))
        return argumentError() << " is a tensor descriptor of " << elem
               << "; a descriptor argument (read by TMA) holds f16, bf16, "
                  "f8E4M3FN or f8E5M2 (tile.make_tensor_desc makes one of any "
                  "type in the kernel)";
    } else {
      param.kind = KernelParam::Kind::Scalar;
      if (tile::isFp8(type))
        return argumentError() << " is an " << type
               << " scalar; pass it as f32 and tile.cast it (fp8 kernel "
                  "arguments are pointers)";
      scalar = scalarTypeOf(type);
    }
    if (!scalar)
      return argumentError() << " has type " << type
             << ", which a launcher cannot pass; use a !tile.ptr of a "
                "scalar, or i8/i16/i32/i64/f16/bf16/f32/f64";
    param.type = *scalar;
    // The promise the compiled code relies on, which launchers check.
    if (param.kind != KernelParam::Kind::TensorDesc)
      param.divisibility = getArgDivisibility(kernel, i);
    params.push_back(std::move(param));
  }
  return params;
}

int64_t llk::kernelParamBytes(Type type) {
  if (isa<tile::PtrType, tile::TensorDescType>(type))
    return 8;
  return type.getIntOrFloatBitWidth() / 8;
}

LogicalResult llk::collectSignatures(ModuleOp tileModule,
                                     ModuleMetadata &metadata) {
  metadata.kernels.clear();
  for (auto func : tileModule.getOps<func::FuncOp>()) {
    KernelMetadata kernel;
    kernel.name = func.getName().str();
    FailureOr<std::vector<KernelParam>> params = kernelParams(func);
    if (failed(params))
      return failure();
    kernel.params = std::move(*params);
    kernel.gridDependencyWait =
        func.walk([](tile::GridDependencyWaitOp) {
              return WalkResult::interrupt();
            }).wasInterrupted();
    metadata.kernels.push_back(std::move(kernel));
  }
  return success();
}

LogicalResult llk::completeFromLowered(ModuleOp lowered,
                                       ModuleMetadata &metadata) {
  llvm::StringMap<int64_t> threads, shared, dynamicShared;
  llvm::StringMap<ArrayAttr> tmaBoxes, readOverruns;
  lowered.walk([&](Operation *op) {
    if (isa<LLVM::LLVMFuncOp, gpu::GPUFuncOp>(op)) {
      if (auto boxes = op->getAttrOfType<ArrayAttr>(kTmaBoxesAttr))
        tmaBoxes[cast<SymbolOpInterface>(op).getName()] = boxes;
      if (auto overruns = op->getAttrOfType<ArrayAttr>(kReadOverrunAttr))
        readOverruns[cast<SymbolOpInterface>(op).getName()] = overruns;
    }
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
      // The NVVM lowering turns the gpu.func's known block size into
      // `nvvm.maxntid` (or `nvvm.reqntid`).
      for (llvm::StringRef name :
           {"nvvm.reqntid", "nvvm.maxntid", "gpu.known_block_size"})
        if (auto size = func->getAttrOfType<DenseI32ArrayAttr>(name))
          if (!size.empty()) {
            threads[func.getName()] = size[0];
            break;
          }
    } else if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (auto known = func.getKnownBlockSizeAttr())
        threads[func.getName()] = known[0];
    } else if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
      llvm::StringRef name = global.getSymName();
      if (name.consume_front(kSharedPrefix)) {
        // A buffer past 48 KB is an extern array: dynamic shared memory.
        if (auto bytes = global->getAttrOfType<IntegerAttr>(
                kDynamicSharedBytesAttr)) {
          dynamicShared[name] = bytes.getInt();
          return;
        }
        if (auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType())) {
          DataLayout layout = DataLayout::closest(global);
          shared[name] = array.getNumElements() *
                         layout.getTypeSize(array.getElementType());
        }
      }
    }
  });
  for (KernelMetadata &kernel : metadata.kernels) {
    auto it = threads.find(kernel.name);
    if (it == threads.end() || it->second <= 0 || it->second % 32)
      return lowered.emitError("kernel '")
             << kernel.name
             << "' has no thread-block size in the lowered module";
    kernel.numWarps = it->second / 32;
    // [argument, rows, columns] per descriptor argument (TileToGPU).
    if (ArrayAttr boxes = tmaBoxes.lookup(kernel.name))
      for (Attribute entry : boxes) {
        auto box = cast<DenseI64ArrayAttr>(entry);
        kernel.params[box[0]].tmaBox = {box[1], box[2]};
      }
    // [argument, bytes] per pointer argument read past its elements.
    if (ArrayAttr overruns = readOverruns.lookup(kernel.name))
      for (Attribute entry : overruns) {
        auto overrun = cast<DenseI64ArrayAttr>(entry);
        kernel.params[overrun[0]].readOverrunBytes = overrun[1];
      }
    for (const KernelParam &param : kernel.params)
      if (param.kind == KernelParam::Kind::TensorDesc && param.tmaBox.empty())
        return lowered.emitError("kernel '")
               << kernel.name
               << "' has a tensor descriptor argument that no TMA copy "
                  "reads, so it has no box to encode";
    kernel.sharedBytes = shared.lookup(kernel.name);
    kernel.dynamicSharedBytes = dynamicShared.lookup(kernel.name);
  }
  return success();
}

/// A JSON object key from one of the schema's names.
static llvm::json::ObjectKey jsonKey(std::string_view name) {
  return llvm::StringRef(name.data(), name.size());
}
static llvm::StringRef jsonString(std::string_view name) {
  return llvm::StringRef(name.data(), name.size());
}

llvm::json::Value llk::toJSON(const ModuleMetadata &metadata) {
  namespace md = llk::metadata;
  llvm::json::Object constants;
  for (const auto &[name, value] : metadata.constants)
    constants[name] = value.isInteger() ? llvm::json::Value(value.getInteger())
                                        : llvm::json::Value(value.str());
  llvm::json::Array kernels;
  for (const KernelMetadata &kernel : metadata.kernels) {
    llvm::json::Array params;
    for (const KernelParam &param : kernel.params) {
      llvm::json::Object entry{{jsonKey(md::kKind), jsonString(md::kindName(param.kind))},
                               {jsonKey(md::kType), jsonString(md::scalarTypeName(param.type))}};
      if (param.divisibility > 1)
        entry[jsonKey(md::kDivisibility)] = param.divisibility;
      if (param.kind == KernelParam::Kind::Pointer && param.readOverrunBytes)
        entry[jsonKey(md::kReadOverrunBytes)] = param.readOverrunBytes;
      if (param.kind == KernelParam::Kind::TensorDesc) {
        // Known once lowered (completeFromLowered); readers require it.
        if (param.tmaBox.size() == 2)
          entry[jsonKey(md::kTmaBox)] = llvm::json::Array{param.tmaBox[0], param.tmaBox[1]};
        entry[jsonKey(md::kTmaSwizzle)] = md::kTmaSwizzleBytes;
      }
      params.push_back(std::move(entry));
    }
    kernels.push_back(llvm::json::Object{
        {jsonKey(md::kName), kernel.name},
        {jsonKey(md::kNumWarps), kernel.numWarps},
        {jsonKey(md::kSharedBytes), kernel.sharedBytes},
        {jsonKey(md::kDynamicSharedBytes), kernel.dynamicSharedBytes},
        {jsonKey(md::kGridDependencyWait), kernel.gridDependencyWait},
        {jsonKey(md::kParams), std::move(params)}});
  }
  return llvm::json::Object{{jsonKey(md::kFormat), kMetadataFormat},
                            {jsonKey(md::kCompiler), metadata.compiler},
                            {jsonKey(md::kArch), metadata.arch},
                            {jsonKey(md::kConstants), std::move(constants)},
                            {jsonKey(md::kKernels), std::move(kernels)}};
}

std::string llk::metadataToJSON(const ModuleMetadata &metadata) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", toJSON(metadata)) << "\n";
  return text;
}
