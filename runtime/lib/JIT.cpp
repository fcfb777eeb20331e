//===- JIT.cpp - the compiler pipeline in-process, cached; autotuning -----===//

#include "llk/runtime/JIT.h"

#include "InterpreterBackend.h"

#include "llk/Compiler/Compiler.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/Compiler/Metadata.h"
#include "llk/Environment.h"
#include "llk/InitAllDialects.h"
#include "llk/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace llk::rt;

Source Source::fromFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open the source '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad())
    throw Error(ErrorCode::IO, "cannot read the source '" + path + "'");
  return Source{s.str(), path};
}

Source Source::fromText(std::string text, std::string name) {
  return Source{std::move(text), std::move(name)};
}

std::string llk::rt::compilerIdentity() {
  return "llk " LLK_VERSION_STRING " build " + llk::buildId() +
         " LLVM " LLVM_VERSION_STRING;
}

CacheKey CacheKey::make(const Source &source, const JITOptions &options,
                        const std::string &arch) {
  std::string d = compilerIdentity() + "\n";
  std::string libdevice = llk::env::libdevicePath();
  d += "libdevice " + fileDigest(libdevice) + " " + libdevice + "\n";
  d += "arch " + arch + "\n";
  d += "num_warps " +
       (options.numWarps ? std::to_string(*options.numWarps) : "default") + "\n";
  d += "num_stages " +
       (options.numStages ? std::to_string(*options.numStages) : "default") + "\n";
  if (options.deviceDebug) // (absent otherwise: the keys of before)
    d += "device_debug\n";
  d += "constants";
  for (const auto &[name, value] : options.constants) // std::map: sorted
    d += " " + name + "=" + value.str();
  d += "\nsource " + toHex(hash64(source.text)) + " " +
       std::to_string(source.text.size()) + "\n";
  return CacheKey{d, hash64(d)};
}

/// The options' checks, as llkc makes them, for both backends (the
/// interpreter ignores the arch, but a bad one is still a bad call).
static void checkOptions(const JITOptions &options) {
  std::optional<std::string> why;
  if (!options.arch.empty())
    why = llk::checkArch(options.arch);
  if (!why && options.numWarps)
    why = llk::checkNumWarps(*options.numWarps);
  if (!why && options.numStages)
    why = llk::checkNumStages(*options.numStages);
  if (why)
    throw Error(ErrorCode::InvalidArgument, *why);
}

CompiledModule llk::rt::compileToPTX(const Source &source, const JITOptions &options,
                                     const std::string &dumpDirectory) {
  if (options.arch.empty())
    throw Error(ErrorCode::InvalidArgument,
                "no target: pass an arch (sm_80 ... sm_90a) or JIT on a device");
  checkOptions(options);
  llk::CompileOptions compile;
  compile.target.arch = options.arch;
  compile.numWarps = options.numWarps;
  compile.numStages = options.numStages;
  compile.constants = options.constants;
  compile.deviceDebug = options.deviceDebug || llk::env::isOn(llk::env::Knob::DeviceDebug);
  compile.target.libdevicePath = llk::env::libdevicePath();
  compile.dumpDirectory = dumpDirectory;

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  auto fail = [&]() -> Error {
    diagStream.flush();
    return Error(ErrorCode::Compile,
                 "cannot compile '" + source.name + "':\n" + diagnostics);
  };
  if (llvm::StringRef(source.text).trim().empty())
    throw Error(ErrorCode::Compile, "'" + source.name +
                                        "' is empty: expected a module of tile kernels");

  mlir::DialectRegistry registry;
  llk::registerAllDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics, from binding to PTX, point into the source as written.
  llk::KernelSource kernelSource(
      context, llvm::MemoryBuffer::getMemBufferCopy(source.text, source.name),
      diagStream);
  mlir::OwningOpRef<mlir::ModuleOp> module = kernelSource.parse(options.constants);
  if (!module)
    throw fail();
  std::string ptx;
  llvm::raw_string_ostream ptxStream(ptx);
  llk::ModuleMetadata metadata;
  if (mlir::failed(llk::compileModule(*module, compile, llk::Stage::PTX, ptxStream,
                                      nullptr, &metadata)))
    throw fail();
  ptxStream.flush();
  return CompiledModule{ptx, llk::metadataToJSON(metadata)};
}

