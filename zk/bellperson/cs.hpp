#pragma once
// Constraint systems that number variables and constraints exactly as bellperson does, so that a
// circuit written once against them (the gadgets of this folder, the Filecoin circuit of
// zk/filecoin/porep/circuit/circuit.hpp) synthesizes to the R1CS a bellperson `.params` file was
// generated for.
//
// bellpepper-core 0.2.1 (src/constraint_system.rs, src/lc.rs), bellperson 0.27.0
// (src/groth16/prover/mod.rs ProvingAssignment, src/groth16/generator.rs KeypairAssembly):
//   * two index spaces, Input(i) and Aux(i), each numbered in allocation order; Input(0) is the
//     constant ONE, allocated by the constraint system before the circuit runs. A circuit
//     interleaves alloc and alloc_input freely (the Filecoin circuit makes values public deep
//     inside its gadgets), so no renumbering into one "wires" space happens here;
//   * a constraint ⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩ over linear combinations whose terms are kept sorted,
//     inputs first, then aux, each by index; adding a variable already present adds to its
//     coefficient, and a coefficient that cancels to zero stays as a term (bellpepper's Indexer
//     never removes one);
//   * after the circuit, the prover and the parameter generator append one constraint per input
//     i (ONE included), A = Input(i), B = C = 0, and work over the smallest power-of-two domain
//     that holds all constraints;
//   * the prover's DensityTrackers (src/lc.rs eval_with_trackers): an aux variable is in the A
//     density when it appears with a nonzero coefficient in some A; inputs and aux variables are
//     in the B densities when they appear with a nonzero coefficient in some B. The generator
//     drops the points at infinity of the a, b_g1 and b_g2 queries, which are exactly the
//     variables outside these densities (every input is in A through its input constraint), so
//     the densities say which key points each MSM pairs with which assignment.
//
// Three modes share the circuit code (a circuit is a template over CS):
//   shape_cs_t  records the R1CS once per circuit: counts, the densities, a digest of every term
//               (the circuit's hash, for caching keys), and optionally the matrices themselves.
//               Values are not needed: a circuit synthesized for its shape may carry zeros.
//   prove_cs_t  writes the input and aux assignments and a_i, b_i, c_i of every constraint
//               straight into caller-provided arrays, from a start position (a challenge of the
//               Filecoin circuit occupies a known range of each, so challenges synthesize in
//               parallel). A linear combination is only its value here (value_lc_t), kept as a
//               small integer part plus a field part so that the bit gadgets — almost every
//               constraint — cost integer additions and one table lookup per value; nothing is
//               allocated per constraint.
//   count_cs_t  counts inputs, aux variables and constraints (bellperson's MetricCS figures).
//
// The linear-combination interface every mode implements (shape keeps terms, prove keeps the
// value, count keeps nothing); values passed alongside variables are their assigned values:
//   add_one() / add_one(k) / sub_one(k)              + ONE, + k·ONE, − k·ONE
//   add_var(x, v) / sub_var(x, v) / add_var(k, x, v) + x, − x, + k·x           (x has value v)
//   add_bit(x, b) / sub_bit(x, b) / add_bit(k, x, b) / sub_bit(k, x, b)   (x has boolean value b)
//   add_bit_pow2(i, x, b)                            + 2^i·x
//   add_lc(o) / sub_lc(o) / add_lc(k, o) / sub_lc(k, o)   + o, − o, + k·o, − k·o
//   scale(k)                                         every coefficient times k
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/msm/density.hpp"

namespace zk::bellperson {

using fr_t = bls12_381::fr_t;

// A bellperson Variable. `raw` orders as bellpepper iterates a linear combination: inputs
// (bit 31 clear) by index, then aux variables (bit 31 set) by index.
struct var_t {
  static constexpr uint32_t aux_flag = 1u << 31;
  uint32_t raw = 0;

