//===- JIT.h - compile DSL sources in-process, with a cache -----*- C++ -*-===//
//
//   rt::JIT jit(device);                          // cache: $LLK_CACHE_DIR or
//                                                 // ~/.cache/llk
//   rt::Kernel k = jit.compile(rt::Source::fromFile("examples/softmax.mlir"),
//                              {{{"BLOCK", 4096}}, 8});
//
// Results are cached in memory and on disk, keyed by a hash (xxh3) of the
// source text, the options, the target, the compiler's build id, LLVM's
// version and libdevice's contents. A disk entry is a header (magic, key,
// sizes, a checksum of the payload) and the payload: the metadata, the PTX
// and, when a ptxas was found, the cubin, which a hit loads (no PTX JIT in
// the driver). An entry that does not check out is reported and rebuilt.
// Entries are written to a temporary file and renamed into place, so threads
// and processes compiling the same kernel at once never see a partial entry.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_JIT_H
#define LLK_RUNTIME_JIT_H

#include "llk/runtime/Runtime.h"
#include "llk/Export.h"

#include <atomic>
#include <future>
#include <mutex>

namespace llk::rt {

struct LLK_API Source {
  std::string text;
  std::string name; // for diagnostics
  static Source fromFile(const std::string &path);
  static Source fromText(std::string text, std::string name = "<source>");
};

struct JITOptions {
  /// `${NAME}` bindings: integers, or element types
  /// (`constants["T"] = llk::ElementType::BF16`).
  llk::Constants constants;
  /// Overrides the kernels' tile.num_warps (else theirs, else 4).
  std::optional<unsigned> numWarps;
  /// sm_80 ... sm_90a; empty: the device's (a JIT without a device needs it).
  std::string arch;
  /// Overrides the kernels' tile.num_stages, the shared-memory stages of
  /// software-pipelined dot loops (else theirs, else 3; 1: off).
  std::optional<unsigned> numStages;
  /// Overrides the kernels' tile.min_programs_per_sm: programs that should
  /// fit on one SM at once (PTX .minnctapersm; ptxas caps the registers).
  std::optional<unsigned> minProgramsPerSM;
  /// Keep tile.print and tile.assert (llkc --device-debug); LLK_DEVICE_DEBUG
  /// turns it on for every compile. Otherwise they are erased.
  bool deviceDebug = false;
};

/// What a compile produces: PTX, the metadata JSON llkc would write, and the
/// PTX assembled by ptxas for the target (empty when no ptxas was found or
/// it failed: then the driver compiles the PTX when it is loaded).
struct CompiledModule {
  std::string ptx;
  std::string metadataJson;
  std::string cubin;
  /// metadataJson parsed, where whoever made this parsed it (the JIT after
  /// a compile, the cache checking a disk entry): a load parses it once.
  std::shared_ptr<const ModuleInfo> info;
};

/// 64-bit XXH3 (LLVM's xxh3_64bits).
LLK_API uint64_t hash64(std::string_view data);
LLK_API std::string toHex(uint64_t value);

/// What every cached result depends on besides its inputs: llk's version
/// and build id (llk/Version.h) and LLVM's version.
LLK_API std::string compilerIdentity();

/// A hash of the bytes of the file at `path` (libdevice), computed once per
/// path, modification time and size; "missing" when it cannot be read.
LLK_API std::string fileDigest(const std::string &path);

struct LLK_API CacheKey {
  /// Canonical text of everything the result depends on.
  std::string description;
  uint64_t hash = 0;
  /// The key of compiling `source` with `options` for `arch`: the source's
  /// hash, the options, compilerIdentity() and the digest of the libdevice
  /// the compile would link (llk::env::libdevicePath()).
  static CacheKey make(const Source &source, const JITOptions &options,
                       const std::string &arch);
  std::string hex() const { return toHex(hash); }
};

class LLK_API Cache {
public:
  /// `directory` empty: $LLK_CACHE_DIR, else $XDG_CACHE_HOME/llk, else
  /// ~/.cache/llk.
  explicit Cache(std::string directory = "");
  static std::string defaultDirectory();
  const std::string &directory() const { return directory_; }

  struct Stats {
    std::atomic<unsigned> memoryHits{0}, diskHits{0}, misses{0}, corrupt{0},
        stores{0};
  };
  const Stats &stats() const { return stats_; }