//===----------------------------------------------------------------------===//
// JIT
//===----------------------------------------------------------------------===//

JIT::JIT(const Device &device, std::shared_ptr<Cache> cache)
    : device_(device), cache_(cache ? std::move(cache) : std::make_shared<Cache>()) {}

JIT::JIT(std::shared_ptr<Cache> cache)
    : cache_(cache ? std::move(cache) : std::make_shared<Cache>()) {}

const Device &JIT::device() const {
  if (!device_)
    throw Error(ErrorCode::InvalidArgument, "this JIT has no device");
  return *device_;
}

std::string JIT::archFor(const JITOptions &options) const {
  if (!options.arch.empty())
    return options.arch;
  if (device_ && device_->backend() == Backend::Interpreter)
    throw Error(ErrorCode::InvalidArgument,
                "no PTX target: the device is the interpreter; pass an arch "
                "(sm_80 ... sm_90a) to make PTX");
  if (device_)
    return device_->arch();
  throw Error(ErrorCode::InvalidArgument,
              "no target: pass an arch (sm_80 ... sm_90a) or JIT on a device");
}

/// Writes `contents` to `directory`/`name` for LLK_DUMP_IR (best effort: a
/// dump is for reading, never a reason to fail a compile).
static void dumpFile(const std::string &directory, const std::string &name,
                     const std::string &contents) {
  std::ofstream out(directory + "/" + name, std::ios::binary);
  out << contents;
}

std::string JIT::lastCubinIssue() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastCubinIssue_;
}

CompiledModule JIT::compileModule(const Source &source, const JITOptions &options) {
  JITOptions resolved = options;
  resolved.arch = archFor(options);
  resolved.deviceDebug |= llk::env::isOn(llk::env::Knob::DeviceDebug);
  CacheKey key = CacheKey::make(source, resolved, resolved.arch);
  bool alwaysCompile = llk::env::alwaysCompile();
  if (!alwaysCompile)
    if (auto hit = cache_->lookup(key))
      return *hit;

  std::promise<CompiledModule> promise;
  std::shared_future<CompiledModule> future;
  bool owner = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = inFlight_.find(key.hash);
    if (it != inFlight_.end()) {
      future = it->second;
    } else {
      future = promise.get_future().share();
      inFlight_[key.hash] = future;
      owner = true;
    }
  }
  if (!owner)
    return future.get(); // the owner's result, or its exception

  try {
    // Another thread may have stored it between our lookup and the lock.
    std::optional<CompiledModule> module;
    if (!alwaysCompile)
      module = cache_->lookupMemory(key);
    if (!module) {
      std::string dump = llk::env::dumpIRDirectory();
      if (!dump.empty()) {
        dump += "/" + key.hex();
        std::error_code ec;
        std::filesystem::create_directories(dump, ec);
        dumpFile(dump, "0-source.mlir", source.text);
        dumpFile(dump, "key.txt", key.description);
      }
      module = compileToPTX(source, resolved, dump);
      // The cubin, so that loading it skips the driver's PTX JIT.
      std::string issue;
      if (std::optional<std::string> ptxas = llk::env::ptxasPath()) {
        llvm::Expected<std::string> cubin =
            llk::assembleCubin(module->ptx, resolved.arch, *ptxas);
        if (cubin)
          module->cubin = std::move(*cubin);
        else
          issue = llvm::toString(cubin.takeError());
      } else {
        issue = "no ptxas (LLK_PTXAS, $CUDA_HOME/bin/ptxas, "
                "/usr/local/cuda/bin/ptxas): the cache holds PTX only";
      }
      if (!dump.empty() && !module->cubin.empty())
        dumpFile(dump, "6-kernel.cubin", module->cubin);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        lastCubinIssue_ = issue;
      }
      ++compiles_;
      try {
        cache_->store(key, *module);
      } catch (const Error &e) {
        // A cache we cannot write (read-only home, full disk) costs a
        // recompile next time, not this compile.
        ++storeFailures_;
        std::lock_guard<std::mutex> lock(mutex_);
        lastStoreError_ = e.what();
      }
    }
    promise.set_value(*module);
  } catch (...) {
    promise.set_exception(std::current_exception());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    inFlight_.erase(key.hash);
  }
  return future.get();
}

