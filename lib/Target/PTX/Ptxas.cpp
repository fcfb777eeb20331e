//===- Ptxas.cpp - PTX to a cubin with the CUDA toolkit's ptxas -----------===//

#include "llk/Target/PTX.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llk;

llvm::Expected<std::string> llk::assembleCubin(llvm::StringRef ptx,
                                               llvm::StringRef arch,
                                               llvm::StringRef ptxas) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  // ptxas reads and writes files: the PTX, the cubin, its messages.
  llvm::SmallString<128> input, output, messages;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("llk", "ptx", fd, input))
    return error("cannot create a temporary file for ptxas: " + ec.message());
  llvm::FileRemover removeInput(input);
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    stream << ptx;
    stream.close();
    if (stream.has_error())
      return error("cannot write '" + input + "': " + stream.error().message());
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("llk", "cubin", output))
    return error("cannot create a temporary file for ptxas: " + ec.message());
  llvm::FileRemover removeOutput(output);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("llk", "log", messages))
    return error("cannot create a temporary file for ptxas: " + ec.message());
  llvm::FileRemover removeMessages(messages);

  std::string archFlag = ("-arch=" + arch).str();
  llvm::SmallVector<llvm::StringRef> args = {ptxas, archFlag, "-o", output, input};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, messages, messages};
  std::string why;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                         redirects, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &why);
  auto log = [&]() -> std::string {
    auto text = llvm::MemoryBuffer::getFile(messages);
    return text ? (*text)->getBuffer().trim().str() : "";
  };
  if (status < 0)
    return error("cannot run ptxas '" + ptxas + "': " + why);
  if (status != 0)
    return error("ptxas '" + ptxas + "' failed (exit status " +
                 llvm::Twine(status) + ") for " + arch + ":\n" + log());
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin || (*cubin)->getBufferSize() == 0)
    return error("ptxas '" + ptxas + "' wrote no cubin");
  return (*cubin)->getBuffer().str();
}
