//===- llk-gguf.cpp - inspect, make and tokenize with GGUF files ----------===//
//
//   llk-gguf info FILE [--all]
//   llk-gguf make-tiny OUT [--seed S] [--weights FORMAT]
//   llk-gguf make-random --shape tiny|tinyllama|7b|13b OUT [--seed S] [--weights FORMAT]
//   llk-gguf tokenize FILE TEXT [--no-special] [--pieces]
//   llk-gguf tokenize FILE --lines INPUT [--no-special]
//   llk-gguf detokenize FILE ID...
//   llk-gguf detokenize FILE --lines IDS
//
//===----------------------------------------------------------------------===//

#include "llk/llama/GGUF.h"
#include "llk/llama/ModelConfig.h"
#include "llk/llama/RandomModel.h"
#include "llk/llama/Tokenizer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llk::llama;
using llvm::StringRef;

static const char kUsage[] = R"(usage:
  llk-gguf info FILE [--all]
      the metadata (--all: whole arrays), the tensors, and FILE checked as a
      Llama model llk can run (exit status 1 if it is not)
  llk-gguf make-tiny OUT [--seed S] [--weights f32|f16|bf16|q8_0|mixed]
      the tiny Llama of the tests (2 layers, n_embd 64, GQA), random weights
      (default: mixed f32 and q8_0)
  llk-gguf make-random --shape tiny|tinyllama|7b|13b OUT [--seed S] [--weights ...]
      a model of that shape with random weights (default q8_0), streamed to disk
  llk-gguf tokenize FILE TEXT [--no-special] [--pieces]
      the token ids of TEXT (--pieces: and their pieces); --no-special: no BOS/EOS
  llk-gguf tokenize FILE --lines INPUT [--no-special]
      one line of ids for each line of INPUT
  llk-gguf detokenize FILE ID...
      the text of the tokens
  llk-gguf detokenize FILE --lines IDS
      one line of text for each line of ids in IDS
)";

namespace {
/// The command line: positional arguments and --flag [value] options.
struct Arguments {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;

  bool has(StringRef flag) const { return options.count(flag.str()); }
  std::string get(StringRef flag, StringRef fallback) const {
    auto it = options.find(flag.str());
    return it == options.end() ? fallback.str() : it->second;
  }
};

struct UsageError {
  std::string message;
};
} // namespace

static Arguments parseArguments(int argc, char **argv, std::initializer_list<StringRef> flags,
                                std::initializer_list<StringRef> valued) {
  Arguments args;
  for (int i = 2; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg.starts_with("--") && llvm::is_contained(valued, arg)) {
      if (i + 1 >= argc)
        throw UsageError{arg.str() + " needs a value"};
      args.options[arg.str()] = argv[++i];
    } else if (arg.starts_with("--") && llvm::is_contained(flags, arg)) {
      args.options[arg.str()] = "";
    } else if (arg.starts_with("--")) {
      throw UsageError{"unknown option " + arg.str()};
    } else {
      args.positional.push_back(arg.str());
    }
  }
  return args;
}

static uint64_t parseSeed(const Arguments &args) {
  uint64_t seed;
  if (StringRef(args.get("--seed", "0")).getAsInteger(0, seed))
    throw UsageError{"--seed needs a non-negative integer"};
  return seed;
}

static int info(const Arguments &args) {
  if (args.positional.size() != 1)
    throw UsageError{"info takes one file"};
  GGUFFile file = GGUFFile::open(args.positional[0]);
  llvm::raw_ostream &os = llvm::outs();
  os << "GGUF v" << file.version() << ", " << file.metadata().size() << " metadata entries, "
     << file.tensors().size() << " tensors, alignment " << file.alignment()
     << ", data at offset " << file.dataOffset() << ", " << file.fileSize() << " bytes\n";
  os << "metadata:\n";
  size_t maxElements = args.has("--all") ? SIZE_MAX : 8;
  for (const GGUFMetadataEntry &entry : file.metadata())
    os << "  " << entry.key << " = " << formatValue(entry.value, maxElements) << "\n";
  os << "tensors:\n";
  for (const GGUFTensorInfo &tensor : file.tensors())
    os << "  " << tensor.name << " " << toString(tensor.type) << " " << tensor.shapeString()
       << " at " << tensor.offset << ", " << tensor.numBytes << " bytes\n";

  try {
    LlamaModelFile model = LlamaModelFile::fromGGUF(std::move(file));
    const LlamaConfig &c = model.config();
    os << "llama: n_layer " << c.blockCount << ", n_embd " << c.embeddingLength << ", n_head "
       << c.headCount << ", n_head_kv " << c.headCountKV << ", head_dim " << c.headDim()
       << ", n_ff " << c.feedForwardLength << ", n_ctx " << c.contextLength << ", n_vocab "
       << c.vocabSize << ", rope_base " << llvm::format("%g", c.ropeFreqBase) << ", rms_eps "
       << llvm::format("%g", c.rmsEpsilon)
       << (model.tensors().output == model.tensors().tokenEmbedding ? ", tied output" : "")
       << "\n";
    const Tokenizer &t = model.tokenizer();
    const Vocabulary &v = t.vocabulary();
    os << "tokenizer: SentencePiece, " << t.size() << " tokens, "
       << (t.hasByteFallback() ? "byte fallback" : "no byte fallback") << ", bos " << v.bosId
       << ", eos " << v.eosId << ", unknown " << v.unknownId
       << (v.addBos ? ", adds bos" : "") << (v.addEos ? ", adds eos" : "") << "\n";
  } catch (const Error &error) {
    os.flush();
    llvm::errs() << "llk-gguf: not a Llama model llk can run: " << error.what() << "\n";
    return 1;
  }
  return 0;
}

