// Inserting the hook call before a launch (seed 004 §4.6.2 step iii) and
// making the launch use its answer.
//
// Emitted before the launch, all with the launch's debug location:
//   store original grid, block, smem, variant, n_variants -> %params
//   load each size argument through the launch's void** args, widen to i64
//   call i32 @bigtune_launch_params(name, family, %sizes, n, %params)
//   load grid, block, smem, variant back; variant >= n_variants -> original
// and the launch's operands are replaced. Two allocas go to the entry block
// (no location: they are not part of the launch). The launch is tagged with
// !bigtune.launch so a second run of the pass leaves it alone.
//
// Variants: for cudaLaunchKernel and cuLaunchKernel the kernel operand becomes
// table[variant]. A CUDA 13 stub launch (__cudaLaunchKernel*, whose kernel is
// a cudaKernel_t handle that exists only for the stub's own kernel) of a
// kernel with several variants is replaced by cudaLaunchKernel(table[variant],
// ...) (cudaLaunchKernel_ptsz where the stubs use __cudaLaunchKernel_ptsz),
// the public entry that takes a host entry pointer. A single-variant
// kernel keeps its call and only gets new operands.
#include "BigtuneLaunch.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;

namespace bigtune {
namespace launchpass {
namespace {

constexpr const char* kHookName = "bigtune_launch_params";
constexpr const char* kParamsTypeName = "struct.bigtune_launch_params";

// Field numbers of bigtune_launch_params_t ({ i32 x 8, i64 }).
enum Field : unsigned { kGridX, kGridY, kGridZ, kBlockX, kBlockY, kBlockZ, kVariant, kNVariants,
                        kSharedBytes };

// The module's bigtune_launch_params_t when clang already defined it from
// launch_hook.h with the same fields (or only declared it: then it gets its
// body here); otherwise a type of our own.
StructType* params_type(LLVMContext& context) {
  Type* i32 = Type::getInt32Ty(context);
  SmallVector<Type*, 9> fields(8, i32);
  fields.push_back(Type::getInt64Ty(context));
  StructType* existing = StructType::getTypeByName(context, kParamsTypeName);
  if (existing && existing->isOpaque()) existing->setBody(fields);
  if (existing && existing->elements() == makeArrayRef(fields)) return existing;
  return StructType::create(context, fields, kParamsTypeName);
}

FunctionCallee hook(Module& module, StructType* params) {
  LLVMContext& context = module.getContext();
  Type* i8p = Type::getInt8PtrTy(context);
  FunctionType* type = FunctionType::get(
      Type::getInt32Ty(context),
      {i8p, i8p, Type::getInt64PtrTy(context), Type::getInt32Ty(context), params->getPointerTo()},
      false);
  return module.getOrInsertFunction(kHookName, type);
}

// Splits the (i64 x|y<<32, i32 z) lowering of a dim3 into three i32.
void split_dim3(IRBuilder<>& b, Value* xy, Value* z, Value* out[3]) {
  out[0] = b.CreateTrunc(xy, b.getInt32Ty());
  out[1] = b.CreateTrunc(b.CreateLShr(xy, 32), b.getInt32Ty());
  out[2] = z;
}

Value* join_xy(IRBuilder<>& b, Value* x, Value* y) {
  return b.CreateOr(b.CreateZExt(x, b.getInt64Ty()),
                    b.CreateShl(b.CreateZExt(y, b.getInt64Ty()), 32));
}

// cuLaunchKernel may pass its arguments in `extra` with kernelParams NULL.
// Reading sizes through NULL would crash, so the sizes then come from a
// constant array whose every entry points at a zero: the hook sees size 0.
Value* params_or_zeros(IRBuilder<>& b, Module& module, Value* params, const TunableMark& mark) {
  LLVMContext& context = module.getContext();
  Type* i8p = Type::getInt8PtrTy(context);
  unsigned entries = 1 + *std::max_element(mark.size_args.begin(), mark.size_args.end());
  auto* zero = module.getGlobalVariable("bigtune.zero", /*AllowInternal=*/true);
  if (!zero) {
    zero = new GlobalVariable(module, b.getInt64Ty(), /*isConstant=*/true,
                              GlobalValue::PrivateLinkage, b.getInt64(0), "bigtune.zero");
  }
  std::string name = "bigtune.no_params." + std::to_string(entries);
  auto* zeros = module.getGlobalVariable(name, /*AllowInternal=*/true);
  if (!zeros) {
    auto* type = ArrayType::get(i8p, entries);
    SmallVector<Constant*, 8> items(entries, ConstantExpr::getBitCast(zero, i8p));
    zeros = new GlobalVariable(module, type, /*isConstant=*/true, GlobalValue::PrivateLinkage,
                               ConstantArray::get(type, items), name);
  }
  Value* first = b.CreateConstInBoundsGEP2_64(zeros->getValueType(), zeros, 0, 0);
  Value* is_null = b.CreateIsNull(params);
  return b.CreateSelect(is_null, first, params);
}

}  // namespace

void rewrite_launch(const LaunchSite& site, const TunableMark& mark, HookStrings& strings) {
  CallBase* call = site.call;
  Function& function = *call->getFunction();
  Module& module = *function.getParent();
  LLVMContext& context = module.getContext();
  StructType* params_ty = params_type(context);
  const bool driver = site.api == LaunchApi::Driver;
  const unsigned n_sizes = mark.size_args.size();

  IRBuilder<> entry(&function.getEntryBlock(), function.getEntryBlock().getFirstInsertionPt());
  entry.SetCurrentDebugLocation(DebugLoc());
  AllocaInst* params = entry.CreateAlloca(params_ty, nullptr, "bigtune.params");
  AllocaInst* sizes =
      entry.CreateAlloca(ArrayType::get(entry.getInt64Ty(), n_sizes), nullptr, "bigtune.sizes");

  IRBuilder<> b(call);  // takes the launch's debug location
  auto field = [&](unsigned f) { return b.CreateStructGEP(params_ty, params, f); };

  // The original launch parameters, for the hook to keep or replace.
  Value* dims[6];
  Value* smem;
  if (driver) {
    for (unsigned i = 0; i < 6; ++i) dims[i] = call->getArgOperand(1 + i);
    smem = b.CreateZExt(call->getArgOperand(7), b.getInt64Ty());
  } else {
    split_dim3(b, call->getArgOperand(1), call->getArgOperand(2), dims);
    split_dim3(b, call->getArgOperand(3), call->getArgOperand(4), dims + 3);
    smem = call->getArgOperand(6);
  }
  for (unsigned i = 0; i < 6; ++i) b.CreateStore(dims[i], field(kGridX + i));
  b.CreateStore(b.getInt32(site.variant), field(kVariant));
  b.CreateStore(b.getInt32(mark.kernels.size()), field(kNVariants));
  b.CreateStore(smem, field(kSharedBytes));

  // The size arguments, read where the launch itself reads them.
  Value* args = call->getArgOperand(driver ? 9 : 5);
  Type* i8p = b.getInt8PtrTy();
  args = b.CreatePointerCast(args, i8p->getPointerTo());
  if (driver) args = params_or_zeros(b, module, args, mark);
  Value* sizes_ptr = b.CreateConstInBoundsGEP2_64(sizes->getAllocatedType(), sizes, 0, 0);
  for (unsigned k = 0; k < n_sizes; ++k) {
    Value* slot = b.CreateConstInBoundsGEP1_64(i8p, args, mark.size_args[k]);
    Value* arg = b.CreateLoad(i8p, slot);
    Type* int_ty = b.getIntNTy(8 * mark.size_bytes[k]);
    Value* value = b.CreateLoad(int_ty, b.CreatePointerCast(arg, int_ty->getPointerTo()));
    value = mark.size_signed[k] ? b.CreateSExt(value, b.getInt64Ty())
                                : b.CreateZExt(value, b.getInt64Ty());
    Value* size_slot =
        k == 0 ? sizes_ptr : b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), sizes_ptr, k);
    b.CreateStore(value, size_slot);
  }

