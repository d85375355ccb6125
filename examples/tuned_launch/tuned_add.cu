// A user program whose own kernel gets its launch parameters from bigtune.
//
// batch_add_n<Q> adds `count` pairs of n-limb unsigned integers (uint32_t
// limbs, little-endian, instance-major: a[i*n + j]) and writes each sum's
// n low limbs to c and its carry out to carry[i]; each thread handles Q
// instances per step of a grid-stride loop, so any grid and block shape
// computes every instance. Three instantiations (Q = 1, 2, 4) form one
// variant family; Q = 4 is never launched with <<<...>>> below, only chosen
// by the policy (the mark makes nvcc build and register it).
//
// The only bigtune-specific line is the BIGTUNE_TUNABLE_VARIANTS mark. Built
// with bigtune_enable_launch_pass (CMakeLists.txt), every <<<...>>> launch
// of batch_add_n<1> or <2> calls bigtune_launch_params first with (n, count)
// and launches what it returns. This program routes the family through
// bigtune's selector over a tuning database (runtime/launch_selector.hpp):
// each launch's parameters are the selector's plan (stored decisions,
// history, or the family default below) and each choice is counted in the
// database's history. It runs launches of several sizes with deliberately
// poor launch parameters, checks every result against GMP, and checks that
// the database's history holds every launch with the plan it ran.
//
//   tuned_add [--keep]   --keep: no policy, the hook keeps the user's choice
// Database: $BIGTUNE_DB, else a fresh file in /tmp (removed at the end).
// Exit status: 0 checked, 1 wrong result or a launch that missed the hook,
// 77 no CUDA device (CTest reports a skip).
#include <bigtune/launch_hook.h>
#include <bigtune/tunable.h>

#include <cuda_runtime.h>
#include <gmp.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "db/store.hpp"
#include "runtime/launch_selector.hpp"
#include "runtime/selector.hpp"

template <int Q>
__global__ void batch_add_n(uint32_t* c, uint32_t* carry, const uint32_t* a, const uint32_t* b,
                            uint32_t n, uint64_t count) {
  const uint64_t threads = uint64_t(blockDim.x) * blockDim.y * blockDim.z;
  const uint64_t thread = threadIdx.x + blockDim.x * (threadIdx.y + uint64_t(blockDim.y) * threadIdx.z);
  const uint64_t block = blockIdx.x + gridDim.x * (blockIdx.y + uint64_t(gridDim.y) * blockIdx.z);
  const uint64_t stride = threads * gridDim.x * gridDim.y * gridDim.z;
  for (uint64_t t = block * threads + thread; t * Q < count; t += stride) {
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const uint64_t i = t * Q + q;
      if (i >= count) break;
      uint64_t sum = 0;
      for (uint32_t j = 0; j < n; ++j) {
        sum += uint64_t(a[i * n + j]) + b[i * n + j];
        c[i * n + j] = uint32_t(sum);
        sum >>= 32;
      }
      carry[i] = uint32_t(sum);
    }
  }
}

// Variants 0, 1, 2 = batch_add_n<1>, <2>, <4>; size arguments: n, count.
BIGTUNE_TUNABLE_VARIANTS("batch_add_n", "example.add_n", "4,5", batch_add_n<1>, batch_add_n<2>,
                         batch_add_n<4>);

namespace {

#define CHECK_CUDA(call)                                                              \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(e_));                                           \
      return false;                                                                   \
    }                                                                                 \
  } while (0)

// The family's built-in plan, the selector's last resort: 128 threads per
// block, more instances per thread for bigger batches (Q = 4 from 2^18, Q = 2
// from 2^16). Stored decisions for "example.add_n" take precedence.
std::optional<bigtune::Plan> family_default(const std::string& op, uint64_t, uint64_t count,
                                            const bigtune::runtime::DeviceIdentity&) {
  if (op != "example.add_n") return std::nullopt;
  const int v = count >= (1u << 18) ? 2 : count >= (1u << 16) ? 1 : 0;
  return bigtune::Plan{"example.add_n.v" + std::to_string(v), 128, "default", 0.0};
}

// The plan as launch parameters: variant v = batch_add_n<1 << v>, ipb = threads
// per block, and the grid that covers the batch.
bool apply_plan(const bigtune::Plan& plan, const bigtune::runtime::LaunchRequest& request,
                bigtune_launch_params_t& p) {
  const int v = bigtune::runtime::family_variant_index("example.add_n", plan.variant);
  if (request.n_sizes != 2 || v < 0 || uint32_t(v) >= p.n_variants || plan.ipb == 0 || plan.ipb > 1024)
    return false;
  p.variant = uint32_t(v);
  p.block_x = plan.ipb, p.block_y = 1, p.block_z = 1;
  const uint64_t per_block = uint64_t(plan.ipb) << v, count = request.sizes[1];
  const uint64_t grid = (count + per_block - 1) / per_block;
  p.grid_x = uint32_t(grid < 1 ? 1 : grid > 65535 ? 65535 : grid);
  p.grid_y = 1, p.grid_z = 1;
  p.shared_bytes = 0;
  return true;
}

