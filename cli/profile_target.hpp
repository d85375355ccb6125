// Builds what `bigtune profile` measures from a registry variant at a size.
#pragma once
#include "cli/commands.hpp"
#include "profiler/launch_target.hpp"

namespace bigtune::cli {

profiler::LaunchTarget make_profile_target(const ProfileRequest& request);

}  // namespace bigtune::cli
