; cudaLaunchKernel of one instantiation of a kernel marked with
; BIGTUNE_TUNABLE_VARIANTS (a table of three): the hook is told the launch's
; own variant (2) and the table size (3); the launch then uses
; table[variant], with a variant out of range falling back to the original.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec = private unnamed_addr constant [55 x i8] c"bigtune.tunable.v1;name=mul;family=f.mul;size_args=2,3\00"
@sig = private unnamed_addr constant [5 x i8] c"PPIQ\00"
@table = internal constant [3 x i8*] [i8* bitcast (void (i32*, i32*, i32, i64)* @_Z3mulILi1EEvPjS0_jm to i8*), i8* bitcast (void (i32*, i32*, i32, i64)* @_Z3mulILi2EEvPjS0_jm to i8*), i8* bitcast (void (i32*, i32*, i32, i64)* @_Z3mulILi4EEvPjS0_jm to i8*)]
@mark = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([55 x i8], [55 x i8]* @spec, i32 0, i32 0), i8* getelementptr inbounds ([5 x i8], [5 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([3 x i8*], [3 x i8*]* @table, i32 0, i32 0), i32 3 }

define i32 @launch_q4(i8** %args, %struct.CUstream_st* %s) {
; CHECK-LABEL: define i32 @launch_q4(
; CHECK:         [[V:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P:%.*]], i32 0, i32 6
; CHECK-NEXT:    store i32 2, i32* [[V]], align 4
; CHECK-NEXT:    [[N:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 7
; CHECK-NEXT:    store i32 3, i32* [[N]], align 4
; CHECK:         call i32 @bigtune_launch_params({{.*}}, i32 2, %struct.bigtune_launch_params* [[P]])
; CHECK:         [[VA:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 6
; CHECK-NEXT:    [[VAR:%.*]] = load i32, i32* [[VA]], align 4
; CHECK-NEXT:    [[OK:%.*]] = icmp ult i32 [[VAR]], 3
; CHECK-NEXT:    [[SEL:%.*]] = select i1 [[OK]], i32 [[VAR]], i32 2
; CHECK-NEXT:    [[IDX:%.*]] = zext i32 [[SEL]] to i64
; CHECK-NEXT:    [[E:%.*]] = getelementptr inbounds i8*, i8** getelementptr inbounds ([3 x i8*], [3 x i8*]* @table, i32 0, i32 0), i64 [[IDX]]
; CHECK-NEXT:    [[K:%.*]] = load i8*, i8** [[E]], align 8
; CHECK-NEXT:    %r = call i32 @cudaLaunchKernel(i8* [[K]], i64 {{%.*}}, i32 {{%.*}}, i64 {{%.*}}, i32 {{%.*}}, i8** %args, i64 {{%.*}}, %struct.CUstream_st* %s), !bigtune.launch
; CHECK-NEXT:    ret i32 %r
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i32*, i32, i64)* @_Z3mulILi4EEvPjS0_jm to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  ret i32 %r
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @_Z3mulILi1EEvPjS0_jm(i32*, i32*, i32, i64)
declare void @_Z3mulILi2EEvPjS0_jm(i32*, i32*, i32, i64)
declare void @_Z3mulILi4EEvPjS0_jm(i32*, i32*, i32, i64)