static int makeModel(const Arguments &args, std::optional<ModelShape> shape) {
  if (!shape) {
    shape = parseModelShape(args.get("--shape", ""));
    if (!shape)
      throw UsageError{"--shape must be tiny, tinyllama, 7b or 13b"};
  }
  if (args.positional.size() != 1)
    throw UsageError{"name one output file"};
  RandomModelOptions options = randomModelOptions(*shape, parseSeed(args));
  if (args.has("--weights")) {
    std::optional<WeightFormat> format = parseWeightFormat(args.get("--weights", ""));
    if (!format)
      throw UsageError{"--weights must be f32, f16, bf16, q8_0 or mixed"};
    options.format = *format;
  }
  writeRandomModelFile(args.positional[0], options);
  return 0;
}

static void printIds(llvm::raw_ostream &os, llvm::ArrayRef<int32_t> ids) {
  for (size_t i = 0; i < ids.size(); ++i)
    os << (i ? " " : "") << ids[i];
  os << "\n";
}

/// The lines of a file (or stdin for "-"), without their '\n'.
static std::vector<std::string> readLines(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
  if (!buffer)
    throw Error(path + ": cannot read: " + buffer.getError().message());
  std::vector<std::string> lines;
  for (StringRef text = (*buffer)->getBuffer(); !text.empty();) {
    auto [line, rest] = text.split('\n');
    lines.push_back(line.str());
    text = rest;
  }
  return lines;
}

static std::vector<int32_t> parseIds(llvm::ArrayRef<std::string> words) {
  std::vector<int32_t> ids;
  for (const std::string &word : words) {
    int32_t id;
    if (StringRef(word).getAsInteger(10, id))
      throw UsageError{"'" + word + "' is not a token id"};
    ids.push_back(id);
  }
  return ids;
}

static int tokenize(const Arguments &args) {
  bool special = !args.has("--no-special");
  bool lines = args.has("--lines");
  if (args.positional.size() != (lines ? 1u : 2u))
    throw UsageError{"tokenize takes a file and a text, or a file and --lines INPUT"};
  GGUFFile file = GGUFFile::open(args.positional[0]);
  Tokenizer tokenizer = Tokenizer::fromGGUF(file);
  llvm::raw_ostream &os = llvm::outs();
  if (lines) {
    for (const std::string &line : readLines(args.get("--lines", "")))
      printIds(os, tokenizer.encode(line, special));
    return 0;
  }
  std::vector<int32_t> ids = tokenizer.encode(args.positional[1], special);
  printIds(os, ids);
  if (args.has("--pieces")) {
    for (size_t i = 0; i < ids.size(); ++i)
      os << (i ? " " : "") << "'" << tokenizer.vocabulary().pieces[ids[i]] << "'";
    os << "\n";
  }
  return 0;
}

static int detokenize(const Arguments &args) {
  bool lines = args.has("--lines");
  if (args.positional.empty() || (lines && args.positional.size() != 1))
    throw UsageError{"detokenize takes a file and token ids, or a file and --lines IDS"};
  GGUFFile file = GGUFFile::open(args.positional[0]);
  Tokenizer tokenizer = Tokenizer::fromGGUF(file);
  if (!lines) {
    llvm::outs() << tokenizer.decode(parseIds(llvm::ArrayRef(args.positional).drop_front()))
                 << "\n";
    return 0;
  }
  for (const std::string &line : readLines(args.get("--lines", ""))) {
    llvm::SmallVector<StringRef> words;
    StringRef(line).split(words, ' ', -1, /*KeepEmpty=*/false);
    std::vector<std::string> strings(words.begin(), words.end());
    llvm::outs() << tokenizer.decode(parseIds(strings)) << "\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  StringRef command = argc > 1 ? argv[1] : "";
  try {
    if (command == "info")
      return info(parseArguments(argc, argv, {"--all"}, {}));
    if (command == "make-tiny")
      return makeModel(parseArguments(argc, argv, {}, {"--seed", "--weights"}), ModelShape::Tiny);
    if (command == "make-random")
      return makeModel(parseArguments(argc, argv, {}, {"--seed", "--weights", "--shape"}),
                       std::nullopt);
    if (command == "tokenize")
      return tokenize(parseArguments(argc, argv, {"--no-special", "--pieces"}, {"--lines"}));
    if (command == "detokenize")
      return detokenize(parseArguments(argc, argv, {}, {"--lines"}));
    if (command == "-h" || command == "--help" || command == "help") {
      llvm::outs() << kUsage;
      return 0;
    }
    throw UsageError{command.empty() ? "no command" : "unknown command '" + command.str() + "'"};
  } catch (const UsageError &error) {
    llvm::errs() << "llk-gguf: " << error.message << "\n" << kUsage;
    return 2;
  } catch (const Error &error) {
    llvm::errs() << "llk-gguf: error: " << error.what() << "\n";
    return 1;
  }
}