  if (!strings.name) {
    strings.name = b.CreateGlobalStringPtr(mark.name, "bigtune.name");
    strings.family = b.CreateGlobalStringPtr(mark.family, "bigtune.family");
  }
  b.CreateCall(hook(module, params_ty),
               {strings.name, strings.family, sizes_ptr, b.getInt32(n_sizes), params});

  // The answer.
  Value* out[6];
  for (unsigned i = 0; i < 6; ++i) out[i] = b.CreateLoad(b.getInt32Ty(), field(kGridX + i));
  Value* out_smem = b.CreateLoad(b.getInt64Ty(), field(kSharedBytes));
  if (driver) {
    for (unsigned i = 0; i < 6; ++i) call->setArgOperand(1 + i, out[i]);
    call->setArgOperand(7, b.CreateTrunc(out_smem, b.getInt32Ty()));
  } else {
    call->setArgOperand(1, join_xy(b, out[0], out[1]));
    call->setArgOperand(2, out[2]);
    call->setArgOperand(3, join_xy(b, out[3], out[4]));
    call->setArgOperand(4, out[5]);
    call->setArgOperand(6, out_smem);
  }

  if (mark.kernels.size() > 1) {
    Value* variant = b.CreateLoad(b.getInt32Ty(), field(kVariant));
    Value* in_range = b.CreateICmpULT(variant, b.getInt32(mark.kernels.size()));
    variant = b.CreateSelect(in_range, variant, b.getInt32(site.variant));
    Value* table = b.CreatePointerCast(mark.table, i8p->getPointerTo());
    Value* entry_ptr = b.CreateInBoundsGEP(i8p, table, b.CreateZExt(variant, b.getInt64Ty()));
    Value* chosen = b.CreateLoad(i8p, entry_ptr, "bigtune.kernel");
    if (driver) {
      // The table holds the addresses of the CUfunction variables.
      Type* handle_ty = call->getArgOperand(0)->getType();
      chosen = b.CreateLoad(handle_ty, b.CreatePointerCast(chosen, handle_ty->getPointerTo()));
      call->setArgOperand(0, chosen);
    } else if (site.api == LaunchApi::Runtime) {
      call->setArgOperand(0, b.CreatePointerCast(chosen, call->getArgOperand(0)->getType()));
    } else if (isa<CallInst>(call)) {
      SmallVector<Value*, 8> operands(call->args());
      operands[0] = chosen;
      SmallVector<Type*, 8> types;
      for (Value* v : operands) types.push_back(v->getType());
      // Built with --default-stream per-thread, the stub's helper calls the
      // _ptsz entry; keep that stream semantics.
      const char* entry_name = module.getFunction("__cudaLaunchKernel_ptsz")
                                   ? "cudaLaunchKernel_ptsz"
                                   : "cudaLaunchKernel";
      FunctionCallee public_launch = module.getOrInsertFunction(
          entry_name, FunctionType::get(call->getType(), types, false));
      CallInst* replacement = b.CreateCall(public_launch, operands);
      replacement->setMetadata(kRewrittenTag, MDNode::get(context, {}));
      replacement->takeName(call);
      call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
      return;
    } else {
      report(module, /*is_error=*/false,
             "the CUDA 13 launch of '" + mark.name + "' in '" + function.getName().str() +
                 "' is an invoke: its variant stays the original one");
    }
  }
  call->setMetadata(kRewrittenTag, MDNode::get(context, {}));
}

}  // namespace launchpass
}  // namespace bigtune
