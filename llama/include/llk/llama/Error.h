//===- Error.h - errors of the Llama model files ------------------*- C++ -*-===//
//
// Everything in LLKLlama reports bad input (a malformed or unsupported GGUF
// file, a vocabulary that cannot tokenize, an impossible model shape) by
// throwing llk::llama::Error, as the runtime throws llk::rt::Error: a caller
// catches one type, and nothing here aborts its host. The message names the
// file, the key or tensor and the value at fault.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_ERROR_H
#define LLK_LLAMA_ERROR_H

#include <stdexcept>
#include <string>

namespace llk::llama {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

} // namespace llk::llama

#endif // LLK_LLAMA_ERROR_H
