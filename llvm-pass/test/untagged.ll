; Launches the pass must leave byte-for-byte alone: an untagged kernel
; through the runtime and the driver API, a kernel the pass cannot identify
; (a pointer passed in), a launch inside a wrapper whose kernel is a
; parameter, and calls that only look like launches. The module has a mark,
; for a kernel that is never launched here, so the pass does look.
; RUN: %opt -passes=bigtune-launch -S %s -o %t.pass.ll
; RUN: %opt -passes=verify -S %s -o %t.plain.ll
; RUN: diff %t.plain.ll %t.pass.ll
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque
%struct.CUfunc_st = type opaque

@spec.tagged = private unnamed_addr constant [59 x i8] c"bigtune.tunable.v1;name=tagged;family=t.tagged;size_args=0\00"
@sig.tagged = private unnamed_addr constant [2 x i8] c"Q\00"
@table.tagged = internal constant [1 x i8*] [i8* bitcast (void (i64)* @tagged to i8*)]
@mark.tagged = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([59 x i8], [59 x i8]* @spec.tagged, i32 0, i32 0), i8* getelementptr inbounds ([2 x i8], [2 x i8]* @sig.tagged, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.tagged, i32 0, i32 0), i32 1 }
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (%struct.bigtune_tunable_mark* @mark.tagged to i8*)], section "llvm.metadata"
@g_untagged_fn = global %struct.CUfunc_st* null

; CHECK-NOT: @bigtune_launch_params
; CHECK-NOT: !bigtune.launch

define i32 @untagged_runtime(i8** %args, %struct.CUstream_st* %s) {
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i64)* @untagged to i8*), i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  ret i32 %r
}

define i32 @untagged_driver(i8** %args, %struct.CUstream_st* %s) {
  %f = load %struct.CUfunc_st*, %struct.CUfunc_st** @g_untagged_fn, align 8
  %r = call i32 @cuLaunchKernel(%struct.CUfunc_st* %f, i32 10, i32 1, i32 1, i32 256, i32 1, i32 1, i32 0, %struct.CUstream_st* %s, i8** %args, i8** null)
  ret i32 %r
}

define i32 @unknown_kernel(i8* %kernel, i8** %args, %struct.CUstream_st* %s) {
  %r = call i32 @cudaLaunchKernel(i8* %kernel, i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  ret i32 %r
}

define internal i32 @wrapper(i8* %kernel, i64 %g, i32 %gz, i64 %b, i32 %bz, i8** %args, i64 %smem, %struct.CUstream_st* %s) {
  %r = call i32 @cudaLaunchKernel(i8* %kernel, i64 %g, i32 %gz, i64 %b, i32 %bz, i8** %args, i64 %smem, %struct.CUstream_st* %s)
  ret i32 %r
}

define void @look_alikes(i8** %args) {
  call void @cudaLaunchKernelEx(i8* bitcast (void (i64)* @tagged to i8*))
  call void @tagged(i64 7)
  ret void
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare i32 @cuLaunchKernel(%struct.CUfunc_st*, i32, i32, i32, i32, i32, i32, i32, %struct.CUstream_st*, i8**, i8**)
declare void @cudaLaunchKernelEx(i8*)
declare void @tagged(i64)
declare void @untagged(i64)
