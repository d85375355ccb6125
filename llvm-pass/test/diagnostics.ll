; A wrongly written mark is a compile-time error that names the kernel and
; the argument, never a miscompile. Each RUN line breaks the valid mark
; below in one way (sed) and expects the pass to stop with an error.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s --check-prefix=VALID
; RUN: sed 's/size_args=3/size_args=7/' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-INDEX
; RUN: sed 's/size_args=3/size_args=1/' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-POINTER
; RUN: sed 's/c"PPIQ/c"PPId/' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-TYPE
; RUN: sed 's/size_args=3/size_args=x/' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-NOT-INDEX
; RUN: sed 's/size_args=3/size_args= /' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-EMPTY
; RUN: sed 's/i32 1 }/i32 2 }/' %s | not %opt -passes=bigtune-launch -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-TABLE
; clang reports the same error as a compiler diagnostic and fails:
; RUN: sed 's/size_args=3/size_args=7/' %s > %t.bad.ll
; RUN: not %clangxx -O0 -fpass-plugin=%plugin -c -x ir %t.bad.ll -o %t.o 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR-INDEX

; VALID: call i32 @bigtune_launch_params(
; ERROR-INDEX: error: bigtune-launch: kernel 'add_kernel' is marked with size argument 7, but it has only 4 parameters (in tunable mark 'mark.add')
; ERROR-POINTER: error: bigtune-launch: kernel 'add_kernel': size argument 1 is a pointer (type code 'P'); a size must be an integer of 1, 2, 4 or 8 bytes
; ERROR-TYPE: error: bigtune-launch: kernel 'add_kernel': size argument 3 is not an integer (type code 'd'); a size must be an integer of 1, 2, 4 or 8 bytes
; ERROR-NOT-INDEX: error: bigtune-launch: kernel 'add_kernel': size argument 'x' is not a parameter index
; ERROR-EMPTY: error: bigtune-launch: kernel 'add_kernel' names no size argument (size_args is empty)
; ERROR-TABLE: error: bigtune-launch: kernel 'add_kernel': the variant table does not hold 2 kernels

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec.add = private unnamed_addr constant [60 x i8] c"bigtune.tunable.v1;name=add_kernel;family=t.add;size_args=3\00"
@sig.add = private unnamed_addr constant [5 x i8] c"PPIQ\00"
@table.add = linkonce_odr constant [1 x i8*] [i8* bitcast (void (i32*, i32*, i32, i64)* @_Z10add_kernelPjPKjjm to i8*)]
@mark.add = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([60 x i8], [60 x i8]* @spec.add, i32 0, i32 0), i8* getelementptr inbounds ([5 x i8], [5 x i8]* @sig.add, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.add, i32 0, i32 0), i32 1 }

define i32 @launch(i8** %args, %struct.CUstream_st* %s) {
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i32*, i32, i64)* @_Z10add_kernelPjPKjjm to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  ret i32 %r
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @_Z10add_kernelPjPKjjm(i32*, i32*, i32, i64)
