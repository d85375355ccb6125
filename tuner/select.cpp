#include "tuner/select.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "db/buckets.hpp"

namespace bigtune::tuner {

LaunchShape launch_shape(const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb,
                         const kernels::DeviceLimits& limits) {
  const kernels::Geometry g = kernels::geometry(v, bits, count, ipb, limits);
  LaunchShape s;
  s.operand_bits = bits;
  s.count = count;
  s.ipb = ipb;
  s.limbs = kernels::operand_limbs(v, bits);
  s.block_threads = g.block;
  s.smem_bytes = g.smem_bytes;
  s.blocks = g.grid;
  return s;
}

std::vector<LaunchShape> extrapolation_shapes(const kernels::Variant& v, const kernels::DeviceLimits& limits,
                                              uint64_t max_bits) {
  std::vector<LaunchShape> out;
  const uint64_t top = std::min(max_bits, kernels::max_operand_bits(v, limits));
  for (double b = 64; b <= double(top) + 0.5; b *= 1.0905) {  // 2^(1/8)
    const uint64_t bits = uint64_t(b);
    for (uint32_t ipb : ipb_candidates(v, bits, 1 << 20, limits)) out.push_back(launch_shape(v, bits, 1 << 20, ipb, limits));
  }
  return out;
}

bool superlinear_op(kernels::Op op) {
  using kernels::Op;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Cmp: case Op::Shl: case Op::Shr: return false;
    default: return true;
  }
}

bool heavy_op(kernels::Op op) {
  using kernels::Op;
  switch (op) {
    case Op::MulMod: case Op::SqrMod: case Op::PowM: case Op::Gcd: case Op::ModInv: case Op::Sqrt: return true;
    default: return false;
  }
}

bool short_exponents(kernels::Op op, uint64_t bits) {
  return op == kernels::Op::PowM && bits >= kShortExponentMinBits;
}

double extrapolate_exponent(double at_e0, double at_e1, uint64_t full_bits, const uint64_t (&e)[2]) {
  const double slope = std::max(0.0, (at_e1 - at_e0) / double(e[1] - e[0]));
  return std::max(at_e1, at_e0 + slope * std::max(0.0, double(full_bits) - double(e[0])));
}

std::vector<uint32_t> ipb_candidates(const kernels::Variant& v, uint64_t bits, uint64_t count,
                                     const kernels::DeviceLimits& limits) {
  std::vector<uint32_t> out;
  for (uint64_t ipb = 1; ipb <= std::min<uint64_t>(count, 1024); ipb *= 2) {
    if (!kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty()) break;
    out.push_back(uint32_t(ipb));
  }
  return out;
}

