/*===- llk/runtime.h - C interface of the llk runtime --------------------===*
 *
 * Opaque handles and status codes for other languages. Every function returns
 * LLK_SUCCESS or an error status; llk_last_error() then holds the message
 * (the CUDA error name and text, the kernel's name) for the calling thread.
 * Nothing aborts the process. Handles are released with their _destroy
 * function (NULL: nothing to do); a kernel keeps its module alive, a buffer
 * its device. Every call checks its handles: one that was destroyed, is of
 * another type or was never created is LLK_ERROR_INVALID_ARGUMENT (functions
 * that return a value return 0 or "" and set llk_last_error), never a use of
 * freed memory. Handles may be used and destroyed from several threads; one
 * destroyed during a call on another thread lives until that call returns.
 *
 * The functions are in libllk.so (pkg-config llk_runtime; CMake llk::runtime);
 * libllk_runtime.a, the runtime without the compiler, has them all but the
 * llk_jit_* ones. C99; every function is exported (LLK_API).
 *
 *   llk_device dev; llk_module mod; llk_kernel k;
 *   if (llk_device_open(0, &dev) != LLK_SUCCESS) puts(llk_last_error());
 *   llk_module_load_ptx_file(dev, "softmax.ptx", &mod);
 *   llk_module_get_kernel(mod, "softmax_kernel", &k);
 *   llk_arg args[] = {llk_arg_ptr(out_addr, LLK_F32), ...};
 *   unsigned grid[3] = {rows, 1, 1};
 *   llk_kernel_launch(k, grid, args, 5, NULL, 0);
 *
 *===----------------------------------------------------------------------===*/

#ifndef LLK_RUNTIME_C_H
#define LLK_RUNTIME_C_H

#include "llk/Export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum llk_status {
  LLK_SUCCESS = 0,
  LLK_ERROR_NO_DRIVER = 1,
  LLK_ERROR_CUDA = 2,
  LLK_ERROR_INVALID_ARGUMENT = 3,
  LLK_ERROR_NOT_FOUND = 4,
  LLK_ERROR_COMPILE = 5,
  LLK_ERROR_IO = 6,
  LLK_ERROR_INTERNAL = 7,
  LLK_ERROR_EXECUTION = 8 /* the interpreter stopped a kernel */
} llk_status;

typedef enum llk_type {
  LLK_I8, LLK_I16, LLK_I32, LLK_I64, LLK_F16, LLK_BF16, LLK_F32, LLK_F64,
  LLK_F8E4M3FN, LLK_F8E5M2, /* 8-bit floats: buffers of their bytes */
  LLK_UNTYPED = 255 /* a pointer whose element type is not checked */
} llk_type;

typedef struct llk_device_s *llk_device;
typedef struct llk_module_s *llk_module;
typedef struct llk_kernel_s *llk_kernel;
typedef struct llk_buffer_s *llk_buffer;
typedef struct llk_jit_s *llk_jit;
typedef struct llk_tensor_map_s *llk_tensor_map;
typedef struct llk_autotuner_s *llk_autotuner;

/* llk's version, "0.1.0" (LLK_VERSION_STRING of llk/Version.h). */
LLK_API const char *llk_version(void);
/* The compiler build's identity: 16 hex digits, part of every JIT cache key. */
LLK_API const char *llk_build_id(void);

/* One argument: a device address (is_pointer 1), the address of a tensor map
 * (is_pointer LLK_ARG_TENSOR_MAP: what a !tile.tensordesc parameter takes) or
 * a scalar's bits (0). A scalar must have its parameter's exact type. */
#define LLK_ARG_TENSOR_MAP 2
typedef struct llk_arg {
  int is_pointer;
  llk_type type;
  uint64_t bits;
} llk_arg;

LLK_API llk_arg llk_arg_ptr(uint64_t address, llk_type element);
/* A tensor map's address (llk_tensor_map_create), for its descriptor
 * parameter; an argument of a map that is not live fails the launch. */
