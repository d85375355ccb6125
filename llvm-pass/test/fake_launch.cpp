// End to end on the CPU: host code compiled by clang with the plugin, whose
// "launches" go to fake cudaLaunchKernel / cuLaunchKernel defined below that
// record what they were called with. Checks that the kernel, grid, block,
// shared memory and variant a launch policy chooses are what the launch
// receives, that the sizes reach the policy, that the hook keeps the
// original parameters without a policy, with invalid parameters or when the
// policy throws, and that every launch goes through the hook once.
// Built and run at -O0 and -O2 by run_fake_launch.sh. Exit 0 = all checked.
#include <bigtune/launch_hook.h>
#include <bigtune/tunable.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

// The runtime and driver API declarations this test needs, with the same
// types and x86-64 lowering as cuda_runtime_api.h and cuda.h.
struct dim3 {
  unsigned x, y, z;
};
typedef struct CUstream_st* cudaStream_t;
typedef struct CUfunc_st* CUfunction;
extern "C" int cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                size_t smem, cudaStream_t stream);
extern "C" int cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                              unsigned by, unsigned bz, unsigned smem, cudaStream_t stream,
                              void** params, void** extra);

namespace {

struct Launch {
  const void* kernel;
  unsigned grid[3], block[3];
  unsigned long long smem;
  int calls;
} last;

int failures = 0;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

// Stand-ins for kernels: only their addresses matter to a launch.
__attribute__((noinline)) void scale(unsigned* out, unsigned long long count) { (void)out, (void)count; }
template <int Q>
__attribute__((noinline)) void add_q(unsigned* out, int n, unsigned long long count) {
  (void)out, (void)n, (void)count;
}
__attribute__((noinline)) void untagged(unsigned* out) { (void)out; }

}  // namespace

BIGTUNE_TUNABLE(scale, "test.scale", "1");
BIGTUNE_TUNABLE_VARIANTS("add_q", "test.add", "1,2", add_q<1>, add_q<2>, add_q<4>);
CUfunction g_fn_a = reinterpret_cast<CUfunction>(0x1000);
CUfunction g_fn_b = reinterpret_cast<CUfunction>(0x2000);
typedef void drv_kernel_t(unsigned*, unsigned short);
BIGTUNE_TUNABLE_DRIVER("drv", "test.drv", "1", drv_kernel_t, &g_fn_a, &g_fn_b);

extern "C" __attribute__((noinline)) int cudaLaunchKernel(const void* func, dim3 grid, dim3 block,
                                                          void**, size_t smem, cudaStream_t) {
  last = {func, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, smem, last.calls + 1};
  return 0;
}

extern "C" __attribute__((noinline)) int cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                                                        unsigned gz, unsigned bx, unsigned by,
                                                        unsigned bz, unsigned smem, cudaStream_t,
                                                        void**, void**) {
  last = {f, {gx, gy, gz}, {bx, by, bz}, smem, last.calls + 1};
  return 0;
}

namespace {

// The user's launches, as a .cu file's stubs or hand-written host code make them.
void launch_scale(unsigned* out, unsigned long long count) {
  void* args[] = {&out, &count};
  cudaLaunchKernel((const void*)&scale, dim3{3, 1, 1}, dim3{64, 1, 1}, args, 0, nullptr);
}
void launch_add_q2(unsigned* out, int n, unsigned long long count) {
  void* args[] = {&out, &n, &count};
  cudaLaunchKernel((const void*)&add_q<2>, dim3{5, 1, 1}, dim3{32, 2, 1}, args, 16, nullptr);
}
void launch_untagged(unsigned* out) {
  void* args[] = {&out};
  cudaLaunchKernel((const void*)&untagged, dim3{9, 1, 1}, dim3{96, 1, 1}, args, 0, nullptr);
}
void launch_drv(unsigned* out, unsigned short n) {
  void* args[] = {&out, &n};
  cuLaunchKernel(g_fn_a, 4, 1, 1, 256, 1, 1, 8, nullptr, args, nullptr);
}

void launch_drv_extra() {
  cuLaunchKernel(g_fn_a, 4, 1, 1, 256, 1, 1, 8, nullptr, nullptr, nullptr);
}

bigtune_launch_record_t last_record() {
  bigtune_launch_record_t r{};
  uint64_t n = bigtune_launch_history_count();
  EXPECT(n > 0 && bigtune_launch_history_get(n - 1, &r) == 0);
  return r;
}

}  // namespace