  static constexpr var_t input(uint32_t i) { return var_t{i}; }
  static constexpr var_t aux(uint32_t i) { return var_t{i | aux_flag}; }
  constexpr bool is_input() const { return (raw & aux_flag) == 0; }
  constexpr uint32_t index() const { return raw & ~aux_flag; }
  friend constexpr bool operator==(var_t x, var_t y) { return x.raw == y.raw; }
  friend constexpr bool operator!=(var_t x, var_t y) { return x.raw != y.raw; }
};

inline constexpr var_t one_var = var_t::input(0);  // CS::one()

// 2^i in Fr for i < 256, built once.
const fr_t& pow2_fr(unsigned i);

namespace detail {
inline constexpr int64_t small_fr_bound = 64;
constexpr std::array<fr_t, 2 * small_fr_bound + 1> make_small_fr_table() {
  std::array<fr_t, 2 * small_fr_bound + 1> t{};
  for (int64_t v = -small_fr_bound; v <= small_fr_bound; ++v) {
    const fr_t m = fr_t::from_u64(uint64_t(v < 0 ? -v : v));
    t[size_t(v + small_fr_bound)] = v < 0 ? fr_t::zero() - m : m;
  }
  return t;
}
// −64 … 64 in Montgomery form, computed at compile time (no guard on the hot path).
inline constexpr std::array<fr_t, 2 * small_fr_bound + 1> small_fr_table = make_small_fr_table();
fr_t fr_from_i64_large(int64_t v);
}  // namespace detail

// A signed 64-bit integer as an element of Fr (small magnitudes from a table).
inline fr_t fr_from_i64(int64_t v) {
  if (v >= -detail::small_fr_bound && v <= detail::small_fr_bound)
    return detail::small_fr_table[size_t(v + detail::small_fr_bound)];
  return detail::fr_from_i64_large(v);
}

// Numbers of variables and constraints at some point of a synthesis.
struct counts_t {
  uint32_t inputs = 0;       // ONE included
  uint32_t aux = 0;          // aux variables
  uint32_t constraints = 0;  // the circuit's own (the appended input constraints not included)
  friend bool operator==(const counts_t& x, const counts_t& y) {
    return x.inputs == y.inputs && x.aux == y.aux && x.constraints == y.constraints;
  }
  friend bool operator!=(const counts_t& x, const counts_t& y) { return !(x == y); }
};
std::string to_string(const counts_t& c);

// ---- linear combinations ---------------------------------------------------------------------

struct term_t {
  var_t var;
  fr_t coeff;
};

// Shape mode: bellpepper's LinearCombination (terms sorted by var.raw, coefficients merged,
// cancelled terms kept).
class term_lc_t {
 public:
  term_lc_t& add_one() { return insert(one_var, fr_t::one()); }
  term_lc_t& add_one(const fr_t& k) { return insert(one_var, k); }
  term_lc_t& sub_one(const fr_t& k) { return insert(one_var, -k); }
  term_lc_t& add_var(var_t x, const fr_t&) { return insert(x, fr_t::one()); }
  term_lc_t& sub_var(var_t x, const fr_t&) { return insert(x, -fr_t::one()); }
  term_lc_t& add_var(const fr_t& k, var_t x, const fr_t&) { return insert(x, k); }
  term_lc_t& add_bit(var_t x, bool) { return insert(x, fr_t::one()); }
  term_lc_t& sub_bit(var_t x, bool) { return insert(x, -fr_t::one()); }
  term_lc_t& add_bit(const fr_t& k, var_t x, bool) { return insert(x, k); }
  term_lc_t& sub_bit(const fr_t& k, var_t x, bool) { return insert(x, -k); }
  term_lc_t& add_bit_pow2(unsigned i, var_t x, bool) { return insert(x, pow2_fr(i)); }
  term_lc_t& add_lc(const term_lc_t& o) {
    return merge(o, [](const fr_t& c) { return c; });
  }
  term_lc_t& sub_lc(const term_lc_t& o) {
    return merge(o, [](const fr_t& c) { return -c; });
  }
  // bellpepper: `lc + (k, &o)` adds val·k for each term of o.
  term_lc_t& add_lc(const fr_t& k, const term_lc_t& o) {
    return merge(o, [&k](const fr_t& c) { return c * k; });
  }
  term_lc_t& sub_lc(const fr_t& k, const term_lc_t& o) {
    return merge(o, [&k](const fr_t& c) { return -(c * k); });
  }
  term_lc_t& scale(const fr_t& k) {
    for (auto& t : terms_) t.coeff = t.coeff * k;
    return *this;
  }

  const std::vector<term_t>& terms() const { return terms_; }
  size_t size() const { return terms_.size(); }

