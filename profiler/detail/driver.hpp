// Driver-API functions the profiler needs, reached through the runtime's
// cudaGetDriverEntryPointByVersion: there is no libcuda.so.1 on the build and
// CI machines, so nothing here may link -lcuda (DESIGN.md, "GPU workflow").
#pragma once
#include <cuda.h>

namespace bigtune::profiler::detail {

// The current CUDA context of the calling thread, created (primary context of
// the current device) if the runtime has not made one yet. Throws bigtune::Error.
CUcontext current_context();

}  // namespace bigtune::profiler::detail
