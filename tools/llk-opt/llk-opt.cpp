//===- llk-opt.cpp - mlir-opt with llk's dialect and passes ---------------===//

#include "llk/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  llk::registerAllDialects(registry);
  llk::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "llk optimizer driver\n", registry));
}
