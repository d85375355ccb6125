; nvcc 13 host stubs (__device_stub__<kernel>, as clang 14 compiles nvcc's
; .cudafe1.cpp) launch through a cudaKernel_t that __cudaGetKernel(&handle,
; kernel) fills once, and __cudaLaunchKernel_helper(handle, dim3, dim3, args,
; smem, stream). The pass maps the handle variable back to the kernel.
; - single-variant kernel: the helper call stays, with the hook's dimensions;
; - kernel with two variants: the helper call becomes
;   cudaLaunchKernel(table[variant], ...), since the stub's handle only
;   exists for its own kernel;
; - the helper's own __cudaLaunchKernel(%kernel param) is not a tagged launch.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUkern_st = type opaque
%struct.CUstream_st = type opaque

@spec.one = private unnamed_addr constant [56 x i8] c"bigtune.tunable.v1;name=single;family=f.one;size_args=1\00"
@spec.two = private unnamed_addr constant [55 x i8] c"bigtune.tunable.v1;name=multi;family=f.two;size_args=1\00"
@sig = private unnamed_addr constant [3 x i8] c"PQ\00"
@table.one = linkonce_odr constant [1 x i8*] [i8* bitcast (void (i32*, i64)* @_Z6singlePjm to i8*)]
@table.two = internal constant [2 x i8*] [i8* bitcast (void (i32*, i64)* @_Z5multiILi1EEvPjm to i8*), i8* bitcast (void (i32*, i64)* @_Z5multiILi2EEvPjm to i8*)]
@mark.one = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([56 x i8], [56 x i8]* @spec.one, i32 0, i32 0), i8* getelementptr inbounds ([3 x i8], [3 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.one, i32 0, i32 0), i32 1 }
@mark.two = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([55 x i8], [55 x i8]* @spec.two, i32 0, i32 0), i8* getelementptr inbounds ([3 x i8], [3 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([2 x i8*], [2 x i8*]* @table.two, i32 0, i32 0), i32 2 }
@handle.single = internal global %struct.CUkern_st* null, align 8
@handle.multi2 = internal global %struct.CUkern_st* null, align 8

define void @_Z6singlePjm(i32* %c, i64 %n) {
  call void @__device_stub__Z6singlePjm(i32* %c, i64 %n)
  ret void
}

define void @__device_stub__Z6singlePjm(i32* %c, i64 %n) {
; CHECK-LABEL: define void @__device_stub__Z6singlePjm(
; CHECK:         %h = load %struct.CUkern_st*, %struct.CUkern_st** @handle.single, align 8
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         call i32 @_ZL25__cudaLaunchKernel_helperP9CUkern_st4dim3S1_PPvmP11CUstream_st(%struct.CUkern_st* %h, i64 {{%.*}}, i32 {{%.*}}, i64 {{%.*}}, i32 {{%.*}}, i8** %args0, i64 {{%.*}}, %struct.CUstream_st* null), !bigtune.launch
; CHECK-NEXT:    ret void
  %c.addr = alloca i32*, align 8
  %n.addr = alloca i64, align 8
  %args = alloca [2 x i8*], align 16
  store i32* %c, i32** %c.addr, align 8
  store i64 %n, i64* %n.addr, align 8
  %args0 = getelementptr inbounds [2 x i8*], [2 x i8*]* %args, i64 0, i64 0
  %a0 = bitcast i32** %c.addr to i8*
  store i8* %a0, i8** %args0, align 8
  %args1 = getelementptr inbounds [2 x i8*], [2 x i8*]* %args, i64 0, i64 1
  %a1 = bitcast i64* %n.addr to i8*
  store i8* %a1, i8** %args1, align 8
  %ok = call i32 @__cudaGetKernel(%struct.CUkern_st** @handle.single, i8* bitcast (void (i32*, i64)* @_Z6singlePjm to i8*))
  %h = load %struct.CUkern_st*, %struct.CUkern_st** @handle.single, align 8
  %r = call i32 @_ZL25__cudaLaunchKernel_helperP9CUkern_st4dim3S1_PPvmP11CUstream_st(%struct.CUkern_st* %h, i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args0, i64 0, %struct.CUstream_st* null)
  ret void
}

define void @__device_stub__Z5multiILi2EEvPjm(i32* %c, i64 %n) {
; CHECK-LABEL: define void @__device_stub__Z5multiILi2EEvPjm(
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         [[V:%.*]] = select i1 {{%.*}}, i32 {{%.*}}, i32 1
; CHECK-NEXT:    [[I:%.*]] = zext i32 [[V]] to i64
; CHECK-NEXT:    [[E:%.*]] = getelementptr inbounds i8*, i8** getelementptr inbounds ([2 x i8*], [2 x i8*]* @table.two, i32 0, i32 0), i64 [[I]]
; CHECK-NEXT:    [[K:%.*]] = load i8*, i8** [[E]], align 8
; CHECK-NEXT:    %r = call i32 @cudaLaunchKernel(i8* [[K]], i64 {{%.*}}, i32 {{%.*}}, i64 {{%.*}}, i32 {{%.*}}, i8** %args0, i64 {{%.*}}, %struct.CUstream_st* null), !bigtune.launch
; CHECK-NEXT:    ret void
  %c.addr = alloca i32*, align 8
  %n.addr = alloca i64, align 8
  %args = alloca [2 x i8*], align 16
  store i32* %c, i32** %c.addr, align 8
  store i64 %n, i64* %n.addr, align 8
  %args0 = getelementptr inbounds [2 x i8*], [2 x i8*]* %args, i64 0, i64 0
  %a0 = bitcast i32** %c.addr to i8*
  store i8* %a0, i8** %args0, align 8
  %args1 = getelementptr inbounds [2 x i8*], [2 x i8*]* %args, i64 0, i64 1
  %a1 = bitcast i64* %n.addr to i8*
  store i8* %a1, i8** %args1, align 8
  %ok = call i32 @__cudaGetKernel(%struct.CUkern_st** @handle.multi2, i8* bitcast (void (i32*, i64)* @_Z5multiILi2EEvPjm to i8*))
  %h = load %struct.CUkern_st*, %struct.CUkern_st** @handle.multi2, align 8
  %r = call i32 @_ZL25__cudaLaunchKernel_helperP9CUkern_st4dim3S1_PPvmP11CUstream_st(%struct.CUkern_st* %h, i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args0, i64 0, %struct.CUstream_st* null)
  ret void
}

; The helper forwards its parameters: nothing here is a tagged launch.
define internal i32 @_ZL25__cudaLaunchKernel_helperP9CUkern_st4dim3S1_PPvmP11CUstream_st(%struct.CUkern_st* %k, i64 %g, i32 %gz, i64 %b, i32 %bz, i8** %args, i64 %smem, %struct.CUstream_st* %s) {
; CHECK-LABEL: define internal i32 @_ZL25__cudaLaunchKernel_helperP9CUkern_st4dim3S1_PPvmP11CUstream_st(
; CHECK-NEXT:    %r = call i32 @__cudaLaunchKernel(%struct.CUkern_st* %k, i64 %g, i32 %gz, i64 %b, i32 %bz, i8** %args, i64 %smem, %struct.CUstream_st* %s){{$}}
; CHECK-NEXT:    ret i32 %r
  %r = call i32 @__cudaLaunchKernel(%struct.CUkern_st* %k, i64 %g, i32 %gz, i64 %b, i32 %bz, i8** %args, i64 %smem, %struct.CUstream_st* %s)
  ret i32 %r
}

; CHECK: declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)

declare i32 @__cudaGetKernel(%struct.CUkern_st**, i8*)
declare i32 @__cudaLaunchKernel(%struct.CUkern_st*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @_Z5multiILi1EEvPjm(i32*, i64)
declare void @_Z5multiILi2EEvPjm(i32*, i64)