int main() {
  using bigtune::runtime::LaunchRequest;
  using bigtune::runtime::set_launch_policy;
  unsigned buffer[4];

  // No policy: the launch is unchanged, but it went through the hook.
  launch_scale(buffer, 1000);
  EXPECT(last.kernel == (const void*)&scale && last.grid[0] == 3 && last.block[0] == 64);
  EXPECT(bigtune_launch_history_count() == 1);
  bigtune_launch_record_t r = last_record();
  EXPECT(r.status == BIGTUNE_LAUNCH_KEPT && r.n_sizes == 1 && r.sizes[0] == 1000);
  EXPECT(std::string_view(r.kernel) == "scale" && std::string_view(r.family) == "test.scale");

  // A policy picks everything, including another instantiation.
  set_launch_policy("test.add", [](const LaunchRequest& q, bigtune_launch_params_t& p) {
    if (q.n_sizes != 2 || q.kernel != "add_q") return false;
    EXPECT(p.variant == 1 && p.n_variants == 3 && p.grid_x == 5 && p.block_y == 2);
    EXPECT(p.shared_bytes == 16);
    p.grid_x = unsigned(q.sizes[1] / 1000), p.grid_y = 2, p.grid_z = 1;
    p.block_x = 128, p.block_y = 1, p.block_z = 1;
    p.shared_bytes = 4096;
    p.variant = int64_t(q.sizes[0]) < 0 ? 0 : 2;  // n is signed: -5 arrives sign-extended
    return true;
  });
  launch_add_q2(buffer, -5, 7000000000ull);
  EXPECT(last.kernel == (const void*)&add_q<1>);
  EXPECT(last.grid[0] == 7000000 && last.grid[1] == 2 && last.block[0] == 128 && last.block[1] == 1);
  EXPECT(last.smem == 4096);
  r = last_record();
  EXPECT(r.status == BIGTUNE_LAUNCH_OK && r.sizes[0] == uint64_t(int64_t(-5)) &&
         r.sizes[1] == 7000000000ull);
  launch_add_q2(buffer, 12, 3000);
  EXPECT(last.kernel == (const void*)&add_q<4> && last.grid[0] == 3);

  // Invalid choices and failing policies leave the launch as written.
  set_launch_policy("test.add", [](const LaunchRequest&, bigtune_launch_params_t& p) {
    p.block_x = 0;
    return true;
  });
  launch_add_q2(buffer, 12, 3000);
  EXPECT(last.kernel == (const void*)&add_q<2> && last.grid[0] == 5 && last.block[0] == 32);
  EXPECT(last_record().status == BIGTUNE_LAUNCH_INVALID);
  set_launch_policy("test.add", [](const LaunchRequest&, bigtune_launch_params_t& p) -> bool {
    p.variant = 0;
    throw std::runtime_error("selector failed");
  });
  launch_add_q2(buffer, 12, 3000);
  EXPECT(last.kernel == (const void*)&add_q<2> && last.smem == 16);
  EXPECT(last_record().status == BIGTUNE_LAUNCH_POLICY_FAILED);
  set_launch_policy("test.add", nullptr);

  // Untagged launches never reach the hook.
  uint64_t before = bigtune_launch_history_count();
  launch_untagged(buffer);
  EXPECT(last.kernel == (const void*)&untagged && bigtune_launch_history_count() == before);

  // Driver API, through the fallback policy "*": variant 1 is g_fn_b.
  set_launch_policy("*", [](const LaunchRequest& q, bigtune_launch_params_t& p) {
    if (q.family != "test.drv") return false;
    EXPECT(q.n_sizes == 1 && p.shared_bytes == 8 && p.variant == 0);
    p.variant = 1, p.block_x = 512, p.shared_bytes = 1024;
    return true;
  });
  launch_drv(buffer, 65535);
  EXPECT(last_record().sizes[0] == 65535);
  EXPECT(last.kernel == (const void*)g_fn_b && last.block[0] == 512 && last.grid[0] == 4);
  EXPECT(last.smem == 1024);
  // Arguments passed through `extra`: kernelParams is NULL, the size reads 0.
  launch_drv_extra();
  EXPECT(last.kernel == (const void*)g_fn_b && last_record().sizes[0] == 0);

  // Every tagged launch in a loop asks once, with its own size.
  bigtune_launch_history_clear();
  for (unsigned long long count = 1; count <= 10; ++count) launch_scale(buffer, count * 11);
  EXPECT(bigtune_launch_history_count() == 10);
  EXPECT(last_record().sizes[0] == 110);
  EXPECT(last.calls == 18);

  // The history keeps the last 4096 records and counts them all.
  bigtune_launch_history_clear();
  bigtune_launch_params_t p{1, 1, 1, 32, 1, 1, 0, 1, 0};
  for (uint64_t i = 0; i < 5000; ++i) bigtune_launch_params("direct", "test.none", &i, 1, &p);
  EXPECT(bigtune_launch_history_count() == 5000);
  bigtune_launch_record_t oldest{}, newest{};
  EXPECT(bigtune_launch_history_get(0, &oldest) == 0 && oldest.sizes[0] == 5000 - 4096);
  EXPECT(bigtune_launch_history_get(4095, &newest) == 0 && newest.sizes[0] == 4999);
  EXPECT(bigtune_launch_history_get(4096, &newest) == -1);
  EXPECT(bigtune_launch_params("direct", "test.none", nullptr, 1, &p) == BIGTUNE_LAUNCH_INVALID);

  if (failures) {
    std::fprintf(stderr, "fake_launch: %d check(s) failed\n", failures);
    return 1;
  }
  std::printf("fake_launch: all checks passed (%d launches)\n", last.calls);
  return 0;
}
