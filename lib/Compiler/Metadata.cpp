//===- Metadata.cpp - kernel metadata for launchers -----------------------===//

#include "llk/Compiler/Metadata.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llk;

static std::optional<std::string> scalarName(Type type) {
  if (auto i = dyn_cast<IntegerType>(type); i && i.isSignless())
    switch (i.getWidth()) {
    case 8: case 16: case 32: case 64:
      return "i" + std::to_string(i.getWidth());
    default:
      return std::nullopt;
    }
  if (type.isF16()) return std::string("f16");
  if (type.isBF16()) return std::string("bf16");
  if (type.isF32()) return std::string("f32");
  if (type.isF64()) return std::string("f64");
  return std::nullopt;
}

static bool isKnownType(llvm::StringRef name) {
  return llvm::is_contained(
      llvm::ArrayRef<llvm::StringRef>{"i8", "i16", "i32", "i64", "f16", "bf16",
                                      "f32", "f64"},
      name);
}

FailureOr<std::vector<KernelParam>> llk::kernelParams(func::FuncOp kernel) {
  std::vector<KernelParam> params;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    KernelParam param;
    std::optional<std::string> name;
    if (auto ptr = dyn_cast<tile::PtrType>(type)) {
      param.kind = KernelParam::Kind::Pointer;
      name = scalarName(ptr.getPointeeType());
    } else if (auto desc = dyn_cast<tile::TensorDescType>(type)) {
      param.kind = KernelParam::Kind::TensorDesc;
      name = scalarName(desc.getElementType());
      // A CUtensorMap the kernel reads by TMA: the types its lowering takes.
      Type elem = desc.getElementType();
      if (!elem.isF16() && !elem.isBF16())
        return emitError(kernel.isDeclaration() ? kernel.getLoc()
                                                : kernel.getArgument(i).getLoc(),
                         "kernel argument ")
               << i << " is a tensor descriptor of " << elem
               << "; a descriptor argument (read by TMA) holds f16 or bf16 "
                  "(tile.make_tensor_desc makes one of any type in the kernel)";
    } else {
      param.kind = KernelParam::Kind::Scalar;
      name = scalarName(type);
    }
    if (!name)
      return emitError(kernel.isDeclaration() ? kernel.getLoc()
                                              : kernel.getArgument(i).getLoc(),
                       "kernel argument ")
             << i << " has type " << type
             << ", which a launcher cannot pass; use a !tile.ptr of a "
                "scalar, or i8/i16/i32/i64/f16/bf16/f32/f64";
    param.type = *name;
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

llvm::json::Value llk::toJSON(const ModuleMetadata &metadata) {
  llvm::json::Object constants;
  for (const auto &[name, value] : metadata.constants)
    constants[name] = value.isInteger() ? llvm::json::Value(value.getInteger())
                                        : llvm::json::Value(value.str());
  llvm::json::Array kernels;
  for (const KernelMetadata &kernel : metadata.kernels) {
    llvm::json::Array params;
    for (const KernelParam &param : kernel.params) {
      llvm::json::Object entry{{"type", param.type}};
      switch (param.kind) {
      case KernelParam::Kind::Pointer:
        entry["kind"] = "pointer";
        if (param.readOverrunBytes)
          entry["read_overrun_bytes"] = param.readOverrunBytes;
        break;
      case KernelParam::Kind::Scalar:
        entry["kind"] = "scalar";
        break;
      case KernelParam::Kind::TensorDesc:
        entry["kind"] = "tensordesc";
        // Known once lowered (completeFromLowered); readers require it.
        if (param.tmaBox.size() == 2)
          entry["tma_box"] = llvm::json::Array{param.tmaBox[0], param.tmaBox[1]};
        entry["tma_swizzle"] = 128;
        break;
      }
      params.push_back(std::move(entry));
    }
    kernels.push_back(llvm::json::Object{{"name", kernel.name},
                                         {"num_warps", kernel.numWarps},
                                         {"shared_bytes", kernel.sharedBytes},
                                         {"dynamic_shared_bytes",
                                          kernel.dynamicSharedBytes},
                                         {"grid_dependency_wait",
                                          kernel.gridDependencyWait},
                                         {"params", std::move(params)}});
  }
  return llvm::json::Object{{"format", kMetadataFormat},
                            {"compiler", metadata.compiler},
                            {"arch", metadata.arch},
                            {"constants", std::move(constants)},
                            {"kernels", std::move(kernels)}};
}

namespace llk {
static bool fromJSON(const llvm::json::Value &value, KernelParam &param,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string kind;
  if (!mapper || !mapper.map("kind", kind) || !mapper.map("type", param.type))
    return false;
  if (kind == "pointer") {
    param.kind = KernelParam::Kind::Pointer;
    if (!mapper.mapOptional("read_overrun_bytes", param.readOverrunBytes))
      return false;
    if (param.readOverrunBytes < 0 || param.readOverrunBytes > 15) {
      path.field("read_overrun_bytes").report("expected 0 to 15");
      return false;
    }
  } else if (kind == "scalar")
    param.kind = KernelParam::Kind::Scalar;
  else if (kind == "tensordesc") {
    param.kind = KernelParam::Kind::TensorDesc;
    if (!mapper.map("tma_box", param.tmaBox))
      return false;
    if (param.tmaBox.size() != 2) {
      path.field("tma_box").report("expected [rows, columns]");
      return false;
    }
  } else {
    path.field("kind").report(
        "expected \"pointer\", \"scalar\" or \"tensordesc\"");
    return false;
  }
  if (!isKnownType(param.type)) {
    path.field("type").report("unknown type");
    return false;
  }
  return true;
}

/// 64, or "bf16": an element type by name.
static bool fromJSON(const llvm::json::Value &value, ConstantValue &constant,
                     llvm::json::Path path) {
  if (std::optional<int64_t> number = value.getAsInteger()) {
    constant = *number;
    return true;
  }
  if (std::optional<llvm::StringRef> name = value.getAsString())
    if (std::optional<ConstantValue> type =
            ConstantValue::fromTypeName(*name)) {
      constant = *type;
      return true;
    }
  path.report("expected an integer or an element type");
  return false;
}

static bool fromJSON(const llvm::json::Value &value, KernelMetadata &kernel,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  int64_t warps = 0;
  if (!mapper || !mapper.map("name", kernel.name) ||
      !mapper.map("num_warps", warps) ||
      !mapper.map("shared_bytes", kernel.sharedBytes) ||
      !mapper.map("params", kernel.params) ||
      !mapper.mapOptional("dynamic_shared_bytes", kernel.dynamicSharedBytes) ||
      !mapper.mapOptional("grid_dependency_wait", kernel.gridDependencyWait))
    return false;
  if (warps <= 0 || warps > 32) {
    path.field("num_warps").report("expected 1 to 32");
    return false;
  }
  if (kernel.sharedBytes < 0) {
    path.field("shared_bytes").report("expected a non-negative size");
    return false;
  }
  if (kernel.dynamicSharedBytes < 0) {
    path.field("dynamic_shared_bytes").report("expected a non-negative size");
    return false;
  }
  kernel.numWarps = warps;
  return true;
}

} // namespace llk

bool llk::fromJSON(const llvm::json::Value &value, ModuleMetadata &metadata,
                   llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  int64_t format = 0;
  if (!mapper || !mapper.map("format", format))
    return false;
  if (format != kMetadataFormat) {
    path.field("format").report("unsupported metadata format");
    return false;
  }
  return mapper.map("compiler", metadata.compiler) &&
         mapper.map("arch", metadata.arch) &&
         mapper.map("constants", metadata.constants) &&
         mapper.map("kernels", metadata.kernels);
}

std::string llk::metadataToJSON(const ModuleMetadata &metadata) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", toJSON(metadata)) << "\n";
  return text;
}

llvm::Expected<ModuleMetadata> llk::parseMetadata(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return value.takeError();
  ModuleMetadata metadata;
  llvm::json::Path::Root root("metadata");
  if (!fromJSON(*value, metadata, root))
    return root.getError();
  return metadata;
}
