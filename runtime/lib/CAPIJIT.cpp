//===- CAPIJIT.cpp - the C interface of the JIT ---------------------------===//

#include "CAPIImpl.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/runtime/JIT.h"

#include <cmath>
#include <limits>
#include <mutex>

using namespace llk::rt;

struct llk_jit_s {
  llk_jit_s(const Device &device, std::shared_ptr<Cache> cache)
      : jit(device, std::move(cache)) {}
  JIT jit; // not movable: built in place
};

/// "NAME=VALUE" bindings, as llkc's -D, into `constants`.
static void bindDefines(const char *const *defines, size_t count,
                        llk::Constants &constants) {
  for (size_t i = 0; i < count; ++i) {
    if (!defines[i])
      throw Error(ErrorCode::InvalidArgument, "null define " + std::to_string(i));
    auto binding = llk::parseDefine(defines[i]);
    if (!binding)
      throw Error(ErrorCode::InvalidArgument, llvm::toString(binding.takeError()));
    if (!constants.insert(*binding).second)
      throw Error(ErrorCode::InvalidArgument,
                  "define " + std::to_string(i) + " binds '" + binding->first + "' twice");
  }
}

/// The tuner, and the grids of the call under way (llk_autotuner_tune's,
/// which the C caller computes for its arguments).
struct llk_autotuner_s {
  std::shared_ptr<llk_jit_s> jit; // outlives the tuner
  std::unique_ptr<Autotuner> tuner;
  std::mutex mutex;               // one call at a time
};

extern "C" {

llk_status llk_jit_create(llk_device device, const char *cache_dir, llk_jit *jit) {
  if (!jit)
    return capi::nullHandle("jit");
  *jit = nullptr;
  return capi::guard([&] {
    auto d = capi::lookup(device, "device");
    auto cache = std::make_shared<Cache>(cache_dir ? cache_dir : "");
    *jit = capi::makeHandle<llk_jit>(std::make_shared<llk_jit_s>(d->device, std::move(cache)));
  });
}

llk_status llk_jit_compile(llk_jit jit, const char *source_text, const char *source_name,
                           const char *const *defines, size_t num_defines,
                           unsigned num_warps, unsigned num_stages, const char *arch,
                           const char *kernel_name, llk_kernel *kernel) {
  if (!source_text || !kernel || (num_defines && !defines))
    return capi::nullHandle("source, defines or kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    auto j = capi::lookup(jit, "jit");
    JITOptions options;
    bindDefines(defines, num_defines, options.constants);
    if (num_warps)
      options.numWarps = num_warps;
    if (num_stages)
      options.numStages = num_stages;
    if (arch)
      options.arch = arch;
    Source source = Source::fromText(source_text, source_name ? source_name : "<source>");
    *kernel = capi::makeHandle<llk_kernel>(std::make_shared<llk_kernel_s>(
        llk_kernel_s{j->jit.compile(source, options, kernel_name ? kernel_name : "")}));
  });
}

llk_status llk_jit_get_stats(llk_jit jit, llk_jit_stats *stats) {
  if (!stats)
    return capi::nullHandle("stats");
  return capi::guard([&] {
    JIT &j = capi::lookup(jit, "jit")->jit;
    const Cache::Stats &cache = j.cache().stats();
    stats->compiles = j.compileCount();
    stats->memory_hits = cache.memoryHits;
    stats->disk_hits = cache.diskHits;
    stats->store_failures = j.storeFailures();
    stats->cubin_loads = j.cubinLoads();
    stats->ptx_loads = j.ptxLoads();
  });
}

llk_status llk_jit_destroy(llk_jit jit) { return capi::destroy(jit, "jit"); }

