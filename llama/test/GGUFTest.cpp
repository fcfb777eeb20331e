//===- GGUFTest.cpp - GGUF reading and writing, element types -------------===//

#include "TestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace llk::llama;
using namespace llk::llama::test;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

TEST(GGMLTypes, Layouts) {
  EXPECT_STREQ(lookupGGMLType(8)->name, "q8_0");
  EXPECT_EQ(lookupGGMLType(8)->blockSize, 32u);
  EXPECT_EQ(lookupGGMLType(8)->blockBytes, 34u);
  EXPECT_STREQ(toString(GGMLType::Q4_0), "q4_0");
  EXPECT_STREQ(toString(GGMLType::BF16), "bf16");
  EXPECT_EQ(lookupGGMLType(4), nullptr); // removed from ggml
  EXPECT_EQ(lookupGGMLType(1000), nullptr);
  EXPECT_TRUE(isSupportedWeightType(GGMLType::Q8_0));
  EXPECT_FALSE(isSupportedWeightType(GGMLType::Q4_K));
}

TEST(GGMLTypes, HalfConversion) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(0.1f), 0x2E66);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // rounds to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);     // tie: to even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02); // tie: to even
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  // Every finite half survives the round trip.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7C00) == 0x7C00)
      continue;
    ASSERT_EQ(floatToHalf(halfToFloat(bits)), bits) << bits;
  }
}

TEST(GGMLTypes, BFloat16Conversion) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3F80);
  EXPECT_EQ(bfloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80); // tie: to even
  EXPECT_EQ(floatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(floatToBFloat16(NAN))));
}

TEST(GGMLTypes, Q8_0) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-3, 3);
  std::vector<float> values(96);
  for (float &v : values)
    v = uniform(rng);
  values[40] = 0; // a block with a zero
  std::fill(values.begin() + 64, values.end(), 0.0f); // an all-zero block
  std::vector<uint8_t> bytes(3 * kQ8_0BlockBytes);
  quantizeQ8_0(values, bytes);
  std::vector<float> back(values.size());
  dequantize(GGMLType::Q8_0, bytes.data(), values.size(), back.data());
  for (size_t block = 0; block < 3; ++block) {
    float amax = 0;
    for (size_t i = 0; i < 32; ++i)
      amax = std::max(amax, std::fabs(values[32 * block + i]));
    for (size_t i = 0; i < 32; ++i) {
      size_t k = 32 * block + i;
      // Half a quantization step, plus the f16 rounding of the scale.
      EXPECT_NEAR(back[k], values[k], amax / 127 * 0.5f + amax * 1e-3f) << k;
    }
  }
  EXPECT_EQ(back[40], 0.0f);
  EXPECT_EQ(back[80], 0.0f);
  EXPECT_THROW(quantizeQ8_0(llvm::ArrayRef<float>(values).take_front(33), bytes), Error);
  EXPECT_THROW(dequantize(GGMLType::Q4_0, bytes.data(), 32, back.data()), Error);
}

//===----------------------------------------------------------------------===//
// Writing and reading back
//===----------------------------------------------------------------------===//

static std::string writeSample(uint32_t alignment, size_t chunk) {
  GGUFWriter writer(alignment);
  writer.addString("general.architecture", "test");
  writer.addUInt32("a.u32", 4000000000u);
  writer.addInt32("a.i32", -5);
  writer.addUInt64("a.u64", 1ull << 40);
  writer.addFloat32("a.f32", 0.25f);
  writer.addBool("a.bool", true);
  writer.addStringArray("a.strings", {"x", "", "\xE2\x96\x81y"});
  writer.addFloat32Array("a.floats", {1.5f, -2.0f});
  writer.addInt32Array("a.ints", {3, -4, 5});
  writer.addTensor("t0", {5}, GGMLType::F32);     // 20 bytes: padded
  writer.addTensor("t1", {32, 2}, GGMLType::Q8_0); // 68 bytes
  writer.addTensor("t2", {3, 1, 1}, GGMLType::F16);
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  writer.writeHeader(os);
  std::vector<uint8_t> data;
  for (int i = 0; i < 20 + 68 + 6; ++i)
    data.push_back(static_cast<uint8_t>(i));
  for (size_t at = 0; at < data.size(); at += chunk)
    writer.writeTensorData(llvm::ArrayRef<uint8_t>(data).slice(at, std::min(chunk, data.size() - at)));
  writer.finish();
  return bytes;
}

