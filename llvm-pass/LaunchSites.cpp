// Recognising launch calls and the kernel each one launches.
//
// Callees, by name (C symbols) or by demangled base name (the C++ inline
// wrappers CUDA's headers put in front of them, which at -O0 are separate
// functions with the same operands):
//   Runtime:       cudaLaunchKernel, cudaLaunchKernel_ptsz, template
//                  cudaLaunchKernel<T>            kernel = host entry pointer
//   RuntimeHandle: __cudaLaunchKernel(_ptsz), __cudaLaunchKernel_helper
//                                                 kernel = cudaKernel_t loaded
//                                                 from a __cudaGetKernel'd variable
//   Driver:        cuLaunchKernel, cuLaunchKernel_ptsz
//                                                 kernel = CUfunction loaded
//                                                 from a global variable
// Operands are checked against the x86-64 SysV lowering clang 14 emits:
// each dim3 is an (i64 x|y<<32, i32 z) pair. Anything else is reported and
// left alone rather than guessed at.
#include "BigtuneLaunch.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"

#include <cstdlib>

using namespace llvm;

namespace bigtune {
namespace launchpass {
namespace {

std::string base_name(StringRef mangled) {
  if (!mangled.startswith("_Z")) return mangled.str();
  // The demangler keeps pointers into its input: keep it alive until done.
  std::string input = mangled.str();
  ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(input.c_str())) return {};
  size_t size = 0;
  char* buffer = demangler.getFunctionBaseName(nullptr, &size);
  std::string name = buffer ? buffer : "";
  std::free(buffer);
  return name;
}

bool launch_api(const Function& callee, LaunchApi& api) {
  std::string name = base_name(callee.getName());
  if (name == "cudaLaunchKernel" || name == "cudaLaunchKernel_ptsz") {
    api = LaunchApi::Runtime;
  } else if (name == "__cudaLaunchKernel" || name == "__cudaLaunchKernel_ptsz" ||
             name == "__cudaLaunchKernel_helper") {
    api = LaunchApi::RuntimeHandle;
  } else if (name == "cuLaunchKernel" || name == "cuLaunchKernel_ptsz") {
    api = LaunchApi::Driver;
  } else {
    return false;
  }
  return true;
}

bool is_int(const Value* v, unsigned bits) { return v->getType()->isIntegerTy(bits); }
bool is_ptr(const Value* v) { return v->getType()->isPointerTy(); }

// (kernel, i64, i32, i64, i32, void** args, i64 smem, stream)
bool runtime_shape(const CallBase& call) {
  if (call.arg_size() != 8) return false;
  auto op = [&](unsigned i) { return call.getArgOperand(i); };
  return is_ptr(op(0)) && is_int(op(1), 64) && is_int(op(2), 32) && is_int(op(3), 64) &&
         is_int(op(4), 32) && is_ptr(op(5)) && is_int(op(6), 64) && is_ptr(op(7));
}

// (CUfunction, 6 x i32, i32 smem, stream, void** params, void** extra)
bool driver_shape(const CallBase& call) {
  if (call.arg_size() != 11) return false;
  for (unsigned i = 1; i <= 7; ++i)
    if (!is_int(call.getArgOperand(i), 32)) return false;
  return is_ptr(call.getArgOperand(0)) && is_ptr(call.getArgOperand(8)) &&
         is_ptr(call.getArgOperand(9)) && is_ptr(call.getArgOperand(10));
}

// What the kernel operand stands for: a Function (runtime API), or the global
// variable it was loaded from (driver API CUfunction, CUDA 13 handle).
const Value* kernel_key(Value* operand) {
  Value* v = operand->stripPointerCasts();
  if (isa<Function>(v)) return v;
  if (auto* load = dyn_cast<LoadInst>(v))
    if (auto* var = dyn_cast<GlobalVariable>(load->getPointerOperand()->stripPointerCasts()))
      return var;
  return nullptr;
}

}  // namespace

std::vector<LaunchSite> find_launches(Function& function, const MarkIndex& index) {
  std::vector<LaunchSite> sites;
  if (index.marks.empty()) return sites;
  for (BasicBlock& block : function) {
    for (Instruction& inst : block) {
      auto* call = dyn_cast<CallBase>(&inst);
      if (!call || call->getMetadata(kRewrittenTag)) continue;
      Function* callee = call->getCalledFunction();
      LaunchApi api;
      if (!callee || call->arg_size() == 0 || !launch_api(*callee, api)) continue;
      const Value* key = kernel_key(call->getArgOperand(0));
      if (!key) continue;
      auto found = index.by_kernel.find(key);
      if (found == index.by_kernel.end() && api == LaunchApi::RuntimeHandle) {
        auto handle = index.handle_of.find(dyn_cast<GlobalVariable>(key));
        if (handle != index.handle_of.end()) found = index.by_kernel.find(handle->second);
      }
      if (found == index.by_kernel.end()) continue;  // not a tunable kernel
      bool shape_ok = api == LaunchApi::Driver ? driver_shape(*call) : runtime_shape(*call);
      const TunableMark& mark = index.marks[found->second.first];
      if (!shape_ok) {
        report(*function.getParent(), /*is_error=*/false,
               "launch of tunable kernel '" + mark.name + "' in '" + function.getName().str() +
                   "' has operands of an unexpected type (not the x86-64 lowering); "
                   "left unchanged");
        continue;
      }
      sites.push_back({call, api, found->second.first, found->second.second});
    }
  }
  return sites;
}

}  // namespace launchpass
}  // namespace bigtune