llk_status llk_autotuner_create(llk_jit jit, const char *source_text,
                                const char *source_name, const char *kernel_name,
                                const llk_config *configs, size_t num_configs,
                                const llk_autotune_options *options,
                                llk_autotuner *tuner) {
  if (!source_text || !tuner || (num_configs && !configs))
    return capi::nullHandle("source, configs or tuner");
  *tuner = nullptr;
  return capi::guard([&] {
    auto j = capi::lookup(jit, "jit");
    std::vector<Config> list;
    for (size_t i = 0; i < num_configs; ++i) {
      const llk_config &c = configs[i];
      if (c.num_defines && !c.defines)
        throw Error(ErrorCode::InvalidArgument,
                    "config " + std::to_string(i) + ": null defines");
      Config config;
      bindDefines(c.defines, c.num_defines, config.constants);
      if (c.num_warps)
        config.numWarps = c.num_warps;
      if (c.num_stages)
        config.numStages = c.num_stages;
      list.push_back(std::move(config));
    }
    AutotuneOptions tuning;
    if (options) {
      if (options->warmup_ms)
        tuning.warmupMs = options->warmup_ms;
      if (options->rep_ms)
        tuning.repMs = options->rep_ms;
      tuning.flushL2 = !options->no_flush;
    }
    auto state = std::make_shared<llk_autotuner_s>();
    state->jit = j;
    // Grids come with each call (llk_autotuner_tune).
    state->tuner = std::make_unique<Autotuner>(
        j->jit, Source::fromText(source_text, source_name ? source_name : "<source>"),
        kernel_name ? kernel_name : "", std::move(list),
        [](const Config &) -> Grid {
          throw Error(ErrorCode::InvalidArgument, "no grid for the configuration");
        },
        JITOptions{}, tuning);
    *tuner = capi::makeHandle<llk_autotuner>(std::move(state));
  });
}

llk_status llk_autotuner_tune(llk_autotuner tuner, const char *key, const unsigned *grids,
                              const llk_arg *args, size_t num_args, void *stream,
                              const llk_region *restore, size_t num_restore,
                              size_t *best) {
  if (!key || !grids || !best || (num_args && !args) || (num_restore && !restore))
    return capi::nullHandle("key, grids, args, restore or best");
  return capi::guard([&] {
    auto t = capi::lookup(tuner, "tuner");
    std::lock_guard<std::mutex> lock(t->mutex);
    std::vector<BufferRegion> regions;
    for (size_t i = 0; i < num_restore; ++i)
      regions.push_back({restore[i].address, restore[i].bytes});
    auto gridOf = [&](size_t i) {
      return Grid(grids[3 * i], grids[3 * i + 1], grids[3 * i + 2]);
    };
    *best = t->tuner->tune(key, capi::toArgList(args, num_args), capi::onStream(stream),
                           regions, gridOf)
                .best;
  });
}

llk_status llk_autotuner_timing(llk_autotuner tuner, const char *key, size_t index,
                                llk_timing *timing) {
  if (!key || !timing)
    return capi::nullHandle("key or timing");
  return capi::guard([&] {
    auto t = capi::lookup(tuner, "tuner");
    std::lock_guard<std::mutex> lock(t->mutex);
    const Autotuner::Result *result = t->tuner->result(key);
    if (!result)
      throw Error(ErrorCode::NotFound, std::string("no autotuning result for key '") +
                                           key + "'");
    if (index >= result->ms.size())
      throw Error(ErrorCode::InvalidArgument,
                  "configuration " + std::to_string(index) + " of " +
                      std::to_string(result->ms.size()));
    double nan = std::numeric_limits<double>::quiet_NaN();
    *timing = llk_timing{std::isfinite(result->ms[index]) ? result->ms[index] : nan,
                         nan, nan, 0, result->fromCache};
    if (index < result->timings.size() && result->timings[index].reps) {
      const Timing &m = result->timings[index];
      timing->p20_ms = m.p20;
      timing->p80_ms = m.p80;
      timing->reps = m.reps;
    }
  });
}

llk_status llk_autotuner_kernel(llk_autotuner tuner, size_t index, llk_kernel *kernel) {
  if (!kernel)
    return capi::nullHandle("kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    auto t = capi::lookup(tuner, "tuner");
    *kernel = capi::makeHandle<llk_kernel>(
        std::make_shared<llk_kernel_s>(llk_kernel_s{t->tuner->kernelFor(index)}));
  });
}

llk_status llk_autotuner_destroy(llk_autotuner tuner) {
  return capi::destroy(tuner, "tuner");
}

} // extern "C"
