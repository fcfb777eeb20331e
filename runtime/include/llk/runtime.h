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
  LLK_UNTYPED = 255 /* a pointer whose element type is not checked */
} llk_type;

typedef struct llk_device_s *llk_device;
typedef struct llk_module_s *llk_module;
typedef struct llk_kernel_s *llk_kernel;
typedef struct llk_buffer_s *llk_buffer;
typedef struct llk_jit_s *llk_jit;

/* One argument: a device address (is_pointer) or a scalar's bits. */
typedef struct llk_arg {
  int is_pointer;
  llk_type type;
  uint64_t bits;
} llk_arg;

llk_arg llk_arg_ptr(uint64_t address, llk_type element);
llk_arg llk_arg_i32(int32_t value);
llk_arg llk_arg_i64(int64_t value);
llk_arg llk_arg_f32(float value);

/* The message of the calling thread's last failure ("" if none). */
const char *llk_last_error(void);
/* The CUDA error name of that failure (CUDA_ERROR_...), "" if none. */
const char *llk_last_cuda_error(void);

/* The devices of the backend LLK_BACKEND selects: CUDA's, or 1 for the
 * interpreter (device 0). */
llk_status llk_device_count(int *count);
llk_status llk_device_open(int ordinal, llk_device *device);
/* "sm_90" etc. ("interpreter"), valid while the device is. */
const char *llk_device_arch(llk_device device);
llk_status llk_device_destroy(llk_device device);

llk_status llk_module_load_ptx_file(llk_device device, const char *path,
                                    llk_module *module);
llk_status llk_module_load_ptx(llk_device device, const char *ptx,
                               const char *metadata_json, llk_module *module);
llk_status llk_module_destroy(llk_module module);

/* name NULL or "": the module's only kernel. */
llk_status llk_module_get_kernel(llk_module module, const char *name,
                                 llk_kernel *kernel);
size_t llk_kernel_num_params(llk_kernel kernel);
unsigned llk_kernel_num_warps(llk_kernel kernel);
llk_status llk_kernel_destroy(llk_kernel kernel);

/* stream: a CUstream or NULL for the default stream. */
llk_status llk_kernel_launch(llk_kernel kernel, const unsigned grid[3],
                             const llk_arg *args, size_t num_args, void *stream,
                             unsigned dynamic_shared_bytes);

llk_status llk_buffer_create(llk_device device, size_t bytes, llk_buffer *buffer);
uint64_t llk_buffer_address(llk_buffer buffer);
llk_status llk_buffer_copy_from_host(llk_buffer buffer, const void *host, size_t bytes);
llk_status llk_buffer_copy_to_host(llk_buffer buffer, void *host, size_t bytes);
llk_status llk_buffer_destroy(llk_buffer buffer);

llk_status llk_synchronize(llk_device device);

/* JIT (in libLLKJIT): cache_dir NULL for the default ($LLK_CACHE_DIR or
 * ~/.cache/llk). constant_names/values: num_constants ${NAME} bindings,
 * integers only (element-type constants, `-D T=bf16`, are C++ JITOptions
 * only); num_warps 0 keeps the kernels' own; arch NULL: the device's. */
llk_status llk_jit_create(llk_device device, const char *cache_dir, llk_jit *jit);
llk_status llk_jit_compile(llk_jit jit, const char *source_text,
                           const char *source_name, const char *const *constant_names,
                           const int64_t *constant_values, size_t num_constants,
                           unsigned num_warps, const char *arch, const char *kernel_name,
                           llk_kernel *kernel);
llk_status llk_jit_destroy(llk_jit jit);

#ifdef __cplusplus
}
#endif

#endif /* LLK_RUNTIME_C_H */