LLK_API llk_arg llk_arg_tensor_map(llk_tensor_map map);
LLK_API llk_arg llk_arg_i8(int8_t value);
LLK_API llk_arg llk_arg_i16(int16_t value);
LLK_API llk_arg llk_arg_i32(int32_t value);
LLK_API llk_arg llk_arg_i64(int64_t value);
/* f16 and bf16: a float rounded to nearest (ties to even; NaN stays NaN),
 * or the 16 bits themselves. */
LLK_API llk_arg llk_arg_f16(float value);
LLK_API llk_arg llk_arg_f16_bits(uint16_t bits);
LLK_API llk_arg llk_arg_bf16(float value);
LLK_API llk_arg llk_arg_bf16_bits(uint16_t bits);
LLK_API llk_arg llk_arg_f32(float value);
LLK_API llk_arg llk_arg_f64(double value);

/* The message of the calling thread's last failure ("" if none). */
LLK_API const char *llk_last_error(void);
/* The CUDA error name of that failure (CUDA_ERROR_...), "" if none. */
LLK_API const char *llk_last_cuda_error(void);

/* The devices of the backend LLK_BACKEND selects: CUDA's, or 1 for the
 * interpreter (device 0). */
LLK_API llk_status llk_device_count(int *count);
LLK_API llk_status llk_device_open(int ordinal, llk_device *device);
/* "sm_90" etc. ("interpreter"), and the device's name ("NVIDIA H100 80GB
 * HBM3", "llk interpreter (host)"): valid while the device is. */
LLK_API const char *llk_device_arch(llk_device device);
LLK_API const char *llk_device_name(llk_device device);
LLK_API llk_status llk_device_destroy(llk_device device);

/* PTX (or a cubin: cuModuleLoad takes either) and its metadata, llkc's
 * <path>.json. */
LLK_API llk_status llk_module_load_ptx_file(llk_device device, const char *path,
                                            llk_module *module);
LLK_API llk_status llk_module_load_ptx(llk_device device, const char *ptx,
                                       const char *metadata_json, llk_module *module);
LLK_API llk_status llk_module_destroy(llk_module module);

/* name NULL or "": the module's only kernel. */
LLK_API llk_status llk_module_get_kernel(llk_module module, const char *name,
                                         llk_kernel *kernel);
/* The kernel's name, valid while the kernel is. */
LLK_API const char *llk_kernel_name(llk_kernel kernel);
LLK_API size_t llk_kernel_num_params(llk_kernel kernel);
/* Parameter `index`: a pointer (*is_pointer 1, *type its element type) or a
 * scalar (0, its type). A !tile.tensordesc parameter is a pointer to its
 * element type. */
LLK_API llk_status llk_kernel_param(llk_kernel kernel, size_t index, int *is_pointer,
                                    llk_type *type);
LLK_API unsigned llk_kernel_num_warps(llk_kernel kernel);
/* What the launch metadata says of parameter `index`: a pointer
 * (is_pointer 1, type its element type; read_overrun_bytes: how far past
 * the last byte it accesses, and before the first, the kernel may read,
 * within those bytes' 16-byte granules: the buffer contract), a tensor
 * descriptor (is_pointer 1, is_tensor_desc 1, type its element type,
 * tma_box its box in rows and columns) or a scalar (is_pointer 0). */
typedef struct llk_param_info {
  int is_pointer;
  llk_type type;
  int is_tensor_desc;
  int64_t tma_box[2];
  int64_t read_overrun_bytes;
} llk_param_info;
LLK_API llk_status llk_kernel_param_info(llk_kernel kernel, size_t index,
                                         llk_param_info *info);
/* The contract of parameter `index` (its tile.divisibility, a power of two;
 * 1: none): a pointer's address is a multiple of it in bytes (and of its
 * element's size), an integer's value a multiple of it. Launches check it:
 * a broken one is LLK_ERROR_INVALID_ARGUMENT, naming the argument. */
LLK_API llk_status llk_kernel_param_divisibility(llk_kernel kernel, size_t index,
                                                 int64_t *divisibility);
