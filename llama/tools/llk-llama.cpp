//===- llk-llama.cpp - run a Llama GGUF model with llk kernels ------------===//
//
//   llk-llama -m model.gguf -p "prompt" -n 128
//             [--greedy | --temp T --top-k K --top-p P --seed S]
//             [--ctx N] [--print-token-ids] [--bench] [--bench-prompt N]
//             [--ignore-eos] [--no-graph] [--no-pdl] [--no-fuse] [--kernels DIR]
//             [--decode-shape Q,S,R,C[,A[,B]]] [--profile]
//
// Streams the text as it decodes (the prompt first), then prints the prompt's
// and the decoding's tokens per second on stderr. The model runs on the llk
// device LLK_BACKEND names (the GPU by default, the interpreter with
// LLK_BACKEND=interpreter) through llk::llama::Engine: the decode step is one
// CUDA graph replayed for every token. The prompt goes in batches of GEMMs
// (--prefill-batch, q8_0 models), else one decode step a token.
//
// --bench: no streaming; a warm-up of every kernel first, then the prompt and
// the decode steps, back to back (the tokens are read at the end) and a `bench:` line gives the numbers the benchmarks read
// (bench/llama/model_bench.py): prompt and decode times, the bytes a step
// reads, and the device's copy bandwidth measured in the same run.
// --bench-prompt N: a prompt of BOS and N - 1 random tokens instead of -p.
// --profile: after the decoding, the step's launches timed family by family
// (Engine::profileStep) at the next position: `profile:` lines on stdout
// (µs a launch, the bytes it must read, GB/s, the share of the copy
// bandwidth and µs a step), no ncu needed.
// --decode-shape Q,S,R,C[,A[,B]]: the fused decode kernels' program shapes
// (EngineOptions::decodeShape), for timing others than the kept ones.
//
// Exit status: 0 done, 1 a model or device error, 2 bad arguments.
//
//===----------------------------------------------------------------------===//

#include "ProgramArgs.h"

#include "llk/llama/Engine.h"
#include "llk/llama/ModelConfig.h"
#include "llk/llama/Sampling.h"
#include "llk/llama/Tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace llk::llama;
namespace rt = llk::rt;
namespace programs = llk::rt::programs;

