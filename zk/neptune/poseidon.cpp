#include "zk/neptune/poseidon.hpp"

#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "zk/ff/ifma.hpp"

namespace zk::neptune {

namespace {

using matrix_t = std::vector<std::vector<fr_t>>;

// --- round numbers (neptune src/round_numbers.rs) ----------------------------------------------

// round_numbers_are_secure, in f32 as the Rust code computes it; n = 256 bits (neptune rounds the
// 255-bit field up), M = 128-bit security.
bool rounds_are_secure(unsigned t_, unsigned rf_, unsigned rp_) {
  const float rp = float(rp_), t = float(t_), n = 256.0f, m = 128.0f;
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  long rf_max = 0;
  for (float v : {rf_stat, rf_interp, rf_grob_1, rf_grob_2}) {
    const float c = std::ceil(v);
    // Rust's `as usize` saturates negative values to 0.
    const long u = c <= 0.0f ? 0 : long(c);
    if (u > rf_max) rf_max = u;
  }
  return long(rf_) >= rf_max;
}

// --- matrices (neptune src/matrix.rs; any correct elimination gives the same inverse) ----------

matrix_t identity(size_t n) {
  matrix_t r(n, std::vector<fr_t>(n, fr_t::zero()));
  for (size_t i = 0; i < n; ++i) r[i][i] = fr_t::one();
  return r;
}

matrix_t mat_mul(const matrix_t& a, const matrix_t& b) {
  const size_t n = a.size(), k = b.size(), m = b[0].size();
  matrix_t r(n, std::vector<fr_t>(m, fr_t::zero()));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      fr_t acc = fr_t::zero();
      for (size_t l = 0; l < k; ++l) acc += a[i][l] * b[l][j];
      r[i][j] = acc;
    }
  return r;
}

// Gauss–Jordan; the matrices here (Cauchy matrices and their products) are invertible.
matrix_t invert(matrix_t a) {
  const size_t n = a.size();
  matrix_t inv = identity(n);
  for (size_t col = 0; col < n; ++col) {
    size_t piv = col;
    while (piv < n && a[piv][col].is_zero()) ++piv;
    if (piv == n) throw std::logic_error("poseidon: singular matrix");
    std::swap(a[piv], a[col]);
    std::swap(inv[piv], inv[col]);
    const fr_t s = a[col][col].inverse();
    for (size_t j = 0; j < n; ++j) {
      a[col][j] *= s;
      inv[col][j] *= s;
    }
    for (size_t i = 0; i < n; ++i) {
      if (i == col || a[i][col].is_zero()) continue;
      const fr_t f = a[i][col];
      for (size_t j = 0; j < n; ++j) {
        a[i][j] -= f * a[col][j];
        inv[i][j] -= f * inv[col][j];
      }
    }
  }
  return inv;
}

matrix_t minor00(const matrix_t& m) {
  matrix_t r;
  for (size_t i = 1; i < m.size(); ++i) r.emplace_back(m[i].begin() + 1, m[i].end());
  return r;
}

// apply_matrix: the row vector v times m (result[j] = Σ_i m[i][j]·v[i]).
std::vector<fr_t> apply_matrix(const matrix_t& m, const std::vector<fr_t>& v) {
  std::vector<fr_t> r(v.size(), fr_t::zero());
  for (size_t j = 0; j < v.size(); ++j)
    for (size_t i = 0; i < v.size(); ++i) r[j] += m[i][j] * v[i];
  return r;
}

struct derived_t {
  matrix_t m_prime, m_double_prime;
};

// derive_mds_matrices' M' and M'' (src/mds.rs make_prime, make_double_prime).
derived_t derive(const matrix_t& m) {
  const size_t t = m.size();
  const matrix_t m_hat_inv = invert(minor00(m));
  derived_t d;
  d.m_prime = matrix_t(t, std::vector<fr_t>(t, fr_t::zero()));
  d.m_prime[0][0] = fr_t::one();
  for (size_t i = 1; i < t; ++i)
    for (size_t j = 1; j < t; ++j) d.m_prime[i][j] = m[i][j];
  std::vector<fr_t> w(t - 1);
  for (size_t i = 1; i < t; ++i) w[i - 1] = m[i][0];
  const std::vector<fr_t> w_hat = apply_matrix(m_hat_inv, w);
  d.m_double_prime = matrix_t(t, std::vector<fr_t>(t, fr_t::zero()));
  d.m_double_prime[0] = m[0];
  for (size_t i = 1; i < t; ++i) {
    d.m_double_prime[i][0] = w_hat[i - 1];
    d.m_double_prime[i][i] = fr_t::one();
  }
  return d;
}

std::vector<fr_t> flatten(const matrix_t& m) {
  std::vector<fr_t> r;
  for (const auto& row : m) r.insert(r.end(), row.begin(), row.end());
  return r;
}

// --- the Grain LFSR (src/round_constants.rs) ----------------------------------------------------

class grain_t {
 public:
  grain_t(unsigned field_bits, unsigned t, unsigned rf, unsigned rp) {
    auto append = [&](unsigned n, uint64_t v) {
      for (unsigned i = n; i-- > 0;) bits_.push_back((v >> i) & 1);
    };
    append(2, 1);            // field: GF(p)
    append(4, 1);            // S-box: x^5
    append(12, field_bits);  // n
    append(12, t);
    append(10, rf);
    append(10, rp);
    append(30, (1u << 30) - 1);
    for (int i = 0; i < 160; ++i) step();
  }