// Adds one random batch on the GPU and checks it limb by limb.
bool run_case(uint32_t n, uint64_t count, bool use_q2, std::mt19937_64& rng) {
  const size_t limbs = size_t(n) * count;
  std::vector<uint32_t> a(limbs), b(limbs), c(limbs), carry(count);
  for (size_t i = 0; i < limbs; ++i) {
    a[i] = uint32_t(rng());
    b[i] = (i % 7 == 0) ? ~a[i] : uint32_t(rng());  // long carry ripples too
  }
  uint32_t *da, *db, *dc, *dcarry;
  CHECK_CUDA(cudaMalloc(&da, limbs * 4));
  CHECK_CUDA(cudaMalloc(&db, limbs * 4));
  CHECK_CUDA(cudaMalloc(&dc, limbs * 4));
  CHECK_CUDA(cudaMalloc(&dcarry, count * 4));
  CHECK_CUDA(cudaMemcpy(da, a.data(), limbs * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), limbs * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dc, 0xEF, limbs * 4));  // poison
  CHECK_CUDA(cudaMemset(dcarry, 0xEF, count * 4));
  // The user's own (poor) choice: one block of 32 threads.
  if (use_q2)
    batch_add_n<2><<<1, 32>>>(dc, dcarry, da, db, n, count);
  else
    batch_add_n<1><<<1, 32>>>(dc, dcarry, da, db, n, count);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(c.data(), dc, limbs * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(carry.data(), dcarry, count * 4, cudaMemcpyDeviceToHost));
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dcarry);
  // Against GMP: c + carry * 2^(32n) must equal a + b, instance by instance.
  mpz_t x, y, z, got;
  mpz_inits(x, y, z, got, nullptr);
  bool ok = true;
  for (uint64_t i = 0; i < count && ok; ++i) {
    mpz_import(x, n, -1, 4, 0, 0, &a[i * n]);
    mpz_import(y, n, -1, 4, 0, 0, &b[i * n]);
    mpz_add(z, x, y);
    mpz_import(got, n, -1, 4, 0, 0, &c[i * n]);
    mpz_set_ui(x, carry[i]);
    mpz_mul_2exp(x, x, 32 * n);
    mpz_add(got, got, x);
    if (mpz_cmp(got, z) != 0) {
      std::fprintf(stderr, "wrong sum: n=%u count=%" PRIu64 " instance %" PRIu64 "\n", n, count, i);
      ok = false;
    }
  }
  mpz_clears(x, y, z, got, nullptr);
  return ok;
}

}  // namespace


int main(int argc, char** argv) {
  const bool keep = argc > 1 && std::strcmp(argv[1], "--keep") == 0;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("tuned_add: no CUDA device, skipping\n");
    return 77;
  }
  const char* env_db = std::getenv("BIGTUNE_DB");
  const std::string db_path = env_db ? env_db : "/tmp/tuned_add-" + std::to_string(getpid()) + ".db";
  auto store = std::make_shared<bigtune::db::Store>(db_path);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  bigtune::runtime::DeviceIdentity device;
  device.name = prop.name;
  device.cc_major = prop.major, device.cc_minor = prop.minor, device.sm_count = prop.multiProcessorCount;
  auto selector = std::make_shared<bigtune::runtime::Selector>(store, family_default);
  if (!keep) bigtune::runtime::route_family_through_selector("example.add_n", selector, device, apply_plan);
  bigtune_launch_history_clear();

  std::mt19937_64 rng(20261122);
  struct Case { uint32_t n; uint64_t count; bool q2; };
  const Case cases[] = {{1, 1, false}, {3, 1000, false}, {8, 70000, false},
                        {17, 100003, true}, {32, 1 << 18, false}, {5, 33, true}};
  int launches = 0;
  for (const Case& k : cases) {
    if (!run_case(k.n, k.count, k.q2, rng)) return 1;
    ++launches;
  }

  const uint64_t hooked = bigtune_launch_history_count();
  uint64_t chosen_by_policy = 0;
  for (uint64_t i = 0; i < hooked; ++i) {
    bigtune_launch_record_t r;
    if (bigtune_launch_history_get(i, &r) != 0) return 1;
    chosen_by_policy += r.status == BIGTUNE_LAUNCH_OK;
    std::printf("launch %" PRIu64 ": %s/%s n=%" PRIu64 " count=%" PRIu64
                " asked <<<%u, %u>>> v%u -> <<<%u, %u>>> v%u (status %d)\n",
                i, r.kernel, r.family, r.sizes[0], r.sizes[1], r.requested.grid_x,
                r.requested.block_x, r.requested.variant, r.chosen.grid_x, r.chosen.block_x,
                r.chosen.variant, r.status);
  }
  // The tuning database's history: one row per (n, count) with the plan the
  // launch ran and its call count.
  bigtune::runtime::set_launch_policy("example.add_n", {});
  selector->flush();
  uint64_t in_history = 0;
  for (const auto& h : store->recent_history(100, "example.add_n")) {
    std::printf("history: %s n=%" PRIu64 " count=%" PRIu64 " %s ipb %u source %s calls %" PRId64 "\n",
                h.op.c_str(), h.bits, h.count, h.variant.c_str(), h.ipb, h.source.c_str(), h.calls);
    for (uint64_t i = 0; i < hooked; ++i) {
      bigtune_launch_record_t r;
      bigtune_launch_history_get(i, &r);
      if (r.sizes[0] == h.bits && r.sizes[1] == h.count && r.status == BIGTUNE_LAUNCH_OK &&
          h.variant == "example.add_n.v" + std::to_string(r.chosen.variant) && r.chosen.block_x == h.ipb)
        ++in_history;
    }
  }
  std::printf("tuned_add: %d launches, %" PRIu64 " through the hook, %" PRIu64
              " with parameters from the selector, %" PRIu64 " in the database's history (%s);"
              " all results equal GMP's\n",
              launches, hooked, chosen_by_policy, in_history, db_path.c_str());
  selector.reset();
  store.reset();
  if (!env_db) {
    std::remove(db_path.c_str());
    std::remove((db_path + "-wal").c_str());
    std::remove((db_path + "-shm").c_str());
  }
  if (hooked != uint64_t(launches)) return 1;
  if (!keep && (chosen_by_policy != hooked || in_history != hooked)) return 1;
  return 0;
}
