//===- TokenizerTest.cpp - SentencePiece encoding and decoding ------------===//
//
// Hand-made vocabularies whose tokenizations are derived by hand from the
// algorithm (Tokenizer.h): which pair merges first, byte fallback, spaces,
// the dummy prefix, special tokens; then decoding, streaming, and round
// trips of random text.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "llk/llama/Tokenizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace llk::llama;
using namespace llk::llama::test;

static const std::string S = "\xE2\x96\x81"; // '▁'

namespace {
struct VocabOptions {
  bool bytes = true;  // the 256 byte pieces
  bool prefix = true; // add_space_prefix
  bool addEos = false;
};
} // namespace

/// <unk> 0, <s> 1, </s> 2, the byte pieces 3..258 (if asked), then `pieces`.
static Vocabulary makeVocabulary(const std::vector<std::pair<std::string, float>> &pieces,
                                 VocabOptions options = {}) {
  Vocabulary v;
  auto add = [&](std::string piece, float score, TokenType type) {
    v.pieces.push_back(std::move(piece));
    v.scores.push_back(score);
    v.types.push_back(type);
  };
  add("<unk>", 0, TokenType::Unknown);
  add("<s>", 0, TokenType::Control);
  add("</s>", 0, TokenType::Control);
  if (options.bytes)
    for (int byte = 0; byte < 256; ++byte) {
      char name[8];
      std::snprintf(name, sizeof name, "<0x%02X>", byte);
      add(name, 0, TokenType::Byte);
    }
  for (const auto &[piece, score] : pieces)
    add(piece, score, TokenType::Normal);
  v.unknownId = 0, v.bosId = 1, v.eosId = 2;
  v.addSpacePrefix = options.prefix;
  v.addEos = options.addEos;
  return v;
}

static Tokenizer makeTokenizer(const std::vector<std::pair<std::string, float>> &pieces,
                               VocabOptions options = {}) {
  return Tokenizer(makeVocabulary(pieces, options));
}

/// The pieces of `text`, without BOS.
static std::vector<std::string> pieces(const Tokenizer &t, llvm::StringRef text) {
  std::vector<std::string> out;
  for (int32_t id : t.encode(text, /*addSpecial=*/false))
    out.push_back(t.vocabulary().pieces[id]);
  return out;
}

using Pieces = std::vector<std::string>;

TEST(Tokenizer, HighestScoringMergeFirst) {
  std::vector<std::pair<std::string, float>> vocab = {
      {S, -10}, {"h", -10}, {"e", -10}, {"l", -10}, {"o", -10},
      {"he", -1}, {"ll", -2}, {"llo", -3}, {"hello", -0.5f}};
  // ▁ h e l l o -> ▁ he l l o -> ▁ he ll o -> ▁ he llo -> ▁ hello
  EXPECT_EQ(pieces(makeTokenizer(vocab), "hello"), (Pieces{S, "hello"}));
  vocab.push_back({S + "hello", -4});
  EXPECT_EQ(pieces(makeTokenizer(vocab), "hello"), (Pieces{S + "hello"}));
  // "hell" is no piece: he + ll stay apart.
  EXPECT_EQ(pieces(makeTokenizer(vocab), "hell"), (Pieces{S, "he", "ll"}));

  // The score decides, not the position.
  VocabOptions bare;
  bare.prefix = false;
  EXPECT_EQ(pieces(makeTokenizer({{"a", -10}, {"b", -10}, {"c", -10}, {"ab", -2}, {"bc", -1}},
                                 bare), "abc"),
            (Pieces{"a", "bc"}));
  EXPECT_EQ(pieces(makeTokenizer({{"a", -10}, {"b", -10}, {"c", -10}, {"ab", -0.5f}, {"bc", -1}},
                                 bare), "abc"),
            (Pieces{"ab", "c"}));
}