Module JIT::load(const Source &source, const JITOptions &options) {
  const Device &dev = device();
  checkOptions(options);
  // The interpreter runs the specialized tile module: no PTX, no disk cache
  // (parsing is what a cache hit would save).
  bool interpreter = dev.backend() == Backend::Interpreter;
  JITOptions resolved = options;
  resolved.arch = interpreter ? dev.arch() : archFor(options);
  CacheKey key = CacheKey::make(source, resolved, resolved.arch);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = modules_.find(key.hash);
    if (it != modules_.end())
      return it->second;
  }
  Module module = [&] {
    if (interpreter) {
      Module m = detail::loadForInterpreter(dev, source, resolved);
      ++compiles_;
      return m;
    }
    CompiledModule compiled = compileModule(source, resolved);
    ModuleInfo info = parseModuleInfo(compiled.metadataJson);
    if (!compiled.cubin.empty()) {
      try {
        Module m = Module::loadCubin(dev, compiled.cubin, info);
        ++cubinLoads_;
        return m;
      } catch (const Error &e) {
        if (e.code() != ErrorCode::Compile)
          throw;
        // A cubin the driver does not take (another ptxas's, say): the PTX
        // still loads.
        std::lock_guard<std::mutex> lock(mutex_);
        lastCubinIssue_ = e.what();
      }
    }
    ++ptxLoads_;
    return Module::loadPTX(dev, compiled.ptx, std::move(info));
  }();
  std::lock_guard<std::mutex> lock(mutex_);
  return modules_.emplace(key.hash, module).first->second;
}

Kernel JIT::compile(const Source &source, const JITOptions &options,
                    std::string_view kernel) {
  return load(source, options).kernel(kernel);
}

//===----------------------------------------------------------------------===//
// Autotuner
//===----------------------------------------------------------------------===//

std::string Config::str() const {
  std::string s;
  for (const auto &[name, value] : constants)
    s += name + "=" + value.str() + " ";
  return s + "num_warps=" + std::to_string(numWarps);
}

Autotuner::Autotuner(JIT &jit, Source source, std::string kernel,
                     std::vector<Config> configs,
                     std::function<Grid(const Config &)> grid, JITOptions base,
                     AutotuneOptions options)
    : jit_(jit), source_(std::move(source)), kernel_(std::move(kernel)),
      configs_(std::move(configs)), grid_(std::move(grid)), base_(std::move(base)),
      options_(options) {
  if (configs_.empty())
    throw Error(ErrorCode::InvalidArgument, "autotuning needs at least one config");
  if (options_.reps < 1 || options_.warmup < 0)
    throw Error(ErrorCode::InvalidArgument,
                "autotuning needs reps >= 1 and warmup >= 0");
}

JITOptions Autotuner::optionsFor(const Config &config) const {
  JITOptions o = base_;
  for (const auto &[name, value] : config.constants)
    o.constants[name] = value;
  o.numWarps = config.numWarps;
  return o;
}

CacheKey Autotuner::recordKey(const std::string &key) const {
  std::string arch = base_.arch.empty() ? jit_.device().arch() : base_.arch;
  std::string d = "autotune 1\n" + compilerIdentity() + "\narch " + arch +
                  "\nkernel " + kernel_ + "\nsource " + toHex(hash64(source_.text)) +
                  "\nbase";
  for (const auto &[name, value] : base_.constants)
    d += " " + name + "=" + value.str();
  d += "\nconfigs " + std::to_string(configs_.size()) + "\n";
  for (const Config &c : configs_)
    d += c.str() + "\n";
  d += "key " + key + "\n";
  return CacheKey{d, hash64(d)};
}