 private:
  term_lc_t& insert(var_t x, const fr_t& k) {
    if (terms_.empty()) terms_.reserve(4);
    if (terms_.empty() || terms_.back().var.raw < x.raw) {
      terms_.push_back({x, k});
      return *this;
    }
    size_t lo = 0, hi = terms_.size();
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (terms_[mid].var.raw < x.raw)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (terms_[lo].var.raw == x.raw)
      terms_[lo].coeff += k;
    else
      terms_.insert(terms_.begin() + std::ptrdiff_t(lo), term_t{x, k});
    return *this;
  }
  // Adds f(coefficient) of every term of o: the same result as inserting them one by one, in
  // one pass over both sorted lists.
  template <class F>
  term_lc_t& merge(const term_lc_t& o, F f) {
    if (o.terms_.empty()) return *this;
    if (terms_.empty() || terms_.back().var.raw < o.terms_.front().var.raw) {
      terms_.reserve(terms_.size() + o.terms_.size());
      for (const auto& t : o.terms_) terms_.push_back({t.var, f(t.coeff)});
      return *this;
    }
    std::vector<term_t> out;
    out.reserve(terms_.size() + o.terms_.size());
    size_t i = 0, j = 0;
    while (i < terms_.size() || j < o.terms_.size()) {
      if (j == o.terms_.size() || (i < terms_.size() && terms_[i].var.raw < o.terms_[j].var.raw)) {
        out.push_back(terms_[i++]);
      } else if (i == terms_.size() || o.terms_[j].var.raw < terms_[i].var.raw) {
        out.push_back({o.terms_[j].var, f(o.terms_[j].coeff)});
        ++j;
      } else {
        out.push_back({terms_[i].var, terms_[i].coeff + f(o.terms_[j].coeff)});
        ++i, ++j;
      }
    }
    terms_ = std::move(out);
    return *this;
  }
  std::vector<term_t> terms_;
};

// Prove mode: the value Σ k·v, as an exact integer part plus a field part. Bits with unit or
// power-of-two coefficients, ONE and the integer sums of the SHA-256 gadget stay in `small_`; the
// field part takes everything else.
class value_lc_t {
 public:
  value_lc_t& add_one() { return small_ += 1, *this; }
  value_lc_t& add_one(const fr_t& k) { return big() += k, *this; }
  value_lc_t& sub_one(const fr_t& k) { return big() -= k, *this; }
  value_lc_t& add_var(var_t, const fr_t& v) { return big() += v, *this; }
  value_lc_t& sub_var(var_t, const fr_t& v) { return big() -= v, *this; }
  value_lc_t& add_var(const fr_t& k, var_t, const fr_t& v) { return big() += k * v, *this; }
  value_lc_t& add_bit(var_t, bool b) { return small_ += b, *this; }
  value_lc_t& sub_bit(var_t, bool b) { return small_ -= b, *this; }
  value_lc_t& add_bit(const fr_t& k, var_t, bool b) {
    if (b) big() += k;
    return *this;
  }
  value_lc_t& sub_bit(const fr_t& k, var_t, bool b) {
    if (b) big() -= k;
    return *this;
  }
  value_lc_t& add_bit_pow2(unsigned i, var_t, bool b) {
    if (i < 40)
      small_ += int64_t(b) << i;
    else if (b)
      big() += pow2_fr(i);
    return *this;
  }
  value_lc_t& add_lc(const value_lc_t& o) {
    small_ += o.small_;
    if (o.has_big_) big() += o.big_;
    return *this;
  }
  value_lc_t& sub_lc(const value_lc_t& o) {
    small_ -= o.small_;
    if (o.has_big_) big() -= o.big_;
    return *this;
  }
  value_lc_t& add_lc(const fr_t& k, const value_lc_t& o) { return big() += k * o.value(), *this; }
  value_lc_t& sub_lc(const fr_t& k, const value_lc_t& o) { return big() -= k * o.value(), *this; }
  value_lc_t& scale(const fr_t& k) {
    const fr_t v = value() * k;
    big() = v;
    small_ = 0;
    return *this;
  }
  // An integer added as a whole (the prove-mode fast path of the SHA-256 gadget's sums).
  value_lc_t& add_integer(int64_t v) { return small_ += v, *this; }

  fr_t value() const {
    const fr_t s = fr_from_i64(small_);
    return has_big_ ? big_ + s : s;
  }