TEST(Tokenizer, TiesGoToTheLeftmostPair) {
  VocabOptions bare;
  bare.prefix = false;
  Tokenizer t = makeTokenizer({{"a", -10}, {"b", -10}, {"ab", -1}, {"ba", -1}}, bare);
  EXPECT_EQ(pieces(t, "aba"), (Pieces{"ab", "a"}));
  EXPECT_EQ(pieces(t, "bab"), (Pieces{"ba", "b"}));
  // ab(0) first; then the pair at 2 is still whole and merges too.
  EXPECT_EQ(pieces(t, "abab"), (Pieces{"ab", "ab"}));
}

TEST(Tokenizer, ByteFallback) {
  Tokenizer t = makeTokenizer({{S, -10}, {"a", -10}, {"\xC3\xA9", -10}, {S + "\xC3\xA9", -1},
                               {"\xE4\xB8\xAD", -10}});
  EXPECT_EQ(pieces(t, "a\xC3\xA8"), (Pieces{S, "a", "<0xC3>", "<0xA8>"})); // è: no piece
  EXPECT_EQ(pieces(t, "\xC3\xA9"), (Pieces{S + "\xC3\xA9"}));               // é: merged
  EXPECT_EQ(pieces(t, "\xE4\xB8\xAD"), (Pieces{S, "\xE4\xB8\xAD"}));        // 中: a piece
  EXPECT_EQ(pieces(t, "\xF0\x9F\x98\x80"),                                  // 😀: 4 bytes
            (Pieces{S, "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"}));
  // Bytes that start no valid character are characters of their own.
  EXPECT_EQ(pieces(t, "\xC3("), (Pieces{S, "<0xC3>", "<0x28>"}));
  EXPECT_EQ(pieces(t, "a\xE2\x96"), (Pieces{S, "a", "<0xE2>", "<0x96>"}));
  EXPECT_EQ(pieces(t, "\n"), (Pieces{S, "<0x0A>"}));
}

TEST(Tokenizer, UnknownWithoutBytePieces) {
  VocabOptions noBytes;
  noBytes.bytes = false;
  Tokenizer t = makeTokenizer({{S, -10}, {"a", -10}}, noBytes);
  EXPECT_FALSE(t.hasByteFallback());
  EXPECT_EQ(pieces(t, "ax"), (Pieces{S, "a", "<unk>"}));
  EXPECT_EQ(pieces(t, "x\xE4\xB8\xAD"), (Pieces{S, "<unk>", "<unk>"})); // one per character
}

TEST(Tokenizer, Spaces) {
  Tokenizer t = makeTokenizer({{S, -10}, {"a", -10}, {"b", -10}, {S + "a", -1}, {S + S, -2}});
  EXPECT_EQ(pieces(t, "a"), (Pieces{S + "a"}));
  // ▁▁a: ▁a (-1) beats ▁▁ (-2).
  EXPECT_EQ(pieces(t, " a"), (Pieces{S, S + "a"}));
  EXPECT_EQ(pieces(t, "a "), (Pieces{S + "a", S}));
  // ▁a▁▁b: ▁a first, then the ▁▁ pair, which is still whole.
  EXPECT_EQ(pieces(t, "a  b"), (Pieces{S + "a", S + S, "b"}));
  // ▁▁▁▁: three equal pairs; the leftmost, then the one at 2.
  EXPECT_EQ(pieces(t, "   "), (Pieces{S + S, S + S}));
  // A literal '▁' is a space.
  EXPECT_EQ(pieces(t, S + "a"), pieces(t, " a"));
  // Tabs are not spaces.
  EXPECT_EQ(pieces(t, "\ta"), (Pieces{S, "<0x09>", "a"}));
}

