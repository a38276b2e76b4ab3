/*
 * plugin/deepprof_llvm.cc - an LLVM pass plugin (clang -fpass-plugin=) for deepprof's two
 * methods under clang, run at the end of the optimisation pipeline (after inlining).
 *
 * The stubs (dp_stubs_*): for each function clang gives a call of __fentry__ at entry
 * (cc1's -pg -mfentry: the "fentry-call" attribute, which no_instrument_function
 * prevents), a call of the runtime's __deepprof_exit before every `ret`, or of
 * __deepprof_tail(callee) before a call in tail position, which the code generator then
 * emits as a jump; both with the preserve_all convention, so that the function's code
 * keeps its registers around them, and through the GOT (no lazy binding, whose resolver
 * does not keep them all). The function keeps its frame pointer: the stubs find the frame
 * in %rbp.
 *
 * The hooks: keeps tail calls under clang's -finstrument-functions-after-inlining, as
 * deepprof_gcc.cc does for gcc: clang puts the exit hook before every `ret`, which makes
 * a call in tail position a real call. Run before clang's own post-inlining instrumenter
 * (clang registers it after the plugins), this pass takes over the exit hooks: it removes
 * the function's "instrument-function-exit-inlined" attribute (clang still inserts the
 * enter hook), puts __cyg_profile_func_exit before every `ret`, except after a `tail
 * call` whose result the `ret` returns: there the runtime's __deepprof_func_tail_exit(fn,
 * return address, callee) goes before the call.
 *
 * Used by `deepprof cc` (src/cli/cmd_cc.c) with the clang of the LLVM it was built
 * against; docs/internals/runtime.md.
 */
// clang-format off
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
// clang-format on

using namespace llvm;

