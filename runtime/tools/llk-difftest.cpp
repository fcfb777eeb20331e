//===- llk-difftest.cpp - differential testing: GPU vs interpreter --------===//
//
//   llk-difftest [--backend auto|gpu|cpu] [--archs ...] [--csv FILE] CASE|DIR...
//   llk-difftest --checks [--only a,b] [--seed N]
//
// See DiffTest.cpp; the cases come from scripts/gen-tile-kernel.py.
//
//===----------------------------------------------------------------------===//

#include "DiffTest.h"

int main(int argc, char **argv) { return llk::tools::difftestMain(argc, argv); }