TEST(GGUF, RoundTrip) {
  for (uint32_t alignment : {32u, 64u, 1u}) {
    std::string bytes = writeSample(alignment, 1000);
    // Streaming in small chunks writes the same file.
    EXPECT_EQ(bytes, writeSample(alignment, 7));
    GGUFFile file = parseGGUF(bytes);
    EXPECT_EQ(file.version(), 3u);
    EXPECT_EQ(file.alignment(), alignment);
    EXPECT_EQ(file.dataOffset() % alignment, 0u);
    EXPECT_EQ(file.getString("general.architecture"), "test");
    EXPECT_EQ(file.getUInt32("a.u32"), 4000000000u);
    EXPECT_EQ(file.getInteger("a.i32"), -5);
    EXPECT_EQ(file.getInteger("a.u64"), int64_t(1) << 40);
    EXPECT_EQ(file.getFloat("a.f32"), 0.25);
    EXPECT_EQ(file.getBool("a.bool"), true);
    EXPECT_EQ(file.getStringArray("a.strings"),
              (std::vector<llvm::StringRef>{"x", "", "\xE2\x96\x81y"}));
    EXPECT_EQ(file.getFloatArray("a.floats"), (std::vector<float>{1.5f, -2.0f}));
    EXPECT_EQ(file.getIntegerArray("a.ints"), (std::vector<int64_t>{3, -4, 5}));
    EXPECT_EQ(file.getString("absent"), std::nullopt);
    EXPECT_EQ(file.metadata()[0].key, alignment == 32 ? "general.architecture"
                                                       : "general.alignment");

    ASSERT_EQ(file.tensors().size(), 3u);
    const GGUFTensorInfo *t1 = file.findTensor("t1");
    ASSERT_NE(t1, nullptr);
    EXPECT_EQ(t1->type, GGMLType::Q8_0);
    EXPECT_EQ(t1->shapeString(), "[32, 2]");
    EXPECT_EQ(t1->numElements, 64u);
    EXPECT_EQ(t1->numBytes, 68u);
    EXPECT_EQ(t1->numRows(), 2u);
    EXPECT_EQ(t1->offset, llvm::alignTo(20, alignment));
    EXPECT_EQ(t1->data[0], 20); // its bytes follow t0's
    EXPECT_EQ(file.findTensor("t2")->data[5], 20 + 68 + 5);
    EXPECT_EQ(file.findTensor("t2")->dims.size(), 3u);
  }
}

TEST(GGUF, TypedGettersNameTheKey) {
  GGUFFile file = parseGGUF(writeSample(32, 100));
  auto message = [&](auto get) -> std::string {
    try {
      get();
    } catch (const Error &error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([&] { file.getUInt32("a.i32"); }),
            "test.gguf: key 'a.i32' = -5 is out of range (0 to 4294967295)");
  EXPECT_EQ(message([&] { file.getString("a.u32"); }),
            "test.gguf: key 'a.u32' has type u32, expected a string");
  EXPECT_EQ(message([&] { file.getFloatArray("a.ints"); }),
            "test.gguf: key 'a.ints' has type array of i32, expected an array of floats");
  EXPECT_EQ(message([&] { file.getInteger("a.f32"); }),
            "test.gguf: key 'a.f32' has type f32, expected an integer");
  EXPECT_EQ(message([&] { file.getBool("a.strings"); }),
            "test.gguf: key 'a.strings' has type array of string, expected a bool");
}

TEST(GGUF, FormatValue) {
  GGUFFile file = parseGGUF(writeSample(32, 100));
  EXPECT_EQ(formatValue(*file.lookup("a.i32")), "-5");
  EXPECT_EQ(formatValue(*file.lookup("a.u64")), "1099511627776");
  EXPECT_EQ(formatValue(*file.lookup("a.bool")), "true");
  EXPECT_EQ(formatValue(*file.lookup("general.architecture")), "\"test\"");
  EXPECT_EQ(formatValue(*file.lookup("a.ints"), 2), "i32[3] [3, -4, ...]");
  EXPECT_EQ(formatValue(*file.lookup("a.floats")), "f32[2] [1.5, -2]");
}

TEST(GGUF, WriterMisuse) {
  GGUFWriter writer;
  writer.addUInt32("k", 1);
  EXPECT_THROW(writer.addUInt32("k", 2), Error);
  EXPECT_THROW(writer.addTensor("t", {33}, GGMLType::Q8_0), Error); // partial block
  EXPECT_THROW(writer.addTensor("t", {1, 1, 1, 1, 1}, GGMLType::F32), Error);
  writer.addTensor("t", {4}, GGMLType::F32);
  EXPECT_THROW(writer.addTensor("t", {4}, GGMLType::F32), Error);
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  writer.writeHeader(os);
  EXPECT_THROW(writer.addUInt32("late", 1), Error);
  writer.writeTensorData(std::vector<uint8_t>(8));
  EXPECT_THROW(writer.finish(), Error); // 8 of 16 bytes
  EXPECT_THROW(writer.writeTensorData(std::vector<uint8_t>(9)), Error);
  EXPECT_THROW(GGUFWriter(48), Error);
}

//===----------------------------------------------------------------------===//
// Files on disk
//===----------------------------------------------------------------------===//

TEST(GGUF, RandomModelFileIsMappedAndDeterministic) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("llk-gguf-test", dir));
  std::string path = (dir + "/tiny.gguf").str();
  writeRandomModelFile(path, randomModelOptions(ModelShape::Tiny, 3));
  EXPECT_FALSE(llvm::sys::fs::exists(path + ".partial"));
  LlamaModelFile model = LlamaModelFile::open(path);
  EXPECT_EQ(model.gguf().name(), path);
  EXPECT_EQ(model.config().blockCount, 2u);

  // The same seed writes the same bytes, another seed other weights.
  EXPECT_EQ(tinyModelBytes(3), tinyModelBytes(3));
  std::string a = tinyModelBytes(3), b = tinyModelBytes(4);
  GGUFFile fa = parseGGUF(a), fb = parseGGUF(b);
  EXPECT_EQ(fa.dataOffset(), fb.dataOffset());
  EXPECT_NE(a.substr(fa.dataOffset()), b.substr(fb.dataOffset()));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), a);

  try {
    GGUFFile::open((dir + "/absent.gguf").str());
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("absent.gguf: cannot open"), std::string::npos);
  }
  try {
    writeRandomModelFile((dir + "/no/such/dir/x.gguf").str(), randomModelOptions(ModelShape::Tiny, 3));
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("cannot create"), std::string::npos);
  }
  llvm::sys::fs::remove_directories(dir);
}
