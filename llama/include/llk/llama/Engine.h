//===- Engine.h - run a Llama model on an llk device -------------*- C++ -*-===//
//
// An Engine holds a LlamaModelFile's weights on an llk device (the GPU, or the
// interpreter with LLK_BACKEND=interpreter) and runs the model one token at a
// time with the kernels of examples/llama/, JIT-compiled (and cached) at
// constants chosen from the model's shapes:
//
//   x = get_rows(token_embd, token)                       embedding
//   per layer:
//     xn = rms_norm(x) * attn_norm
//     q, k, v = Wq xn, Wk xn, Wv xn                       mat-vecs by weight type
//     rope(q); rope(k) -> K cache[pos], v -> V cache[pos]  rope_kv
//     o = attention(q, K cache, V cache) over pos + 1      attn_decode_pos + combine
//     x += Wo o
//     xn = rms_norm(x) * ffn_norm
//     x += Wd (silu(Wg xn) * (Wu xn))
//   logits = Wout (rms_norm(x) * output_norm)
//   the top k of the logits; token = the first; pos += 1   topk
//
// The position and the token live in device memory: every kernel reads them
// there, and the last one writes the next ones. So the whole step is one CUDA
// graph, captured and instantiated once and replayed for every token (never
// captured again), its launches programmatic dependent launches where the
// device has them (sm_90). Greedy decoding then needs nothing from the host
// but the replays; sampling reads the k candidates back (Sampling.h) and
// writes the chosen token before the next step.
//
// Weights stay in their stored type (f32, f16, bf16, q8_0) in memory from the
// runtime's allocation helpers; the KV cache is f16, K [ctx][NH_kv][D] and V
// transposed [NH_kv][D][ctx] per layer, as the attention kernels read it.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_ENGINE_H
#define LLK_LLAMA_ENGINE_H

#include "llk/llama/ModelConfig.h"
#include "llk/llama/Sampling.h"
#include "llk/runtime/JIT.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llk::llama {

/// The fused decode kernels' program shapes (powers of two): rows a program
/// of the Q/K/V mat-vec (2 to 32), of gate/up + SiLU, of the o and down
/// projections with the residual (1 to 32), the q8_1 blocks whose d and s
/// the residual kernels' last program scales a pass, the most chunks the
/// attention splits the cache into (a chunk at least 64 tokens on long
/// caches), and the q8_0 blocks of a row the mat-vecs take an iteration.
/// The defaults are the kept ones; others are for timing (llk-llama
/// --decode-shape).
struct DecodeShape {
  uint32_t qkvRows = 4, swigluRows = 4, residualRows = 8, normChunk = 128, attnChunks = 16;
  /// The q8_0 blocks of a row each mat-vec program takes an iteration (at
  /// most the row's).
  uint32_t matVecBlocks = 32;
  /// Why the shape is not one the kernels take, if it is not.
  std::optional<std::string> problem() const;
  /// "QKV,SWIGLU,RESIDUAL,NORM_CHUNK,ATTN_CHUNKS,BLOCKS".
  std::string str() const;
};

struct EngineOptions {
  /// Where the kernel sources are (examples/ of the source tree by default).
  std::string kernelDir;
  /// KV-cache capacity in tokens; 0: the model's context length, at most
  /// 4096.
  uint32_t contextLength = 0;
  /// Candidates the device's top-k finds each step (1 for greedy decoding;
  /// at most kMaxDeviceCandidates).
  uint32_t candidates = 1;
  /// The step as one CUDA graph (else direct launches, for comparison).
  bool graph = true;
  /// Programmatic dependent launches (sm_90 and later).
  bool dependentLaunch = true;
  /// The fused kernels for layers whose matrices are all q8_0 (and the q8_1
  /// LM head): 5 launches a layer instead of 15, integer mat-vecs on q8_1
  /// activations.
  bool fuse = true;
  /// Prompt tokens processed together (q8_0 models: GEMMs, the batch's rope,
  /// KV append and causal attention); 0 or 1: one decode step a token.
  uint32_t prefillBatch = 512;
  /// The batch's GEMMs on f16 weights: each matrix dequantized into a
  /// scratch buffer (transposed) just before its GEMM, which reads both
  /// operands by TMA into warpgroup MMA (examples/llama/prefill_gemm.mlir;
  /// sm_90 (sm_90a code), and the interpreter). Otherwise, and on other
  /// GPUs, the q8_0 GEMM that dequantizes in registers (examples/gemm_q8_0.mlir).
  bool prefillTma = true;
  DecodeShape decodeShape;
};

