/* llk's C interface from C99 (built with -std=c99 -pedantic -Werror):
 * JIT-compiles kernels from source, launches them with an argument of every
 * scalar type, checks what they wrote, and checks the errors. Runs on the
 * interpreter (LLK_BACKEND=interpreter, as CI does) or the GPU.
 * Exit status 0 PASS, 1 FAIL. */
#include "llk/runtime.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition, ...)                                                  \
  do {                                                                         \
    if (!(condition)) {                                                        \
      ++failures;                                                              \
      printf("FAIL line %d: ", __LINE__);                                      \
      printf(__VA_ARGS__);                                                     \
      printf(" (last error: %s)\n", llk_last_error());                         \
    }                                                                          \
  } while (0)

/* Each scalar argument, converted to f64, into out[0..7]. */
static const char *const scalars_source =
    "func.func @scalars(%out: !tile.ptr<f64>, %a: i8, %b: i16, %c: i32,\n"
    "                   %d: i64, %e: f16, %f: bf16, %g: f32, %h: f64) {\n"
    "  %va = arith.sitofp %a : i8 to f64\n"
    "  %vb = arith.sitofp %b : i16 to f64\n"
    "  %vc = arith.sitofp %c : i32 to f64\n"
    "  %vd = arith.sitofp %d : i64 to f64\n"
    "  %ve = arith.extf %e : f16 to f64\n"
    "  %vf = arith.extf %f : bf16 to f64\n"
    "  %vg = arith.extf %g : f32 to f64\n"
    "  %c1 = arith.constant 1 : i32\n"
    "  %c2 = arith.constant 2 : i32\n"
    "  %c3 = arith.constant 3 : i32\n"
    "  %c4 = arith.constant 4 : i32\n"
    "  %c5 = arith.constant 5 : i32\n"
    "  %c6 = arith.constant 6 : i32\n"
    "  %c7 = arith.constant 7 : i32\n"
    "  %p1 = tile.addptr %out, %c1 : !tile.ptr<f64>, i32\n"
    "  %p2 = tile.addptr %out, %c2 : !tile.ptr<f64>, i32\n"
    "  %p3 = tile.addptr %out, %c3 : !tile.ptr<f64>, i32\n"
    "  %p4 = tile.addptr %out, %c4 : !tile.ptr<f64>, i32\n"
    "  %p5 = tile.addptr %out, %c5 : !tile.ptr<f64>, i32\n"
    "  %p6 = tile.addptr %out, %c6 : !tile.ptr<f64>, i32\n"
    "  %p7 = tile.addptr %out, %c7 : !tile.ptr<f64>, i32\n"
    "  tile.store %va, %out : !tile.ptr<f64>\n"
    "  tile.store %vb, %p1 : !tile.ptr<f64>\n"
    "  tile.store %vc, %p2 : !tile.ptr<f64>\n"
    "  tile.store %vd, %p3 : !tile.ptr<f64>\n"
    "  tile.store %ve, %p4 : !tile.ptr<f64>\n"
    "  tile.store %vf, %p5 : !tile.ptr<f64>\n"
    "  tile.store %vg, %p6 : !tile.ptr<f64>\n"
    "  tile.store %h, %p7 : !tile.ptr<f64>\n"
    "  return\n"
    "}\n";