 private:
  fr_t& big() {
    has_big_ = true;
    return big_;
  }
  int64_t small_ = 0;
  bool has_big_ = false;  // big_ holds something (else it is zero: bit-only combinations)
  fr_t big_{};
};

// Count mode: nothing.
class empty_lc_t {
 public:
  empty_lc_t& add_one() { return *this; }
  empty_lc_t& add_one(const fr_t&) { return *this; }
  empty_lc_t& sub_one(const fr_t&) { return *this; }
  empty_lc_t& add_var(var_t, const fr_t&) { return *this; }
  empty_lc_t& sub_var(var_t, const fr_t&) { return *this; }
  empty_lc_t& add_var(const fr_t&, var_t, const fr_t&) { return *this; }
  empty_lc_t& add_bit(var_t, bool) { return *this; }
  empty_lc_t& sub_bit(var_t, bool) { return *this; }
  empty_lc_t& add_bit(const fr_t&, var_t, bool) { return *this; }
  empty_lc_t& sub_bit(const fr_t&, var_t, bool) { return *this; }
  empty_lc_t& add_bit_pow2(unsigned, var_t, bool) { return *this; }
  empty_lc_t& add_lc(const empty_lc_t&) { return *this; }
  empty_lc_t& sub_lc(const empty_lc_t&) { return *this; }
  empty_lc_t& add_lc(const fr_t&, const empty_lc_t&) { return *this; }
  empty_lc_t& sub_lc(const fr_t&, const empty_lc_t&) { return *this; }
  empty_lc_t& scale(const fr_t&) { return *this; }
  empty_lc_t& add_integer(int64_t) { return *this; }
};

// ---- the recorded shape --------------------------------------------------------------------

// One bit per variable of an index space (bellperson's DensityTracker).
using msm::density_t;  // bellperson's DensityTracker (zk/msm/density.hpp)

// Compressed rows: row i holds terms [row_ptr[i], row_ptr[i+1]) of `var` (raw) and `coeff`
// (an index into r1cs_shape_t::coeffs), in bellpepper's order, cancelled terms included.
struct r1cs_matrix_t {
  std::vector<uint64_t> row_ptr{0};
  std::vector<uint32_t> var;
  std::vector<uint32_t> coeff;
};

// A named range of a synthesis (a challenge, a labeling layer, a Merkle inclusion): where it
// starts; the next region (or the end) is where it stops.
struct region_t {
  counts_t start;
  std::string name;
};

struct r1cs_shape_t {
  counts_t counts;
  uint64_t terms = 0;  // of A, B and C together (bellpepper's lc_terms)
  bool has_matrices = false;
  r1cs_matrix_t a, b, c;
  std::vector<fr_t> coeffs;  // distinct coefficients, in order of first use
  density_t a_aux, b_input, b_aux;
  // SHA-256 of the term stream (docs/filecoin.md, "the circuit's hash"):
  //   "zkfleet/bellperson-r1cs/v1" ‖ for each constraint, for A, B, C: u32le n_terms ‖
  //   n_terms × (u32le var.raw ‖ u32le coefficient index) ‖ u32le inputs ‖ u32le aux ‖
  //   u32le constraints ‖ u32le n_coeffs ‖ the coefficients (32 bytes canonical little-endian
  //   each) in index order — the index of a coefficient being the order of its first appearance
  //   in the term stream (coeffs above), so the digest depends on the terms alone
  bytes32_t digest{};
  std::vector<region_t> regions;

  // Constraints the prover evaluates (input constraints appended) and its FFT domain.
  uint64_t prover_constraints() const { return uint64_t(counts.constraints) + counts.inputs; }
  uint64_t domain_size() const;
  std::string digest_hex() const;
  // The region holding constraint `i` (its name, "" when there is none).
  std::string region_of_constraint(uint64_t i) const;
};

// ⟨row i of m, (inputs, aux)⟩.
fr_t eval_row(const r1cs_shape_t& s, const r1cs_matrix_t& m, uint64_t i, const fr_t* inputs,
              const fr_t* aux);

// ---- constraint systems ----------------------------------------------------------------------

class shape_cs_t {
 public:
  using lc_t = term_lc_t;
  static constexpr bool evaluates = false;

  // store_matrices: keep A, B, C (needed to generate keys or compare constraint by constraint);
  // without them the shape still has its counts, densities and digest.
  explicit shape_cs_t(bool store_matrices = true);

