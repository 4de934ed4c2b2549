#include "zk/ntt/ntt.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "zk/base/thread_pool.hpp"
#include "zk/ec/curves.hpp"
#include "zk/ntt/butterfly.hpp"
#include "zk/ntt/stop_scope.hpp"

namespace zk::ntt {
namespace {

// Butterflies of one stage touching more than this many elements are split across threads
// stage by stage; smaller sub-transforms run whole inside one thread (4096·32 B = 128 KiB).
constexpr unsigned kBlockLog = 12;

template <bool Inverse, class Fr>
inline void dif_butterflies(Fr* a, size_t len, size_t stride, const Fr* tw, size_t half, size_t k0,
                            size_t k1) {
  for (size_t k = k0; k < k1; ++k) dif_butterfly<Inverse>(a, k, len, stride, tw, half);
}
template <class Fr>
inline void dit_butterflies(Fr* a, size_t len, size_t stride, const Fr* tw, size_t k0, size_t k1) {
  for (size_t k = k0; k < k1; ++k) dit_butterfly(a, k, len, stride, tw);
}

}  // namespace

template <class Fr>
Fr root_of_unity(unsigned k, uint64_t generator) {
  constexpr unsigned s = Fr::params_t::two_adicity;
  if (k > s)
    throw std::invalid_argument("root_of_unity: 2^" + std::to_string(k) +
                                " exceeds the field's 2-adicity");
  // t = (r − 1) / 2^s; w[s] = nqr^t; w[k−1] = w[k]²
  auto t = Fr::modulus;
  t.l[0] -= 1;
  for (unsigned i = 0; i < s; ++i)
    for (int j = 0; j < Fr::N; ++j) t.l[j] = (t.l[j] >> 1) | (j + 1 < Fr::N ? t.l[j + 1] << 63 : 0);
  Fr w = Fr::from_u64(generator ? generator : Fr::params_t::nqr).pow(t);
  for (unsigned i = s; i > k; --i) w = w.sqr();
  return w;
}

template <class Fr>
domain_t<Fr>::domain_t(unsigned log_n, uint64_t generator) : log_n_(log_n) {
  if (log_n + 1 > Fr::params_t::two_adicity)
    throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) +
                                " needs a 2n-th root of unity beyond the field's 2-adicity");
  size_t n = size_t(1) << log_n, half = n / 2;
  omega_ = root_of_unity<Fr>(log_n, generator);
  tw_.resize(half ? half : 1);
  parallel_for(tw_.size(), [&](size_t b, size_t e) {
    Fr w = omega_.pow_u64(b);
    for (size_t i = b; i < e; ++i) {
      tw_[i] = w;
      w = w * omega_;
    }
  });
  n_inv_ = Fr::from_u64(n).inverse();
  coset_gen_n_inv_ = root_of_unity<Fr>(log_n + 1, generator) * n_inv_;
}

namespace {
// The stop of this thread's stop_scope_t (null: none); read once by each pass loop on the calling
// thread, never by the pool's workers.
thread_local const stop_t* current_stop = nullptr;
bool stop_now(const stop_t* stop) { return stop && stop_requested(*stop); }
}  // namespace

stop_scope_t::stop_scope_t(const stop_t& stop) : previous_(current_stop) {
  current_stop = stop ? &stop : nullptr;
}
stop_scope_t::~stop_scope_t() { current_stop = previous_; }

template <class Fr>
template <bool Inverse>
void domain_t<Fr>::dif(Fr* a, size_t chunks) const {
  const size_t n = size();
  if (n < 2) return;
  const stop_t* stop = current_stop;
  std::atomic<bool> stopped{false};
  unsigned big_stages = log_n_ > kBlockLog ? log_n_ - kBlockLog : 0;
  // Large stages: len = n/2 … 2^kBlockLog, each split across threads.
  for (unsigned s = 0; s < big_stages; ++s) {
    if (stop_now(stop)) return;
    size_t len = n >> (s + 1), stride = size_t(1) << s;
    parallel_for(
        n / 2,
        [&](size_t k0, size_t k1) {
          dif_butterflies<Inverse>(a, len, stride, tw_.data(), n / 2, k0, k1);
        },
        chunks);
  }
  // Remaining stages inside blocks of 2^kBlockLog elements (or the whole array).
  size_t block = n >> big_stages;
  parallel_for(
      n / block,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; ++b) {
          if (stop && (stopped.load(std::memory_order_relaxed) || stop_now(stop))) {
            stopped.store(true, std::memory_order_relaxed);
            return;
          }
          Fr* x = a + b * block;
          for (size_t len = block / 2, stride = size_t(1) << big_stages; len >= 1;
               len /= 2, stride *= 2)
            dif_butterflies<Inverse>(x, len, stride, tw_.data(), n / 2, 0, block / 2);
        }
      },
      chunks);
}