/// The largest top-k the device computes (the kernel's K rounds of argmax);
/// a larger one, or none, takes the logits to the host.
constexpr uint32_t kMaxDeviceCandidates = 64;

/// The default kernel directory: $LLK_KERNEL_DIR, else the source tree's
/// examples/.
std::string defaultKernelDir();

/// One kernel family of the decode step, timed by Engine::profileStep.
struct KernelProfile {
  std::string what;   // "attention", "qkv + rope + KV append", ...
  std::string kernel; // its kernel's name
  size_t launches;    // in a step
  double usPerLaunch;
  double bytesPerLaunch; // what it must read at the least (0: not counted)
};

class Engine {
public:
  /// Uploads the weights (the model file may be closed afterwards), allocates
  /// the cache and the activations, compiles the kernels and (with
  /// options.graph) captures the decode step. `jit` must outlive the engine.
  /// Throws
  /// llk::rt::Error (device, compile) or llk::llama::Error (a model the
  /// kernels cannot run: a RoPE dimension other than the head's, ...).
  Engine(const LlamaModelFile &model, const rt::Device &device, rt::JIT &jit,
         EngineOptions options = {});
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  const LlamaConfig &config() const;
  const EngineOptions &options() const;
  uint32_t contextLength() const;
  /// The next token's position (tokens in the cache).
  uint32_t position() const;
  /// Forgets the cached tokens: the next step is at position 0.
  void reset();

  /// One step on `token` at position(): its K and V enter the cache, the
  /// logits and the top candidates of the next token are computed and the
  /// position advances. Asynchronous (on stream()). Throws Error when the
  /// cache is full or the token is outside the vocabulary.
  void step(int32_t token);
  /// One step on the token the previous step chose on the device (its first
  /// candidate): greedy decoding with no host work between steps.
  void stepOnGreedy();
  /// The prompt: every token into the cache and, for the last, step()'s
  /// results. Batches of options.prefillBatch tokens when batchedPrefill(),
  /// the last token (and every token otherwise) through step().
  void prefill(llvm::ArrayRef<int32_t> tokens);
  /// Whether prefill() batches: every layer fused (all q8_0) and
  /// options.prefillBatch > 1.
  bool batchedPrefill() const;
  /// The keys the batch's attention takes a step: it rounds its
  /// probabilities to f16 against the running maximum of those blocks (what
  /// a reference must repeat).
  uint32_t prefillAttentionKeys() const;

  /// Results of the last step (each waits for it): the first candidate, the
  /// top options.candidates candidates (by logit, then id), the logits.
  int32_t greedyToken() const;
  std::vector<TokenCandidate> candidates() const;
  std::vector<float> logits() const;
  /// The tokens the steps at positions [from, from + count) chose on the
  /// device (their first candidates).
  std::vector<int32_t> chosenTokens(uint32_t from, uint32_t count) const;

  const rt::Stream &stream() const;
  void synchronize() const;

  /// What one step reads at the least: every weight once (one embedding
  /// row), and the K and V of `tokens` cached tokens.
  double weightBytesPerStep() const;
  double kvBytesPerStep(uint32_t tokens) const;
  /// Launches in one step, and the graph's nodes (0 without a graph).
  size_t launchesPerStep() const;
  size_t graphNodes() const;

  /// The step's launches timed family by family (every layer's launch of a
  /// family in one graph, `repeats` times over, timed with events; with
  /// dependent launches as the step has them), at position(), for
  /// llk-llama --profile. Leaves the token and the position as they were;
  /// the activations, the cache slot at position() and the history from
  /// there on hold garbage that the next step overwrites.
  std::vector<KernelProfile> profileStep(unsigned repeats = 5);

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace llk::llama

#endif // LLK_LLAMA_ENGINE_H