std::vector<SamplePoint> sampling_plan(const kernels::Variant& v, const kernels::DeviceLimits& limits,
                                       const SamplingOptions& o) {
  static const std::vector<uint64_t> kBits{256, 448, 768, 1344, 2048, 3072, 4736, 7168, 10240, 16384};
  // Variants that hold only small sizes (thread-level register arrays) are
  // sampled below their capacity, or they would get no samples at all.
  static const std::vector<uint64_t> kSmallBits{32, 48, 64, 96, 128, 176, 256, 384, 512, 704, 1024, 1536};
  static const std::vector<uint64_t> kBitsLite{256, 768, 2048, 4736, 10240, 16384};
  static const std::vector<uint64_t> kSmallBitsLite{32, 64, 96, 176, 384, 704, 1536};
  const bool small = kernels::max_operand_bits(v, limits) < 2048;
  const std::vector<uint64_t>& sizes = small ? (o.lite ? kSmallBitsLite : kSmallBits) : (o.lite ? kBitsLite : kBits);
  std::vector<SamplePoint> out;
  std::set<std::tuple<uint64_t, uint64_t, uint32_t>> seen;
  const uint64_t batch = heavy_op(v.op)         ? o.batch_bits_heavy
                         : superlinear_op(v.op) ? o.batch_bits_superlinear
                                                : o.batch_bits_linear;
  int tails = 0;
  for (uint64_t b : sizes) {
    const uint64_t bits = std::min(b, o.max_bits);
    const uint64_t count0 = std::max<uint64_t>(1, batch / bits);
    std::vector<uint32_t> ipbs = ipb_candidates(v, bits, count0, limits);
    if (ipbs.empty()) continue;
    const uint32_t tpi = std::max<uint32_t>(1, kernels::threads_per_instance(v, bits));
    uint32_t mid = 1;  // the largest IPB with at most 256 threads per block
    for (uint32_t i : ipbs)
      if (uint64_t(i) * tpi <= 256) mid = i;
    const std::set<uint32_t> pick{ipbs.front(), mid, ipbs.back()};
    // One count for every variant and IPB of a size (a multiple of the
    // largest IPB any variant may use), so they all share one batch.
    const uint64_t count = (count0 + kSampleCountMultiple - 1) / kSampleCountMultiple * kSampleCountMultiple;
    for (uint32_t ipb : pick) {
      if (!kernels::why_invalid(v, bits, count, ipb, limits).empty()) continue;
      if (seen.insert({bits, count, ipb}).second) out.push_back({bits, count, ipb});
    }
    // A tail: 1.5 blocks per SM of the largest IPB, at two mid sizes.
    if ((b == 768 || b == 4736 || (small && (b == 96 || b == 384))) && tails < 2) {
      const uint32_t ipb = ipbs.back();
      const uint64_t count = uint64_t(ipb) * o.sm_count * 3 / 2;
      if (kernels::why_invalid(v, bits, count, ipb, limits).empty() && seen.insert({bits, count, ipb}).second) {
        out.push_back({bits, count, ipb});
        ++tails;
      }
    }
  }
  return out;
}

uint64_t counter_batch_count(uint64_t bits, uint64_t count, uint64_t batch_bits) {
  if (bits == 0) return count;
  uint64_t c = (batch_bits / bits + kSampleCountMultiple - 1) / kSampleCountMultiple * kSampleCountMultiple;
  c = std::max(c, kSampleCountMultiple);
  // Only a whole number of the sample's blocks: a multiple of 1024 divides a
  // count that is one (every IPB is a power of two <= 1024).
  if (count % kSampleCountMultiple != 0) return count;
  return std::min(c, count);
}

std::vector<Candidate> rank_candidates(kernels::Op op, uint64_t bits, uint64_t count, const DeviceModel& device,
                                       const std::map<std::string, VariantModel>& models,
                                       const kernels::DeviceLimits& limits, std::vector<std::string>* missing) {
  std::vector<Candidate> out;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != op) continue;
    const auto it = models.find(v.name);
    if (it == models.end()) {
      if (missing && kernels::why_invalid(v, bits, count, 1, limits).empty()) missing->push_back(v.name);
      continue;
    }
    for (uint32_t ipb : ipb_candidates(v, bits, count, limits)) {
      Candidate c{&v, ipb, predict(device, it->second, launch_shape(v, bits, count, ipb, limits))};
      if (c.prediction.valid() && std::isfinite(c.prediction.time_us)) out.push_back(c);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.prediction.time_us < b.prediction.time_us;
  });
  return out;
}

std::vector<db::DecisionRecord> precompute_decisions(kernels::Op op, const DecisionGrid& grid,
                                                     const DeviceModel& device,
                                                     const std::map<std::string, VariantModel>& models,
                                                     const kernels::DeviceLimits& limits,
                                                     const std::string& device_uuid) {
  std::vector<db::DecisionRecord> out;
  for (uint64_t bits = grid.min_bits; bits <= grid.max_bits;) {
    const db::Bucket bb = db::bits_bucket(bits);
    for (uint64_t count = grid.min_count; count <= grid.max_count; count *= 2) {
      if (double(bits) * double(count) > double(grid.max_batch_bits)) break;
      const db::Bucket cb = db::count_bucket(count);
      for (const Candidate& c : rank_candidates(op, bb.hi - 1, count, device, models, limits)) {
        // Valid for the whole bucket (its largest size and count), as the store requires.
        if (!kernels::why_invalid(*c.variant, bb.hi - 1, cb.hi - 1, c.ipb, limits).empty()) continue;
        if (!kernels::why_invalid(*c.variant, bb.lo, cb.lo, c.ipb, limits).empty()) continue;
        db::DecisionRecord d;
        d.device_uuid = device_uuid;
        d.op = kernels::op_name(op);
        d.bits = bb;
        d.count = cb;
        d.variant = c.variant->name;
        d.ipb = c.ipb;
        d.predicted_us = c.prediction.time_us;
        d.source = "tuner";
        out.push_back(d);
        break;
      }
    }
    bits = bb.hi;
  }
  return out;
}

