; A cudaLaunchKernel of a kernel marked tunable (as clang 14 lowers it for
; x86-64: each dim3 is an (i64 x|y<<32, i32 z) pair) gets a call to
; bigtune_launch_params first, with the launch's debug location, and then
; launches with the grid, block and shared memory the hook left in its
; struct. Size argument 3 (a uint64_t) is read through the args array.
; Running the pass twice adds nothing the second time.
; RUN: %opt -passes=bigtune-launch -S %s | FileCheck %s
; RUN: %opt -passes=bigtune-launch,bigtune-launch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bigtune_tunable_mark = type { i8*, i8*, i8**, i32 }
%struct.CUstream_st = type opaque

@spec.add = private unnamed_addr constant [60 x i8] c"bigtune.tunable.v1;name=add_kernel;family=t.add;size_args=3\00"
@sig.add = private unnamed_addr constant [5 x i8] c"PPIQ\00"
@table.add = linkonce_odr constant [1 x i8*] [i8* bitcast (void (i32*, i32*, i32, i64)* @_Z10add_kernelPjPKjjm to i8*)]
@mark.add = internal constant %struct.bigtune_tunable_mark { i8* getelementptr inbounds ([60 x i8], [60 x i8]* @spec.add, i32 0, i32 0), i8* getelementptr inbounds ([5 x i8], [5 x i8]* @sig.add, i32 0, i32 0), i8** getelementptr inbounds ([1 x i8*], [1 x i8*]* @table.add, i32 0, i32 0), i32 1 }
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (%struct.bigtune_tunable_mark* @mark.add to i8*)], section "llvm.metadata"

; CHECK: @bigtune.name = private unnamed_addr constant [11 x i8] c"add_kernel\00"
; CHECK: @bigtune.family = private unnamed_addr constant [6 x i8] c"t.add\00"
; CHECK-NOT: @bigtune.name.{{[0-9]+}} =

