; Several launches in one function: two launches of one tagged kernel, an
; untagged one between them, and a second tagged kernel whose two size
; arguments are a signed int (sign-extended) and an unsigned short
; (zero-extended). Each tagged launch gets its own hook call just before it;
; the kernel names and families are emitted once per mark.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec.a = private unnamed_addr constant [49 x i8] c"bigtune.tunable.v1;name=ka;family=fa;size_args=1\00"
@sig.a = private unnamed_addr constant [3 x i8] c"PQ\00"
@table.a = internal constant [1 x i8*] [i8* bitcast (void (i32*, i64)* @ka to i8*)]
@mark.a = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([49 x i8], [49 x i8]* @spec.a, i32 0, i32 0), i8* getelementptr inbounds ([3 x i8], [3 x i8]* @sig.a, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.a, i32 0, i32 0), i32 1 }
@spec.b = private unnamed_addr constant [51 x i8] c"bigtune.tunable.v1;name=kb;family=fb;size_args=2,0\00"
@sig.b = private unnamed_addr constant [4 x i8] c"HPi\00"
@table.b = internal constant [1 x i8*] [i8* bitcast (void (i16, i32*, i32)* @kb to i8*)]
@mark.b = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([51 x i8], [51 x i8]* @spec.b, i32 0, i32 0), i8* getelementptr inbounds ([4 x i8], [4 x i8]* @sig.b, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.b, i32 0, i32 0), i32 1 }

; CHECK-DAG: @[[NAME_A:bigtune.name[.0-9]*]] = private unnamed_addr constant [3 x i8] c"ka\00"
; CHECK-DAG: @[[NAME_B:bigtune.name[.0-9]*]] = private unnamed_addr constant [3 x i8] c"kb\00"

define void @several(i8** %args_a, i8** %args_b, %struct.CUstream_st* %s) {
; CHECK-LABEL: define void @several(
; CHECK:       call i32 @bigtune_launch_params(i8* getelementptr inbounds ([3 x i8], [3 x i8]* @[[NAME_A]], i32 0, i32 0), {{.*}}, i32 1,
; CHECK:       call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @ka to i8*), {{.*}} !bigtune.launch
; CHECK-NEXT:  call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @other to i8*), i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args_a, i64 0, %struct.CUstream_st* %s){{$}}
; CHECK:       call i32 @bigtune_launch_params(i8* getelementptr inbounds ([3 x i8], [3 x i8]* @[[NAME_A]], i32 0, i32 0), {{.*}}, i32 1,
; CHECK:       call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @ka to i8*), {{.*}} !bigtune.launch
; CHECK:       [[SLOT2:%.*]] = getelementptr inbounds i8*, i8** %args_b, i64 2
; CHECK-NEXT:  [[ARG2:%.*]] = load i8*, i8** [[SLOT2]], align 8
; CHECK-NEXT:  [[P2:%.*]] = bitcast i8* [[ARG2]] to i32*
; CHECK-NEXT:  [[V2:%.*]] = load i32, i32* [[P2]], align 4
; CHECK-NEXT:  [[W2:%.*]] = sext i32 [[V2]] to i64
; CHECK-NEXT:  store i64 [[W2]], i64* [[S0:%.*]], align 8
; CHECK-NEXT:  [[SLOT0:%.*]] = getelementptr inbounds i8*, i8** %args_b, i64 0
; CHECK-NEXT:  [[ARG0:%.*]] = load i8*, i8** [[SLOT0]], align 8
; CHECK-NEXT:  [[P0:%.*]] = bitcast i8* [[ARG0]] to i16*
; CHECK-NEXT:  [[V0:%.*]] = load i16, i16* [[P0]], align 2
; CHECK-NEXT:  [[W0:%.*]] = zext i16 [[V0]] to i64
; CHECK-NEXT:  [[S1:%.*]] = getelementptr inbounds i64, i64* [[S0]], i64 1
; CHECK-NEXT:  store i64 [[W0]], i64* [[S1]], align 8
; CHECK-NEXT:  call i32 @bigtune_launch_params(i8* getelementptr inbounds ([3 x i8], [3 x i8]* @[[NAME_B]], i32 0, i32 0), {{.*}}, i64* [[S0]], i32 2,
; CHECK:       call i32 @cudaLaunchKernel(i8* bitcast (void (i16, i32*, i32)* @kb to i8*), {{.*}} !bigtune.launch
; CHECK-NOT:   @bigtune_launch_params(
; CHECK:       ret void
  %1 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @ka to i8*), i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args_a, i64 0, %struct.CUstream_st* %s)
  %2 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @other to i8*), i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args_a, i64 0, %struct.CUstream_st* %s)
  %3 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @ka to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args_a, i64 0, %struct.CUstream_st* %s)
  %4 = call i32 @cudaLaunchKernel(i8* bitcast (void (i16, i32*, i32)* @kb to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args_b, i64 64, %struct.CUstream_st* %s)
  ret void
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @ka(i32*, i64)
declare void @kb(i16, i32*, i32)
declare void @other(i32*, i64)