/* out[i] = x[i] * s for i < n; BLOCK elements of type T a program. */
static const char *const scale_source =
    "func.func @scale(%x: !tile.ptr<${T}>, %out: !tile.ptr<${T}>, %s: ${T},\n"
    "                 %n: i32) {\n"
    "  %pid = tile.program_id x\n"
    "  %block = arith.constant ${BLOCK} : i32\n"
    "  %start = arith.muli %pid, %block : i32\n"
    "  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>\n"
    "  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>\n"
    "  %i = arith.addi %starts, %range : tensor<${BLOCK}xi32>\n"
    "  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>\n"
    "  %mask = arith.cmpi slt, %i, %ns : tensor<${BLOCK}xi32>\n"
    "  %xs = tile.splat %x : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>\n"
    "  %xp = tile.addptr %xs, %i : tensor<${BLOCK}x!tile.ptr<${T}>>,"
    " tensor<${BLOCK}xi32>\n"
    "  %xv = tile.load %xp mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>\n"
    "  %ss = tile.splat %s : ${T} -> tensor<${BLOCK}x${T}>\n"
    "  %y = arith.mulf %xv, %ss : tensor<${BLOCK}x${T}>\n"
    "  %os = tile.splat %out : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>\n"
    "  %op = tile.addptr %os, %i : tensor<${BLOCK}x!tile.ptr<${T}>>,"
    " tensor<${BLOCK}xi32>\n"
    "  tile.store %y, %op mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>\n"
    "  return\n"
    "}\n";

/* The f64 the kernel stores for each argument. */
static int launch_scalars(llk_kernel kernel, llk_device device, const llk_arg *scalars,
                          double out[8]) {
  llk_buffer buffer = NULL;
  llk_arg args[9];
  unsigned grid[3] = {1, 1, 1};
  int i;
  if (llk_buffer_create(device, 8 * sizeof(double), &buffer) != LLK_SUCCESS)
    return 0;
  args[0] = llk_arg_ptr(llk_buffer_address(buffer), LLK_F64);
  for (i = 0; i < 8; ++i)
    args[i + 1] = scalars[i];
  if (llk_kernel_launch(kernel, grid, args, 9, NULL, 0) != LLK_SUCCESS ||
      llk_synchronize(device) != LLK_SUCCESS ||
      llk_buffer_copy_to_host(buffer, out, 8 * sizeof(double)) != LLK_SUCCESS) {
    llk_buffer_destroy(buffer);
    return 0;
  }
  return llk_buffer_destroy(buffer) == LLK_SUCCESS;
}

