//===- Tokenizer.cpp - SentencePiece BPE encoding and decoding -------------===//
//
// The encoder is SentencePiece's bpe_model.cc Encode (the same algorithm as
// llama.cpp's llm_tokenizer_spm): symbols in a linked list, candidate pairs
// in a priority queue ordered by the merged piece's score, then by position;
// a popped pair whose symbols changed since it was queued is stale and
// skipped.
//
//===----------------------------------------------------------------------===//

#include "llk/llama/Tokenizer.h"
#include "llk/llama/GGUF.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <functional>
#include <queue>

using namespace llk::llama;
using llvm::StringRef;

static const char kSpaceSymbol[] = "\xE2\x96\x81"; // U+2581 '▁'
static const char kUnknownSurface[] = " \xE2\x81\x87 "; // " ⁇ "

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

Vocabulary Vocabulary::fromGGUF(const GGUFFile &file) {
  std::optional<StringRef> model = file.getString("tokenizer.ggml.model");
  if (!model)
    file.fail("missing required key 'tokenizer.ggml.model'");
  if (*model == "gpt2")
    file.fail("tokenizer model 'gpt2' (byte-level BPE with merges, as Llama 3 uses) is "
              "not supported: llk tokenizes SentencePiece vocabularies ('llama')");
  if (*model != "llama")
    file.fail("unknown tokenizer model '" + model->str() +
              "' (llk supports 'llama', SentencePiece)");

  Vocabulary vocab;
  std::optional<std::vector<StringRef>> tokens = file.getStringArray("tokenizer.ggml.tokens");
  if (!tokens)
    file.fail("missing required key 'tokenizer.ggml.tokens'");
  if (tokens->empty() || tokens->size() > static_cast<size_t>(INT32_MAX))
    file.fail("tokenizer.ggml.tokens has " + std::to_string(tokens->size()) +
              " tokens (1 to 2^31 - 1 allowed)");
  size_t n = tokens->size();
  for (StringRef token : *tokens)
    vocab.pieces.push_back(token.str());

  if (std::optional<std::vector<float>> scores = file.getFloatArray("tokenizer.ggml.scores")) {
    if (scores->size() != n)
      file.fail("tokenizer.ggml.scores has " + std::to_string(scores->size()) +
                " scores for " + std::to_string(n) + " tokens");
    vocab.scores = std::move(*scores);
  } else {
    vocab.scores.assign(n, 0.0f);
  }

  if (std::optional<std::vector<int64_t>> types =
          file.getIntegerArray("tokenizer.ggml.token_type")) {
    if (types->size() != n)
      file.fail("tokenizer.ggml.token_type has " + std::to_string(types->size()) +
                " types for " + std::to_string(n) + " tokens");
    for (size_t i = 0; i < n; ++i) {
      if ((*types)[i] < 0 || (*types)[i] > static_cast<int64_t>(TokenType::Byte))
        file.fail("token " + std::to_string(i) + " has unknown token type " +
                  std::to_string((*types)[i]));
      vocab.types.push_back(static_cast<TokenType>((*types)[i]));
    }
  } else {
    vocab.types.assign(n, TokenType::Normal);
  }

  auto specialId = [&](StringRef key, int32_t fallback) -> int32_t {
    std::optional<uint32_t> id = file.getUInt32(key);
    if (!id)
      return static_cast<size_t>(fallback) < n ? fallback : -1;
    if (*id >= n)
      file.fail("key '" + key.str() + "' = " + std::to_string(*id) +
                " is not a token id (the vocabulary has " + std::to_string(n) + ")");
    return static_cast<int32_t>(*id);
  };
  vocab.unknownId = specialId("tokenizer.ggml.unknown_token_id", 0);
  vocab.bosId = specialId("tokenizer.ggml.bos_token_id", 1);
  vocab.eosId = specialId("tokenizer.ggml.eos_token_id", 2);
  vocab.addBos = file.getBool("tokenizer.ggml.add_bos_token").value_or(true);
  vocab.addEos = file.getBool("tokenizer.ggml.add_eos_token").value_or(false);
  vocab.addSpacePrefix = file.getBool("tokenizer.ggml.add_space_prefix").value_or(true);
  return vocab;
}

//===----------------------------------------------------------------------===//
// Tokenizer
//===----------------------------------------------------------------------===//

/// The byte a piece "<0xNN>" stands for, or -1.
static int parseBytePiece(StringRef piece) {
  if (piece.size() != 6 || !piece.starts_with("<0x") || piece.back() != '>')
    return -1;
  unsigned value;
  if (piece.substr(3, 2).getAsInteger(16, value) || !llvm::isHexDigit(piece[3]) ||
      !llvm::isHexDigit(piece[4]))
    return -1;
  return static_cast<int>(value);
}

