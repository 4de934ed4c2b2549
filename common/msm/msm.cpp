#include "common/msm/msm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/ec/curves.hpp"
#include "common/util/thread_pool.hpp"

namespace zk::msm {
namespace {

inline void load_scalar(const uint8_t* p, uint64_t out[4]) { std::memcpy(out, p, 32); }

inline bool is_zero(const uint64_t k[4]) { return (k[0] | k[1] | k[2] | k[3]) == 0; }
inline bool is_one(const uint64_t k[4]) { return k[0] == 1 && (k[1] | k[2] | k[3]) == 0; }

// c bits of k starting at bit `pos` (pos < 256), zero-extended past the top.
inline uint32_t bits_at(const uint64_t k[4], unsigned pos, unsigned c) {
  unsigned limb = pos / 64, off = pos % 64;
  if (limb >= 4) return 0;
  uint64_t v = k[limb] >> off;
  if (off + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - off);
  return uint32_t(v & ((uint64_t(1) << c) - 1));
}

// Pippenger cost model: windows·(points + buckets to reduce).
unsigned choose_window(size_t m, unsigned bits) {
  if (m < 32) return 3;
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned c = 2; c <= 16; ++c) {
    double w = std::ceil(double(bits + 1) / c);
    double cost = w * (double(m) + std::ldexp(1.0, c));
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

}  // namespace

plan_t make_plan(const uint8_t* scalars, size_t n, unsigned bits, size_t stride) {
  if (n > UINT32_MAX) throw std::invalid_argument("msm: more than 2^32 points");
  plan_t p;
  p.n = n;
  for (size_t i = 0; i < n; ++i) {
    uint64_t k[4];
    load_scalar(scalars + i * stride, k);
    if (is_zero(k)) continue;
    if (is_one(k)) p.ones.push_back(uint32_t(i));
    else p.idx.push_back(uint32_t(i));
  }
  const size_t m = p.idx.size();
  p.c = choose_window(m, bits);
  p.windows = (bits + 1 + p.c - 1) / p.c;  // one extra bit absorbs the last carry
  p.digits.resize(size_t(p.windows) * m);
  const unsigned c = p.c, W = p.windows;
  const int32_t half = int32_t(1) << (c - 1), full = int32_t(1) << c;
  int16_t* digits = p.digits.data();
  util::parallel_for(m, [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) {
      uint64_t k[4];
      load_scalar(scalars + size_t(p.idx[j]) * stride, k);
      int32_t carry = 0;
      for (unsigned w = 0; w < W; ++w) {
        int32_t d = int32_t(bits_at(k, w * c, c)) + carry;
        carry = d > half;
        if (carry) d -= full;
        digits[size_t(w) * m + j] = int16_t(d);
      }
    }
  });
  return p;
}

template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const plan_t& plan) {
  using jac = ec::jacobian_t<G>;
  using xyzz = ec::xyzz_t<G>;
  const size_t m = plan.idx.size();
  const unsigned W = plan.windows, c = plan.c;
  const size_t nb = size_t(1) << (c - 1);

  std::vector<jac> window_sum(W, jac::infinity());
  // Scalars equal to one: a plain sum, split across threads.
  const size_t ones_chunks = plan.ones.size() > 4096 ? util::compute_threads() : 1;
  std::vector<xyzz> ones_sum(ones_chunks, xyzz::infinity());

  util::run_parallel(
      [&](size_t task) {
        if (task >= W) {
          size_t t = task - W, n1 = plan.ones.size();
          size_t b = n1 * t / ones_chunks, e = n1 * (t + 1) / ones_chunks;
          xyzz acc = xyzz::infinity();
          for (size_t i = b; i < e; ++i) acc = acc.add_mixed(bases[plan.ones[i]]);
          ones_sum[t] = acc;
          return;
        }
        const unsigned w = unsigned(task);
        if (m == 0) return;
        std::vector<xyzz> buckets(nb, xyzz::infinity());
        const int16_t* d = plan.digits.data() + size_t(w) * m;
        for (size_t j = 0; j < m; ++j) {
          int32_t dj = d[j];
          if (dj == 0) continue;
          const auto& P = bases[plan.idx[j]];
          if (dj > 0) buckets[dj - 1] = buckets[dj - 1].add_mixed(P);
          else buckets[-dj - 1] = buckets[-dj - 1].add_mixed(-P);
        }
        // Σ_k (k+1)·bucket[k] by running sums from the top bucket down.
        xyzz running = xyzz::infinity(), total = xyzz::infinity();
        for (size_t k = nb; k-- > 0;) {
          running += buckets[k];
          total += running;
        }
        window_sum[w] = total.to_jacobian();
      },
      W + ones_chunks);

  jac r = jac::infinity();
  for (unsigned w = W; w-- > 0;) {
    for (unsigned i = 0; i < c && !r.is_infinity(); ++i) r = r.dbl();
    r += window_sum[w];
  }
  for (const auto& s : ones_sum) r += s.to_jacobian();
  return r;
}

template ec::jacobian_t<curves::bn254::g1> msm<curves::bn254::g1>(const ec::affine_t<curves::bn254::g1>*, const plan_t&);
template ec::jacobian_t<curves::bn254::g2> msm<curves::bn254::g2>(const ec::affine_t<curves::bn254::g2>*, const plan_t&);
template ec::jacobian_t<curves::bls12_381::g1> msm<curves::bls12_381::g1>(const ec::affine_t<curves::bls12_381::g1>*, const plan_t&);
template ec::jacobian_t<curves::bls12_381::g2> msm<curves::bls12_381::g2>(const ec::affine_t<curves::bls12_381::g2>*, const plan_t&);

}  // namespace zk::msm
