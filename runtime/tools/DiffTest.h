//===- DiffTest.h - differential testing: GPU vs interpreter ----*- C++ -*-===//
//
// llk-difftest's command line (runtime/tools/DiffTest.cpp), also reachable as
// `llk-gpu-check difftest ...` so that the GPU machine needs one program.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_TOOLS_DIFFTEST_H
#define LLK_RUNTIME_TOOLS_DIFFTEST_H

namespace llk::tools {

/// Runs llk-difftest with `argv[0]` the program's name; the exit status.
/// `subcommand` follows the program's name when it runs itself again (each
/// case runs in a child process): "difftest" for llk-gpu-check.
int difftestMain(int argc, char **argv, const char *subcommand = nullptr);

} // namespace llk::tools

#endif // LLK_RUNTIME_TOOLS_DIFFTEST_H
