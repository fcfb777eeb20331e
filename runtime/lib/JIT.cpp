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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
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
  if (options.minProgramsPerSM) // (absent otherwise: the keys of before)
    d += "min_programs_per_sm " + std::to_string(*options.minProgramsPerSM) + "\n";
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
  if (!why && options.minProgramsPerSM)
    why = llk::checkMinProgramsPerSM(*options.minProgramsPerSM);
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
  compile.minProgramsPerSM = options.minProgramsPerSM;
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

JITOptions JIT::resolve(const JITOptions &options) const {
  JITOptions resolved = options;
  resolved.arch = archFor(options);
  resolved.deviceDebug |= llk::env::isOn(llk::env::Knob::DeviceDebug);
  return resolved;
}

CompiledModule JIT::compileModule(const Source &source, const JITOptions &options) {
  JITOptions resolved = resolve(options);
  return compileResolved(source, resolved, CacheKey::make(source, resolved, resolved.arch));
}

CompiledModule JIT::compileResolved(const Source &source, const JITOptions &resolved,
                                    const CacheKey &key) {
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
      module->info = std::make_shared<const ModuleInfo>(parseModuleInfo(module->metadataJson));
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
  if (interpreter)
    resolved.arch = dev.arch();
  else
    resolved = resolve(options);
  // One key for the loaded modules and the compile (the cache).
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
    CompiledModule compiled = compileResolved(source, resolved, key);
    ModuleInfo info =
        compiled.info ? *compiled.info : parseModuleInfo(compiled.metadataJson);
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

std::vector<std::exception_ptr> JIT::compileAll(const Source &source,
                                                const std::vector<JITOptions> &options,
                                                unsigned threads) {
  std::vector<std::exception_ptr> failures(options.size());
  // The interpreter's modules are parsed where they are loaded.
  if (options.empty() || (device_ && device_->backend() == Backend::Interpreter))
    return failures;
  // Each compile has its own MLIR and LLVM contexts (compileToPTX), and the
  // cache and the in-flight table are locked: compiles share nothing else.
  unsigned n = std::min<size_t>(threads ? threads : llvm::hardware_concurrency().compute_thread_count(),
                                options.size());
  auto compileOne = [&](size_t i) {
    try {
      compileModule(source, options[i]);
    } catch (...) {
      failures[i] = std::current_exception();
    }
  };
  if (n <= 1) {
    for (size_t i = 0; i < options.size(); ++i)
      compileOne(i);
    return failures;
  }
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(n));
  for (size_t i = 0; i < options.size(); ++i)
    pool.async(compileOne, i);
  pool.wait();
  return failures;
}

//===----------------------------------------------------------------------===//
// Autotuner
//===----------------------------------------------------------------------===//

std::string Config::str() const {
  std::string s;
  for (const auto &[name, value] : constants)
    s += name + "=" + value.str() + " ";
  s += "num_warps=" + std::to_string(numWarps);
  if (numStages)
    s += " num_stages=" + std::to_string(*numStages);
  return s;
}

Timing Timing::of(std::vector<double> samples) {
  Timing t;
  if (samples.empty())
    return t;
  std::sort(samples.begin(), samples.end());
  auto quantile = [&](double q) {
    double pos = (samples.size() - 1) * q;
    size_t lo = size_t(pos), hi = std::min(lo + 1, samples.size() - 1);
    return samples[lo] + (samples[hi] - samples[lo]) * (pos - double(lo));
  };
  t.median = quantile(0.5);
  t.p20 = quantile(0.2);
  t.p80 = quantile(0.8);
  t.min = samples.front();
  t.max = samples.back();
  t.reps = int(samples.size());
  return t;
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
  if (!(options_.repMs > 0) || !(options_.warmupMs >= 0) || options_.minReps < 1 ||
      options_.maxReps < options_.minReps)
    throw Error(ErrorCode::InvalidArgument,
                "autotuning needs repMs > 0, warmupMs >= 0 and 1 <= minReps <= maxReps");
}

JITOptions Autotuner::optionsFor(const Config &config) const {
  JITOptions o = base_;
  for (const auto &[name, value] : config.constants)
    o.constants[name] = value;
  o.numWarps = config.numWarps;
  if (config.numStages)
    o.numStages = config.numStages;
  return o;
}

