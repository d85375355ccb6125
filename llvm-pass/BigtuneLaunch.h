// The bigtune-launch pass: KLARAPTOR's IO-builder (seed 004 §4.6.2) for
// LLVM's new pass manager. Before each host-side launch of a kernel marked
// tunable (include/bigtune/tunable.h) it inserts a call to the C hook
// bigtune_launch_params (include/bigtune/launch_hook.h), passing the kernel's
// name, family and run-time size arguments, and launches with the grid,
// block, dynamic shared memory and variant the hook returns.
//
// Where the seed's pass rewrote driver-API launches produced by a source
// preprocessor, this one works on whatever the host compiler emits: calls to
// cudaLaunchKernel (and its C++ template wrapper), CUDA 13's
// __cudaLaunchKernel / __cudaLaunchKernel_helper used by nvcc's host stubs,
// and cuLaunchKernel. The size arguments are read through the launch's
// argument array (void** args), so the same code serves all three and any
// optimisation level.
//
// Files: TunableMarks.cpp reads the marks, LaunchSites.cpp recognises launch
// calls, LaunchRewrite.cpp inserts the hook call, Plugin.cpp is the pass and
// its registration.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace bigtune {
namespace launchpass {

// One BIGTUNE_TUNABLE* mark, as read from the module.
struct TunableMark {
  llvm::GlobalVariable* global = nullptr;  // the mark itself
  std::string name;                        // "name=" of the spec
  std::string family;                      // "family=" of the spec
  std::string signature;                   // one code per kernel parameter
  llvm::SmallVector<unsigned, 4> size_args;   // parameter indices
  llvm::SmallVector<unsigned, 4> size_bytes;  // their widths (1, 2, 4, 8)
  llvm::SmallVector<bool, 4> size_signed;
  llvm::Constant* table = nullptr;  // i8** to the variant table (field 2)
  llvm::SmallVector<llvm::Constant*, 4> kernels;  // table entries, casts stripped
};

// The marks of a module, indexed by what a launch's kernel operand resolves to.
struct MarkIndex {
  std::vector<TunableMark> marks;
  // Function (runtime API) or GlobalVariable (driver API CUfunction) ->
  // (mark index, variant index).
  llvm::DenseMap<const llvm::Value*, std::pair<unsigned, unsigned>> by_kernel;
  // CUDA 13 stubs: handle variable filled by __cudaGetKernel(&var, kernel).
  llvm::DenseMap<const llvm::GlobalVariable*, const llvm::Function*> handle_of;
};

// Reads every mark in `module`. A wrongly written mark (unknown size
// argument, non-integer size, malformed spec) is reported as an error
// diagnostic naming the kernel and the argument, and left out of the index.
MarkIndex read_marks(llvm::Module& module);

enum class LaunchApi {
  Runtime,        // cudaLaunchKernel(const void* func, dim3, dim3, void**, size_t, stream)
  RuntimeHandle,  // __cudaLaunchKernel(cudaKernel_t, same operands) (CUDA 13 stubs)
  Driver,         // cuLaunchKernel(CUfunction, 6 x unsigned, unsigned smem, stream, void**, void**)
};

struct LaunchSite {
  llvm::CallBase* call = nullptr;
  LaunchApi api = LaunchApi::Runtime;
  unsigned mark = 0;     // index into MarkIndex::marks
  unsigned variant = 0;  // which table entry the original launch uses
};

// The launches of marked kernels in `function` that were not rewritten yet.
// A marked kernel launched through a call whose operands do not have the
// x86-64 shape the rewriter expects gets a warning and is not returned.
std::vector<LaunchSite> find_launches(llvm::Function& function, const MarkIndex& index);

// The kernel-name and family strings of one mark, made on first use.
struct HookStrings {
  llvm::Constant* name = nullptr;
  llvm::Constant* family = nullptr;
};

// Inserts the hook call before `site` and makes the launch use its answer.
void rewrite_launch(const LaunchSite& site, const TunableMark& mark, HookStrings& strings);

// Metadata kind that tags a rewritten launch, so a second run skips it.
inline constexpr const char* kRewrittenTag = "bigtune.launch";

// Error/warning reporting through the module's LLVMContext (clang prints
// them as compiler diagnostics; opt as "error: ...").
void report(llvm::Module& module, bool is_error, const std::string& message);

}  // namespace launchpass
}  // namespace bigtune
