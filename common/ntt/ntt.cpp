#include "common/ntt/ntt.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "common/ec/curves.hpp"
#include "common/util/thread_pool.hpp"

namespace zk::ntt {
namespace {

// Butterflies of one stage touching more than this many elements are split across threads
// stage by stage; smaller sub-transforms run whole inside one thread (4096·32 B = 128 KiB).
constexpr unsigned kBlockLog = 12;

inline size_t bitrev(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

// One DIF stage: pairs (j, j+len) within blocks of 2·len; twiddle ω^{j·stride}.
template <class Fr>
inline void dif_butterflies(Fr* a, size_t len, size_t stride, const Fr* tw, size_t k0, size_t k1) {
  for (size_t k = k0; k < k1; ++k) {
    size_t blk = k / len, j = k % len;
    Fr* x = a + blk * 2 * len + j;
    Fr u = x[0], v = x[len];
    x[0] = u + v;
    x[len] = j == 0 ? u - v : (u - v) * tw[j * stride];
  }
}
template <class Fr>
inline void dit_butterflies(Fr* a, size_t len, size_t stride, const Fr* tw, size_t k0, size_t k1) {
  for (size_t k = k0; k < k1; ++k) {
    size_t blk = k / len, j = k % len;
    Fr* x = a + blk * 2 * len + j;
    Fr u = x[0], v = j == 0 ? x[len] : x[len] * tw[j * stride];
    x[0] = u + v;
    x[len] = u - v;
  }
}

}  // namespace

template <class Fr>
Fr root_of_unity(unsigned k) {
  constexpr unsigned s = Fr::params::two_adicity;
  if (k > s) throw std::invalid_argument("root_of_unity: 2^" + std::to_string(k) + " exceeds the field's 2-adicity");
  // t = (r − 1) / 2^s; w[s] = nqr^t; w[k−1] = w[k]²
  auto t = Fr::modulus;
  t.l[0] -= 1;
  for (unsigned i = 0; i < s; ++i)
    for (int j = 0; j < Fr::N; ++j) t.l[j] = (t.l[j] >> 1) | (j + 1 < Fr::N ? t.l[j + 1] << 63 : 0);
  Fr w = Fr::from_u64(Fr::params::nqr).pow(t);
  for (unsigned i = s; i > k; --i) w = w.sqr();
  return w;
}

template <class Fr>
domain_t<Fr>::domain_t(unsigned log_n) : log_n_(log_n) {
  if (log_n + 1 > Fr::params::two_adicity)
    throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) +
                                " needs a 2n-th root of unity beyond the field's 2-adicity");
  size_t n = size_t(1) << log_n, half = n / 2;
  omega_ = root_of_unity<Fr>(log_n);
  Fr omega_inv = omega_.inverse();
  tw_.resize(half ? half : 1);
  itw_.resize(half ? half : 1);
  util::parallel_for(tw_.size(), [&](size_t b, size_t e) {
    Fr w = omega_.pow_u64(b), wi = omega_inv.pow_u64(b);
    for (size_t i = b; i < e; ++i) {
      tw_[i] = w;
      itw_[i] = wi;
      w = w * omega_;
      wi = wi * omega_inv;
    }
  });
  n_inv_ = Fr::from_u64(n).inverse();
  Fr g = root_of_unity<Fr>(log_n + 1);  // ω_2n
  coset_.resize(n);
  util::parallel_for(n, [&](size_t b, size_t e) {
    Fr w = g.pow_u64(b) * n_inv_;
    for (size_t j = b; j < e; ++j) {
      coset_[bitrev(j, log_n)] = w;
      w = w * g;
    }
  });
}

template <class Fr>
void domain_t<Fr>::dif(Fr* a, const std::vector<Fr>& tw) const {
  const size_t n = size();
  if (n < 2) return;
  unsigned big_stages = log_n_ > kBlockLog ? log_n_ - kBlockLog : 0;
  // Large stages: len = n/2 … 2^kBlockLog, each split across threads.
  for (unsigned s = 0; s < big_stages; ++s) {
    size_t len = n >> (s + 1), stride = size_t(1) << s;
    util::parallel_for(n / 2, [&](size_t k0, size_t k1) { dif_butterflies(a, len, stride, tw.data(), k0, k1); });
  }
  // Remaining stages inside blocks of 2^kBlockLog elements (or the whole array).
  size_t block = n >> big_stages;
  util::parallel_for(n / block, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; ++b) {
      Fr* x = a + b * block;
      for (size_t len = block / 2, stride = size_t(1) << big_stages; len >= 1; len /= 2, stride *= 2)
        dif_butterflies(x, len, stride, tw.data(), 0, block / 2);
    }
  });
}

template <class Fr>
void domain_t<Fr>::dit(Fr* a, const std::vector<Fr>& tw) const {
  const size_t n = size();
  if (n < 2) return;
  unsigned big_stages = log_n_ > kBlockLog ? log_n_ - kBlockLog : 0;
  size_t block = n >> big_stages;
  util::parallel_for(n / block, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; ++b) {
      Fr* x = a + b * block;
      for (size_t len = 1, stride = n / 2; len < block; len *= 2, stride /= 2)
        dit_butterflies(x, len, stride, tw.data(), 0, block / 2);
    }
  });
  for (unsigned s = big_stages; s-- > 0;) {
    size_t len = n >> (s + 1), stride = size_t(1) << s;
    util::parallel_for(n / 2, [&](size_t k0, size_t k1) { dit_butterflies(a, len, stride, tw.data(), k0, k1); });
  }
}

template <class Fr>
void domain_t<Fr>::forward(Fr* a) const {
  // DIF leaves the spectrum bit-reversed; DIT of a bit-reversed input yields natural order.
  // A natural → natural forward transform is DIF followed by a bit-reversal permutation.
  dif(a, tw_);
  const size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    size_t j = bitrev(i, log_n_);
    if (i < j) std::swap(a[i], a[j]);
  }
}

template <class Fr>
void domain_t<Fr>::inverse(Fr* a) const {
  dif(a, itw_);
  const size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    size_t j = bitrev(i, log_n_);
    if (i < j) std::swap(a[i], a[j]);
  }
  util::parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) a[i] = a[i] * n_inv_;
  });
}

template <class Fr>
void domain_t<Fr>::to_odd_coset(Fr* a) const {
  dif(a, itw_);  // n·coefficients, bit-reversed
  const size_t n = size();
  util::parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) a[i] = a[i] * coset_[i];
  });
  dit(a, tw_);  // evaluations at ω_2n·ω_n^i, natural order
}

template <class Fr>
std::shared_ptr<const domain_t<Fr>> domain_t<Fr>::get(unsigned log_n) {
  static std::mutex mu;
  static std::map<unsigned, std::shared_ptr<const domain_t>> cache;
  std::lock_guard<std::mutex> lk(mu);
  auto& d = cache[log_n];
  if (!d) d = std::make_shared<const domain_t>(log_n);
  return d;
}

template bn254::fr_t root_of_unity<bn254::fr_t>(unsigned);
template bls12_381::fr_t root_of_unity<bls12_381::fr_t>(unsigned);
template class domain_t<bn254::fr_t>;
template class domain_t<bls12_381::fr_t>;

}  // namespace zk::ntt
