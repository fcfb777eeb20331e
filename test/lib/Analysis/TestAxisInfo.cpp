//===- TestAxisInfo.cpp - print the contiguity analysis' facts ------------===//
//
// `llk-opt -test-print-axis-info` emits, for every integer and pointer value
// of each kernel, a remark with what AxisInfoAnalysis knows of it, so that
// test/Analysis can check the analysis with -verify-diagnostics (as Triton's
// test-print-alignment does). Op results are reported at their op, block
// arguments (loop counters, iteration values) at the op that owns the block.
//
//===----------------------------------------------------------------------===//

#include "llk/Analysis/AxisInfo.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace {

void printList(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> values) {
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
}

/// "contiguity = [..], divisibility = [..], constancy = [..], constant = c"
/// for a tile, "divisibility = d, constant = c" for a scalar.
std::string describe(const llk::AxisInfo &info, Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (isa<RankedTensorType>(type)) {
    os << "contiguity = ";
    printList(os, info.contiguity);
    os << ", divisibility = ";
    printList(os, info.divisibility);
    os << ", constancy = ";
    printList(os, info.constancy);
  } else {
    os << "divisibility = " << info.scalarDivisibility;
  }
  os << ", constant = ";
  if (info.constant)
    os << *info.constant;
  else
    os << "<none>";
  return text;
}

/// Whether the analysis models values of `type`: integers and pointers,
/// scalars or tiles.
bool isModeled(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return elem.isIntOrIndex() || isa<llk::tile::PtrType>(elem);
}

struct TestPrintAxisInfoPass
    : PassWrapper<TestPrintAxisInfoPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)

  StringRef getArgument() const override { return "test-print-axis-info"; }
  StringRef getDescription() const override {
    return "Print the contiguity, divisibility and constancy of every "
           "integer and pointer value as remarks";
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llk::AxisInfoAnalysis analysis(func);
    auto report = [&](Operation *at, Value value, const std::string &what) {
      if (isModeled(value.getType()))
        at->emitRemark() << what
                         << describe(analysis.get(value), value.getType());
    };
    auto numbered = [](const char *what, unsigned n) {
      return what + std::to_string(n) + ": ";
    };
    for (BlockArgument arg : func.getArguments())
      report(func, arg, numbered("argument #", arg.getArgNumber()));
    func.walk([&](Operation *op) {
      if (op != func.getOperation())
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              report(op, arg, numbered("block argument #", arg.getArgNumber()));
      for (OpResult result : op->getResults())
        report(op, result,
               op->getNumResults() == 1
                   ? std::string()
                   : numbered("result #", result.getResultNumber()));
    });
  }
};

} // namespace

namespace llk::test {
void registerTestAxisInfoPass() { PassRegistration<TestPrintAxisInfoPass>(); }
} // namespace llk::test