  /// Memory, then disk. A disk entry that is truncated, garbled or for another
  /// key counts as corrupt and as a miss.
  std::optional<CompiledModule> lookup(const CacheKey &key);
  /// Memory only.
  std::optional<CompiledModule> lookupMemory(const CacheKey &key);
  /// Memory and disk (atomically: temporary file, then rename). Disk errors
  /// throw IO.
  void store(const CacheKey &key, const CompiledModule &module);

  /// Named records of any text (the autotuner's winners), with the same
  /// header and checks as compiled modules.
  std::optional<std::string> loadRecord(const std::string &kind, const CacheKey &key);
  void storeRecord(const std::string &kind, const CacheKey &key,
                   const std::string &payload);

  /// The file a key's compiled module lives in.
  std::string entryPath(const CacheKey &key) const;
  /// Drops the in-memory copies (the disk stays).
  void clearMemory();

private:
  std::optional<std::string> readEntry(const std::string &path, const CacheKey &key);
  void writeEntry(const std::string &path, const CacheKey &key,
                  const std::string &payload);

  std::string directory_;
  std::mutex mutex_;
  std::map<uint64_t, std::pair<std::string, CompiledModule>> memory_;
  Stats stats_;
};

/// Runs the compiler pipeline in-process (no device needed); no cubin.
/// Throws Compile with the compiler's diagnostics. `dumpDirectory`: where
/// to write each stage (CompileOptions::dumpDirectory), if anywhere.
LLK_API CompiledModule compileToPTX(const Source &source, const JITOptions &options,
                                    const std::string &dumpDirectory = "");

class LLK_API JIT {
public:
  /// A JIT for `device`; `cache` null: one in the default directory.
  explicit JIT(const Device &device, std::shared_ptr<Cache> cache = nullptr);
  /// A JIT that only produces PTX (compileModule); options.arch is required.
  explicit JIT(std::shared_ptr<Cache> cache = nullptr);

  Cache &cache() { return *cache_; }

  /// PTX, metadata and cubin, from the cache or compiled (then the cubin is
  /// made with ptxas, llk::env::ptxasPath(), when there is one).
  /// Concurrent calls for one key compile once. With LLK_ALWAYS_COMPILE the
  /// cache is not read (but written); with LLK_DUMP_IR=dir, each compile
  /// writes its stages to dir/<key hex>/.
  CompiledModule compileModule(const Source &source, const JITOptions &options);
  /// Compiles (or finds) and loads the module, from its cubin when it has
  /// one the device takes, else from its PTX; loaded modules are kept.
  Module load(const Source &source, const JITOptions &options);
  /// The kernel named `kernel` (empty: the only one) of load(...).
  Kernel compile(const Source &source, const JITOptions &options,
                 std::string_view kernel = "");
  /// compileModule(source, o) for every o of `options` at once, on a pool
  /// of `threads` threads (0: one a core, at most one a compile), so that a
  /// later load() of each finds it compiled. Element i is null, or why the
  /// compile of options[i] failed (an Error, as compileModule throws). On the
  /// interpreter there is nothing to compile ahead: all null.
  std::vector<std::exception_ptr> compileAll(const Source &source,
                                             const std::vector<JITOptions> &options,
                                             unsigned threads = 0);

  const Device &device() const;
  /// Compiles this JIT ran (cache misses), and failed writes of the disk
  /// cache (the compile itself still succeeded).
  unsigned compileCount() const { return compiles_; }
  unsigned storeFailures() const { return storeFailures_; }
  /// Modules load() loaded from a cubin, and from PTX.
  unsigned cubinLoads() const { return cubinLoads_; }
  unsigned ptxLoads() const { return ptxLoads_; }
  /// Why the last compile has no cubin, or the last cubin was not loaded
  /// (no ptxas, ptxas failed, the driver refused it); empty if none failed.
  std::string lastCubinIssue() const;

private:
  std::string archFor(const JITOptions &options) const;
  /// `options` with the arch and the device-debug knob resolved: what a
  /// compile's cache key is made of.
  JITOptions resolve(const JITOptions &options) const;
  /// compileModule of options resolve() made, under their key.
  CompiledModule compileResolved(const Source &source, const JITOptions &resolved,
                                 const CacheKey &key);

