; Launches in a loop body and in both arms of a branch: each gets its hook
; call in its own block, right before it, so it runs once per launch with
; that launch's sizes; the allocas it needs go to the entry block, and the
; control flow is unchanged.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec = private unnamed_addr constant [55 x i8] c"bigtune.tunable.v1;name=step;family=f.step;size_args=1\00"
@sig = private unnamed_addr constant [3 x i8] c"PQ\00"
@table = internal constant [1 x i8*] [i8* bitcast (void (i32*, i64)* @step to i8*)]
@mark = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([55 x i8], [55 x i8]* @spec, i32 0, i32 0), i8* getelementptr inbounds ([3 x i8], [3 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table, i32 0, i32 0), i32 1 }

define void @loop_and_branch(i8** %args, i64 %n, i1 %small, %struct.CUstream_st* %s) {
; CHECK-LABEL: define void @loop_and_branch(
; CHECK-NEXT:  entry:
; CHECK-COUNT-3: alloca %struct.bigtune_launch_params
; CHECK:         br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         call i32 @cudaLaunchKernel({{.*}}), !bigtune.launch
; CHECK-NEXT:    %i.next = add i64 %i, 1
; CHECK-NEXT:    %done = icmp eq i64 %i.next, %n
; CHECK-NEXT:    br i1 %done, label %after, label %loop
; CHECK:       after:
; CHECK-NEXT:    br i1 %small, label %then, label %else
; CHECK:       then:
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         call i32 @cudaLaunchKernel({{.*}}), !bigtune.launch
; CHECK-NEXT:    br label %exit
; CHECK:       else:
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         call i32 @cudaLaunchKernel({{.*}}), !bigtune.launch
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    ret void
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %r1 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @step to i8*), i64 4294967424, i32 1, i64 4294967552, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %after, label %loop

after:
  br i1 %small, label %then, label %else

then:
  %r2 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @step to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  br label %exit

else:
  %r3 = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @step to i8*), i64 4294967552, i32 1, i64 4294968320, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
  br label %exit

exit:
  ret void
}

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @step(i32*, i64)

; A launch that is an invoke (host code with cleanups around it) is
; instrumented the same way; the unwind edge is untouched.
define void @invoked(i8** %args, %struct.CUstream_st* %s) personality i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*) {
; CHECK-LABEL: define void @invoked(
; CHECK:         call i32 @bigtune_launch_params(
; CHECK:         %r = invoke i32 @cudaLaunchKernel({{.*}})
; CHECK-NEXT:            to label %ok unwind label %cleanup, !bigtune.launch
entry:
  %r = invoke i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i64)* @step to i8*), i64 4294967297, i32 1, i64 4294967328, i32 1, i8** %args, i64 0, %struct.CUstream_st* %s)
          to label %ok unwind label %cleanup

ok:
  ret void

cleanup:
  %lp = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %lp
}

declare i32 @__gxx_personality_v0(...)
