// Reading BIGTUNE_TUNABLE* marks (include/bigtune/tunable.h) from a module.
// A mark is a constant global { i8* spec, i8* signature, i8** kernels,
// i32 n_kernels } whose spec starts with "bigtune.tunable.v1;". It is found by
// that prefix, never by the global's or the type's name, which compilers
// rename freely. Every mistake a user can make in a mark is reported here,
// once, with the kernel's name and the argument at fault.
#include "BigtuneLaunch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace bigtune {
namespace launchpass {
namespace {

constexpr StringRef kSpecPrefix = "bigtune.tunable.v1;";

// "file:line: " of the mark's declaration when debug info has it.
std::string where(const GlobalVariable& global) {
  SmallVector<DIGlobalVariableExpression*, 1> infos;
  global.getDebugInfo(infos);
  for (DIGlobalVariableExpression* info : infos) {
    if (DIGlobalVariable* var = info->getVariable())
      return (var->getFilename() + ":" + Twine(var->getLine()) + ": ").str();
  }
  return {};
}

// Width and signedness of a Python-struct integer code; false if not one.
bool integer_code(char code, unsigned& bytes, bool& is_signed) {
  switch (code) {
    case 'b': case 'B': bytes = 1; break;
    case 'h': case 'H': bytes = 2; break;
    case 'i': case 'I': bytes = 4; break;
    case 'q': case 'Q': bytes = 8; break;
    default: return false;
  }
  is_signed = code >= 'a' && code <= 'z';
  return true;
}

const char* code_meaning(char code) {
  switch (code) {
    case 'P': return "a pointer";
    case '?': return "bool";
    default: return "not an integer";
  }
}

// Parses spec and signature into `mark`; returns an error message or "".
std::string parse_spec(StringRef spec, TunableMark& mark) {
  StringRef size_list;
  bool has_size = false;
  SmallVector<StringRef, 4> fields;
  spec.drop_front(kSpecPrefix.size()).split(fields, ';', -1, false);
  for (StringRef field : fields) {
    auto [key, value] = field.split('=');
    if (key == "name") {
      mark.name = value.str();
    } else if (key == "family") {
      mark.family = value.str();
    } else if (key == "size_args") {
      size_list = value;
      has_size = true;
    }  // unknown keys are ignored: later versions may add fields
  }
  if (mark.name.empty()) return "the mark has no kernel name";
  if (mark.family.empty()) return "kernel '" + mark.name + "' has an empty variant family";
  if (!has_size || size_list.trim().empty())
    return "kernel '" + mark.name + "' names no size argument (size_args is empty)";
  SmallVector<StringRef, 4> items;
  size_list.split(items, ',');
  for (StringRef item : items) {
    unsigned index = 0;
    if (item.trim().getAsInteger(10, index))
      return "kernel '" + mark.name + "': size argument '" + item.trim().str() +
             "' is not a parameter index";
    if (index >= mark.signature.size())
      return "kernel '" + mark.name + "' is marked with size argument " + std::to_string(index) +
             ", but it has only " + std::to_string(mark.signature.size()) + " parameter" +
             (mark.signature.size() == 1 ? "" : "s");
    char code = mark.signature[index];
    unsigned bytes = 0;
    bool is_signed = false;
    if (!integer_code(code, bytes, is_signed))
      return "kernel '" + mark.name + "': size argument " + std::to_string(index) + " is " +
             code_meaning(code) + " (type code '" + std::string(1, code) +
             "'); a size must be an integer of 1, 2, 4 or 8 bytes";
    mark.size_args.push_back(index);
    mark.size_bytes.push_back(bytes);
    mark.size_signed.push_back(is_signed);
  }
  return {};
}

// Reads the variant table that field 2 points to; returns an error or "".
std::string read_table(Constant* field, uint64_t count, TunableMark& mark) {
  mark.table = field;
  auto* gep = dyn_cast<ConstantExpr>(field);
  GlobalVariable* table = nullptr;
  if (gep && gep->getOpcode() == Instruction::GetElementPtr)
    table = dyn_cast<GlobalVariable>(gep->getOperand(0));
  else
    table = dyn_cast<GlobalVariable>(field->stripPointerCasts());
  if (!table || !table->hasDefinitiveInitializer())
    return "kernel '" + mark.name + "': the variant table is not a constant array";
  auto* array = dyn_cast<ConstantArray>(table->getInitializer());
  if (!array || array->getNumOperands() != count || count == 0)
    return "kernel '" + mark.name + "': the variant table does not hold " +
           std::to_string(count) + " kernels";
  for (Value* entry : array->operands()) {
    auto* kernel = dyn_cast<Constant>(entry->stripPointerCasts());
    if (!isa<Function>(kernel) && !isa<GlobalVariable>(kernel))
      return "kernel '" + mark.name + "': a variant table entry is not a kernel or a variable";
    mark.kernels.push_back(kernel);
  }
  return {};
}

// CUDA 13 host stubs launch through a cudaKernel_t that
// __cudaGetKernel(&handle_var, (const void*)kernel) fills once.
void index_cuda13_handles(Module& module, MarkIndex& index) {
  Function* get_kernel = module.getFunction("__cudaGetKernel");
  if (!get_kernel) return;
  for (User* user : get_kernel->users()) {
    auto* call = dyn_cast<CallBase>(user);
    if (!call || call->getCalledOperand() != get_kernel || call->arg_size() != 2) continue;
    auto* var = dyn_cast<GlobalVariable>(call->getArgOperand(0)->stripPointerCasts());
    auto* kernel = dyn_cast<Function>(call->getArgOperand(1)->stripPointerCasts());
    if (var && kernel) index.handle_of[var] = kernel;
  }
}

}  // namespace

MarkIndex read_marks(Module& module) {
  MarkIndex index;
  for (GlobalVariable& global : module.globals()) {
    if (!global.hasDefinitiveInitializer()) continue;
    auto* init = dyn_cast<ConstantStruct>(global.getInitializer());
    if (!init || init->getNumOperands() != 4) continue;
    StringRef spec;
    if (!getConstantStringInfo(init->getOperand(0), spec) || !spec.startswith(kSpecPrefix))
      continue;
    TunableMark mark;
    mark.global = &global;
    StringRef signature;
    std::string error;
    auto* count = dyn_cast<ConstantInt>(init->getOperand(3));
    if (!getConstantStringInfo(init->getOperand(1), signature)) {
      error = "the mark's signature is not a constant string";
    } else {
      mark.signature = signature.str();
      error = parse_spec(spec, mark);
    }
    if (error.empty() && !count) error = "the mark's kernel count is not a constant";
    if (error.empty()) error = read_table(init->getOperand(2), count->getZExtValue(), mark);
    if (!error.empty()) {
      report(module, /*is_error=*/true,
             where(global) + error + " (in tunable mark '" + global.getName().str() + "')");
      continue;
    }
    unsigned mark_index = index.marks.size();
    for (unsigned v = 0; v < mark.kernels.size(); ++v) {
      auto [it, inserted] = index.by_kernel.try_emplace(mark.kernels[v], mark_index, v);
      if (!inserted)
        report(module, /*is_error=*/false,
               where(global) + "kernel '" + mark.name + "' (variant " + std::to_string(v) +
                   ") is already in the tunable mark of '" + index.marks[it->second.first].name +
                   "'; its launches use that mark");
    }
    index.marks.push_back(std::move(mark));
  }
  if (!index.marks.empty()) index_cuda13_handles(module, index);
  return index;
}

}  // namespace launchpass
}  // namespace bigtune