define i32 @launch(i8** %args, i64 %grid.xy, i32 %grid.z, i64 %block.xy, i32 %block.z, i64 %smem, %struct.CUstream_st* %stream) !dbg !5 {
; CHECK-LABEL: define i32 @launch(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[PARAMS:%.*]] = alloca %struct.bigtune_launch_params, align 8
; CHECK-NEXT:    [[SIZES:%.*]] = alloca [1 x i64], align 8
; CHECK-NEXT:    [[GX:%.*]] = trunc i64 %grid.xy to i32, !dbg [[LOC:![0-9]+]]
; CHECK-NEXT:    [[T0:%.*]] = lshr i64 %grid.xy, 32, !dbg [[LOC]]
; CHECK-NEXT:    [[GY:%.*]] = trunc i64 [[T0]] to i32, !dbg [[LOC]]
; CHECK-NEXT:    [[BX:%.*]] = trunc i64 %block.xy to i32, !dbg [[LOC]]
; CHECK-NEXT:    [[T1:%.*]] = lshr i64 %block.xy, 32, !dbg [[LOC]]
; CHECK-NEXT:    [[BY:%.*]] = trunc i64 [[T1]] to i32, !dbg [[LOC]]
; CHECK-NEXT:    [[F0:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 0, !dbg [[LOC]]
; CHECK-NEXT:    store i32 [[GX]], i32* [[F0]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F1:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 1, !dbg [[LOC]]
; CHECK-NEXT:    store i32 [[GY]], i32* [[F1]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F2:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 2, !dbg [[LOC]]
; CHECK-NEXT:    store i32 %grid.z, i32* [[F2]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F3:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 3, !dbg [[LOC]]
; CHECK-NEXT:    store i32 [[BX]], i32* [[F3]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F4:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 4, !dbg [[LOC]]
; CHECK-NEXT:    store i32 [[BY]], i32* [[F4]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F5:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 5, !dbg [[LOC]]
; CHECK-NEXT:    store i32 %block.z, i32* [[F5]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F6:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 6, !dbg [[LOC]]
; CHECK-NEXT:    store i32 0, i32* [[F6]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F7:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 7, !dbg [[LOC]]
; CHECK-NEXT:    store i32 1, i32* [[F7]], align 4, !dbg [[LOC]]
; CHECK-NEXT:    [[F8:%.*]] = getelementptr inbounds %struct.bigtune_launch_params, %struct.bigtune_launch_params* [[PARAMS]], i32 0, i32 8, !dbg [[LOC]]
; CHECK-NEXT:    store i64 %smem, i64* [[F8]], align 8, !dbg [[LOC]]
; CHECK-NEXT:    [[SIZES0:%.*]] = getelementptr inbounds [1 x i64], [1 x i64]* [[SIZES]], i64 0, i64 0, !dbg [[LOC]]
; CHECK-NEXT:    [[SLOT:%.*]] = getelementptr inbounds i8*, i8** %args, i64 3, !dbg [[LOC]]
; CHECK-NEXT:    [[ARG:%.*]] = load i8*, i8** [[SLOT]], align 8, !dbg [[LOC]]
; CHECK-NEXT:    [[ARGP:%.*]] = bitcast i8* [[ARG]] to i64*, !dbg [[LOC]]
; CHECK-NEXT:    [[SIZE:%.*]] = load i64, i64* [[ARGP]], align 8, !dbg [[LOC]]
; CHECK-NEXT:    store i64 [[SIZE]], i64* [[SIZES0]], align 8, !dbg [[LOC]]
; CHECK-NEXT:    {{%.*}} = call i32 @bigtune_launch_params(i8* getelementptr inbounds ([11 x i8], [11 x i8]* @bigtune.name, i32 0, i32 0), i8* getelementptr inbounds ([6 x i8], [6 x i8]* @bigtune.family, i32 0, i32 0), i64* [[SIZES0]], i32 1, %struct.bigtune_launch_params* [[PARAMS]]), !dbg [[LOC]]
; CHECK:         [[NGX:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NGY:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NGZ:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NBX:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NBY:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NBZ:%.*]] = load i32, i32* {{%.*}}, align 4, !dbg [[LOC]]
; CHECK:         [[NSMEM:%.*]] = load i64, i64* {{%.*}}, align 8, !dbg [[LOC]]
; CHECK-NEXT:    [[Y64:%.*]] = zext i32 [[NGY]] to i64, !dbg [[LOC]]
; CHECK-NEXT:    [[YSH:%.*]] = shl i64 [[Y64]], 32, !dbg [[LOC]]
; CHECK-NEXT:    [[X64:%.*]] = zext i32 [[NGX]] to i64, !dbg [[LOC]]
; CHECK-NEXT:    [[NGXY:%.*]] = or i64 [[X64]], [[YSH]], !dbg [[LOC]]
; CHECK-NEXT:    [[BY64:%.*]] = zext i32 [[NBY]] to i64, !dbg [[LOC]]
; CHECK-NEXT:    [[BYSH:%.*]] = shl i64 [[BY64]], 32, !dbg [[LOC]]
; CHECK-NEXT:    [[BX64:%.*]] = zext i32 [[NBX]] to i64, !dbg [[LOC]]
; CHECK-NEXT:    [[NBXY:%.*]] = or i64 [[BX64]], [[BYSH]], !dbg [[LOC]]
; CHECK-NEXT:    [[R:%.*]] = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i32*, i32, i64)* @_Z10add_kernelPjPKjjm to i8*), i64 [[NGXY]], i32 [[NGZ]], i64 [[NBXY]], i32 [[NBZ]], i8** %args, i64 [[NSMEM]], %struct.CUstream_st* %stream), !dbg [[LOC]], !bigtune.launch
; CHECK-NOT:     @bigtune_launch_params(
; CHECK:         ret i32 [[R]]
entry:
  %r = call i32 @cudaLaunchKernel(i8* bitcast (void (i32*, i32*, i32, i64)* @_Z10add_kernelPjPKjjm to i8*), i64 %grid.xy, i32 %grid.z, i64 %block.xy, i32 %block.z, i8** %args, i64 %smem, %struct.CUstream_st* %stream), !dbg !10
  ret i32 %r, !dbg !11
}

; CHECK: declare i32 @bigtune_launch_params(i8*, i8*, i64*, i32, %struct.bigtune_launch_params*)
; CHECK: [[LOC]] = !DILocation(line: 12, column: 3,

declare i32 @cudaLaunchKernel(i8*, i64, i32, i64, i32, i8**, i64, %struct.CUstream_st*)
declare void @_Z10add_kernelPjPKjjm(i32*, i32*, i32, i64)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "launch.cpp", directory: "/tmp")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "launch", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !2)
!10 = !DILocation(line: 12, column: 3, scope: !5)
!11 = !DILocation(line: 13, column: 1, scope: !5)