  var_t alloc(const fr_t&) {
    shape_.a_aux.push();
    shape_.b_aux.push();
    return var_t::aux(shape_.counts.aux++);
  }
  var_t alloc_bit(bool) { return alloc(fr_t{}); }
  var_t alloc_input(const fr_t&) {
    shape_.b_input.push();
    return var_t::input(shape_.counts.inputs++);
  }
  void enforce(const lc_t& a, const lc_t& b, const lc_t& c);
  // Names the range that starts here (`name()` is called in shape mode only).
  template <class F>
  void region(F&& name) {
    shape_.regions.push_back({shape_.counts, std::string(name())});
  }
  counts_t counts() const { return shape_.counts; }

  // Circuits made of identical parts (the Filecoin circuit's challenges): start_part() marks
  // where a part begins; after synthesizing one part, repeat_part(n, rename) appends n more copies
  // of everything recorded since the mark — variables allocated since the mark moved by the part's
  // own counts for each copy, the others (shared ones, ONE) unchanged — exactly what n more
  // syntheses of a part that allocates the same way would record, at the cost of copying. Region
  // names of copy k (1 … n) are rename(name, k).
  void start_part();
  void repeat_part(uint32_t n,
                   const std::function<std::string(const std::string&, uint32_t)>& rename);
  // The same for parts that also read shared variables that differ from copy to copy (the
  // SnapDeals circuit: challenge k reads its own bits of the shared digests): where the part read
  // x, allocated before the mark, copy k reads shared(x, k). Every relocated linear combination
  // must keep bellpepper's order (variables strictly increasing): std::logic_error otherwise.
  void repeat_part(uint32_t n,
                   const std::function<std::string(const std::string&, uint32_t)>& rename,
                   const std::function<var_t(var_t, uint32_t)>& shared);

  // The recorded shape (the digest finished); the system is spent afterwards.
  r1cs_shape_t finish();

 private:
  // One linear combination as (var.raw, coefficient id) pairs.
  struct row_t {
    std::vector<uint32_t> var, id;
  };
  void to_row(const lc_t& lc, row_t& r);
  void emit(const row_t& a, const row_t& b, const row_t& c);
  void emit_lc(r1cs_matrix_t* m, const row_t& r);
  uint32_t coeff_id(const fr_t& k);
  void flush_digest();

  struct fr_hash_t {
    size_t operator()(const fr_t& x) const {
      return size_t(x.l[0] ^ (x.l[1] * 0x9E3779B97F4A7C15ULL) ^ (x.l[2] >> 7) ^ (x.l[3] << 13));
    }
  };
  r1cs_shape_t shape_;
  std::unordered_map<fr_t, uint32_t, fr_hash_t> coeff_ids_;
  struct cached_coeff_t {
    fr_t value;
    uint32_t id = ~uint32_t(0);
  };
  std::array<cached_coeff_t, 4096> coeff_cache_{};
  sha256_t digest_;
  std::vector<uint8_t> digest_buf_;
  bool finished_ = false;
  row_t ra_, rb_, rc_;  // scratch
  // The part being recorded (start_part): its start, its regions' index and its rows.
  bool recording_ = false;
  counts_t part_start_;
  size_t part_regions_ = 0;
  r1cs_matrix_t part_a_, part_b_, part_c_;
};

// Where a prove-mode synthesis writes: caller-owned arrays (Montgomery form) sized for the whole
// circuit: inputs[counts.inputs], aux[counts.aux], a/b/c[prover_constraints].
//   * aux may be a window: it then holds the variables from aux_first on (aux[0] is variable
//     aux_first), for a synthesis of one part of the circuit that keeps only that part's values;
//   * a, b, c null: the constraints are checked as they are made (a·b = c) and not stored — see
//     prove_cs_t::first_unsatisfied.
struct assignment_view_t {
  fr_t* inputs = nullptr;
  fr_t* aux = nullptr;
  fr_t* a = nullptr;
  fr_t* b = nullptr;
  fr_t* c = nullptr;
  counts_t capacity;  // constraints: the circuit's own (a, b, c hold inputs more)
  uint32_t aux_first = 0;
};

class prove_cs_t {
 public:
  using lc_t = value_lc_t;
  static constexpr bool evaluates = true;

  // Synthesizes into `out` from `start` (ONE not allocated here: a whole circuit starts with
  // alloc_input(1), as bellperson's prover does; a part starts where the shape says it does) up
  // to `limit` (exclusive): going past it throws std::length_error, naming what overflowed.
  // (Non-temporal stores were tried for the arrays, far larger than the caches: slower here.)
  prove_cs_t(const assignment_view_t& out, counts_t start, counts_t limit)
      : out_(out), at_(start), limit_(limit) {}
  explicit prove_cs_t(const assignment_view_t& out) : prove_cs_t(out, counts_t{}, out.capacity) {}

