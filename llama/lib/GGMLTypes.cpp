//===- GGMLTypes.cpp - ggml element types and their conversions -----------===//
//
// The layouts of ggml's element types (so that a file of any type can be
// sized and checked), f16/bf16 conversions, and q8_0 quantization as ggml's
// reference quantize_row_q8_0 does it.
//
//===----------------------------------------------------------------------===//

#include "llk/llama/GGUF.h"

#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llk::llama;
namespace endian = llvm::support::endian;

namespace {
struct TypeEntry {
  uint32_t id;
  GGMLTypeInfo info;
};
} // namespace

// ggml's type_traits (name, elements per block, bytes per block).
static const TypeEntry kTypes[] = {
    {0, {"f32", 1, 4}},         {1, {"f16", 1, 2}},
    {2, {"q4_0", 32, 18}},      {3, {"q4_1", 32, 20}},
    {6, {"q5_0", 32, 22}},      {7, {"q5_1", 32, 24}},
    {8, {"q8_0", 32, 34}},      {9, {"q8_1", 32, 36}},
    {10, {"q2_K", 256, 84}},    {11, {"q3_K", 256, 110}},
    {12, {"q4_K", 256, 144}},   {13, {"q5_K", 256, 176}},
    {14, {"q6_K", 256, 210}},   {15, {"q8_K", 256, 292}},
    {16, {"iq2_xxs", 256, 66}}, {17, {"iq2_xs", 256, 74}},
    {18, {"iq3_xxs", 256, 98}}, {19, {"iq1_s", 256, 50}},
    {20, {"iq4_nl", 32, 18}},   {21, {"iq3_s", 256, 110}},
    {22, {"iq2_s", 256, 82}},   {23, {"iq4_xs", 256, 136}},
    {24, {"i8", 1, 1}},         {25, {"i16", 1, 2}},
    {26, {"i32", 1, 4}},        {27, {"i64", 1, 8}},
    {28, {"f64", 1, 8}},        {29, {"iq1_m", 256, 56}},
    {30, {"bf16", 1, 2}},       {34, {"tq1_0", 256, 54}},
    {35, {"tq2_0", 256, 66}},   {39, {"mxfp4", 32, 17}},
};

const GGMLTypeInfo *llk::llama::lookupGGMLType(uint32_t id) {
  for (const TypeEntry &entry : kTypes)
    if (entry.id == id)
      return &entry.info;
  return nullptr;
}

const char *llk::llama::toString(GGMLType type) {
  const GGMLTypeInfo *info = lookupGGMLType(static_cast<uint32_t>(type));
  return info ? info->name : "unknown";
}

bool llk::llama::isSupportedWeightType(GGMLType type) {
  return type == GGMLType::F32 || type == GGMLType::F16 || type == GGMLType::BF16 ||
         type == GGMLType::Q8_0;
}

static uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

static float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint16_t llk::llama::floatToHalf(float value) {
  uint32_t bits = bitsOf(value);
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) // inf, or NaN (kept quiet)
    return sign | 0x7c00 | (magnitude > 0x7f800000 ? 0x200 | ((magnitude >> 13) & 0x3ff) : 0);
  if (magnitude >= 0x477ff000) // >= 65520 rounds to infinity
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below 2^-14: a subnormal half, a multiple of 2^-24. Scaling by 2^24 is
    // exact; nearbyint rounds to nearest even. 1024 is the smallest normal.
    float scaled = floatOf(magnitude) * 16777216.0f;
    return sign | static_cast<uint32_t>(std::nearbyint(scaled));
  }
  uint32_t half = ((((magnitude >> 23) - 127 + 15) << 10) | ((magnitude >> 13) & 0x3ff));
  uint32_t rest = magnitude & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // a carry into the exponent is the correct rounding
  return sign | half;
}

float llk::llama::halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return floatOf(sign | 0x7f800000 | (mantissa << 13));
  return floatOf(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t llk::llama::floatToBFloat16(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7fffffff) > 0x7f800000) // NaN: keep it a (quiet) NaN
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

float llk::llama::bfloat16ToFloat(uint16_t bits) {
  return floatOf(static_cast<uint32_t>(bits) << 16);
}

void llk::llama::quantizeQ8_0(llvm::ArrayRef<float> values,
                              llvm::MutableArrayRef<uint8_t> out) {
  if (values.size() % kQ8_0BlockSize != 0 ||
      out.size() != values.size() / kQ8_0BlockSize * kQ8_0BlockBytes)
    throw Error("quantizeQ8_0: " + std::to_string(values.size()) + " values into " +
                std::to_string(out.size()) + " bytes");
  for (size_t block = 0; block < values.size() / kQ8_0BlockSize; ++block) {
    const float *x = values.data() + block * kQ8_0BlockSize;
    uint8_t *y = out.data() + block * kQ8_0BlockBytes;
    float amax = 0;
    for (uint32_t i = 0; i < kQ8_0BlockSize; ++i)
      amax = std::max(amax, std::fabs(x[i]));
    float d = amax / 127;
    float id = d != 0 ? 1 / d : 0;
    endian::write16le(y, floatToHalf(d));
    for (uint32_t i = 0; i < kQ8_0BlockSize; ++i)
      y[2 + i] = static_cast<uint8_t>(static_cast<int8_t>(std::round(x[i] * id)));
  }
}

void llk::llama::dequantize(GGMLType type, const uint8_t *data, uint64_t count, float *out) {
  switch (type) {
  case GGMLType::F32:
    for (uint64_t i = 0; i < count; ++i)
      out[i] = floatOf(endian::read32le(data + 4 * i));
    return;
  case GGMLType::F16:
    for (uint64_t i = 0; i < count; ++i)
      out[i] = halfToFloat(endian::read16le(data + 2 * i));
    return;
  case GGMLType::BF16:
    for (uint64_t i = 0; i < count; ++i)
      out[i] = bfloat16ToFloat(endian::read16le(data + 2 * i));
    return;
  case GGMLType::Q8_0:
    if (count % kQ8_0BlockSize != 0)
      throw Error("dequantize: " + std::to_string(count) +
                  " q8_0 values, not a multiple of 32");
    for (uint64_t block = 0; block < count / kQ8_0BlockSize; ++block) {
      const uint8_t *x = data + block * kQ8_0BlockBytes;
      float d = halfToFloat(endian::read16le(x));
      for (uint32_t i = 0; i < kQ8_0BlockSize; ++i)
        out[block * kQ8_0BlockSize + i] = d * static_cast<int8_t>(x[2 + i]);
    }
    return;
  default:
    throw Error(std::string("dequantize: type ") + toString(type) + " is not supported");
  }
}
