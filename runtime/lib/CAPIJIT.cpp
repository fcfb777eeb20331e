//===- CAPIJIT.cpp - the C interface of the JIT ---------------------------===//

#include "CAPIImpl.h"
#include "llk/runtime/JIT.h"

using namespace llk::rt;

struct llk_jit_s {
  JIT jit;
};

extern "C" {

llk_status llk_jit_create(llk_device device, const char *cache_dir, llk_jit *jit) {
  if (!device || !jit) {
    if (jit)
      *jit = nullptr;
    return capi::nullHandle("device or jit");
  }
  *jit = nullptr;
  return capi::guard([&] {
    auto cache = std::make_shared<Cache>(cache_dir ? cache_dir : "");
    *jit = new llk_jit_s{JIT(device->device, std::move(cache))};
  });
}

llk_status llk_jit_compile(llk_jit jit, const char *source_text, const char *source_name,
                           const char *const *constant_names,
                           const int64_t *constant_values, size_t num_constants,
                           unsigned num_warps, const char *arch, const char *kernel_name,
                           llk_kernel *kernel) {
  if (!jit || !source_text || !kernel || (num_constants && (!constant_names || !constant_values)))
    return capi::nullHandle("jit, source, constants or kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    JITOptions options;
    for (size_t i = 0; i < num_constants; ++i)
      options.constants[constant_names[i]] = constant_values[i];
    if (num_warps)
      options.numWarps = num_warps;
    if (arch)
      options.arch = arch;
    Source source = Source::fromText(source_text, source_name ? source_name : "<source>");
    *kernel = new llk_kernel_s{
        jit->jit.compile(source, options, kernel_name ? kernel_name : "")};
  });
}

void llk_jit_destroy(llk_jit jit) { delete jit; }

} // extern "C"