static void check_scalars(llk_jit jit, llk_device device) {
  static const llk_type expected_types[9] = {LLK_F64, LLK_I8,   LLK_I16,
                                             LLK_I32, LLK_I64,  LLK_F16,
                                             LLK_BF16, LLK_F32, LLK_F64};
  llk_kernel kernel = NULL;
  llk_arg args[8];
  double out[8];
  size_t i;
  int is_pointer = -1;
  llk_type type = LLK_UNTYPED;
  llk_status s = llk_jit_compile(jit, scalars_source, "scalars.mlir", NULL, 0, 1, 0,
                                 NULL, "scalars", &kernel);
  CHECK(s == LLK_SUCCESS, "compiling scalars.mlir");
  if (s != LLK_SUCCESS)
    return;
  CHECK(strcmp(llk_kernel_name(kernel), "scalars") == 0, "kernel name '%s'",
        llk_kernel_name(kernel));
  CHECK(llk_kernel_num_params(kernel) == 9, "%u parameters",
        (unsigned)llk_kernel_num_params(kernel));
  for (i = 0; i < 9; ++i) {
    s = llk_kernel_param(kernel, i, &is_pointer, &type);
    CHECK(s == LLK_SUCCESS && is_pointer == (i == 0) && type == expected_types[i],
          "parameter %u: pointer %d, type %d", (unsigned)i, is_pointer, (int)type);
  }
  CHECK(llk_kernel_param(kernel, 9, &is_pointer, &type) == LLK_ERROR_INVALID_ARGUMENT,
        "parameter 9 of 9");

  /* Values every type holds exactly, through the helpers that convert. */
  args[0] = llk_arg_i8(-7);
  args[1] = llk_arg_i16(-300);
  args[2] = llk_arg_i32(100000);
  args[3] = llk_arg_i64(-5000000000LL);
  args[4] = llk_arg_f16(-2.75f);
  args[5] = llk_arg_bf16(3.5f);
  args[6] = llk_arg_f32(0.1f);
  args[7] = llk_arg_f64(1e300);
  CHECK(launch_scalars(kernel, device, args, out), "launching scalars");
  CHECK(out[0] == -7 && out[1] == -300 && out[2] == 100000 &&
            out[3] == -5000000000.0 && out[4] == -2.75 && out[5] == 3.5 &&
            out[6] == (double)0.1f && out[7] == 1e300,
        "scalars wrote %g %g %g %g %g %g %.9g %g", out[0], out[1], out[2], out[3],
        out[4], out[5], out[6], out[7]);
  /* The 16-bit types from their bits: 0x3555 is f16 0.333251953125, 0x3eab
   * bf16 0.333984375. */
  args[4] = llk_arg_f16_bits(0x3555);
  args[5] = llk_arg_bf16_bits(0x3eab);
  CHECK(launch_scalars(kernel, device, args, out), "launching scalars (bits)");
  CHECK(out[4] == 0.333251953125 && out[5] == 0.333984375, "f16 %.12g, bf16 %.12g",
        out[4], out[5]);
  /* Rounding to nearest even: 0.1f is 0x3dcccccd. */
  CHECK(llk_arg_f16(0.1f).bits == 0x2e66 && llk_arg_bf16(0.1f).bits == 0x3dcd,
        "0.1 as f16 0x%x, bf16 0x%x", (unsigned)llk_arg_f16(0.1f).bits,
        (unsigned)llk_arg_bf16(0.1f).bits);

  /* A scalar of the wrong type, and too few arguments: refused, naming the
   * kernel. */
  {
    unsigned grid[3] = {1, 1, 1};
    llk_arg wrong[9];
    wrong[0] = llk_arg_ptr(0, LLK_F64); /* refused before any access */
    for (i = 0; i < 8; ++i)
      wrong[i + 1] = args[i];
    wrong[4] = llk_arg_i32(5);
    s = llk_kernel_launch(kernel, grid, wrong, 9, NULL, 0);
    CHECK(s == LLK_ERROR_INVALID_ARGUMENT && strstr(llk_last_error(), "scalars") &&
              strstr(llk_last_error(), "i64"),
          "an i32 for an i64 parameter gave status %d", (int)s);
    s = llk_kernel_launch(kernel, grid, wrong, 3, NULL, 0);
    CHECK(s == LLK_ERROR_INVALID_ARGUMENT, "3 arguments for 9 parameters");
  }

  /* A destroyed handle is refused, not used. */
  CHECK(llk_kernel_destroy(kernel) == LLK_SUCCESS, "destroying the kernel");
  CHECK(llk_kernel_num_params(kernel) == 0 &&
            strstr(llk_last_error(), "not a live llk_kernel"),
        "a destroyed kernel");
  CHECK(llk_kernel_destroy(kernel) == LLK_ERROR_INVALID_ARGUMENT, "destroying twice");
}

