//===- Tokenizer.h - SentencePiece tokenization as Llama 2 uses it -*- C++ -*-===//
//
// The vocabulary of a GGUF file whose tokenizer.ggml.model is "llama": the
// pieces of a SentencePiece BPE model with their scores and types. Encoding
// follows SentencePiece's BPE encoder (and llama.cpp's llm_tokenizer_spm):
//
//   1. Normalize: every ' ' becomes U+2581 '▁', and a '▁' is prepended (the
//      "dummy prefix"; tokenizer.ggml.add_space_prefix, default true). The
//      empty text has no pieces.
//   2. Split into UTF-8 characters (a byte that starts no valid sequence is
//      a character of its own), except where a user-defined piece matches:
//      the longest one is a symbol of its own that never merges.
//   3. Repeatedly merge the adjacent pair whose concatenation is a normal
//      or user-defined piece of the highest score; among equal scores the
//      leftmost pair first. Control, unknown, byte and unused pieces are
//      never the result of a merge.
//   4. Each remaining symbol is its piece's id. A character that is no
//      piece becomes its UTF-8 bytes as byte pieces <0xNN> when the
//      vocabulary has all 256 ("byte fallback"), else the unknown token.
//   5. With the special tokens: BOS first if tokenizer.ggml.add_bos_token
//      (default true), EOS last if tokenizer.ggml.add_eos_token (default
//      false).
//
// Decoding inverts it: piece texts and byte pieces' bytes are concatenated,
// '▁' becomes ' ', control tokens vanish, the unknown token reads " ⁇ " (as
// SentencePiece prints it), and the space of the dummy prefix -- the first
// character of the whole text -- is dropped. decode(encode(s)) == s for
// every s without U+2581.
//
// GPT-2-style byte-level BPE with merges ("gpt2", Llama 3) is refused.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_TOKENIZER_H
#define LLK_LLAMA_TOKENIZER_H

#include "llk/llama/Error.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace llk::llama {

class GGUFFile;

/// tokenizer.ggml.token_type values (SentencePiece's piece types).
enum class TokenType : int32_t {
  Undefined = 0,
  Normal = 1,
  Unknown = 2,
  Control = 3,
  UserDefined = 4,
  Unused = 5,
  Byte = 6,
};

struct Vocabulary {
  std::vector<std::string> pieces; // '▁' for spaces
  std::vector<float> scores;
  std::vector<TokenType> types;
  int32_t bosId = -1; // -1: none
  int32_t eosId = -1;
  int32_t unknownId = -1;
  bool addBos = true;
  bool addEos = false;
  bool addSpacePrefix = true;

  /// Reads the tokenizer.ggml.* keys. scores default to 0, types to
  /// Normal, and the special ids to llama.cpp's SentencePiece defaults
  /// (<unk> 0, <s> 1, </s> 2) where the vocabulary has them. Throws Error
  /// for a missing or non-"llama" model, or arrays of different lengths.
  static Vocabulary fromGGUF(const GGUFFile &file);
};

class Tokenizer {
public:
  /// Checks the vocabulary: consistent lengths, special ids in range, byte
  /// pieces spelled <0xNN>, scores not NaN, and a way to encode any
  /// character (the 256 byte pieces or an unknown token). Throws Error.
  explicit Tokenizer(Vocabulary vocabulary);
  /// The vocabulary of `file`; errors are prefixed with its name.
  static Tokenizer fromGGUF(const GGUFFile &file);

  /// The ids of `text`, with BOS/EOS as the vocabulary asks if addSpecial.
  std::vector<int32_t> encode(llvm::StringRef text, bool addSpecial = true) const;
  std::string decode(llvm::ArrayRef<int32_t> ids) const;

  /// The bytes token `id` stands for, before '▁' becomes ' ' (a byte
  /// piece's byte, "" for control tokens). Throws Error for an id out of
  /// range.
  std::string tokenBytes(int32_t id) const;

  const Vocabulary &vocabulary() const { return vocabulary_; }
  size_t size() const { return vocabulary_.pieces.size(); }
  bool hasByteFallback() const { return hasByteFallback_; }

private:
  Vocabulary vocabulary_;
  llvm::StringMap<int32_t> mergeable_; // normal and user-defined pieces
  llvm::StringMap<int32_t> userDefined_;
  std::vector<size_t> userDefinedLengths_; // longest first
  std::array<int32_t, 256> byteIds_;
  std::vector<int16_t> byteOfToken_; // -1 unless a byte piece
  bool hasByteFallback_ = false;
};

/// Turns tokens into text as they are generated: push returns the text that
/// is complete so far (an incomplete UTF-8 sequence, spelled by byte pieces,
/// is held back until its last byte), flush what remains. Feed it the
/// prompt too, so that only the text's first space is dropped.
class DetokenizerStream {
public:
  explicit DetokenizerStream(const Tokenizer &tokenizer) : tokenizer_(tokenizer) {}
  std::string push(int32_t id);
  std::string flush();

private:
  std::string emit(size_t length);
  const Tokenizer &tokenizer_;
  std::string pending_;
  bool atStart_ = true;
};

} // namespace llk::llama

#endif // LLK_LLAMA_TOKENIZER_H
