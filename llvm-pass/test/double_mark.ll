; A kernel listed in two marks: a warning names both, and its launches use
; the first mark (module order).
; RUN: %opt -passes=bigtune-launch -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

; CHECK: warning: bigtune-launch: kernel 'second' (variant 0) is already in the tunable mark of 'first'; its launches use that mark

@spec1 = private unnamed_addr constant [55 x i8] c"bigtune.tunable.v1;name=first;family=f.one;size_args=0\00"
@spec2 = private unnamed_addr constant [56 x i8] c"bigtune.tunable.v1;name=second;family=f.two;size_args=0\00"
@sig = private unnamed_addr constant [2 x i8] c"Q\00"
@table = internal constant [1 x i8*] [i8* bitcast (void (i64)* @k to i8*)]
@mark1 = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([55 x i8], [55 x i8]* @spec1, i32 0, i32 0), i8* getelementptr inbounds ([2 x i8], [2 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table, i32 0, i32 0), i32 1 }
@mark2 = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([56 x i8], [56 x i8]* @spec2, i32 0, i32 0), i8* getelementptr inbounds ([2 x i8], [2 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table, i32 0, i32 0), i32 1 }

; CHECK: @bigtune.name = private unnamed_addr constant [6 x i8] c"first\00"
; CHECK-LABEL: define i32 @launch(
; CHECK:         call i32 @bigtune_launch_params(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @bigtune.name, i32 0, i32 0),
define i32 @launch(i8** %args) {
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i64)* @k to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* null)
  ret i32 %r
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @k(i64)