static void check_scale(llk_jit jit, llk_device device, int interpreter) {
  static const char *const defines[2] = {"BLOCK=64", "T=f32"};
  enum { N = 100 };
  float x[N], y[N];
  unsigned grid[3] = {(N + 63) / 64, 1, 1};
  llk_kernel kernel = NULL;
  llk_buffer bx = NULL, by = NULL;
  llk_arg args[4];
  llk_status s;
  int i, wrong = 0;
  s = llk_jit_compile(jit, scale_source, "scale.mlir", defines, 2, 0, 0, NULL, NULL,
                      &kernel);
  CHECK(s == LLK_SUCCESS, "compiling scale.mlir with BLOCK=64 T=f32");
  if (s != LLK_SUCCESS)
    return;
  for (i = 0; i < N; ++i)
    x[i] = 0.25f * (float)i - 3.0f;
  CHECK(llk_buffer_create(device, sizeof x, &bx) == LLK_SUCCESS &&
            llk_buffer_create(device, sizeof y, &by) == LLK_SUCCESS &&
            llk_buffer_copy_from_host(bx, x, sizeof x) == LLK_SUCCESS,
        "buffers");
  args[0] = llk_arg_ptr(llk_buffer_address(bx), LLK_F32);
  args[1] = llk_arg_ptr(llk_buffer_address(by), LLK_F32);
  args[2] = llk_arg_f32(-1.5f);
  args[3] = llk_arg_i32(N);
  {
    /* What a binding reads to convert its arguments, then a launch that
     * waits for the kernel. */
    llk_param_info info;
    llk_launch_options options = {NULL, 0, 0, 1};
    CHECK(llk_kernel_param_info(kernel, 2, &info) == LLK_SUCCESS && !info.is_pointer &&
              info.type == LLK_F32 && !info.is_tensor_desc,
          "parameter 2: pointer %d, type %d", info.is_pointer, (int)info.type);
    CHECK(llk_kernel_param_info(kernel, 0, &info) == LLK_SUCCESS && info.is_pointer &&
              info.read_overrun_bytes == 0,
          "parameter 0: overrun %ld", (long)info.read_overrun_bytes);
    CHECK(llk_kernel_shared_bytes(kernel) >= 0 &&
              llk_kernel_dynamic_shared_bytes(kernel) == 0 &&
              llk_kernel_grid_dependency_wait(kernel) == 0,
          "scale's shared memory and wait");
    s = llk_kernel_launch_ex(kernel, grid, args, 4, &options);
  }
  CHECK(s == LLK_SUCCESS, "launching scale");
  CHECK(llk_buffer_copy_to_host(by, y, sizeof y) == LLK_SUCCESS, "copying back");
  for (i = 0; i < N; ++i)
    wrong += y[i] != x[i] * -1.5f;
  CHECK(s == LLK_SUCCESS && wrong == 0, "%d of %d outputs wrong", wrong, N);

  /* The interpreter checks every access: 2 programs of 64 over 100 floats
   * with n = 128 read past the buffer. */
  if (interpreter) {
    args[3] = llk_arg_i32(128);
    s = llk_kernel_launch(kernel, grid, args, 4, NULL, 0);
    CHECK(s == LLK_ERROR_EXECUTION && strstr(llk_last_error(), "out-of-bounds") &&
              strstr(llk_last_error(), "scale.mlir:"),
          "an out-of-bounds launch gave status %d", (int)s);
  }
  llk_buffer_destroy(bx);
  llk_buffer_destroy(by);
  llk_kernel_destroy(kernel);
}

/* Two configurations of scale tuned on its arguments; the winner's kernel. */
static void check_autotune(llk_jit jit, llk_device device) {
  static const char *const small[2] = {"BLOCK=32", "T=f32"};
  static const char *const large[2] = {"BLOCK=64", "T=f32"};
  llk_config configs[2];
  llk_autotune_options quick = {0.0, 1.0, 1};
  llk_autotuner tuner = NULL;
  llk_kernel kernel = NULL;
  llk_buffer bx = NULL, by = NULL;
  llk_arg args[4];
  llk_timing timing;
  unsigned grids[6] = {4, 1, 1, 2, 1, 1};
  size_t best = 2;
  llk_status s;
  configs[0].defines = small;
  configs[0].num_defines = 2;
  configs[0].num_warps = 1;
  configs[0].num_stages = 0;
  configs[1] = configs[0];
  configs[1].defines = large;
  configs[1].num_warps = 2;
  s = llk_autotuner_create(jit, scale_source, "scale.mlir", NULL, configs, 2, &quick,
                           &tuner);
  CHECK(s == LLK_SUCCESS, "creating an autotuner");
  if (s != LLK_SUCCESS)
    return;
  CHECK(llk_buffer_create(device, 100 * sizeof(float), &bx) == LLK_SUCCESS &&
            llk_buffer_create(device, 100 * sizeof(float), &by) == LLK_SUCCESS,
        "buffers");
  args[0] = llk_arg_ptr(llk_buffer_address(bx), LLK_F32);
  args[1] = llk_arg_ptr(llk_buffer_address(by), LLK_F32);
  args[2] = llk_arg_f32(2.0f);
  args[3] = llk_arg_i32(100);
  s = llk_autotuner_tune(tuner, "n=100", grids, args, 4, NULL, NULL, 0, &best);
  CHECK(s == LLK_SUCCESS && best < 2, "tuning gave status %d, best %u", (int)s,
        (unsigned)best);
  CHECK(llk_autotuner_timing(tuner, "n=100", best, &timing) == LLK_SUCCESS &&
            (timing.from_cache || timing.reps >= 1) && timing.median_ms >= 0,
        "the winner's timing (%d reps)", timing.reps);
  CHECK(llk_autotuner_kernel(tuner, best, &kernel) == LLK_SUCCESS &&
            llk_kernel_num_warps(kernel) == configs[best].num_warps,
        "the winner's kernel");
  llk_kernel_destroy(kernel);
  llk_buffer_destroy(bx);
  llk_buffer_destroy(by);
  CHECK(llk_autotuner_destroy(tuner) == LLK_SUCCESS, "destroying the autotuner");
}