/* Static shared memory, and the dynamic shared memory every launch provides
 * (a pipelined kernel's buffers), in bytes; whether the kernel waits in
 * tile.grid_dependency_wait (so it may be a dependent launch). */
LLK_API int64_t llk_kernel_shared_bytes(llk_kernel kernel);
LLK_API int64_t llk_kernel_dynamic_shared_bytes(llk_kernel kernel);
LLK_API int llk_kernel_grid_dependency_wait(llk_kernel kernel);
/* Programs of the kernel that fit on one SM at once with
 * dynamic_shared_bytes on top of its own (1 on the interpreter). */
LLK_API llk_status llk_kernel_occupancy(llk_kernel kernel, unsigned dynamic_shared_bytes,
                                        int *programs_per_sm);
/* The L1/shared-memory carve-out the kernel prefers: -1 (the driver's
 * default) or 0 to 100 percent of the most shared memory. A hint. */
LLK_API llk_status llk_kernel_set_shared_memory_carveout(llk_kernel kernel, int percent);
LLK_API llk_status llk_kernel_destroy(llk_kernel kernel);

/* stream: a CUstream or NULL for the default stream. */
LLK_API llk_status llk_kernel_launch(llk_kernel kernel, const unsigned grid[3],
                                     const llk_arg *args, size_t num_args,
                                     void *stream, unsigned dynamic_shared_bytes);
/* A launch with every option (NULL options: as llk_kernel_launch's
 * defaults). dependent_launch: a programmatic dependent launch (sm_90+;
 * the kernel must hold tile.grid_dependency_wait); synchronize: wait for
 * the kernel and report its execution errors as this call's. */
typedef struct llk_launch_options {
  void *stream;
  unsigned dynamic_shared_bytes;
  int dependent_launch;
  int synchronize;
} llk_launch_options;
LLK_API llk_status llk_kernel_launch_ex(llk_kernel kernel, const unsigned grid[3],
                                        const llk_arg *args, size_t num_args,
                                        const llk_launch_options *options);

/* A CUtensorMap (TMA descriptor) in device memory for the !tile.tensordesc
 * parameter `index` of `kernel`: a row-major 2-D tensor at `address`, rows x
 * cols elements, rows row_stride_bytes apart (a multiple of 16; the address
 * 16-byte aligned), read in the box the metadata gives, 128-byte swizzle.
 * Pass it with llk_arg_tensor_map; it must live until the launches that
 * read it have run. Not on the interpreter (INVALID_ARGUMENT). */
LLK_API llk_status llk_tensor_map_create(llk_device device, llk_kernel kernel,
                                         size_t index, uint64_t address,
                                         uint64_t rows, uint64_t cols,
                                         uint64_t row_stride_bytes,
                                         llk_tensor_map *map);
LLK_API uint64_t llk_tensor_map_address(llk_tensor_map map);
LLK_API llk_status llk_tensor_map_destroy(llk_tensor_map map);

LLK_API llk_status llk_buffer_create(llk_device device, size_t bytes,
                                     llk_buffer *buffer);
LLK_API uint64_t llk_buffer_address(llk_buffer buffer);
LLK_API llk_status llk_buffer_copy_from_host(llk_buffer buffer, const void *host,
                                             size_t bytes);
LLK_API llk_status llk_buffer_copy_to_host(llk_buffer buffer, void *host,
                                           size_t bytes);
LLK_API llk_status llk_buffer_destroy(llk_buffer buffer);

LLK_API llk_status llk_synchronize(llk_device device);

/* The JIT (libllk.so only). cache_dir NULL or "": the default
 * ($LLK_CACHE_DIR, else ~/.cache/llk; docs/runtime.md). */
LLK_API llk_status llk_jit_create(llk_device device, const char *cache_dir,
                                  llk_jit *jit);