Tokenizer::Tokenizer(Vocabulary vocabulary) : vocabulary_(std::move(vocabulary)) {
  const Vocabulary &v = vocabulary_;
  size_t n = v.pieces.size();
  if (n == 0 || n > static_cast<size_t>(INT32_MAX))
    throw Error("vocabulary of " + std::to_string(n) + " tokens");
  if (v.scores.size() != n || v.types.size() != n)
    throw Error("vocabulary of " + std::to_string(n) + " pieces has " +
                std::to_string(v.scores.size()) + " scores and " +
                std::to_string(v.types.size()) + " types");
  for (auto [name, id] : {std::pair{"BOS", v.bosId}, std::pair{"EOS", v.eosId},
                          std::pair{"unknown", v.unknownId}})
    if (id < -1 || id >= static_cast<int64_t>(n))
      throw Error(std::string("the ") + name + " token id " + std::to_string(id) +
                  " is not a token of the vocabulary of " + std::to_string(n));

  byteIds_.fill(-1);
  byteOfToken_.assign(n, -1);
  for (size_t id = 0; id < n; ++id) {
    const std::string &piece = v.pieces[id];
    if (std::isnan(v.scores[id]))
      throw Error("token " + std::to_string(id) + " has a NaN score");
    switch (v.types[id]) {
    case TokenType::UserDefined:
      if (piece.empty())
        throw Error("user-defined token " + std::to_string(id) + " is empty");
      if (userDefined_.try_emplace(piece, static_cast<int32_t>(id)).second &&
          !llvm::is_contained(userDefinedLengths_, piece.size()))
        userDefinedLengths_.push_back(piece.size());
      [[fallthrough]];
    case TokenType::Normal:
      // The first of duplicate pieces wins, as in SentencePiece's map.
      mergeable_.try_emplace(piece, static_cast<int32_t>(id));
      break;
    case TokenType::Byte: {
      int byte = parseBytePiece(piece);
      if (byte < 0)
        throw Error("byte token " + std::to_string(id) + " is spelled '" + piece +
                    "', not <0xNN>");
      byteOfToken_[id] = static_cast<int16_t>(byte);
      if (byteIds_[byte] < 0)
        byteIds_[byte] = static_cast<int32_t>(id);
      break;
    }
    default:
      break;
    }
  }
  llvm::sort(userDefinedLengths_, std::greater<size_t>());
  hasByteFallback_ = llvm::all_of(byteIds_, [](int32_t id) { return id >= 0; });
  if (!hasByteFallback_ && v.unknownId < 0)
    throw Error("the vocabulary has neither the 256 byte pieces <0x00>..<0xFF> nor an "
                "unknown token: it cannot encode characters outside its pieces");
}

Tokenizer Tokenizer::fromGGUF(const GGUFFile &file) {
  Vocabulary vocabulary = Vocabulary::fromGGUF(file);
  try {
    return Tokenizer(std::move(vocabulary));
  } catch (const Error &error) {
    file.fail(error.what());
  }
}