static void check_compile_errors(llk_jit jit) {
  static const char *const bad_type[1] = {"T=f128"};
  static const char *const twice[2] = {"T=f32", "T=f16"};
  llk_kernel kernel = NULL;
  llk_status s = llk_jit_compile(jit, "func.func @broken(%x: i32) {\n  return %x\n}\n",
                                 "broken.mlir", NULL, 0, 0, 0, NULL, NULL, &kernel);
  CHECK(s == LLK_ERROR_COMPILE && kernel == NULL && strstr(llk_last_error(), "broken.mlir:"),
        "a broken source gave status %d", (int)s);
  s = llk_jit_compile(jit, scale_source, "scale.mlir", bad_type, 1, 0, 0, NULL, NULL,
                      &kernel);
  CHECK(s == LLK_ERROR_INVALID_ARGUMENT && strstr(llk_last_error(), "f128"),
        "-D T=f128 gave status %d", (int)s);
  s = llk_jit_compile(jit, scale_source, "scale.mlir", twice, 2, 0, 0, NULL, NULL,
                      &kernel);
  CHECK(s == LLK_ERROR_INVALID_ARGUMENT && strstr(llk_last_error(), "twice"),
        "T bound twice gave status %d", (int)s);
  s = llk_jit_compile(jit, scale_source, "scale.mlir", NULL, 0, 3, 0, NULL, NULL,
                      &kernel);
  CHECK(s == LLK_ERROR_INVALID_ARGUMENT, "3 warps gave status %d", (int)s);
}

int main(void) {
  llk_device device = NULL;
  llk_jit jit = NULL;
  llk_jit_stats stats;
  const char *id = llk_build_id();
  int interpreter;

  printf("llk %s, build %s\n", llk_version(), id);
  CHECK(strlen(llk_version()) > 0, "llk_version");
  CHECK(strlen(id) == 16 && strspn(id, "0123456789abcdef") == 16, "build id '%s'", id);
  if (llk_device_open(0, &device) != LLK_SUCCESS) {
    printf("FAIL: no device: %s\n", llk_last_error());
    return 1;
  }
  interpreter = strcmp(llk_device_arch(device), "interpreter") == 0;
  printf("device 0: %s (%s)\n", llk_device_name(device), llk_device_arch(device));
  CHECK(llk_jit_create(device, NULL, &jit) == LLK_SUCCESS, "llk_jit_create");
  check_scalars(jit, device);
  check_scale(jit, device, interpreter);
  check_autotune(jit, device);
  check_compile_errors(jit);
  CHECK(llk_jit_get_stats(jit, &stats) == LLK_SUCCESS && stats.compiles >= 2,
        "%u compiles", stats.compiles);
  CHECK(llk_jit_get_stats(NULL, &stats) == LLK_ERROR_INVALID_ARGUMENT, "a null jit");
  CHECK(llk_jit_destroy(jit) == LLK_SUCCESS && llk_device_destroy(device) == LLK_SUCCESS,
        "destroying the jit and the device");
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
