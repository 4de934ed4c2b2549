#include "zk/bellperson/abc_program.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "zk/base/thread_pool.hpp"

namespace zk::bellperson {

namespace {

constexpr uint32_t ref_aux = 1u << 31;
constexpr uint32_t ref_own = 1u << 30;
constexpr uint32_t ref_index = ref_own - 1;
constexpr int64_t small_bound = int64_t(1) << 40;
// A term's coefficient is kept in the term's upper 32 bits, signed: an integer k = m·2^e of
// magnitude at most 2^40 as v = m·64 + e (v above escape_top: the powers of two of the uint32
// and packing gadgets, 2^31 and 2^32 included, stay inline); every other coefficient (larger,
// or whose m does not fit) as escape_base + its index into coeffs_. The hot loop reads one
// 8-byte word a term and decodes k = (v >> 6) << (v & 63).
constexpr int64_t escape_base = INT32_MIN;
constexpr int64_t max_escapes = int64_t(1) << 24;
constexpr int64_t escape_top = escape_base + max_escapes - 1;

inline int64_t inline_coeff(int64_t v) { return int64_t(uint64_t(v >> 6) << (v & 63)); }

// k's inline code, or false when k is not kept inline.
bool inline_code(int64_t k, int64_t& v) {
  if (k == 0) {
    v = 0;
    return true;
  }
  const unsigned e = unsigned(__builtin_ctzll(uint64_t(k < 0 ? -k : k)));
  const int64_t m = k / (int64_t(1) << e);
  const int64_t code = m * 64 + int64_t(e);
  if (code <= escape_top || code > INT32_MAX) return false;
  v = code;
  return true;
}
// Rows of the stored structure a task evaluates for every part in turn: their terms (~70 bytes a
// row at 32 GiB) stay in the core's L2 cache while the parts reuse them, so the structure is read
// from memory once a partition instead of once a part (18 times at 32 GiB: 8.8 GB of reads).
constexpr uint64_t block_rows = 8192;

// v into *dst with streaming stores (when dst is 16-byte aligned): a, b, c are written once and
// read next by the prover's transforms, long after they would have left the cache, so their lines
// are not read in before being overwritten (half the memory traffic of plain stores).
inline void put_row(fr_t* dst, const fr_t& v, bool stream) {
#if defined(__SSE2__)
  if (stream) {
    auto* d = reinterpret_cast<__m128i*>(dst);
    const auto* s = reinterpret_cast<const __m128i*>(v.l);
    _mm_stream_si128(d, _mm_loadu_si128(s));
    _mm_stream_si128(d + 1, _mm_loadu_si128(s + 1));
    return;
  }
#endif
  (void)stream;
  *dst = v;
}

inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

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

// The other values of a packed witness (canonical, 32 bytes each) in Montgomery form.
std::vector<fr_t> others_of(const formats::witness_bits_t& bits) {
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
  if (s.coeffs.size() > uint64_t(max_escapes))
    throw std::invalid_argument("abc_program_t: " + std::to_string(s.coeffs.size()) +
                                " distinct coefficients exceed the program's " +
                                std::to_string(max_escapes));
  coeffs_.resize(s.coeffs.size());
  for (size_t i = 0; i < s.coeffs.size(); ++i) {
    coeffs_[i].k = s.coeffs[i];
    coeffs_[i].is_small = small_of(s.coeffs[i], coeffs_[i].small);
  }
  const uint64_t rows = s.counts.constraints;
  row_.reserve(3 * rows + 1);
  term_.reserve(s.terms);
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
        const coeff_t& c = coeffs_[m->coeff[t]];
        // The coefficient's inline code where it has one, else its escape.
        int64_t code = 0;
        if (!c.is_small || !inline_code(c.small, code)) code = escape_base + m->coeff[t];
        term_.push_back(uint64_t(ref) | (uint64_t(uint32_t(int32_t(code))) << 32));
        if (c.is_small) magnitude += uint64_t(c.small < 0 ? -c.small : c.small);
      }
      if (magnitude >= (uint64_t(1) << 62))
        throw std::invalid_argument("abc_program_t: constraint " + std::to_string(r) +
                                    " sums integer coefficients beyond 2^62");
      row_.push_back(term_.size());
    }
  }
}

counts_t abc_program_t::total() const {
  return counts_t{prefix_.inputs + part_.inputs * parts_, prefix_.aux + part_.aux * parts_,
                  prefix_.constraints + part_.constraints * parts_};
}

uint64_t abc_program_t::bytes_kept() const {
  return row_.size() * sizeof(uint64_t) + term_.size() * sizeof(uint64_t) +
         coeffs_.size() * sizeof(coeff_t);
}