namespace {

const char kUsage[] = R"(usage: llk-llama -m MODEL [options]
  -m, --model FILE        a Llama GGUF file (f32, f16, bf16 or q8_0 weights)
  -p, --prompt TEXT       the prompt (default: empty, BOS only)
  -n, --n-predict N       tokens to generate (default 128)
  --greedy                the most likely token each step (temperature 0)
  --temp T                temperature (default 0.8; 0 is --greedy)
  --top-k K               sample among the K most likely (default 40; 0: all)
  --top-p P               ... the fewest whose probabilities reach P (default 0.95)
  --seed S                the sampler's seed (default: random, printed)
  --ctx N                 KV-cache capacity in tokens (default: the model's, at most 4096)
  --print-token-ids       print the prompt's and the generated token ids (stderr)
  --ignore-eos            go on past the end-of-sequence token
  --bench                 time without streaming; print a `bench:` line
  --bench-prompt N        a prompt of BOS and N - 1 random tokens (with --bench)
  --no-graph              direct launches instead of the CUDA graph
  --no-pdl                no programmatic dependent launches
  --no-fuse               the generic kernels for q8_0 layers too (15 launches a layer, not 5)
  --prefill-batch N       prompt tokens a batch (q8_0 models; default 512; 0: one decode step a token)
  --kernels DIR           the kernel sources (default: $LLK_KERNEL_DIR, else the source tree's examples/)
  --decode-shape Q,S,R,C[,A[,B]]
                          rows a program of the fused Q/K/V, gate/up and residual mat-vecs, the
                          norm's q8_1 blocks scaled a pass, the attention's most chunks, the mat-vecs'
                          q8_0 blocks an iteration (default 4,4,8,128,16,32)
  --profile               after decoding, time the step's kernels family by family (stdout)
)";

struct Options {
  std::string model, prompt, kernels;
  int n = 128;
  SamplingParams sampling;
  bool seedGiven = false;
  uint32_t ctx = 0;
  bool printIds = false, ignoreEos = false, bench = false, graph = true, pdl = true, fuse = true,
       profile = false;
  DecodeShape decodeShape;
  int benchPrompt = 0;
  uint32_t prefillBatch = 512;
};

struct UsageError {
  std::string message;
};

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        throw UsageError{a + " needs a value"};
      return argv[++i];
    };
    auto number = [&](auto min, auto max, auto &out) {
      if (auto why = programs::parseInteger(a, value(), min, max, out))
        throw UsageError{*why};
    };
    auto real = [&](float &out) {
      const char *text = value();
      char *end = nullptr;
      double v = std::strtod(text, &end);
      if (end == text || *end || !std::isfinite(v))
        throw UsageError{a + " expects a number, got '" + text + "'"};
      out = static_cast<float>(v);
    };
    if (a == "-m" || a == "--model") o.model = value();
    else if (a == "-p" || a == "--prompt") o.prompt = value();
    else if (a == "-n" || a == "--n-predict") number(0, 1 << 20, o.n);
    else if (a == "--greedy") o.sampling.temperature = 0;
    else if (a == "--temp") real(o.sampling.temperature);
    else if (a == "--top-k") number(0u, 1u << 30, o.sampling.topK);
    else if (a == "--top-p") real(o.sampling.topP);
    else if (a == "--seed") {
      number(uint64_t(0), UINT64_MAX, o.sampling.seed);
      o.seedGiven = true;
    } else if (a == "--ctx") number(1u, 1u << 20, o.ctx);
    else if (a == "--print-token-ids") o.printIds = true;
    else if (a == "--ignore-eos") o.ignoreEos = true;
    else if (a == "--bench") o.bench = true;
    else if (a == "--bench-prompt") number(1, 1 << 20, o.benchPrompt);
    else if (a == "--no-graph") o.graph = false;
    else if (a == "--no-pdl") o.pdl = false;
    else if (a == "--no-fuse") o.fuse = false;
    else if (a == "--prefill-batch") number(0u, 1u << 16, o.prefillBatch);
    else if (a == "--kernels") o.kernels = value();
    else if (a == "--profile") o.profile = true;
    else if (a == "--decode-shape") {
      std::string text = value();
      uint32_t *fields[] = {&o.decodeShape.qkvRows, &o.decodeShape.swigluRows,
                            &o.decodeShape.residualRows, &o.decodeShape.normChunk,
                            &o.decodeShape.attnChunks, &o.decodeShape.matVecBlocks};
      size_t at = 0;
      for (size_t i = 0; i < 6 && at <= text.size(); ++i) {
        size_t comma = std::min(text.find(',', at), text.size());
        if (comma == text.size() && i < 3)
          throw UsageError{"--decode-shape expects Q,S,R,C[,A[,B]], got '" + text + "'"};
        std::string field = text.substr(at, comma - at);
        if (auto why = programs::parseInteger(a, field.c_str(), 1u, 1u << 16, *fields[i]))
          throw UsageError{*why};
        at = comma + 1;
      }
      if (auto why = o.decodeShape.problem())
        throw UsageError{"--decode-shape: " + *why};
    }
    else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else
      throw UsageError{"unknown argument " + a};
  }
  if (o.model.empty())
    throw UsageError{"no model (-m FILE)"};
  if (auto why = o.sampling.problem())
    throw UsageError{*why};
  if (o.benchPrompt && !o.prompt.empty())
    throw UsageError{"--bench-prompt and --prompt are exclusive"};
  return o;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Device-to-device copy bandwidth (read + write) over 256 MiB, GB/s: the
/// benchmarks' bandwidth floor. 0 on the interpreter.
double copyBandwidth(const rt::Device &device, const rt::Stream &stream) {
  if (device.backend() != rt::Backend::Cuda)
    return 0;
  const size_t bytes = size_t(256) << 20;
  rt::DeviceMemory src(device, bytes), dst(device, bytes);
  src.fill(0);
  device.synchronize();
  rt::Event start(device), end(device);
  std::vector<double> us;
  for (int r = 0; r < 23; ++r) {
    start.record(&stream);
    dst.copyFromDevice(src, bytes, &stream);
    end.record(&stream);
    end.synchronize();
    if (r >= 3)
      us.push_back(rt::Event::elapsedMs(start, end) * 1e3);
  }
  std::sort(us.begin(), us.end());
  return 2.0 * bytes / us[us.size() / 2] * 1e-3;
}

