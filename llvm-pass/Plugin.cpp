// The bigtune-launch pass and its plugin entry point (LLVM 14 new pass
// manager). The logic lives in run_on_module; the pass only maps "changed" to
// the preserved analyses.
//
//   opt -load-pass-plugin=libBigtuneLaunchPass.so -passes=bigtune-launch
//   clang++ -fpass-plugin=libBigtuneLaunchPass.so        (pipeline start)
//   nvcc -ccbin clang++-14 -Xcompiler -fpass-plugin=...  (host compilation)
//
// It runs at the start of the optimisation pipeline, before inlining, so that
// each nvcc host stub and its launch are still separate and the marks are
// untouched; isRequired() keeps it in -O0 pipelines, where every function is
// optnone.
#include "BigtuneLaunch.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace bigtune {
namespace launchpass {
namespace {

class LaunchDiagnostic : public DiagnosticInfo {
 public:
  LaunchDiagnostic(DiagnosticSeverity severity, const std::string& message)
      : DiagnosticInfo(kind(), severity), message_(message) {}
  void print(DiagnosticPrinter& printer) const override {
    printer << "bigtune-launch: " << message_;
  }
  static int kind() {
    static const int k = getNextAvailablePluginDiagnosticKind();
    return k;
  }

 private:
  std::string message_;
};

bool run_on_module(Module& module) {
  MarkIndex index = read_marks(module);
  std::vector<HookStrings> strings(index.marks.size());
  bool changed = false;
  for (Function& function : module) {
    if (function.isDeclaration()) continue;
    for (const LaunchSite& site : find_launches(function, index)) {
      rewrite_launch(site, index.marks[site.mark], strings[site.mark]);
      changed = true;
    }
  }
  return changed;
}

struct LaunchPass : PassInfoMixin<LaunchPass> {
  PreservedAnalyses run(Module& module, ModuleAnalysisManager&) {
    // Only straight-line code is added before calls, except that a CUDA 13
    // stub launch of a multi-variant kernel is replaced by another call:
    // neither changes a CFG.
    if (!run_on_module(module)) return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
  }
  static bool isRequired() { return true; }
};

void register_callbacks(PassBuilder& builder) {
  builder.registerPipelineParsingCallback(
      [](StringRef name, ModulePassManager& passes, ArrayRef<PassBuilder::PipelineElement>) {
        if (name != "bigtune-launch") return false;
        passes.addPass(LaunchPass());
        return true;
      });
  builder.registerPipelineStartEPCallback(
      [](ModulePassManager& passes, OptimizationLevel) { passes.addPass(LaunchPass()); });
}

}  // namespace

void report(Module& module, bool is_error, const std::string& message) {
  module.getContext().diagnose(LaunchDiagnostic(is_error ? DS_Error : DS_Warning, message));
}

}  // namespace launchpass
}  // namespace bigtune

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "BigtuneLaunchPass", "0.1.0",
          bigtune::launchpass::register_callbacks};
}