TEST(Tokenizer, DummyPrefixAndSpecialTokens) {
  VocabOptions bare;
  bare.prefix = false;
  Tokenizer noPrefix = makeTokenizer({{S, -10}, {"a", -10}, {"b", -10}, {"a" + S, -1}}, bare);
  EXPECT_EQ(pieces(noPrefix, "a b"), (Pieces{"a" + S, "b"}));

  Tokenizer t = makeTokenizer({{S, -10}, {"a", -10}, {S + "a", -1}});
  int32_t a = 3 + 256 + 2;
  EXPECT_EQ(t.encode(""), (std::vector<int32_t>{1}));
  EXPECT_EQ(t.encode("", false), (std::vector<int32_t>{}));
  EXPECT_EQ(t.encode("a"), (std::vector<int32_t>{1, a}));
  VocabOptions withEos;
  withEos.addEos = true;
  Tokenizer eos = makeTokenizer({{S, -10}, {"a", -10}, {S + "a", -1}}, withEos);
  EXPECT_EQ(eos.encode("a"), (std::vector<int32_t>{1, a, 2}));
  EXPECT_EQ(eos.encode("a", false), (std::vector<int32_t>{a}));

  // Control pieces are never made by merging: "<s>" in the text is text.
  Tokenizer control = makeTokenizer({{S, -10}, {"<", -10}, {"s", -10}, {">", -10}, {"<s", -1}});
  EXPECT_EQ(pieces(control, "<s>"), (Pieces{S, "<s", ">"}));
}

TEST(Tokenizer, UserDefinedPiecesAreMatchedWhole) {
  Vocabulary v = makeVocabulary({{S, -10}, {"a", -10}, {"b", -10}, {"<", -10}, {"|", -10},
                                 {S + "a", -1}, {"a<", -0.5f}, {"<|", -2}});
  auto add = [&](std::string piece) {
    v.pieces.push_back(std::move(piece));
    v.scores.push_back(0);
    v.types.push_back(TokenType::UserDefined);
  };
  add("<|");
  add("<|a|>");
  Tokenizer t(std::move(v));
  // "<|a|>" is one frozen symbol: "a<" never forms across it, ▁a does
  // before it.
  EXPECT_EQ(pieces(t, "a<|a|>b"), (Pieces{S + "a", "<|a|>", "b"}));
  // The longest user-defined piece wins; a shorter one where it ends.
  EXPECT_EQ(pieces(t, "<|a"), (Pieces{S, "<|", "a"}));
  int32_t whole = static_cast<int32_t>(t.size()) - 1;
  EXPECT_EQ(t.encode("<|a|>", false).back(), whole);
  EXPECT_EQ(t.decode(t.encode("x<|a|> <|")), "x<|a|> <|");
}

