//===- CAPIJIT.cpp - the C interface of the JIT ---------------------------===//

#include "CAPIImpl.h"
#include "llk/Compiler/KernelSource.h"
#include "llk/runtime/JIT.h"

using namespace llk::rt;

struct llk_jit_s {
  llk_jit_s(const Device &device, std::shared_ptr<Cache> cache)
      : jit(device, std::move(cache)) {}
  JIT jit; // not movable: built in place
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
    for (size_t i = 0; i < num_defines; ++i) {
      if (!defines[i])
        throw Error(ErrorCode::InvalidArgument,
                    "null define " + std::to_string(i));
      // As llkc's -D: NAME=<integer or element type>.
      auto binding = llk::parseDefine(defines[i]);
      if (!binding)
        throw Error(ErrorCode::InvalidArgument, llvm::toString(binding.takeError()));
      if (!options.constants.insert(*binding).second)
        throw Error(ErrorCode::InvalidArgument,
                    "define " + std::to_string(i) + " binds '" + binding->first +
                        "' twice");
    }
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

} // extern "C"
