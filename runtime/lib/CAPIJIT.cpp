//===- CAPIJIT.cpp - the C interface of the JIT ---------------------------===//

#include "CAPIImpl.h"
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
                           const char *const *constant_names,
                           const int64_t *constant_values, size_t num_constants,
                           unsigned num_warps, const char *arch, const char *kernel_name,
                           llk_kernel *kernel) {
  if (!source_text || !kernel || (num_constants && (!constant_names || !constant_values)))
    return capi::nullHandle("source, constants or kernel");
  *kernel = nullptr;
  return capi::guard([&] {
    auto j = capi::lookup(jit, "jit");
    JITOptions options;
    for (size_t i = 0; i < num_constants; ++i) {
      if (!constant_names[i])
        throw Error(ErrorCode::InvalidArgument,
                    "null name of constant " + std::to_string(i));
      options.constants[constant_names[i]] = constant_values[i];
    }
    if (num_warps)
      options.numWarps = num_warps;
    if (arch)
      options.arch = arch;
    Source source = Source::fromText(source_text, source_name ? source_name : "<source>");
    *kernel = capi::makeHandle<llk_kernel>(std::make_shared<llk_kernel_s>(
        llk_kernel_s{j->jit.compile(source, options, kernel_name ? kernel_name : "")}));
  });
}

llk_status llk_jit_destroy(llk_jit jit) { return capi::destroy(jit, "jit"); }

} // extern "C"
