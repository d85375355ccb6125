; cuLaunchKernel (driver API) of a kernel marked with BIGTUNE_TUNABLE_DRIVER:
; the mark's table holds the addresses of two CUfunction variables (two
; variants). The launch loads its CUfunction from the second, so the
; original variant is 1; the hook gets the six dimensions, the 32-bit
; shared memory size widened to 64 bits, and sizes 2 (unsigned int) and 3
; (uint64_t) read from kernelParams. The launch then uses the CUfunction the
; chosen (range-checked) variant names, and the hook's dimensions. When
; kernelParams is NULL (arguments passed through `extra`), the sizes are read
; from a constant array of pointers to zero instead: the hook sees 0.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUfunc_st = type opaque
%struct.CUstream_st = type opaque

@g_add_q1 = global %struct.CUfunc_st* null, align 8
@g_add_q2 = global %struct.CUfunc_st* null, align 8
@spec = private unnamed_addr constant [59 x i8] c"bigtune.tunable.v1;name=drv_add;family=f.add;size_args=2,3\00"
@sig = private unnamed_addr constant [5 x i8] c"PPIQ\00"
@table = internal constant [2 x i8*] [i8* bitcast (%struct.CUfunc_st** @g_add_q1 to i8*), i8* bitcast (%struct.CUfunc_st** @g_add_q2 to i8*)]
@mark = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([59 x i8], [59 x i8]* @spec, i32 0, i32 0), i8* getelementptr inbounds ([5 x i8], [5 x i8]* @sig, i32 0, i32 0), i8** getelementptr inbounds ([2 x i8*], [2 x i8*]* @table, i32 0, i32 0), i32 2 }

; CHECK: @bigtune.zero = private constant i64 0
; CHECK: @bigtune.no_params.4 = private constant [4 x i8*] [i8* bitcast (i64* @bigtune.zero to i8*), i8* bitcast (i64* @bigtune.zero to i8*), i8* bitcast (i64* @bigtune.zero to i8*), i8* bitcast (i64* @bigtune.zero to i8*)]

define i32 @launch_driver(i8** %params, i32 %gx, i32 %bx, i32 %smem, %struct.CUstream_st* %s) {
; CHECK-LABEL: define i32 @launch_driver(
; CHECK:         %f = load %struct.CUfunc_st*, %struct.CUfunc_st** @g_add_q2, align 8
; CHECK-NEXT:    [[SMEM64:%.*]] = zext i32 %smem to i64
; CHECK-NEXT:    [[F0:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P:%.*]], i32 0, i32 0
; CHECK-NEXT:    store i32 %gx, i32* [[F0]], align 4
; CHECK:         store i32 7, i32*
; CHECK:         store i32 9, i32*
; CHECK:         store i32 %bx, i32*
; CHECK:         store i32 2, i32*
; CHECK:         store i32 3, i32*
; CHECK:         [[V:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 6
; CHECK-NEXT:    store i32 1, i32* [[V]], align 4
; CHECK-NEXT:    [[N:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 7
; CHECK-NEXT:    store i32 2, i32* [[N]], align 4
; CHECK-NEXT:    [[SM:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 8
; CHECK-NEXT:    store i64 [[SMEM64]], i64* [[SM]], align 8
; CHECK-NEXT:    [[ISNULL:%.*]] = icmp eq i8** %params, null
; CHECK-NEXT:    [[PARAMS:%.*]] = select i1 [[ISNULL]], i8** getelementptr inbounds ([4 x i8*], [4 x i8*]* @bigtune.no_params.4, i64 0, i64 0), i8** %params
; CHECK:         getelementptr inbounds i8*, i8** [[PARAMS]], i64 2
; CHECK:         load i32, i32*
; CHECK-NEXT:    zext i32 {{%.*}} to i64
; CHECK:         getelementptr inbounds i8*, i8** [[PARAMS]], i64 3
; CHECK:         load i64, i64*
; CHECK:         call i32 @bigtune_launch_params({{.*}}, i32 2, %struct.bigtune_launch_params* [[P]])
; CHECK-COUNT-6: load i32, i32*
; CHECK-NEXT:    [[NSMEM_ADDR:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 8
; CHECK-NEXT:    [[NSMEM:%.*]] = load i64, i64* [[NSMEM_ADDR]], align 8
; CHECK-NEXT:    [[NSMEM32:%.*]] = trunc i64 [[NSMEM]] to i32
; CHECK-NEXT:    [[VA:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[P]], i32 0, i32 6
; CHECK-NEXT:    [[VAR:%.*]] = load i32, i32* [[VA]], align 4
; CHECK-NEXT:    [[OK:%.*]] = icmp ult i32 [[VAR]], 2
; CHECK-NEXT:    [[SEL:%.*]] = select i1 [[OK]], i32 [[VAR]], i32 1
; CHECK-NEXT:    [[IDX:%.*]] = zext i32 [[SEL]] to i64
; CHECK-NEXT:    [[ENTRY:%.*]] = getelementptr inbounds i8*, i8** getelementptr inbounds ([2 x i8*], [2 x i8*]* @table, i32 0, i32 0), i64 [[IDX]]
; CHECK-NEXT:    [[VARP:%.*]] = load i8*, i8** [[ENTRY]], align 8
; CHECK-NEXT:    [[HP:%.*]] = bitcast i8* [[VARP]] to %struct.CUfunc_st**
; CHECK-NEXT:    [[H:%.*]] = load %struct.CUfunc_st*, %struct.CUfunc_st** [[HP]], align 8
; CHECK-NEXT:    %r = call i32 @cuLaunchKernel(%struct.CUfunc_st* [[H]], i32 {{%.*}}, i32 {{%.*}}, i32 {{%.*}}, i32 {{%.*}}, i32 {{%.*}}, i32 {{%.*}}, i32 [[NSMEM32]], %struct.CUstream_st* %s, i8** %params, i8** null), !bigtune.launch
; CHECK-NEXT:    ret i32 %r
  %f = load %struct.CUfunc_st*, %struct.CUfunc_st** @g_add_q2, align 8
  %r = call i32 @cuLaunchKernel(%struct.CUfunc_st* %f, i32 %gx, i32 7, i32 9, i32 %bx, i32 2, i32 3, i32 %smem, %struct.CUstream_st* %s, i8** %params, i8** null)
  ret i32 %r
}

declare i32 @cuLaunchKernel(%struct.CUfunc_st*, i32, i32, i32, i32, i32, i32, i32, %struct.CUstream_st*, i8**, i8**)
