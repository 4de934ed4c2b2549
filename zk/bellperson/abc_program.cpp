#include "zk/bellperson/abc_program.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "zk/base/thread_pool.hpp"

namespace zk::bellperson {

namespace {

constexpr uint32_t ref_aux = 1u << 31;
constexpr uint32_t ref_own = 1u << 30;
constexpr uint32_t ref_index = ref_own - 1;
constexpr int64_t small_bound = int64_t(1) << 40;

// k as a signed integer of magnitude at most 2^40, if it is one.
bool small_of(const fr_t& k, int64_t& out) {
  const auto v = k.to_canonical();
  if ((v.l[1] | v.l[2] | v.l[3]) == 0 && v.l[0] <= uint64_t(small_bound)) {
    out = int64_t(v.l[0]);
    return true;
  }
  const auto n = (-k).to_canonical();
  if ((n.l[1] | n.l[2] | n.l[3]) == 0 && n.l[0] <= uint64_t(small_bound)) {
    out = -int64_t(n.l[0]);
    return true;
  }
  return false;
}

}  // namespace

abc_program_t::abc_program_t(const r1cs_shape_t& s, counts_t prefix, uint32_t parts)
    : prefix_(prefix), parts_(parts) {
  if (!s.has_matrices) throw std::invalid_argument("abc_program_t: the shape has no matrices");
  if (parts == 0) throw std::invalid_argument("abc_program_t: a circuit of no parts");
  if (s.counts.inputs < prefix.inputs || s.counts.aux < prefix.aux ||
      s.counts.constraints < prefix.constraints)
    throw std::invalid_argument("abc_program_t: the shape (" + to_string(s.counts) +
                                ") ends before the prefix (" + to_string(prefix) + ")");
  part_ = counts_t{s.counts.inputs - prefix.inputs, s.counts.aux - prefix.aux,
                   s.counts.constraints - prefix.constraints};
  const counts_t t = total();
  if (uint64_t(prefix.inputs) + uint64_t(part_.inputs) * parts > ref_index ||
      uint64_t(prefix.aux) + uint64_t(part_.aux) * parts > ref_index ||
      uint64_t(prefix.constraints) + uint64_t(part_.constraints) * parts > UINT32_MAX)
    throw std::invalid_argument("abc_program_t: " + std::to_string(parts) + " parts of " +
                                to_string(part_) + " exceed the program's 2^30 variables");
  (void)t;
  coeffs_.resize(s.coeffs.size());
  small_.resize(s.coeffs.size());
  for (size_t i = 0; i < s.coeffs.size(); ++i) {
    coeffs_[i].k = s.coeffs[i];
    coeffs_[i].is_small = small_of(s.coeffs[i], coeffs_[i].small);
    small_[i] = coeffs_[i].is_small ? coeffs_[i].small : not_small;
  }
  const uint64_t rows = s.counts.constraints;
  row_.reserve(3 * rows + 1);
  ref_.reserve(s.terms);
  coeff_.reserve(s.terms);
  row_.push_back(0);
  for (uint64_t r = 0; r < rows; ++r) {
    for (const r1cs_matrix_t* m : {&s.a, &s.b, &s.c}) {
      // The integer part of a row must not overflow: Σ|k| over its small coefficients.
      uint64_t magnitude = 0;
      for (uint64_t t = m->row_ptr[r]; t < m->row_ptr[r + 1]; ++t) {
        const var_t x{m->var[t]};
        const uint32_t i = x.index();
        uint32_t ref = i;
        if (x.is_input()) {
          if (i >= prefix.inputs) ref |= ref_own;
        } else {
          ref |= ref_aux;
          if (i >= prefix.aux) ref |= ref_own;
        }
        if (r < prefix.constraints && (ref & ref_own))
          throw std::invalid_argument("abc_program_t: constraint " + std::to_string(r) +
                                      " of the prefix uses a variable of the part");
        ref_.push_back(ref);
        coeff_.push_back(m->coeff[t]);
        const coeff_t& c = coeffs_[m->coeff[t]];
        if (c.is_small) magnitude += uint64_t(c.small < 0 ? -c.small : c.small);
      }
      if (magnitude >= (uint64_t(1) << 62))
        throw std::invalid_argument("abc_program_t: constraint " + std::to_string(r) +
                                    " sums integer coefficients beyond 2^62");
      row_.push_back(ref_.size());
    }
  }
}

counts_t abc_program_t::total() const {
  return counts_t{prefix_.inputs + part_.inputs * parts_, prefix_.aux + part_.aux * parts_,
                  prefix_.constraints + part_.constraints * parts_};
}

uint64_t abc_program_t::bytes_kept() const {
  return row_.size() * sizeof(uint64_t) + ref_.size() * sizeof(uint32_t) +
         coeff_.size() * sizeof(uint32_t) + coeffs_.size() * (sizeof(coeff_t) + sizeof(int64_t));
}

std::vector<fr_t> abc_program_t::others_of(const formats::witness_bits_t& bits) {
  std::vector<fr_t> out(bits.n_others);
  parallel_for(out.size(), [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      fr_t::big_t x;
      std::memcpy(x.l, bits.others + 32 * i, 32);
      out[i] = fr_t::from_canonical(x);
    }
  });
  return out;
}