const Autotuner::Result &Autotuner::tune(const std::string &key, const ArgList &args,
                                         const LaunchOptions &launch) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = results_.find(key); it != results_.end())
    return it->second;

  CacheKey record = recordKey(key);
  if (std::optional<std::string> saved = jit_.cache().loadRecord("autotune", record)) {
    // "best <index>\nconfig <str>\nms <t0> <t1> ...\n"
    std::istringstream in(*saved);
    std::string word, configLine;
    size_t best = 0;
    if (in >> word && word == "best" && in >> best && best < configs_.size()) {
      in.ignore();
      std::getline(in, configLine);
      if (configLine == "config " + configs_[best].str()) {
        Result result;
        result.best = best;
        result.fromCache = true;
        if (in >> word && word == "ms")
          for (size_t i = 0; i < configs_.size(); ++i) {
            std::string t;
            in >> t;
            result.ms.push_back(t == "inf" ? std::numeric_limits<double>::infinity()
                                           : std::atof(t.c_str()));
          }
        return results_.emplace(key, std::move(result)).first->second;
      }
    }
  }

  const Device &device = jit_.device();
  Result result;
  result.ms.assign(configs_.size(), std::numeric_limits<double>::infinity());
  result.failures.assign(configs_.size(), "");
  for (size_t i = 0; i < configs_.size(); ++i) {
    try {
      Kernel kernel = jit_.compile(source_, optionsFor(configs_[i]), kernel_);
      kernels_.emplace(i, kernel);
      Grid grid = grid_(configs_[i]);
      for (int w = 0; w < options_.warmup; ++w)
        kernel.launch(grid, args, launch);
      Event start(device), end(device);
      start.record(launch.stream);
      for (int r = 0; r < options_.reps; ++r)
        kernel.launch(grid, args, launch);
      end.record(launch.stream);
      end.synchronize();
      result.ms[i] = Event::elapsedMs(start, end) / options_.reps;
    } catch (const Error &e) {
      result.failures[i] = e.what();
    }
  }
  for (size_t i = 1; i < configs_.size(); ++i)
    if (result.ms[i] < result.ms[result.best])
      result.best = i;
  if (!std::isfinite(result.ms[result.best])) {
    std::string why;
    for (size_t i = 0; i < configs_.size(); ++i)
      why += "\n  " + configs_[i].str() + ": " + result.failures[i];
    throw Error(ErrorCode::InvalidArgument,
                "autotuning '" + kernel_ + "' for key '" + key +
                    "': every configuration failed:" + why,
                "", 0, kernel_);
  }
  std::ostringstream out;
  out << "best " << result.best << "\nconfig " << configs_[result.best].str()
      << "\nms";
  for (double t : result.ms)
    if (std::isfinite(t))
      out << " " << t;
    else
      out << " inf";
  out << "\n";
  try {
    jit_.cache().storeRecord("autotune", record, out.str());
  } catch (const Error &) {
    // Not persisted: the next process tunes again.
  }
  return results_.emplace(key, std::move(result)).first->second;
}

Kernel Autotuner::kernelFor(size_t index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kernels_.find(index); it != kernels_.end())
      return it->second;
  }
  Kernel kernel = jit_.compile(source_, optionsFor(configs_[index]), kernel_);
  std::lock_guard<std::mutex> lock(mutex_);
  return kernels_.emplace(index, std::move(kernel)).first->second;
}

void Autotuner::launch(const std::string &key, const ArgList &args,
                       const LaunchOptions &launch) {
  size_t best = tune(key, args, launch).best;
  // Launches reuse the winner's kernel: no source hash, module lookup or
  // cuModuleGetFunction per launch.
  kernelFor(best).launch(grid_(configs_[best]), args, launch);
}
