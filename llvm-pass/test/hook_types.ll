; The module may already know the hook's types from launch_hook.h: clang
; declares %struct.bigtune_launch_params opaque when only pointers to it are
; used. The pass then completes that type with its fields and calls the
; existing declaration of bigtune_launch_params.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.bigtune_launch_params = type opaque
%struct.CUstream_st = type opaque

; CHECK: %struct.bigtune_launch_params = type { i32, i32, i32, i32, i32, i32, i32, i32, i64 }
; CHECK-NOT: %struct.bigtune_launch_params.{{[0-9]+}} = type

@spec = private unnamed_addr constant [49 x i8] c"bigtune.tunable.v1;name=k;family=f.k;size_args=0\00"
@sig = private unnamed_addr constant [2 x i8] c"Q\00"
@table = internal constant [1 x i8*] [i8* bitcast (void (i64)* @k to i8*)]
@mark = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([49 x i8], [49 x i8]* @spec, i32 0, i32 0), i8* getelementptr inbounds ([2 x i8], [2 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table, i32 0, i32 0), i32 1 }

define i32 @launch(i8** %args) {
; CHECK-LABEL: define i32 @launch(
; CHECK:         alloca %struct.bigtune_launch_params, align 8
; CHECK:         call i32 @bigtune_launch_params(i8* {{.*}}, i8* {{.*}}, i64* {{%.*}}, i32 1, %struct.bigtune_launch_params* {{%.*}})
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i64)* @k to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* null)
  ret i32 %r
}

declare i32 @bigtune_launch_params(i8*, i8*, i64*, i32, %struct.bigtune_launch_params*)
declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @k(i64)