CacheKey Autotuner::recordKey(const std::string &key) const {
  std::string arch = base_.arch.empty() ? jit_.device().arch() : base_.arch;
  std::string d = "autotune 2\n" + compilerIdentity() + "\narch " + arch +
                  "\nkernel " + kernel_ + "\nsource " + toHex(hash64(source_.text)) +
                  "\nbase";
  for (const auto &[name, value] : base_.constants)
    d += " " + name + "=" + value.str();
  if (base_.numStages)
    d += " num_stages=" + std::to_string(*base_.numStages);
  if (base_.minProgramsPerSM) // (absent otherwise: the records of before)
    d += " min_programs_per_sm=" + std::to_string(*base_.minProgramsPerSM);
  d += "\nconfigs " + std::to_string(configs_.size()) + "\n";
  for (const Config &c : configs_)
    d += c.str() + "\n";
  d += "key " + key + "\n";
  return CacheKey{d, hash64(d)};
}

Timing Autotuner::time(const Kernel &kernel, const Grid &grid, const ArgList &args,
                       const LaunchOptions &launch, DeviceMemory *flush) {
  const Device &device = jit_.device();
  auto flushL2 = [&] {
    if (flush)
      flush->fill(0, launch);
  };
  kernel.launch(grid, args, launch); // first-launch costs (shared memory limit)
  // Estimate: 5 launches, each after a flush (as do_bench's estimate).
  Event start(device), end(device);
  start.record(launch);
  for (int i = 0; i < 5; ++i) {
    flushL2();
    kernel.launch(grid, args, launch);
  }
  end.record(launch);
  end.synchronize();
  double estimate = std::max(double(Event::elapsedMs(start, end)) / 5, 1e-6);
  int warmup = int(std::min(options_.warmupMs / estimate, 1e6));
  int reps = int(std::clamp(options_.repMs / estimate, double(options_.minReps),
                            double(options_.maxReps)));
  for (int i = 0; i < warmup; ++i)
    kernel.launch(grid, args, launch);
  std::vector<Event> starts, ends;
  starts.reserve(reps);
  ends.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    starts.emplace_back(device);
    ends.emplace_back(device);
  }
  for (int i = 0; i < reps; ++i) {
    flushL2();
    starts[i].record(launch);
    kernel.launch(grid, args, launch);
    ends[i].record(launch);
  }
  ends.back().synchronize();
  std::vector<double> samples;
  samples.reserve(reps);
  for (int i = 0; i < reps; ++i)
    samples.push_back(Event::elapsedMs(starts[i], ends[i]));
  return Timing::of(std::move(samples));
}

/// The first line of an error, for a progress line.
static std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

