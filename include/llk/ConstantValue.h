//===- ConstantValue.h - the value of a compile-time constant ---*- C++ -*-===//
//
// What a kernel source's `${NAME}` is bound to: an integer (a block size, a
// shape, a switch) or an element type (`-D T=bf16`: one GEMM source serves
// f16 and bf16), substituted as its IR name. The compiler, the interpreter
// and the runtime (JITOptions, ModuleInfo) all hold constants as
// `llk::Constants`, so this header uses the standard library only: the
// runtime's public headers include it.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_CONSTANTVALUE_H
#define LLK_CONSTANTVALUE_H

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace llk {

/// The element types a constant may name.
enum class ElementType { F16, BF16, F32, F64, I1, I8, I16, I32, I64, F8E4M3FN, F8E5M2 };

class ConstantValue {
public:
  /// Each ElementType's name in the IR, in enum order.
  static constexpr std::array<std::string_view, 11> kTypeNames = {
      "f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
      "f8E4M3FN", "f8E5M2"};

  /// Implicit, so integer constants read as before: `constants["BLOCK"] = 64`
  /// (0 by default, for std::map's operator[]).
  ConstantValue(int64_t value = 0) : value(value) {}
  /// Implicit too: `constants["T"] = llk::ElementType::BF16`.
  ConstantValue(ElementType type) : value(type) {}

  /// The element type named `name` ("bf16"), or nothing.
  static std::optional<ConstantValue> fromTypeName(std::string_view name) {
    for (size_t i = 0; i < kTypeNames.size(); ++i)
      if (kTypeNames[i] == name)
        return ConstantValue(static_cast<ElementType>(i));
    return std::nullopt;
  }

  bool isInteger() const { return std::holds_alternative<int64_t>(value); }
  bool isType() const { return !isInteger(); }
  /// Only for integer constants.
  int64_t getInteger() const { return std::get<int64_t>(value); }
  /// Only for type constants.
  ElementType getType() const { return std::get<ElementType>(value); }

  /// The text that replaces `${NAME}`: "128", "bf16". Type names are not
  /// integers, so this also tells the kinds apart (cache keys use it).
  std::string str() const {
    return isInteger()
               ? std::to_string(getInteger())
               : std::string(kTypeNames[static_cast<size_t>(getType())]);
  }

  bool operator==(const ConstantValue &other) const {
    return value == other.value;
  }
  bool operator!=(const ConstantValue &other) const {
    return !(*this == other);
  }

private:
  std::variant<int64_t, ElementType> value;
};

/// Bindings for a source's `${NAME}` placeholders, by NAME.
using Constants = std::map<std::string, ConstantValue>;

} // namespace llk

#endif // LLK_CONSTANTVALUE_H