TEST(Tokenizer, VocabularyErrors) {
  auto message = [](Vocabulary v) -> std::string {
    try {
      Tokenizer t(std::move(v));
    } catch (const Error &error) {
      return error.what();
    }
    return "no error";
  };
  Vocabulary v = makeVocabulary({{S, -10}});
  v.bosId = 1000;
  EXPECT_EQ(message(v), "the BOS token id 1000 is not a token of the vocabulary of 260");
  v = makeVocabulary({{S, -10}});
  v.pieces[3 + 10] = "<0xZZ>";
  EXPECT_EQ(message(v), "byte token 13 is spelled '<0xZZ>', not <0xNN>");
  VocabOptions noBytes;
  noBytes.bytes = false;
  v = makeVocabulary({{S, -10}}, noBytes);
  v.unknownId = -1;
  EXPECT_NE(message(v).find("neither the 256 byte pieces"), std::string::npos);
  v = makeVocabulary({{S, NAN}});
  EXPECT_EQ(message(v), "token 259 has a NaN score");
  v = makeVocabulary({{S, -10}});
  v.scores.pop_back();
  EXPECT_EQ(message(v), "vocabulary of 260 pieces has 259 scores and 260 types");
  v = makeVocabulary({});
  v.pieces.clear(), v.scores.clear(), v.types.clear();
  EXPECT_EQ(message(v), "vocabulary of 0 tokens");
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

TEST(Tokenizer, Decode) {
  Tokenizer t(syntheticVocabulary(2000));
  EXPECT_EQ(t.decode(t.encode("hello world")), "hello world");
  EXPECT_EQ(t.decode(t.encode(" hello")), " hello");
  EXPECT_EQ(t.decode({}), "");
  // Byte pieces are bytes; control tokens vanish; the first space goes.
  int32_t c3 = 3 + 0xC3, a9 = 3 + 0xA9;
  EXPECT_EQ(t.decode({1, c3, a9, 2}), "\xC3\xA9");
  std::vector<int32_t> ab = t.encode("ab", false);
  std::vector<int32_t> ids = {1};
  ids.insert(ids.end(), ab.begin(), ab.end());
  ids.push_back(0); // <unk>
  EXPECT_EQ(t.decode(ids), "ab \xE2\x81\x87 ");
  EXPECT_THROW(t.decode({5000}), Error);
  EXPECT_THROW(t.tokenBytes(-1), Error);
}

TEST(Tokenizer, DetokenizerStream) {
  Tokenizer t(syntheticVocabulary(2000));
  int32_t spaceA = t.encode("a", false)[0], spaceB = t.encode("b", false)[0];
  DetokenizerStream stream(t);
  EXPECT_EQ(stream.push(1), "");               // BOS
  EXPECT_EQ(stream.push(spaceA), "a");          // the dummy prefix's space dropped
  EXPECT_EQ(stream.push(spaceB), " b");         // later spaces kept
  EXPECT_EQ(stream.push(3 + 0xE4), "");         // 中 = E4 B8 AD, held back
  EXPECT_EQ(stream.push(3 + 0xB8), "");
  EXPECT_EQ(stream.push(3 + 0xAD), "\xE4\xB8\xAD");
  EXPECT_EQ(stream.push(3 + 0xF0), "");
  EXPECT_EQ(stream.flush(), "\xF0"); // an incomplete character as it is

  // A text that starts with a byte-fallback character keeps no space.
  DetokenizerStream other(t);
  EXPECT_EQ(other.push(3 + 0xC3), "");
  EXPECT_EQ(other.push(3 + 0xA9), "\xC3\xA9");
  EXPECT_EQ(other.push(spaceA), " a");
}

TEST(Tokenizer, RoundTripOfRandomText) {
  Tokenizer synthetic(syntheticVocabulary(2000));
  VocabOptions bare;
  bare.prefix = false;
  Tokenizer small = makeTokenizer({{S, -10}, {"a", -10}, {"b", -10}, {"ab", -1}, {S + "a", -2}},
                                  bare);
  const std::vector<std::string> alphabet = {
      "a", "b", "e", "h", "l", "o", "t", "Z", "7", " ", "  ", ".", ",", "\n", "\t",
      "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "ab", "the", "hello"};
  std::mt19937_64 rng(99);
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    int length = rng() % 30;
    for (int k = 0; k < length; ++k) {
      if (rng() % 16 == 0)
        text += static_cast<char>(rng() % 256); // any byte, valid UTF-8 or not
      else
        text += alphabet[rng() % alphabet.size()];
    }
    if (llvm::StringRef(text).contains(S))
      continue; // '▁' decodes to a space
    for (const Tokenizer *t : {&synthetic, &small}) {
      EXPECT_EQ(t->decode(t->encode(text, true)), text);
      EXPECT_EQ(t->decode(t->encode(text, false)), text);
    }
  }
}

TEST(Tokenizer, TinyModelVocabulary) {
  LlamaModelFile model = LlamaModelFile::fromGGUF(parseGGUF(tinyModelBytes()));
  const Tokenizer &t = model.tokenizer();
  // The tiny vocabulary merges ▁a..▁z and ▁aa..▁as only.
  EXPECT_EQ(pieces(t, "hello world"),
            (Pieces{S + "h", "e", "l", "l", "o", S + "w", "o", "r", "l", "d"}));
  EXPECT_EQ(pieces(t, "ab"), (Pieces{S + "ab"}));
  EXPECT_EQ(t.encode("ab")[0], 1);
  EXPECT_EQ(t.decode(t.encode("Hello, World! \xC3\xA9")), "Hello, World! \xC3\xA9");
}

TEST(Tokenizer, LongInput) {
  Tokenizer t(syntheticVocabulary(32000));
  std::string text;
  std::mt19937_64 rng(5);
  while (text.size() < 200000) {
    for (int k = 1 + rng() % 8; k > 0; --k)
      text += static_cast<char>('a' + rng() % 26);
    text += ' ';
  }
  std::vector<int32_t> ids = t.encode(text);
  EXPECT_LT(ids.size(), text.size() / 2);
  EXPECT_EQ(t.decode(ids), text);
}