std::vector<db::ModelRecord> to_records(const VariantModel& m, const std::string& device_uuid,
                                        const std::string& build_id) {
  std::vector<db::ModelRecord> out;
  for (const auto& [name, mf] : m.metrics) {
    db::ModelRecord r;
    r.device_uuid = device_uuid;
    r.variant_name = m.variant;
    r.build_id = build_id;
    r.metric = name;
    r.degrees = mf.f.degrees.to_string();
    r.coefficients = mf.f.flatten();
    r.fit_error = mf.cv_error;
    r.sample_count = mf.samples;
    out.push_back(r);
  }
  db::ModelRecord t;
  t.device_uuid = device_uuid;
  t.variant_name = m.variant;
  t.build_id = build_id;
  t.metric = kMetricTime;
  t.degrees = "wave-model alpha,beta,latency,t0_us,regs,static_smem,max_error,lambda_us";
  t.coefficients = {m.alpha,         m.beta,           m.latency,        m.t0_us, double(m.regs),
                    double(m.static_smem), m.time_max_error, m.wave_latency_us};
  t.fit_error = m.time_error;
  t.sample_count = m.time_samples;
  out.push_back(t);
  return out;
}

std::map<std::string, VariantModel> from_records(const std::vector<db::ModelRecord>& rows,
                                                 const std::string& device_uuid) {
  std::map<std::string, VariantModel> out;
  for (const db::ModelRecord& r : rows) {
    if (r.device_uuid != device_uuid) continue;
    VariantModel& m = out[r.variant_name];
    m.variant = r.variant_name;
    if (r.metric == kMetricTime) {
      if (r.coefficients.size() < 6) continue;
      m.alpha = r.coefficients[0], m.beta = r.coefficients[1], m.latency = r.coefficients[2];
      m.t0_us = r.coefficients[3], m.regs = int(r.coefficients[4]), m.static_smem = int(r.coefficients[5]);
      if (r.coefficients.size() > 6) m.time_max_error = r.coefficients[6];
      if (r.coefficients.size() > 7) m.wave_latency_us = r.coefficients[7];
      m.time_error = r.fit_error.value_or(0);
      m.time_samples = r.sample_count;
    } else {
      MetricFit mf;
      mf.f = RationalFunction::unflatten(Degrees::parse(r.degrees), r.coefficients);
      mf.cv_error = r.fit_error.value_or(0);
      mf.samples = r.sample_count;
      m.metrics[r.metric] = mf;
    }
  }
  // A model without its time row (interrupted tuning) cannot predict.
  for (auto it = out.begin(); it != out.end();)
    it = has_instruction_model(it->second) ? std::next(it) : out.erase(it);
  return out;
}

DeviceModel device_model(const kernels::DeviceLimits& limits, double clock_ghz, double copy_gbs, double launch_us) {
  DeviceModel d;
  d.sm.sm_count = limits.sm_count > 0 ? limits.sm_count : d.sm.sm_count;
  d.sm.max_threads_per_block = int(limits.max_threads_per_block);
  d.sm.max_threads_per_sm = int(limits.max_threads_per_sm);
  d.sm.smem_per_sm = int64_t(limits.smem_per_sm);
  d.sm.smem_per_block_optin = int64_t(limits.smem_per_block_optin);
  d.sm.regs_per_block = int(limits.regs_per_block);
  if (clock_ghz > 0) d.clock_ghz = clock_ghz;
  if (copy_gbs > 0) d.dram_gbs = copy_gbs;
  if (launch_us > 0) d.launch_us = launch_us;
  return d;
}

}  // namespace bigtune::tuner