const Autotuner::Result &Autotuner::tune(const std::string &key, const ArgList &args,
                                         const LaunchOptions &launch,
                                         const std::vector<BufferRegion> &restore,
                                         const GridOf &gridOf) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = results_.find(key); it != results_.end())
    return it->second;
  bool print = llk::env::printAutotuning();
  // Named after the kernel (the source's only one when none was named).
  auto progress = [&](const std::string &name) {
    return "llk autotune '" + (name.empty() ? source_.name : name) + "' [" + key + "]";
  };
  std::string what = progress(kernel_);

  CacheKey record = recordKey(key);
  if (std::optional<std::string> saved = jit_.cache().loadRecord("autotune", record)) {
    // "best <index>\nconfig <str>\nms <t0> <t1> ...\n", read with StringRef
    // (no C++ stream: see Cache.cpp's readEntry).
    llvm::SmallVector<llvm::StringRef, 3> lines;
    llvm::StringRef(*saved).split(lines, '\n', 3, false);
    size_t best = 0;
    if (lines.size() >= 2 && lines[0].consume_front("best ") &&
        !lines[0].getAsInteger(10, best) && best < configs_.size()) {
      if (lines[1] == "config " + configs_[best].str()) {
        Result result;
        result.best = best;
        result.fromCache = true;
        llvm::SmallVector<llvm::StringRef, 16> times;
        if (lines.size() == 3)
          llvm::SplitString(lines[2], times);
        if (times.size() == configs_.size() + 1 && times[0] == "ms")
          for (llvm::StringRef t : llvm::ArrayRef(times).drop_front()) {
            double ms = std::numeric_limits<double>::infinity();
            if (t != "inf" && t.getAsDouble(ms))
              ms = std::numeric_limits<double>::infinity();
            result.ms.push_back(ms);
          }
        if (print)
          std::fprintf(stderr, "%s: best %s (from the cache)\n", what.c_str(),
                       configs_[best].str().c_str());
        return results_.emplace(key, std::move(result)).first->second;
      }
    }
  }

  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  const Device &device = jit_.device();
  Result result;
  result.ms.assign(configs_.size(), std::numeric_limits<double>::infinity());
  result.timings.assign(configs_.size(), Timing{});
  result.failures.assign(configs_.size(), "");
  // Every configuration compiled first, in parallel.
  std::vector<JITOptions> options;
  for (const Config &c : configs_)
    options.push_back(optionsFor(c));
  std::vector<std::exception_ptr> compileFailures = jit_.compileAll(source_, options);
  std::vector<std::optional<Kernel>> kernels(configs_.size());
  for (size_t i = 0; i < configs_.size(); ++i) {
    try {
      if (compileFailures[i])
        std::rethrow_exception(compileFailures[i]);
      kernels[i] = jit_.compile(source_, options[i], kernel_);
      kernels_.emplace(i, *kernels[i]);
      if (kernel_.empty() && what == progress(""))
        what = progress(kernels[i]->name());
    } catch (const Error &e) {
      result.failures[i] = e.what();
    }
  }
  if (print)
    std::fprintf(stderr, "%s: %zu configurations compiled in %.2f s\n", what.c_str(),
                 configs_.size(), seconds(t0));
  // What the caller asked to survive, saved; the flush buffer.
  std::vector<DeviceMemory> saved;
  for (const BufferRegion &r : restore) {
    saved.emplace_back(device, r.bytes);
    saved.back().copyFromAddress(r.address, r.bytes, launch);
  }
  auto restoreAll = [&] {
    for (size_t i = 0; i < restore.size(); ++i)
      saved[i].copyToAddress(restore[i].address, restore[i].bytes, launch);
  };
  std::optional<DeviceMemory> flush;
  if (options_.flushL2 && options_.flushBytes && device.backend() == Backend::Cuda)
    flush.emplace(device, options_.flushBytes);
  for (size_t i = 0; i < configs_.size(); ++i) {
    try {
      if (!kernels[i])
        throw Error(ErrorCode::Compile, result.failures[i]);
      Grid grid = gridOf ? gridOf(i) : grid_(configs_[i]);
      result.timings[i] = time(*kernels[i], grid, args, launch, flush ? &*flush : nullptr);
      result.ms[i] = result.timings[i].median;
      if (print) {
        const Timing &t = result.timings[i];
        std::fprintf(stderr,
                     "%s: %zu/%zu %s: median %.4f ms (p20 %.4f, p80 %.4f, %d reps)\n",
                     what.c_str(), i + 1, configs_.size(), configs_[i].str().c_str(),
                     t.median, t.p20, t.p80, t.reps);
      }
    } catch (const Error &e) {
      result.failures[i] = e.what();
      if (print)
        std::fprintf(stderr, "%s: %zu/%zu %s: failed: %s\n", what.c_str(), i + 1,
                     configs_.size(), configs_[i].str().c_str(),
                     firstLine(e.what()).c_str());
    }
    restoreAll();
  }
  device.synchronize();
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
  if (print)
    std::fprintf(stderr, "%s: best %s (%.4f ms) after %.2f s\n", what.c_str(),
                 configs_[result.best].str().c_str(), result.ms[result.best], seconds(t0));
  std::string out = "best " + std::to_string(result.best) + "\nconfig " +
                    configs_[result.best].str() + "\nms";
  for (double t : result.ms) {
    char number[32] = "inf"; // to_chars: the shortest exact form, no locale
    if (std::isfinite(t))
      *std::to_chars(number, number + sizeof number - 1, t).ptr = 0;
    out += std::string(" ") + number;
  }
  out += "\n";
  try {
    jit_.cache().storeRecord("autotune", record, out);
  } catch (const Error &) {
    // Not persisted: the next process tunes again.
  }
  return results_.emplace(key, std::move(result)).first->second;
}

const Autotuner::Result *Autotuner::result(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = results_.find(key);
  return it == results_.end() ? nullptr : &it->second;
}

Kernel Autotuner::kernelFor(size_t index) {
  if (index >= configs_.size())
    throw Error(ErrorCode::InvalidArgument,
                "autotuner of '" + kernel_ + "' has " + std::to_string(configs_.size()) +
                    " configurations, not " + std::to_string(index + 1));
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
                       const LaunchOptions &launch,
                       const std::vector<BufferRegion> &restore, const GridOf &gridOf) {
  size_t best = tune(key, args, launch, restore, gridOf).best;
  // Launches reuse the winner's kernel: no source hash, module lookup or
  // cuModuleGetFunction per launch.
  kernelFor(best).launch(gridOf ? gridOf(best) : grid_(configs_[best]), args, launch);
}