template <class Fr>
void domain_t<Fr>::dit(Fr* a, size_t chunks) const {
  const size_t n = size();
  if (n < 2) return;
  const stop_t* stop = current_stop;
  std::atomic<bool> stopped{false};
  unsigned big_stages = log_n_ > kBlockLog ? log_n_ - kBlockLog : 0;
  size_t block = n >> big_stages;
  parallel_for(
      n / block,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; ++b) {
          if (stop && (stopped.load(std::memory_order_relaxed) || stop_now(stop))) {
            stopped.store(true, std::memory_order_relaxed);
            return;
          }
          Fr* x = a + b * block;
          for (size_t len = 1, stride = n / 2; len < block; len *= 2, stride /= 2)
            dit_butterflies(x, len, stride, tw_.data(), 0, block / 2);
        }
      },
      chunks);
  for (unsigned s = big_stages; s-- > 0;) {
    if (stopped || stop_now(stop)) return;
    size_t len = n >> (s + 1), stride = size_t(1) << s;
    parallel_for(
        n / 2, [&](size_t k0, size_t k1) { dit_butterflies(a, len, stride, tw_.data(), k0, k1); },
        chunks);
  }
}

template <class Fr>
void domain_t<Fr>::bit_reverse(Fr* a) const {
  const size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    size_t j = bitrev(i, log_n_);
    if (i < j) std::swap(a[i], a[j]);
  }
}

// DIF leaves the spectrum bit-reversed; a natural → natural transform adds one permutation.
template <class Fr>
void domain_t<Fr>::forward(Fr* a) const {
  dif<false>(a);
  bit_reverse(a);
}

template <class Fr>
void domain_t<Fr>::inverse(Fr* a) const {
  dif<true>(a);
  bit_reverse(a);
  parallel_for(size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) a[i] = a[i] * n_inv_;
  });
}

// The bit-reversed coefficients scaled by ω_2n^j / n (coset_scale_at, butterfly.hpp).
template <class Fr>
void domain_t<Fr>::to_odd_coset(Fr* a, bool parallel) const {
  const size_t chunks = parallel ? 0 : 1;
  dif<true>(a, chunks);  // n·coefficients, bit-reversed
  if (stop_now(current_stop)) return;
  const size_t n = size();
  parallel_for(
      n,
      [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
          a[i] = coset_scale_at(a[i], i, n, log_n_, tw_.data(), n_inv_, coset_gen_n_inv_);
      },
      chunks);
  dit(a, chunks);  // evaluations at ω_2n·ω_n^i, natural order
}

// Position bitrev(j) of a[] times factor·x^j, for every j (each position written once).
template <class Fr>
static void scale_bit_reversed(Fr* a, size_t n, unsigned log_n, const Fr& x, const Fr& factor) {
  parallel_for(n, [&](size_t b, size_t e) {
    Fr w = x.pow_u64(b) * factor;
    for (size_t j = b; j < e; ++j) {
      Fr& v = a[bitrev(j, log_n)];
      v = v * w;
      w = w * x;
    }
  });
}

template <class Fr>
void domain_t<Fr>::to_coset(Fr* a, const Fr& shift) const {
  dif<true>(a);  // n·coefficients, bit-reversed
  if (stop_now(current_stop)) return;
  scale_bit_reversed(a, size(), log_n_, shift, n_inv_);
  dit(a);  // evaluations at shift·ω^i, natural order
}

template <class Fr>
void domain_t<Fr>::coset_to_coefficients(Fr* a, const Fr& shift) const {
  dif<true>(a);  // n·shift^j·coefficient j, bit-reversed
  if (stop_now(current_stop)) return;
  scale_bit_reversed(a, size(), log_n_, shift.inverse(), n_inv_);
  bit_reverse(a);
}

template <class Fr>
std::shared_ptr<const domain_t<Fr>> domain_t<Fr>::get(unsigned log_n, uint64_t generator) {
  static std::mutex mu;
  static std::map<std::pair<unsigned, uint64_t>, std::shared_ptr<const domain_t>> cache;
  std::lock_guard<std::mutex> lk(mu);
  const uint64_t g = generator ? generator : Fr::params_t::nqr;
  auto& d = cache[{log_n, g}];
  if (!d) d = std::make_shared<const domain_t>(log_n, g);
  return d;
}

template bn254::fr_t root_of_unity<bn254::fr_t>(unsigned, uint64_t);
template bls12_381::fr_t root_of_unity<bls12_381::fr_t>(unsigned, uint64_t);
template class domain_t<bn254::fr_t>;
template class domain_t<bls12_381::fr_t>;

}  // namespace zk::ntt