int run(const Options &o) {
  auto t0 = std::chrono::steady_clock::now();
  LlamaModelFile model = LlamaModelFile::open(o.model);
  const LlamaConfig &c = model.config();
  const Tokenizer &tokenizer = model.tokenizer();

  std::vector<int32_t> prompt;
  if (o.benchPrompt) {
    std::mt19937_64 rng(o.sampling.seed);
    prompt.push_back(tokenizer.vocabulary().bosId >= 0 ? tokenizer.vocabulary().bosId : 0);
    while (static_cast<int>(prompt.size()) < o.benchPrompt)
      prompt.push_back(static_cast<int32_t>(rng() % c.vocabSize));
  } else {
    prompt = tokenizer.encode(o.prompt);
  }
  if (prompt.empty())
    prompt.push_back(0); // a vocabulary without BOS, and no prompt

  SamplingParams sampling = o.sampling;
  if (!o.seedGiven && !sampling.greedy())
    sampling.seed = std::random_device()() | uint64_t(std::random_device()()) << 32;
  Sampler sampler(sampling);
  // The device finds the candidates when there are few; else the host does,
  // from the logits.
  const bool deviceTopK = sampling.greedy() ||
                          (sampling.topK >= 1 && sampling.topK <= kMaxDeviceCandidates);

  rt::Device device = rt::Device::open(0);
  rt::JIT jit(device);
  EngineOptions eo;
  eo.kernelDir = o.kernels;
  eo.contextLength = o.ctx;
  eo.candidates = sampling.greedy() ? 1 : deviceTopK ? sampling.topK : 1;
  eo.graph = o.graph;
  eo.dependentLaunch = o.pdl;
  eo.fuse = o.fuse;
  eo.prefillBatch = o.prefillBatch;
  eo.decodeShape = o.decodeShape;
  Engine engine(model, device, jit, eo);
  const double loadMs = msSince(t0);
  if (prompt.size() + o.n > engine.contextLength() + 1u)
    throw Error("the prompt (" + std::to_string(prompt.size()) + " tokens) and " +
                std::to_string(o.n) + " more do not fit a context of " +
                std::to_string(engine.contextLength()) + " tokens (--ctx)");
  std::fprintf(stderr,
               "llk-llama: %s: %u layers, n_embd %u, %u heads (%u KV), n_ff %u, vocabulary %u; "
               "%s (%s), context %u; loaded and compiled in %.0f ms (%u kernels compiled); "
               "%zu launches a step%s; prompt %s\n",
               o.model.c_str(), c.blockCount, c.embeddingLength, c.headCount, c.headCountKV,
               c.feedForwardLength, c.vocabSize, device.name().c_str(), device.arch().c_str(),
               engine.contextLength(), loadMs, jit.compileCount(), engine.launchesPerStep(),
               o.graph ? ", one CUDA graph" : "",
               engine.batchedPrefill() ? "in batches" : "one decode step a token");
  if (!sampling.greedy())
    std::fprintf(stderr, "llk-llama: sampling: temperature %g, top-k %u (%s), top-p %g, seed %llu\n",
                 sampling.temperature, sampling.topK, deviceTopK ? "on the device" : "on the host",
                 sampling.topP, static_cast<unsigned long long>(sampling.seed));

  DetokenizerStream text(tokenizer);
  const bool stream = !o.bench;
  auto show = [&](int32_t id) {
    std::string piece = text.push(id);
    if (stream && !piece.empty()) {
      std::fwrite(piece.data(), 1, piece.size(), stdout);
      std::fflush(stdout);
    }
  };
  for (int32_t id : prompt)
    show(id);

  if (o.bench) {
    // A warm-up of every kernel (the driver loads a module's functions at
    // their first launch), outside the timings: a short prompt (a batch and
    // the decode step), one more step, then back to position 0.
    engine.prefill(llvm::ArrayRef<int32_t>(prompt).take_front(3));
    engine.stepOnGreedy();
    engine.synchronize();
    engine.reset();
  }

  // The prompt, timed to its last token's logits.
  auto tp = std::chrono::steady_clock::now();
  engine.prefill(prompt);
  engine.synchronize();
  const double promptMs = msSince(tp);

  auto choose = [&]() -> int32_t {
    if (sampling.greedy())
      return engine.greedyToken();
    if (deviceTopK)
      return sampler.sample(engine.candidates());
    return sampler.sample(topCandidates(engine.logits(), sampling.topK));
  };
  std::vector<int32_t> generated;
  const int32_t eos = tokenizer.vocabulary().eosId;
  double decodeMs = 0;
  if (o.n > 0) {
    generated.push_back(choose());
    auto td = std::chrono::steady_clock::now();
    if (o.bench && sampling.greedy()) {
      // Back to back: each step reads the token the one before chose.
      const uint32_t first = engine.position();
      for (int i = 1; i < o.n; ++i)
        engine.stepOnGreedy();
      engine.synchronize();
      decodeMs = msSince(td);
      std::vector<int32_t> rest = engine.chosenTokens(first, o.n - 1);
      generated.insert(generated.end(), rest.begin(), rest.end());
    } else {
      show(generated.back());
      while (static_cast<int>(generated.size()) < o.n &&
             (o.ignoreEos || o.bench || generated.back() != eos)) {
        if (sampling.greedy())
          engine.stepOnGreedy(); // the device holds the token it chose
        else
          engine.step(generated.back());
        generated.push_back(choose());
        show(generated.back());
      }
      decodeMs = msSince(td);
    }
  }
  std::string rest = text.flush();
  if (stream) {
    std::fwrite(rest.data(), 1, rest.size(), stdout);
    std::fputc('\n', stdout);
  }

  if (o.printIds) {
    std::fprintf(stderr, "prompt token ids:");
    for (int32_t id : prompt)
      std::fprintf(stderr, " %d", id);
    std::fprintf(stderr, "\ngenerated token ids:");
    for (int32_t id : generated)
      std::fprintf(stderr, " %d", id);
    std::fprintf(stderr, "\n");
  }
  const int decodeSteps = generated.empty() ? 0 : static_cast<int>(generated.size()) - 1;
  std::fprintf(stderr, "llk-llama: prompt %zu tokens in %.2f ms, %.1f tok/s; decode %d tokens in %.2f ms, %.1f tok/s\n",
               prompt.size(), promptMs, prompt.size() / promptMs * 1e3, decodeSteps, decodeMs,
               decodeSteps ? decodeSteps / decodeMs * 1e3 : 0.0);
  if (o.bench) {
    const double bw = copyBandwidth(device, engine.stream());
    const uint32_t start = static_cast<uint32_t>(prompt.size());
    std::printf("bench: prompt_tokens=%zu prompt_ms=%.3f decode_tokens=%d decode_ms=%.3f "
                "context_start=%u context_end=%u weight_bytes=%.0f kv_bytes_start=%.0f "
                "kv_bytes_end=%.0f copy_gbps=%.1f launches=%zu graph_nodes=%zu load_ms=%.0f "
                "prefill_batch=%u\n",
                prompt.size(), promptMs, decodeSteps, decodeMs, start, start + decodeSteps,
                engine.weightBytesPerStep(), engine.kvBytesPerStep(start + 1),
                engine.kvBytesPerStep(start + decodeSteps), bw, engine.launchesPerStep(),
                engine.graphNodes(), loadMs, engine.batchedPrefill() ? o.prefillBatch : 1u);
  }
  if (o.profile) {
    if (engine.position() >= engine.contextLength())
      throw Error("--profile needs room for one more step in the context (--ctx)");
    const double bw = copyBandwidth(device, engine.stream());
    std::vector<KernelProfile> families = engine.profileStep();
    double stepUs = 0;
    std::printf("profile: position %u, decode shape %s, copy %.1f GB/s\n", engine.position(),
                o.decodeShape.str().c_str(), bw);
    std::printf("profile: | family | kernel | launches | us/launch | MB/launch | GB/s | %% of copy | us/step |\n");
    std::printf("profile: |---|---|---:|---:|---:|---:|---:|---:|\n");
    for (const KernelProfile &f : families) {
      const double gbps = f.bytesPerLaunch ? f.bytesPerLaunch / (f.usPerLaunch * 1e3) : 0;
      stepUs += f.usPerLaunch * f.launches;
      char share[32] = "-";
      if (gbps && bw)
        std::snprintf(share, sizeof share, "%.1f", 100 * gbps / bw);
      std::printf("profile: | %s | %s | %zu | %.2f | %.2f | %.1f | %s | %.1f |\n", f.what.c_str(),
                  f.kernel.c_str(), f.launches, f.usPerLaunch, f.bytesPerLaunch / 1e6, gbps,
                  share, f.usPerLaunch * f.launches);
    }
    std::printf("profile: sum of the families %.1f us a step\n", stepUs);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  try {
    o = parseOptions(argc, argv);
  } catch (const UsageError &e) {
    std::fprintf(stderr, "llk-llama: %s\n%s", e.message.c_str(), kUsage);
    return 2;
  }
  try {
    return run(o);
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "llk-llama: error (%s): %s\n", rt::toString(e.code()), e.what());
  } catch (const Error &e) {
    std::fprintf(stderr, "llk-llama: error: %s\n", e.what());
  } catch (const std::exception &e) { // out of memory...
    std::fprintf(stderr, "llk-llama: error: %s\n", e.what());
  }
  return 1;
}