  std::optional<Device> device_;
  std::shared_ptr<Cache> cache_;
  mutable std::mutex mutex_;
  std::map<uint64_t, std::shared_future<CompiledModule>> inFlight_;
  std::map<uint64_t, Module> modules_;
  std::atomic<unsigned> compiles_{0}, storeFailures_{0}, cubinLoads_{0}, ptxLoads_{0};
  std::string lastStoreError_;
  std::string lastCubinIssue_;
};

/// One candidate configuration.
struct LLK_API Config {
  llk::Constants constants;
  unsigned numWarps = 4;
  /// Overrides the kernel's tile.num_stages (empty: the base options').
  std::optional<unsigned> numStages;
  std::string str() const; // "BLOCK=1024 num_warps=4 num_stages=3"
};

/// How each configuration is timed, as triton.testing.do_bench: a few runs
/// estimate a launch's time, then `warmupMs` of launches warm up and `repMs`
/// of them are timed one by one, each between two events after the L2 cache
/// was flushed (a write of `flushBytes` on the launch's stream; not on the
/// interpreter, which has no cache).
struct AutotuneOptions {
  double warmupMs = 25;
  double repMs = 100;
  bool flushL2 = true;
  size_t flushBytes = size_t(256) << 20;
  /// Bounds on the timed launches a configuration (whatever the estimate).
  int minReps = 1;
  int maxReps = 10000;
};

/// Memory a kernel overwrites that must look untouched after tuning (an
/// output that is also an input, a lock that must start at zero): saved
/// before the first configuration runs and restored after each one.
struct BufferRegion {
  uint64_t address = 0;
  size_t bytes = 0;
};

/// The times of one configuration's timed launches, in milliseconds.
struct LLK_API Timing {
  double median = 0, p20 = 0, p80 = 0, min = 0, max = 0;
  int reps = 0;
  /// Median and percentiles by linear interpolation between the closest
  /// ranks (numpy's default, as do_bench's quantiles); empty: all zero.
  static Timing of(std::vector<double> samples);
};

/// As triton.autotune: times each configuration on the real arguments and
/// keeps the fastest per key (shapes, dtypes: whatever the caller says
/// changes the winner), in memory and in the cache directory. The
/// configurations are compiled in parallel (JIT::compileAll) before any is
/// timed. Launches write the outputs; name in `restore` what must survive.
/// With LLK_PRINT_AUTOTUNING set, each configuration's time and the winner
/// are printed to stderr as they come.
class LLK_API Autotuner {
public:
  Autotuner(JIT &jit, Source source, std::string kernel, std::vector<Config> configs,
            std::function<Grid(const Config &)> grid, JITOptions base = {},
            AutotuneOptions options = {});

  struct Result {
    size_t best = 0;
    std::vector<double> ms; // the median per config; infinity where it failed
    std::vector<Timing> timings; // per config (empty when from the cache)
    std::vector<std::string> failures;
    bool fromCache = false;
  };

  /// The grid of configuration `index` for this call (the constructor's
  /// function of the config, unless a call gives its own).
  using GridOf = std::function<Grid(size_t index)>;

  /// The winner for `key`, tuning on `args` if no result is known.
  const Result &tune(const std::string &key, const ArgList &args,
                     const LaunchOptions &launch = {},
                     const std::vector<BufferRegion> &restore = {},
                     const GridOf &grid = nullptr);
  const Config &best(const std::string &key, const ArgList &args,
                     const LaunchOptions &launch = {}) {
    return configs_[tune(key, args, launch).best];
  }
  /// Launches the winner for `key` (tuning first if needed).
  void launch(const std::string &key, const ArgList &args,
              const LaunchOptions &launch = {},
              const std::vector<BufferRegion> &restore = {},
              const GridOf &grid = nullptr);
  const std::vector<Config> &configs() const { return configs_; }
  /// What tuning `key` found, if it has been tuned (or found in the cache).
  const Result *result(const std::string &key);
  /// The kernel of configs()[index], compiled (or loaded) once.
  Kernel kernelFor(size_t index);

private:
  JITOptions optionsFor(const Config &config) const;
  CacheKey recordKey(const std::string &key) const;
  /// One configuration's times (do_bench's procedure).
  Timing time(const Kernel &kernel, const Grid &grid, const ArgList &args,
              const LaunchOptions &launch, DeviceMemory *flush);

  JIT &jit_;
  Source source_;
  std::string kernel_;
  std::vector<Config> configs_;
  std::function<Grid(const Config &)> grid_;
  JITOptions base_;
  AutotuneOptions options_;
  std::mutex mutex_;
  std::map<std::string, Result> results_;
  std::map<size_t, Kernel> kernels_; // by config index
};

} // namespace llk::rt

#endif // LLK_RUNTIME_JIT_H
