# bigtune_enable_launch_pass(<target> [PLUGIN <path>] [HOST_COMPILER <clang++>])
#
# Builds <target> with the bigtune-launch LLVM plugin (llvm-pass/), so that its
# launches of kernels marked with BIGTUNE_TUNABLE* (bigtune/tunable.h) ask
# bigtune_launch_params for their launch parameters, and links the hook
# (bigtune_launch_hook).
#
#   CUDA sources: nvcc -ccbin <clang++> -Xcompiler=-fpass-plugin=<plugin>.
#     nvcc 13 accepts clang++-14 as host compiler without
#     -allow-unsupported-compiler (checked with CUDA 13.0.88). The plugin runs
#     in the host compilation of nvcc's output; device code is untouched.
#   C++ sources:  -fpass-plugin=<plugin>, only when CMAKE_CXX_COMPILER is a
#     clang of the plugin's LLVM major version (a warning says so otherwise).
#
# In this tree PLUGIN defaults to the BigtuneLaunchPass target and
# HOST_COMPILER to the clang++ of the LLVM it was built against; an installed
# bigtune sets BIGTUNE_LAUNCH_PASS_PLUGIN and BIGTUNE_LAUNCH_PASS_CLANGXX.
# The plugin must come from the same LLVM major version as <clang++>.
function(bigtune_enable_launch_pass target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PLUGIN;HOST_COMPILER" "")
  if(arg_PLUGIN)
    set(plugin ${arg_PLUGIN})
  elseif(TARGET BigtuneLaunchPass)
    set(plugin ${BIGTUNE_LAUNCH_PASS_PLUGIN_FILE})
    add_dependencies(${target} BigtuneLaunchPass)
  elseif(BIGTUNE_LAUNCH_PASS_PLUGIN)
    set(plugin ${BIGTUNE_LAUNCH_PASS_PLUGIN})
  else()
    message(FATAL_ERROR "bigtune_enable_launch_pass(${target}): no plugin: build llvm-pass/ "
                        "(BIGTUNE_BUILD_LLVM_PASS=ON) or pass PLUGIN <path to libBigtuneLaunchPass.so>")
  endif()
  if(arg_HOST_COMPILER)
    set(clangxx ${arg_HOST_COMPILER})
  elseif(BIGTUNE_LAUNCH_PASS_CLANGXX)
    set(clangxx ${BIGTUNE_LAUNCH_PASS_CLANGXX})
  elseif(BIGTUNE_LLVM_CLANGXX)
    set(clangxx ${BIGTUNE_LLVM_CLANGXX})
  else()
    find_program(clangxx NAMES clang++-14 clang++ REQUIRED)
  endif()

  get_target_property(sources ${target} SOURCES)
  set(has_cuda OFF)
  set(has_cxx OFF)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cu$")
      set(has_cuda ON)
    elseif(source MATCHES "\\.(cpp|cc|cxx)$")
      set(has_cxx ON)
    endif()
    # Rebuild when the plugin changes: it is part of the compiler.
    if(TARGET BigtuneLaunchPass AND NOT arg_PLUGIN)
      set_property(SOURCE ${source} TARGET_DIRECTORY ${target} APPEND PROPERTY
                   OBJECT_DEPENDS ${plugin})
    endif()
  endforeach()

  if(has_cuda)
    if(CMAKE_CUDA_HOST_COMPILER AND NOT CMAKE_CUDA_HOST_COMPILER STREQUAL clangxx)
      message(WARNING "bigtune_enable_launch_pass(${target}): CMAKE_CUDA_HOST_COMPILER is "
                      "${CMAKE_CUDA_HOST_COMPILER}; nvcc gets two -ccbin and the plugin may not load")
    endif()
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-ccbin ${clangxx}>"
      "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -fpass-plugin=${plugin}>")
  endif()
  if(has_cxx)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-fpass-plugin=${plugin}>")
    else()
      message(WARNING "bigtune_enable_launch_pass(${target}): the C++ compiler is "
                      "${CMAKE_CXX_COMPILER_ID}, not clang: its C++ sources are built without "
                      "the plugin (their launches are not tuned)")
    endif()
  endif()
  target_link_libraries(${target} PRIVATE bigtune_launch_hook)
endfunction()