/// The length of the UTF-8 character at the start of `text`: the length
/// its first byte announces if the continuation bytes follow, else 1.
static size_t characterLength(StringRef text) {
  unsigned char lead = text[0];
  size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1;
  if (length > text.size())
    return 1;
  for (size_t i = 1; i < length; ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      return 1;
  return length;
}

namespace {
struct Symbol {
  size_t start;
  size_t length; // 0 once merged into its left neighbour
  int prev;
  int next;    // -1 at the ends
  bool frozen; // a user-defined piece: never merged
};

struct Candidate {
  float score;
  int left;
  int right;
  size_t length; // of the merged text, to recognize stale candidates
};

struct CandidateOrder {
  // std::priority_queue pops the greatest: the highest score, then the
  // leftmost pair.
  bool operator()(const Candidate &a, const Candidate &b) const {
    return a.score < b.score || (a.score == b.score && a.left > b.left);
  }
};
} // namespace

std::vector<int32_t> Tokenizer::encode(StringRef text, bool addSpecial) const {
  const Vocabulary &v = vocabulary_;
  std::vector<int32_t> ids;
  if (addSpecial && v.addBos && v.bosId >= 0)
    ids.push_back(v.bosId);

  if (!text.empty()) {
    std::string normalized = v.addSpacePrefix ? kSpaceSymbol : "";
    for (char c : text) {
      if (c == ' ')
        normalized += kSpaceSymbol;
      else
        normalized += c;
    }
    StringRef all(normalized);

    // Characters, and user-defined pieces matched whole (the longest first).
    std::vector<Symbol> symbols;
    for (size_t at = 0; at < all.size();) {
      StringRef rest = all.drop_front(at);
      size_t length = 0;
      for (size_t candidate : userDefinedLengths_)
        if (candidate <= rest.size() && userDefined_.count(rest.take_front(candidate))) {
          length = candidate;
          break;
        }
      bool frozen = length != 0;
      if (!frozen)
        length = characterLength(rest);
      int index = static_cast<int>(symbols.size());
      symbols.push_back({at, length, index - 1, -1, frozen});
      if (index > 0)
        symbols[index - 1].next = index;
      at += length;
    }

    std::priority_queue<Candidate, std::vector<Candidate>, CandidateOrder> queue;
    auto tryPair = [&](int left, int right) {
      if (left < 0 || right < 0 || symbols[left].frozen || symbols[right].frozen)
        return;
      size_t length = symbols[left].length + symbols[right].length;
      auto it = mergeable_.find(all.substr(symbols[left].start, length));
      if (it != mergeable_.end())
        queue.push({v.scores[it->second], left, right, length});
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i)
      tryPair(i - 1, i);

    while (!queue.empty()) {
      Candidate top = queue.top();
      queue.pop();
      Symbol &left = symbols[top.left];
      Symbol &right = symbols[top.right];
      if (left.length == 0 || right.length == 0 || left.length + right.length != top.length)
        continue;
      left.length += right.length;
      right.length = 0;
      left.next = right.next;
      if (right.next >= 0)
        symbols[right.next].prev = top.left;
      tryPair(left.prev, top.left);
      tryPair(top.left, left.next);
    }

    for (int i = 0; i >= 0 && !symbols.empty(); i = symbols[i].next) {
      StringRef piece = all.substr(symbols[i].start, symbols[i].length);
      auto it = mergeable_.find(piece);
      if (it != mergeable_.end()) {
        ids.push_back(it->second);
      } else if (hasByteFallback_) {
        for (unsigned char byte : piece)
          ids.push_back(byteIds_[byte]);
      } else {
        ids.push_back(v.unknownId);
      }
    }
  }

  if (addSpecial && v.addEos && v.eosId >= 0)
    ids.push_back(v.eosId);
  return ids;
}

std::string Tokenizer::tokenBytes(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= size())
    throw Error("token id " + std::to_string(id) + " is out of range (the vocabulary has " +
                std::to_string(size()) + " tokens)");
  if (byteOfToken_[id] >= 0)
    return std::string(1, static_cast<char>(byteOfToken_[id]));
  switch (vocabulary_.types[id]) {
  case TokenType::Control:
    return "";
  case TokenType::Unknown:
    return kUnknownSurface;
  default:
    return vocabulary_.pieces[id];
  }
}

std::string Tokenizer::decode(llvm::ArrayRef<int32_t> ids) const {
  DetokenizerStream stream(*this);
  std::string text;
  for (int32_t id : ids)
    text += stream.push(id);
  return text + stream.flush();
}

//===----------------------------------------------------------------------===//
// DetokenizerStream
//===----------------------------------------------------------------------===//

std::string DetokenizerStream::push(int32_t id) {
  pending_ += tokenizer_.tokenBytes(id);
  // Hold back a UTF-8 sequence whose lead byte is among the last three
  // bytes and whose continuation bytes have not all come yet.
  size_t size = pending_.size();
  for (size_t back = 1; back <= std::min<size_t>(3, size); ++back) {
    unsigned char byte = pending_[size - back];
    if ((byte & 0xC0) == 0x80)
      continue; // a continuation byte: look further back
    size_t length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : byte < 0xF8 ? 4 : 1;
    return emit(length > back ? size - back : size);
  }
  return emit(size);
}

std::string DetokenizerStream::flush() { return emit(pending_.size()); }

std::string DetokenizerStream::emit(size_t length) {
  std::string text;
  StringRef ready = StringRef(pending_).take_front(length);
  for (size_t at = 0; at < ready.size();) {
    if (ready.substr(at).starts_with(kSpaceSymbol)) {
      text += ' ';
      at += 3;
    } else {
      text += ready[at++];
    }
  }
  pending_.erase(0, length);
  if (atStart_ && !text.empty()) {
    if (tokenizer_.vocabulary().addSpacePrefix && text[0] == ' ')
      text.erase(0, 1);
    atStart_ = false;
  }
  return text;
}
