// The ceiling of Ampere-style tensor-core math on this GPU: mma.sync
// m16n8k16 (f16 x f16 -> f32 and bf16 x bf16 -> f32) issued back to back
// from registers by every warp of a full grid, no memory traffic in the
// loop. A GEMM built on mma.sync cannot run faster than this; issue 6 asks
// for 60% of cuBLAS, which uses Hopper's wgmma.
//
//   nvcc -O3 -arch=sm_90 bench/gemm/mma_peak.cu -o mma_peak && ./mma_peak
//
// Prints TFLOP/s (median of 7 timed launches) for several warps-per-SM and
// independent-accumulator counts; operands are random f16/bf16 values so
// the tensor cores switch as in a real GEMM (power, and so clocks, depend
// on it).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,    \
                   cudaGetErrorString(err_));                               \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

template <bool BF16>
__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4],
                                    const uint32_t (&b)[2]) {
  if constexpr (BF16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
}

// ILP independent accumulators a warp; each iteration issues ILP mma.sync
// with A/B fragments that rotate over 4 register sets (as a GEMM's K steps).
template <bool BF16, int ILP>
__global__ void mmaPeak(const uint32_t *in, float *out, int iters) {
  const int lane = threadIdx.x & 31;
  uint32_t a[4][4], b[4][2];
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < 4; ++i) a[s][i] = in[(s * 6 + i) * 32 + lane];
    for (int i = 0; i < 2; ++i) b[s][i] = in[(s * 6 + 4 + i) * 32 + lane];
  }
  float acc[ILP][4] = {};
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) mma<BF16>(acc[j], a[j & 3], b[(j >> 2) & 3]);
  }
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < ILP; ++j) sum += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <bool BF16, int ILP>
double run(int sms, int warpsPerSm, const uint32_t *in, float *out) {
  const int threads = 128; // 4 warps a block, warpsPerSm / 4 blocks an SM
  const int blocks = sms * (warpsPerSm / 4);
  const int iters = 4096;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  mmaPeak<BF16, ILP><<<blocks, threads>>>(in, out, iters); // warm-up
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(7);
  for (float &t : ms) {
    CHECK(cudaEventRecord(start));
    mmaPeak<BF16, ILP><<<blocks, threads>>>(in, out, iters);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&t, start, stop));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  const double flops = 2.0 * 16 * 8 * 16 * double(ILP) * iters *
                       double(blocks) * (threads / 32);
  return flops / (ms[3] * 1e-3) / 1e12;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  std::printf("# %s, %d SMs; mma.sync m16n8k16 from registers, TFLOP/s (median of 7)\n",
              prop.name, sms);
  // Random values of magnitude 0.5..1 with random signs and mantissas, two
  // a register: f16 bit patterns 0x3800-0x3bff, bf16 0x3f00-0x3f7f.
  std::vector<uint32_t> hostF16(4 * 6 * 32), hostBF16(4 * 6 * 32);
  srand(1234);
  for (size_t i = 0; i < hostF16.size(); ++i) {
    uint32_t bits = uint32_t(rand() & 0xffff) | (uint32_t(rand() & 0xffff) << 16);
    hostF16[i] = (bits & 0x83ff83ffu) | 0x38003800u;
    hostBF16[i] = (bits & 0x807f807fu) | 0x3f003f00u;
  }
  uint32_t *in;
  float *out;
  CHECK(cudaMalloc(&in, hostF16.size() * sizeof(uint32_t)));
  CHECK(cudaMalloc(&out, size_t(sms) * 64 * 32 * sizeof(float)));
  std::printf("%-5s %6s %4s %9s\n", "type", "warps", "ilp", "TFLOP/s");
  for (int t = 0; t < 2; ++t) {
    bool bf16 = t == 1;
    CHECK(cudaMemcpy(in, bf16 ? hostBF16.data() : hostF16.data(),
                     hostF16.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    for (int warps : {4, 8, 16, 32}) {
      double r4 = bf16 ? run<true, 4>(sms, warps, in, out) : run<false, 4>(sms, warps, in, out);
      double r8 = bf16 ? run<true, 8>(sms, warps, in, out) : run<false, 8>(sms, warps, in, out);
      double r16 = bf16 ? run<true, 16>(sms, warps, in, out) : run<false, 16>(sms, warps, in, out);
      const char *name = bf16 ? "bf16" : "f16";
      std::printf("%-5s %6d %4d %9.1f\n", name, warps, 4, r4);
      std::printf("%-5s %6d %4d %9.1f\n", name, warps, 8, r8);
      std::printf("%-5s %6d %4d %9.1f\n", name, warps, 16, r16);
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