/* Compiles the DSL source `source_text` (or finds it in the cache) and loads
 * it; *kernel is its kernel `kernel_name` (NULL or "": the only one).
 * source_name names the source in diagnostics (NULL: "<source>").
 * defines: num_defines bindings "NAME=VALUE" of the source's ${NAME}, as
 * llkc's -D: an integer or an element type (f16, bf16, f32, ...).
 * num_warps and num_stages 0 keep the kernels' own; arch NULL or "": the
 * device's. A compile error is LLK_ERROR_COMPILE with the diagnostics
 * (file:line:col) in llk_last_error(). */
LLK_API llk_status llk_jit_compile(llk_jit jit, const char *source_text,
                                   const char *source_name,
                                   const char *const *defines, size_t num_defines,
                                   unsigned num_warps, unsigned num_stages,
                                   const char *arch, const char *kernel_name,
                                   llk_kernel *kernel);

/* What a JIT has done: compiles it ran (cache misses), hits in memory and on
 * disk, failed disk writes, and modules loaded from a cubin or from PTX. */
typedef struct llk_jit_stats {
  unsigned compiles;
  unsigned memory_hits;
  unsigned disk_hits;
  unsigned store_failures;
  unsigned cubin_loads;
  unsigned ptx_loads;
} llk_jit_stats;
LLK_API llk_status llk_jit_get_stats(llk_jit jit, llk_jit_stats *stats);
LLK_API llk_status llk_jit_destroy(llk_jit jit);

/* The autotuner (libllk.so only; docs/runtime.md): configurations of one
 * kernel of a source, each compiled (all at once, in parallel) and timed on
 * the real arguments as triton.testing.do_bench does (the L2 cache flushed
 * before each timed launch, the median kept); the winner per key is kept in
 * memory and in the JIT's cache directory. A configuration: defines as
 * llk_jit_compile's, num_warps and num_stages (0: the kernel's own). */
typedef struct llk_config {
  const char *const *defines;
  size_t num_defines;
  unsigned num_warps;
  unsigned num_stages;
} llk_config;
/* warmup_ms and rep_ms: do_bench's budgets (0: 25 and 100); no_flush: do
 * not flush the L2 cache. */
typedef struct llk_autotune_options {
  double warmup_ms;
  double rep_ms;
  int no_flush;
} llk_autotune_options;
LLK_API llk_status llk_autotuner_create(llk_jit jit, const char *source_text,
                                        const char *source_name,
                                        const char *kernel_name,
                                        const llk_config *configs,
                                        size_t num_configs,
                                        const llk_autotune_options *options,
                                        llk_autotuner *tuner);
/* Memory the kernel overwrites that must look untouched after tuning (an
 * output that is also an input): saved before tuning, restored after each
 * configuration. */
typedef struct llk_region {
  uint64_t address;
  size_t bytes;
} llk_region;
/* The winner for `key` (tuning on the arguments first, unless it is known):
 * *best, an index into the configurations. grids: three numbers a
 * configuration (its grid for these arguments). */
LLK_API llk_status llk_autotuner_tune(llk_autotuner tuner, const char *key,
                                      const unsigned *grids, const llk_arg *args,
                                      size_t num_args, void *stream,
                                      const llk_region *restore, size_t num_restore,
                                      size_t *best);
/* What tuning `key` measured for configuration `index`, in milliseconds:
 * median, the 20th and 80th percentiles (NaN when it failed or the winner
 * came from the cache; *reps 0 then) and the timed launches. */
typedef struct llk_timing {
  double median_ms;
  double p20_ms;
  double p80_ms;
  int reps;
  int from_cache;
} llk_timing;
LLK_API llk_status llk_autotuner_timing(llk_autotuner tuner, const char *key,
                                        size_t index, llk_timing *timing);
/* Configuration `index`'s kernel (compiled once): the caller destroys it. */
LLK_API llk_status llk_autotuner_kernel(llk_autotuner tuner, size_t index,
                                        llk_kernel *kernel);
LLK_API llk_status llk_autotuner_destroy(llk_autotuner tuner);

#ifdef __cplusplus
}
#endif

#endif /* LLK_RUNTIME_C_H */