void abc_program_t::eval_rows(uint64_t first, uint64_t end, const uint64_t bases[4],
                              const witness_t& w, fr_t* a, fr_t* b, fr_t* c) const {
  fr_t* out[3] = {a, b, c};
  const formats::witness_bits_t::word_t* words = w.bits->words.data();
  for (uint64_t r = first; r < end; ++r) {
    for (int m = 0; m < 3; ++m) {
      int64_t small = 0;
      fr_t big{};
      bool has_big = false;
      const uint64_t t_end = row_[3 * r + m + 1];
      for (uint64_t t = row_[3 * r + m]; t < t_end; ++t) {
        const uint32_t ref = ref_[t];
        const uint64_t i = bases[ref >> 30] + (ref & ref_index);
        const auto& word = words[i >> 6];
        const uint64_t bit = uint64_t(1) << (i & 63);
        const uint32_t id = coeff_[t];
        if (__builtin_expect(!(word.other & bit), 1)) {
          // A bit: its value decides nothing but an addend (random bits defeat a branch).
          const int64_t on = int64_t((word.one >> (i & 63)) & 1);
          const int64_t k = small_[id];
          if (k != not_small) {
            small += k & -on;
          } else if (on) {
            big += coeffs_[id].k;
            has_big = true;
          }
          continue;
        }
        const fr_t& v =
            w.others[word.rank + uint64_t(__builtin_popcountll(word.other & (bit - 1)))];
        const int64_t k = small_[id];
        if (k == 1)
          big += v;
        else if (k == -1)
          big -= v;
        else
          big += coeffs_[id].k * v;
        has_big = true;
      }
      const fr_t s = fr_from_i64(small);
      out[m][r - first] = has_big ? big + s : s;
    }
  }
}

void abc_program_t::eval_part(uint32_t k, const witness_t& w, fr_t* a, fr_t* b, fr_t* c) const {
  if (k >= parts_)
    throw std::out_of_range("abc_program_t: part " + std::to_string(k) + " of " +
                            std::to_string(parts_));
  const uint64_t n_in = total().inputs;
  const uint64_t bases[4] = {0, uint64_t(part_.inputs) * k, n_in, n_in + uint64_t(part_.aux) * k};
  eval_rows(prefix_.constraints, uint64_t(prefix_.constraints) + part_.constraints, bases, w, a, b,
            c);
}

void abc_program_t::eval_prefix(const witness_t& w, fr_t* a, fr_t* b, fr_t* c) const {
  const uint64_t n_in = total().inputs;
  const uint64_t bases[4] = {0, 0, n_in, n_in};
  eval_rows(0, prefix_.constraints, bases, w, a, b, c);
}

void abc_program_t::eval(const witness_t& w, const assignment_view_t& out,
                         const stop_t& stop) const {
  const counts_t t = total();
  if (w.bits->n != uint64_t(t.inputs) + t.aux)
    throw std::invalid_argument("abc_program_t: a witness of " + std::to_string(w.bits->n) +
                                " values for a circuit of " + to_string(t));
  std::atomic<bool> stopped{false};
  // Task 0 is the prefix, task k + 1 part k.
  run_parallel(
      [&](size_t task) {
        if (stopped.load(std::memory_order_relaxed) || stop_requested(stop)) {
          stopped.store(true, std::memory_order_relaxed);
          return;
        }
        if (task == 0) {
          eval_prefix(w, out.a, out.b, out.c);
          return;
        }
        const uint32_t k = uint32_t(task - 1);
        const uint64_t at = prefix_.constraints + uint64_t(part_.constraints) * k;
        eval_part(k, w, out.a + at, out.b + at, out.c + at);
      },
      size_t(parts_) + 1);
  if (stopped) throw cancelled_error("rebuilding a, b, c: stopped (cancelled)");
  for (uint32_t i = 0; i < t.inputs; ++i) {
    const uint64_t row = uint64_t(t.constraints) + i;
    if (w.bits->is_other(i))
      out.a[row] = w.others[w.bits->rank(i)];
    else
      out.a[row] = w.bits->is_one(i) ? fr_t::one() : fr_t{};
    out.b[row] = fr_t{};
    out.c[row] = fr_t{};
  }
}

}  // namespace zk::bellperson