namespace
{

const char dp_exit_attr[] = "instrument-function-exit-inlined";

/* The call in tail position right before @ret (a `tail` or `musttail` call whose value,
 * if any, @ret returns, possibly through a no-op cast), or nullptr. Calls of the
 * runtime's API are never kept. */
CallInst *dp_tail_before(ReturnInst *ret)
{
	Instruction *prev = ret->getPrevNode();
	Value *rv = ret->getReturnValue();
	CallInst *call;
	Function *callee;

	if (auto *cast = dyn_cast_or_null<CastInst>(prev)) {
		if (!cast->isNoopCast(ret->getModule()->getDataLayout()) || rv != cast)
			return nullptr;
		rv = cast->getOperand(0);
		prev = cast->getPrevNode();
	}
	call = dyn_cast_or_null<CallInst>(prev);
	if (!call || !(call->isTailCall() || call->isMustTailCall()) || call->isInlineAsm())
		return nullptr;
	callee = call->getCalledFunction();
	/* not the runtime's API, nor __cxa_end_catch: the caught exception's destructor,
	   which it runs, belongs to the handler's context (deepprof_gcc.cc, dp_keep_tail) */
	if (callee && (callee->isIntrinsic() || callee->getName().startswith("deepprof_") ||
		       callee->getName().startswith("__cyg_profile") ||
		       callee->getName().startswith("__deepprof") ||
		       callee->getName() == "__cxa_end_catch"))
		return nullptr;
	return rv && rv != call ? nullptr : call;
}

/*
 * A return block made of PHIs and `ret` only, reached from blocks that end with a tail
 * call and a branch to it: give each such block its own `ret` of the call, so that the
 * call is right before a return (the code generator duplicates such returns itself, but
 * only later, after the exit hook would be in the way).
 */
void dp_split_returns(Function &F)
{
	SmallVector<BranchInst *, 8> todo;

	for (BasicBlock &bb : F) {
		auto *br = dyn_cast<BranchInst>(bb.getTerminator());
		CallInst *call;

		if (!br || br->isConditional() ||
		    !(call = dyn_cast_or_null<CallInst>(br->getPrevNode())) ||
		    !(call->isTailCall()))
			continue;
		BasicBlock *r = br->getSuccessor(0);
		auto *ret = dyn_cast<ReturnInst>(r->getTerminator());

		if (!ret || r->getFirstNonPHI() != ret)
			continue;
		Value *rv = ret->getReturnValue();
		auto *phi = rv ? dyn_cast<PHINode>(rv) : nullptr;

		if (rv &&
		    (!phi || phi->getParent() != r || phi->getIncomingValueForBlock(&bb) != call))
			continue;
		if (!rv && !call->getType()->isVoidTy())
			continue;
		todo.push_back(br);
	}
	for (BranchInst *br : todo) {
		BasicBlock *bb = br->getParent(), *r = br->getSuccessor(0);
		Value *rv = cast<ReturnInst>(r->getTerminator())->getReturnValue();
		Value *v = rv ? cast<PHINode>(rv)->getIncomingValueForBlock(bb) : nullptr;

		r->removePredecessor(bb);
		ReturnInst::Create(F.getContext(), v, br);
		br->eraseFromParent();
	}
}

/* A declaration of the stub @name (void, taking @args), preserve_all, not lazily bound. */
FunctionCallee dp_stub_decl(Module &M, const char *name, ArrayRef<Type *> args)
{
	LLVMContext &C = M.getContext();
	FunctionCallee fc =
		M.getOrInsertFunction(name, FunctionType::get(Type::getVoidTy(C), args, false));

	if (auto *f = dyn_cast<Function>(fc.getCallee())) {
		f->setCallingConv(CallingConv::PreserveAll);
		f->addFnAttr(Attribute::NoUnwind);
		f->addFnAttr(Attribute::NonLazyBind);
	}
	return fc;
}

/* The stubs' exits of @F, a function with the fentry call: __deepprof_exit() before every
 * `ret`, __deepprof_tail(callee) before a tail call's instead. */
PreservedAnalyses dp_stubs_instrument(Function &F)
{
	Module &M = *F.getParent();
	Type *vp = Type::getInt8PtrTy(M.getContext());
	FunctionCallee exit_fn = dp_stub_decl(M, "__deepprof_exit", {});
	FunctionCallee tail_fn = dp_stub_decl(M, "__deepprof_tail", {vp});
	SmallVector<ReturnInst *, 8> rets;

	dp_split_returns(F);
	F.addFnAttr("frame-pointer", "all");
	for (BasicBlock &bb : F)
		if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
			rets.push_back(ret);
	for (ReturnInst *ret : rets) {
		CallInst *tail = dp_tail_before(ret);
		IRBuilder<> b(tail ? (Instruction *)tail : (Instruction *)ret);
		CallInst *c;

		if (tail) {
			Value *callee = tail->getCalledOperand();
			Value *to = callee->getType()->isPointerTy()
					    ? b.CreateBitCast(callee, vp)
					    : (Value *)ConstantPointerNull::get(cast<PointerType>(vp));
			c = b.CreateCall(tail_fn, {to});
		} else {
			c = b.CreateCall(exit_fn, {});
		}
		c->setCallingConv(CallingConv::PreserveAll);
	}
	return PreservedAnalyses::none();
}

struct DpTailPass : PassInfoMixin<DpTailPass> {
	PreservedAnalyses run(Function &F, FunctionAnalysisManager &)
	{
		if (!F.isDeclaration() &&
		    F.getFnAttribute("fentry-call").getValueAsString() == "true")
			return dp_stubs_instrument(F);
		if (F.isDeclaration() || !F.hasFnAttribute(dp_exit_attr))
			return PreservedAnalyses::all();
		Module &M = *F.getParent();
		LLVMContext &C = M.getContext();
		Type *vp = Type::getInt8PtrTy(C);
		FunctionCallee exit_fn =
			M.getOrInsertFunction(F.getFnAttribute(dp_exit_attr).getValueAsString(),
					      Type::getVoidTy(C), vp, vp);
		FunctionCallee tail_fn = M.getOrInsertFunction("__deepprof_func_tail_exit",
							       Type::getVoidTy(C), vp, vp, vp);
		Function *ra = Intrinsic::getDeclaration(&M, Intrinsic::returnaddress);
		SmallVector<ReturnInst *, 8> rets;

		dp_split_returns(F);
		F.removeFnAttr(dp_exit_attr);
		for (BasicBlock &bb : F)
			if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
				rets.push_back(ret);
		for (ReturnInst *ret : rets) {
			CallInst *tail = dp_tail_before(ret);
			IRBuilder<> b(tail ? (Instruction *)tail : (Instruction *)ret);
			Value *self = b.CreateBitCast(&F, vp);
			Value *site = b.CreateCall(ra, {b.getInt32(0)});

			if (tail) {
				Value *callee = tail->getCalledOperand();
				Value *to = callee->getType()->isPointerTy()
						    ? b.CreateBitCast(callee, vp)
						    : (Value *)ConstantPointerNull::get(
							      cast<PointerType>(vp));
				b.CreateCall(tail_fn, {self, site, to});
			} else {
				b.CreateCall(exit_fn, {self, site});
			}
		}
		return PreservedAnalyses::none();
	}
};

/* At -O0: only the stubs' exits (the hooks' are clang's own there). Required: -O0 makes
 * every function optnone, which the pass manager otherwise skips. */
struct DpStubsO0Pass : PassInfoMixin<DpStubsO0Pass> {
	static bool isRequired()
	{
		return true;
	}
	PreservedAnalyses run(Function &F, FunctionAnalysisManager &)
	{
		if (!F.isDeclaration() &&
		    F.getFnAttribute("fentry-call").getValueAsString() == "true")
			return dp_stubs_instrument(F);
		return PreservedAnalyses::all();
	}
};

} // namespace

/* The plugin's entry point: the pass at the end of the optimisation pipeline, which clang
 * does not run at -O0; there (no inlining, no tail calls) at its start, for the stubs'
 * exits, which nothing else inserts. */
extern "C" __attribute__((visibility("default"))) LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo
llvmGetPassPluginInfo()
{
	return {LLVM_PLUGIN_API_VERSION, "deepprof", "1", [](PassBuilder &PB) {
			PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
							      OptimizationLevel) {
				MPM.addPass(createModuleToFunctionPassAdaptor(DpTailPass()));
			});
			PB.registerPipelineStartEPCallback([](ModulePassManager &MPM,
							      OptimizationLevel level) {
				if (level == OptimizationLevel::O0)
					MPM.addPass(createModuleToFunctionPassAdaptor(
						DpStubsO0Pass()));
			});
		}};
}