  var_t alloc(const fr_t& v) {
    if (at_.aux == limit_.aux) overflow("aux variables");
    out_.aux[at_.aux - out_.aux_first] = v;
    return var_t::aux(at_.aux++);
  }
  var_t alloc_bit(bool b) {
    if (at_.aux == limit_.aux) overflow("aux variables");
    out_.aux[at_.aux - out_.aux_first] = b ? fr_t::one() : fr_t{};
    return var_t::aux(at_.aux++);
  }
  var_t alloc_input(const fr_t& v) {
    if (at_.inputs == limit_.inputs) overflow("inputs");
    out_.inputs[at_.inputs] = v;
    return var_t::input(at_.inputs++);
  }
  void enforce(const lc_t& a, const lc_t& b, const lc_t& c) {
    if (at_.constraints == limit_.constraints) overflow("constraints");
    if (out_.a) {
      out_.a[at_.constraints] = a.value();
      out_.b[at_.constraints] = b.value();
      out_.c[at_.constraints] = c.value();
    } else if (check_ && !unsatisfied_ && !(a.value() * b.value() == c.value())) {
      unsatisfied_ = at_.constraints;
    }
    ++at_.constraints;
  }
  template <class F>
  void region(F&&) {}
  counts_t counts() const { return at_; }
  // Checking (a, b, c null): the first constraint whose a·b ≠ c, by its index in the counts this
  // system started from; nullopt while all hold.
  std::optional<uint32_t> first_unsatisfied() const { return unsatisfied_; }
  // With a, b, c null: false makes the constraints pass unchecked (a witness-only synthesis).
  void set_check(bool on) { check_ = on; }

  // Parts of this system's range synthesized apart (on other threads; the SnapDeals circuit's
  // apex tree, whose hashes sit at known places): part(start, limit) is a system over the same
  // arrays for [start, limit) that checks as this one does; once the parts between here and `at`
  // are done, skip_to(at) continues after them (at between the counts now and the limit, else
  // std::length_error) and joins(p) takes in a part's first unsatisfied constraint.
  prove_cs_t part(counts_t start, counts_t limit) const {
    prove_cs_t p(out_, start, limit);
    p.check_ = check_;
    return p;
  }
  void skip_to(counts_t at);
  void joins(const prove_cs_t& p) {
    if (p.unsatisfied_ && (!unsatisfied_ || *p.unsatisfied_ < *unsatisfied_))
      unsatisfied_ = p.unsatisfied_;
  }

 private:
  [[noreturn]] void overflow(const char* what) const;
  assignment_view_t out_;
  counts_t at_, limit_;
  std::optional<uint32_t> unsatisfied_;
  bool check_ = true;
};

// Appends bellperson's input constraints (A = Input(i), B = C = 0) after `n_constraints`.
void append_input_constraints(const assignment_view_t& out, counts_t counts);

class count_cs_t {
 public:
  using lc_t = empty_lc_t;
  static constexpr bool evaluates = false;

  // ONE is allocated here. With `regions`, the named ranges are recorded there (as shape mode
  // records them) for mapping a constraint index to a place in the circuit.
  explicit count_cs_t(std::vector<region_t>* regions = nullptr) : regions_(regions) {
    alloc_input(fr_t::one());
  }

  var_t alloc(const fr_t&) {
    ++field_aux_;
    return var_t::aux(at_.aux++);
  }
  var_t alloc_bit(bool) { return var_t::aux(at_.aux++); }
  var_t alloc_input(const fr_t&) { return var_t::input(at_.inputs++); }
  void enforce(const lc_t&, const lc_t&, const lc_t&) { ++at_.constraints; }
  template <class F>
  void region(F&& name) {
    if (regions_) regions_->push_back({at_, std::string(name())});
  }
  counts_t counts() const { return at_; }
  // Aux variables allocated as field elements (alloc), not as bits (alloc_bit): an upper bound on
  // the aux values that are neither 0 nor 1 (a packed witness's "others").
  uint64_t field_aux() const { return field_aux_; }

 private:
  counts_t at_;
  uint64_t field_aux_ = 0;
  std::vector<region_t>* regions_;
};

}  // namespace zk::bellperson