// One term that is not a bit with an inline coefficient (a field value of the witness, or an
// escaped coefficient), added to the row's sums: out of the hot loop, which meets one in every
// ~10 terms at most (1.3 % of a Filecoin witness's values are not bits).
void abc_program_t::add_exceptional(uint64_t term, uint64_t i, const witness_t& w, int64_t& small,
                                    fr_t& big) const {
  const int64_t v = int32_t(uint32_t(term >> 32));  // the coefficient's code, or an escape
  const auto& word = w.bits->words[i >> 6];
  const uint64_t bit = uint64_t(1) << (i & 63);
  if (!(word.other & bit)) {  // a bit: an escaped coefficient
    if (!(word.one & bit)) return;
    const coeff_t& c = coeffs_[uint64_t(v - escape_base)];
    if (c.is_small)
      small += c.small;
    else
      big += c.k;
    return;
  }
  const fr_t& x = w.others[word.rank + uint64_t(__builtin_popcountll(word.other & (bit - 1)))];
  if (v <= escape_top) {
    big += coeffs_[uint64_t(v - escape_base)].k * x;
    return;
  }
  const int64_t k = inline_coeff(v);
  if (k == 1)
    big += x;
  else if (k == -1)
    big -= x;
  else
    big += fr_from_i64(k) * x;
}

void abc_program_t::eval_rows(uint64_t first, uint64_t end, const uint64_t bases[4],
                              const witness_t& w, fr_t* a, fr_t* b, fr_t* c) const {
  fr_t* const out[3] = {a, b, c};
  const bool stream = ((uintptr_t(a) | uintptr_t(b) | uintptr_t(c)) & 15) == 0;
  const formats::witness_bits_t::word_t* __restrict words = w.bits->words.data();
  const uint64_t* __restrict terms = term_.data();
  const uint64_t* __restrict row = row_.data();
  const uint64_t base[4] = {bases[0], bases[1], bases[2], bases[3]};
  for (uint64_t r = first; r < end; ++r) {
    for (int m = 0; m < 3; ++m) {
      // The hot loop: bits with inline coefficients, summed as integers (a bit's value decides
      // an addend, never a branch: random bits defeat a predictor).
      int64_t small = 0;
      uint64_t t = row[3 * r + m];
      const uint64_t t_end = row[3 * r + m + 1];
      fr_t big{};
      bool has_big = false;
      for (; t < t_end; ++t) {
        const uint64_t term = terms[t];
        const uint32_t ref = uint32_t(term);
        const int64_t v = int32_t(uint32_t(term >> 32));
        const uint64_t i = base[ref >> 30] + (ref & ref_index);
        const auto& word = words[i >> 6];
        const unsigned sh = unsigned(i & 63);
        if (__builtin_expect(((word.other >> sh) & 1) | (v <= escape_top), 0)) {
          add_exceptional(term, i, w, small, big);
          has_big = true;
          continue;
        }
        small += inline_coeff(v) & -int64_t((word.one >> sh) & 1);
      }
      fr_t* dst = out[m] + (r - first);
      if (__builtin_expect(!has_big, 1))
        put_row(dst, fr_from_i64(small), stream);
      else
        put_row(dst, big + fr_from_i64(small), stream);
    }
  }
}

void abc_program_t::eval(const formats::witness_bits_t& bits, const assignment_view_t& out,
                         const stop_t& stop) const {
  const counts_t t = total();
  if (bits.n != uint64_t(t.inputs) + t.aux)
    throw std::invalid_argument("abc_program_t: a witness of " + std::to_string(bits.n) +
                                " values for a circuit of " + to_string(t));
  const std::vector<fr_t> others = others_of(bits);
  const witness_t w{&bits, others.data()};
  const uint64_t n_in = t.inputs;
  const uint64_t prefix_blocks = (uint64_t(prefix_.constraints) + block_rows - 1) / block_rows;
  const uint64_t part_blocks = (uint64_t(part_.constraints) + block_rows - 1) / block_rows;
  std::atomic<bool> stopped{false};
  auto stopping = [&] {
    if (stopped.load(std::memory_order_relaxed) || stop_requested(stop)) {
      stopped.store(true, std::memory_order_relaxed);
      return true;
    }
    return false;
  };
  // Tasks [0, prefix_blocks): blocks of the prefix's rows; then blocks of the part's rows, each
  // evaluated for part 0, 1, … in turn with the part's own variables moved by k parts.
  run_parallel(
      [&](size_t task) {
        if (stopping()) return;
        if (task < prefix_blocks) {
          const uint64_t r0 = task * block_rows;
          const uint64_t r1 = std::min<uint64_t>(prefix_.constraints, r0 + block_rows);
          const uint64_t bases[4] = {0, 0, n_in, n_in};
          eval_rows(r0, r1, bases, w, out.a + r0, out.b + r0, out.c + r0);
        } else {
          const uint64_t r0 = prefix_.constraints + (task - prefix_blocks) * block_rows;
          const uint64_t r1 = std::min<uint64_t>(uint64_t(prefix_.constraints) + part_.constraints,
                                                 r0 + block_rows);
          for (uint32_t k = 0; k < parts_; ++k) {
            if (k % 4 == 3 && stopping()) return;
            const uint64_t bases[4] = {0, uint64_t(part_.inputs) * k, n_in,
                                       n_in + uint64_t(part_.aux) * k};
            const uint64_t at = r0 + uint64_t(part_.constraints) * k;
            eval_rows(r0, r1, bases, w, out.a + at, out.b + at, out.c + at);
          }
        }
        stream_fence();  // this thread's streamed rows visible before the task counts as done
      },
      size_t(prefix_blocks + part_blocks));
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