  // The self-shrinking output: pairs (a, b), b is emitted when a = 1.
  bool next() {
    for (;;) {
      const bool a = step();
      const bool b = step();
      if (a) return b;
    }
  }

 private:
  // b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i
  bool step() {
    const size_t o = head_;
    const bool b =
        bits_[o + 62] ^ bits_[o + 51] ^ bits_[o + 38] ^ bits_[o + 23] ^ bits_[o + 13] ^ bits_[o];
    bits_.push_back(b);
    ++head_;
    if (head_ > 4096) {
      bits_.erase(bits_.begin(), bits_.begin() + head_);
      head_ = 0;
    }
    return b;
  }

  std::vector<bool> bits_;
  size_t head_ = 0;
};

// --- the permutation ------------------------------------------------------------------------

inline fr_t quintic(const fr_t& x) {
  const fr_t x2 = x * x;
  const fr_t x4 = x2 * x2;
  return x4 * x;
}

constexpr unsigned max_width = 37;

// state'[j] = Σ_i a[i·t + j]·state[i]
inline void mix_dense(fr_t* s, const fr_t* a, unsigned t) {
  std::array<fr_t, max_width> r;
  for (unsigned j = 0; j < t; ++j) {
    fr_t acc = a[j] * s[0];
    for (unsigned i = 1; i < t; ++i) acc += a[i * t + j] * s[i];
    r[j] = acc;
  }
  for (unsigned j = 0; j < t; ++j) s[j] = r[j];
}

std::unique_ptr<poseidon_constants_t> build_constants(unsigned arity) {
  auto c = std::make_unique<poseidon_constants_t>();
  const unsigned t = arity + 1;
  c->arity = arity;
  c->width = t;
  const poseidon_rounds_t rounds = poseidon_round_numbers(arity);
  c->full_rounds = rounds.full;
  c->half_full_rounds = rounds.full / 2;
  c->partial_rounds = rounds.partial;
  c->domain_tag = fr_t::from_u64((uint64_t(1) << arity) - 1);
  c->round_constants = poseidon_grain_constants(t, rounds.full, rounds.partial);

  // Cauchy MDS: x_i = i, y_j = t + j, M[i][j] = 1/(x_i + y_j).
  matrix_t m(t, std::vector<fr_t>(t));
  for (unsigned i = 0; i < t; ++i)
    for (unsigned j = 0; j < t; ++j) m[i][j] = fr_t::from_u64(i + t + j).inverse();
  const matrix_t m_inv = invert(m);
  c->mds = flatten(m);
  c->mds_inv = flatten(m_inv);

  // compress_round_constants(width, R_F, R_P, constants, mds, partial_preprocessed = R_P).
  const unsigned half = c->half_full_rounds, rp = c->partial_rounds;
  auto round_keys = [&](unsigned r) {
    return std::vector<fr_t>(c->round_constants.begin() + r * t,
                             c->round_constants.begin() + (r + 1) * t);
  };
  std::vector<fr_t>& crc = c->compressed_round_constants;
  const std::vector<fr_t> first = round_keys(0);
  crc.insert(crc.end(), first.begin(), first.end());
  for (unsigned i = 0; i + 1 < half; ++i) {
    const std::vector<fr_t> inv = apply_matrix(m_inv, round_keys(i + 1));
    crc.insert(crc.end(), inv.begin(), inv.end());
  }
  const unsigned final_round = half + rp;
  std::vector<fr_t> acc = round_keys(final_round), partial_keys;
  for (unsigned i = 0; i < rp; ++i) {
    std::vector<fr_t> inv = apply_matrix(m_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = fr_t::zero();
    const std::vector<fr_t> prev = round_keys(final_round - i - 1);
    for (unsigned j = 0; j < t; ++j) inv[j] += prev[j];
    acc = inv;
  }
  const std::vector<fr_t> acc_inv = apply_matrix(m_inv, acc);
  crc.insert(crc.end(), acc_inv.begin(), acc_inv.end());
  crc.insert(crc.end(), partial_keys.rbegin(), partial_keys.rend());
  for (unsigned i = 1; i < half; ++i) {
    const std::vector<fr_t> inv = apply_matrix(m_inv, round_keys(final_round + i));
    crc.insert(crc.end(), inv.begin(), inv.end());
  }
  if (crc.size() != t * rounds.full + rp)
    throw std::logic_error("poseidon: compressed round constants miscounted");

  // factor_to_sparse_matrices(M, R_P): M = pre_sparse · M''_0 · … (reversed at the end).
  matrix_t curr = m;
  std::vector<matrix_t> sparse;
  for (unsigned i = 0; i < rp; ++i) {
    const derived_t d = derive(curr);
    sparse.push_back(d.m_double_prime);
    curr = mat_mul(m, d.m_prime);
  }
  c->pre_sparse_matrix = flatten(curr);
  for (auto it = sparse.rbegin(); it != sparse.rend(); ++it) {
    poseidon_sparse_matrix_t s;
    for (unsigned i = 0; i < t; ++i) s.w_hat.push_back((*it)[i][0]);
    s.v_rest.assign((*it)[0].begin() + 1, (*it)[0].end());
    // M'' must be the identity off its first row and column.
    for (unsigned i = 1; i < t; ++i)
      for (unsigned j = 1; j < t; ++j)
        if ((*it)[i][j] != (i == j ? fr_t::one() : fr_t::zero()))
          throw std::logic_error("poseidon: factor is not sparse");
    c->sparse_matrixes.push_back(std::move(s));
  }
  return c;
}

}  // namespace

poseidon_rounds_t poseidon_round_numbers(unsigned arity) {
  const unsigned t = arity + 1;
  unsigned best_rf = 0, best_rp = 0;
  size_t best_sboxes = SIZE_MAX;
  for (unsigned rf_outer = 2; rf_outer <= 1000; rf_outer += 2) {
    // neptune mutates its loop binding: once a pair is secure, rf_test += 2 sticks for the rest
    // of this outer iteration.
    unsigned rf_test = rf_outer;
    for (unsigned rp_loop = 4; rp_loop < 200; ++rp_loop) {
      unsigned rp_test = rp_loop;
      if (rounds_are_secure(t, rf_test, rp_test)) {
        rf_test += 2;
        rp_test = unsigned(std::ceil(1.075f * float(rp_test)));
        const size_t sboxes = size_t(t) * rf_test + rp_test;
        if (sboxes < best_sboxes || (sboxes == best_sboxes && rf_test < best_rf)) {
          best_rf = rf_test;
          best_rp = rp_test;
          best_sboxes = sboxes;
        }
      }
    }
  }
  return {best_rf, best_rp};
}

std::vector<fr_t> poseidon_grain_constants(unsigned t, unsigned rounds_f, unsigned rounds_p) {
  const unsigned field_bits = fr_t::bits;  // 255
  grain_t g(field_bits, t, rounds_f, rounds_p);
  std::vector<fr_t> out;
  const size_t count = size_t(t) * (rounds_f + rounds_p);
  out.reserve(count);
  while (out.size() < count) {
    // field_bits bits, most significant first (get_next_bytes: a first byte of field_bits % 8
    // bits, then whole bytes, read big-endian).
    ff::bigint_t<4> v{};
    for (unsigned i = field_bits; i-- > 0;)
      if (g.next()) v.l[i / 64] |= uint64_t(1) << (i % 64);
    if (ff::big_lt(v, fr_t::modulus)) out.push_back(fr_t::from_canonical(v));
  }
  return out;
}

const poseidon_constants_t& poseidon_constants(unsigned arity) {
  static constexpr unsigned max_arity = 36;
  if (arity < 1 || arity > max_arity)
    throw std::invalid_argument("poseidon: arity " + std::to_string(arity) +
                                " is not supported (1..36)");
  static std::once_flag flags[max_arity + 1];
  static std::unique_ptr<poseidon_constants_t> table[max_arity + 1];
  std::call_once(flags[arity], [arity] { table[arity] = build_constants(arity); });
  return *table[arity];
}

fr_t poseidon_hash(const poseidon_constants_t& c, const fr_t* in) {
  const unsigned t = c.width, half = c.half_full_rounds;
  std::array<fr_t, max_width> s;
  s[0] = c.domain_tag;
  for (unsigned i = 1; i < t; ++i) s[i] = in[i - 1];
  const fr_t* k = c.compressed_round_constants.data();
  for (unsigned i = 0; i < t; ++i) s[i] += k[i];
  k += t;
  unsigned round = 0;
  // Initial full rounds: S-box, post constant, mix (pre_sparse after the last of them).
  for (unsigned r = 0; r < half; ++r, ++round) {
    for (unsigned i = 0; i < t; ++i) s[i] = quintic(s[i]) + k[i];
    k += t;
    mix_dense(s.data(), round == half - 1 ? c.pre_sparse_matrix.data() : c.mds.data(), t);
  }
  // Partial rounds: S-box on state[0], one constant, the sparse mix.
  for (unsigned r = 0; r < c.partial_rounds; ++r, ++round) {
    s[0] = quintic(s[0]) + *k++;
    const poseidon_sparse_matrix_t& sm = c.sparse_matrixes[r];
    fr_t s0 = sm.w_hat[0] * s[0];
    for (unsigned i = 1; i < t; ++i) s0 += sm.w_hat[i] * s[i];
    for (unsigned j = 1; j < t; ++j) s[j] += sm.v_rest[j - 1] * s[0];
    s[0] = s0;
  }
  // Final full rounds; the last has no constant after its S-boxes.
  for (unsigned r = 0; r < half; ++r, ++round) {
    const bool last = r + 1 == half;
    for (unsigned i = 0; i < t; ++i) s[i] = last ? quintic(s[i]) : quintic(s[i]) + k[i];
    if (!last) k += t;
    mix_dense(s.data(), c.mds.data(), t);
  }
  return s[1];
}

fr_t poseidon_hash_reference(const poseidon_constants_t& c, const fr_t* in) {
  const unsigned t = c.width, half = c.half_full_rounds;
  std::array<fr_t, max_width> s;
  s[0] = c.domain_tag;
  for (unsigned i = 1; i < t; ++i) s[i] = in[i - 1];
  const fr_t* k = c.round_constants.data();
  const unsigned rounds = c.full_rounds + c.partial_rounds;
  for (unsigned r = 0; r < rounds; ++r, k += t) {
    const bool full = r < half || r >= half + c.partial_rounds;
    for (unsigned i = 0; i < t; ++i) s[i] += k[i];
    if (full) {
      for (unsigned i = 0; i < t; ++i) s[i] = quintic(s[i]);
    } else {
      s[0] = quintic(s[0]);
    }
    mix_dense(s.data(), c.mds.data(), t);
  }
  return s[1];
}

// --- eight hashes in IFMA lanes ------------------------------------------------------------

#ifdef ZK_FF_IFMA
namespace {

using vf_t = ff::ifma::vfield_t<fr_t>;
using vfe_t = vf_t::vfe;
constexpr int L52 = vf_t::L;
using limbs52_t = std::array<uint64_t, L52>;

// The constants of one arity in radix 2^52 (Montgomery form, as fp_t holds them), broadcast into
// the lanes where used.
struct constants52_t {
  std::vector<limbs52_t> crc, mds, pre_sparse, w_hat, v_rest;  // sparse: R_P·t and R_P·(t − 1)
  limbs52_t tag;
};

limbs52_t to52(const fr_t& x) {
  limbs52_t r;
  ff::ifma::split52(x, r.data());
  return r;
}

const constants52_t& constants52(const poseidon_constants_t& c) {
  static std::once_flag flags[37];
  static std::unique_ptr<constants52_t> table[37];
  std::call_once(flags[c.arity], [&c] {
    auto k = std::make_unique<constants52_t>();
    for (const fr_t& x : c.compressed_round_constants) k->crc.push_back(to52(x));
    for (const fr_t& x : c.mds) k->mds.push_back(to52(x));
    for (const fr_t& x : c.pre_sparse_matrix) k->pre_sparse.push_back(to52(x));
    for (const auto& sm : c.sparse_matrixes) {
      for (const fr_t& x : sm.w_hat) k->w_hat.push_back(to52(x));
      for (const fr_t& x : sm.v_rest) k->v_rest.push_back(to52(x));
    }
    k->tag = to52(c.domain_tag);
    table[c.arity] = std::move(k);
  });
  return *table[c.arity];
}

ZK_IFMA_INLINE vfe_t bcast(const limbs52_t& x) {
  vfe_t r;
  for (int j = 0; j < L52; ++j) r.v[j] = _mm512_set1_epi64((long long)x[j]);
  return r;
}

ZK_IFMA_INLINE vfe_t quintic8(const vfe_t& x) {
  const vfe_t x2 = vf_t::mul(x, x);
  const vfe_t x4 = vf_t::mul(x2, x2);
  return vf_t::mul(x4, x);
}

ZK_IFMA_INLINE void mix8(vfe_t* s, const limbs52_t* a, unsigned t) {
  vfe_t r[max_width];
  for (unsigned j = 0; j < t; ++j) {
    vfe_t acc = vf_t::mul(bcast(a[j]), s[0]);
    for (unsigned i = 1; i < t; ++i) acc = vf_t::add(acc, vf_t::mul(bcast(a[i * t + j]), s[i]));
    r[j] = acc;
  }
  for (unsigned j = 0; j < t; ++j) s[j] = r[j];
}

ZK_IFMA_TARGET void hash_x8_ifma(const poseidon_constants_t& c, const fr_t* in, fr_t* out) {
  const constants52_t& k52 = constants52(c);
  const unsigned t = c.width, half = c.half_full_rounds, a = c.arity;
  vfe_t s[max_width];
  s[0] = bcast(k52.tag);
  alignas(64) uint64_t buf[L52 * 8];
  for (unsigned i = 1; i < t; ++i) {
    for (int lane = 0; lane < 8; ++lane) {
      limbs52_t x = to52(in[size_t(lane) * a + (i - 1)]);
      for (int j = 0; j < L52; ++j) buf[8 * j + lane] = x[j];
    }
    s[i] = vf_t::load(buf);
  }
  const limbs52_t* k = k52.crc.data();
  for (unsigned i = 0; i < t; ++i) s[i] = vf_t::add(s[i], bcast(k[i]));
  k += t;
  for (unsigned r = 0; r < half; ++r) {
    for (unsigned i = 0; i < t; ++i) s[i] = vf_t::add(quintic8(s[i]), bcast(k[i]));
    k += t;
    mix8(s, r == half - 1 ? k52.pre_sparse.data() : k52.mds.data(), t);
  }
  for (unsigned r = 0; r < c.partial_rounds; ++r) {
    s[0] = vf_t::add(quintic8(s[0]), bcast(*k++));
    const limbs52_t* w = &k52.w_hat[size_t(r) * t];
    const limbs52_t* v = &k52.v_rest[size_t(r) * (t - 1)];
    vfe_t s0 = vf_t::mul(bcast(w[0]), s[0]);
    for (unsigned i = 1; i < t; ++i) s0 = vf_t::add(s0, vf_t::mul(bcast(w[i]), s[i]));
    for (unsigned j = 1; j < t; ++j) s[j] = vf_t::add(s[j], vf_t::mul(bcast(v[j - 1]), s[0]));
    s[0] = s0;
  }
  for (unsigned r = 0; r < half; ++r) {
    const bool last = r + 1 == half;
    for (unsigned i = 0; i < t; ++i)
      s[i] = last ? quintic8(s[i]) : vf_t::add(quintic8(s[i]), bcast(k[i]));
    if (!last) k += t;
    mix8(s, k52.mds.data(), t);
  }
  vf_t::store(buf, s[1]);
  for (int lane = 0; lane < 8; ++lane) {
    uint64_t x[L52];
    for (int j = 0; j < L52; ++j) x[j] = buf[8 * j + lane];
    out[lane] = ff::ifma::join52<fr_t>(x);
  }
}

}  // namespace
#endif

bool poseidon_uses_ifma() {
#ifdef ZK_FF_IFMA
  return ff::ifma::available();
#else
  return false;
#endif
}

void poseidon_hash_x8(const poseidon_constants_t& c, const fr_t* in, fr_t* out) {
#ifdef ZK_FF_IFMA
  if (ff::ifma::available()) return hash_x8_ifma(c, in, out);
#endif
  for (int k = 0; k < 8; ++k) out[k] = poseidon_hash(c, in + size_t(k) * c.arity);
}

}  // namespace zk::neptune
