; The plugin's extension-point callback puts the pass at the start of the
; default pipelines, so clang -fpass-plugin runs it; isRequired() keeps it in
; -O0, where every function is optnone. At -O2 the hook call survives the
; optimisations that follow (it is an external call).
; RUN: %opt -passes='default<O0>' -S %s | FileCheck %s
; RUN: %opt -passes='default<O2>' -S %s | FileCheck %s
; RUN: %clangxx -O0 -fpass-plugin=%plugin -S -emit-llvm -x ir %s -o - | FileCheck %s
; RUN: %clangxx -O2 -fpass-plugin=%plugin -S -emit-llvm -x ir %s -o - | FileCheck %s
; Without the plugin nothing happens:
; RUN: %clangxx -O0 -S -emit-llvm -x ir %s -o - | FileCheck %s --check-prefix=PLAIN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec = private unnamed_addr constant [49 x i8] c"bigtune.tunable.v1;name=k;family=f.k;size_args=0\00"
@sig = private unnamed_addr constant [2 x i8] c"Q\00"
@table = internal constant [1 x i8*] [i8* bitcast (void (i64)* @k to i8*)]
@mark = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([49 x i8], [49 x i8]* @spec, i32 0, i32 0), i8* getelementptr inbounds ([2 x i8], [2 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table, i32 0, i32 0), i32 1 }
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (%struct.bigtune_tunable_mark* @mark to i8*)], section "llvm.metadata"

; CHECK-LABEL: define {{.*}}i32 @launch(
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         call i32 @cudaLaunchKernel(
; PLAIN-NOT:     @bigtune_launch_params
define i32 @launch(i8** %args) #0 {
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i64)* @k to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* null)
  ret i32 %r
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @k(i64)

attributes #0 = { noinline optnone }
