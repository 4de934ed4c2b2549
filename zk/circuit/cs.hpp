#pragma once
// Native constraint systems: circuits written once as C++ templates over a constraint-system
// type CS, run in one of three modes that share the gadget code:
//
//   shape_cs_t<Fr>   records the R1CS (CSR matrices A, B, C) and the witness. Run once per
//                    circuit shape: the result is written as a circom .r1cs (r1cs_writer.hpp) and
//                    turned into a key by groth16::dev_setup.
//   prove_cs_t<Fr>   the witness and the evaluations a_i = ⟨A_i,w⟩, b_i = ⟨B_i,w⟩, c_i = ⟨C_i,w⟩
//                    computed in the same pass, straight into preallocated arrays: no matrix is
//                    built and no linear combination stores terms (lc = its value), so the hot
//                    path allocates nothing per constraint. finish() appends the zkey's nPublic+1
//                    input rows (A = w_s at row nConstraints+s, B = C = 0; docs/formats.md
//                    §2.4), so the arrays feed groth16::prover_t::load_abc as they are.
//   native_cs_t<Fr>  values only, no constraints: the same gadget code as a native function
//                    (Poseidon hashes of the synthetic Merkle tree).
//
// Wires (circom's convention, §1.2): wire 0 is the constant 1, wires 1..nPublic the public
// inputs, then everything else. A circuit declares its public inputs first: alloc_public after
// any private wire is a logic error (thrown), which keeps the numbering circom's without a remap.
//
// A constraint enforce(A, B, C) means ⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩. Gadgets compute every value as they
// go (the circuit is its own witness generator); the constraints only check.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/le_bytes.hpp"
#include "zk/ff/canonical.hpp"

namespace zk::circuit {

// ---- linear combinations -------------------------------------------------------------------

template <class Fr>
struct term_t {
  uint32_t wire;
  Fr coeff;
};

// Shape mode: sorted terms (wire ascending, no duplicates, no zero coefficients) and the value.
template <class Fr>
struct shape_lc_t {
  Fr value{};
  std::vector<term_t<Fr>> terms;

  shape_lc_t() = default;
  shape_lc_t(uint32_t wire, const Fr& coeff, const Fr& v) : value(v) {
    if (!coeff.is_zero()) terms.push_back({wire, coeff});
  }

  friend shape_lc_t operator+(const shape_lc_t& x, const shape_lc_t& y) {
    return combine(x, y, false);
  }
  friend shape_lc_t operator-(const shape_lc_t& x, const shape_lc_t& y) {
    return combine(x, y, true);
  }
  shape_lc_t& operator+=(const shape_lc_t& y) { return *this = combine(*this, y, false); }
  shape_lc_t& operator-=(const shape_lc_t& y) { return *this = combine(*this, y, true); }
  friend shape_lc_t operator*(const shape_lc_t& x, const Fr& k) {
    shape_lc_t r;
    r.value = x.value * k;
    if (k.is_zero()) return r;
    r.terms.reserve(x.terms.size());
    for (const auto& t : x.terms) r.terms.push_back({t.wire, t.coeff * k});
    return r;
  }
  friend shape_lc_t operator*(const Fr& k, const shape_lc_t& x) { return x * k; }

 private:
  // Merge of two sorted term lists; equal wires add (and vanish when they cancel).
  static shape_lc_t combine(const shape_lc_t& x, const shape_lc_t& y, bool negate) {
    shape_lc_t r;
    r.value = negate ? x.value - y.value : x.value + y.value;
    r.terms.reserve(x.terms.size() + y.terms.size());
    size_t i = 0, j = 0;
    while (i < x.terms.size() || j < y.terms.size()) {
      if (j == y.terms.size() || (i < x.terms.size() && x.terms[i].wire < y.terms[j].wire)) {
        r.terms.push_back(x.terms[i++]);
      } else {
        Fr c = negate ? -y.terms[j].coeff : y.terms[j].coeff;
        if (i < x.terms.size() && x.terms[i].wire == y.terms[j].wire) c = c + x.terms[i++].coeff;
        if (!c.is_zero()) r.terms.push_back({y.terms[j].wire, c});
        ++j;
      }
    }
    return r;
  }
};

// Prove and native modes: a linear combination is only its value.
template <class Fr>
struct value_lc_t {
  Fr value{};

  friend value_lc_t operator+(const value_lc_t& x, const value_lc_t& y) {
    return {x.value + y.value};
  }
  friend value_lc_t operator-(const value_lc_t& x, const value_lc_t& y) {
    return {x.value - y.value};
  }
  value_lc_t& operator+=(const value_lc_t& y) {
    value += y.value;
    return *this;
  }
  value_lc_t& operator-=(const value_lc_t& y) {
    value -= y.value;
    return *this;
  }
  friend value_lc_t operator*(const value_lc_t& x, const Fr& k) { return {x.value * k}; }
  friend value_lc_t operator*(const Fr& k, const value_lc_t& x) { return {x.value * k}; }
};

// ---- the recorded shape ----------------------------------------------------------------------

// Compressed sparse rows: row i holds terms [row_ptr[i], row_ptr[i+1]), wires ascending,
// coefficients in Montgomery form.
template <class Fr>
struct sparse_matrix_t {
  std::vector<uint64_t> row_ptr{0};
  std::vector<uint32_t> col;
  std::vector<Fr> coeff;

  uint64_t nnz() const { return col.size(); }
  uint64_t n_rows() const { return row_ptr.size() - 1; }
  // ⟨row i, w⟩ (w: any indexable witness: a std::vector, a prove_cs_t's column)
  template <class W>
  Fr eval_row(uint64_t i, const W& w) const {
    Fr acc{};
    for (uint64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) acc += coeff[k] * w[col[k]];
    return acc;
  }
};

template <class Fr>
struct r1cs_shape_t {
  uint32_t n_wires = 0;   // including wire 0
  uint32_t n_public = 0;  // wires 1..n_public (all declared as public inputs, none as outputs)
  sparse_matrix_t<Fr> a, b, c;

  uint32_t n_constraints() const { return uint32_t(a.n_rows()); }
};

// The first constraint i with ⟨A_i,w⟩·⟨B_i,w⟩ ≠ ⟨C_i,w⟩, or -1 when w satisfies every one.
// Throws std::invalid_argument when w.size() ≠ n_wires or w[0] ≠ 1.
template <class Fr, class W>
int64_t first_unsatisfied(const r1cs_shape_t<Fr>& s, const W& w) {
  if (w.size() != s.n_wires)
    throw std::invalid_argument("first_unsatisfied: witness has " + std::to_string(w.size()) +
                                " values, the shape " + std::to_string(s.n_wires) + " wires");
  if (!w[0].is_one()) throw std::invalid_argument("first_unsatisfied: w[0] is not 1");
  for (uint64_t i = 0; i < s.a.n_rows(); ++i) {
    if (s.a.eval_row(i, w) * s.b.eval_row(i, w) != s.c.eval_row(i, w)) return int64_t(i);
  }
  return -1;
}

// ---- constraint systems -------------------------------------------------------------------

namespace detail {
// A growable column of field elements with std::vector's small interface: either its own
// storage, or a caller's fixed region (a synth buffer's payload) filled in place, where pushing
// past the region's capacity throws std::length_error. A copy always owns its elements.
template <class Fr>
class column_t {
 public:
  column_t() = default;
  column_t(Fr* region, size_t capacity)
      : data_(region), size_(0), cap_(capacity), external_(true) {}
  column_t(const column_t& o) : own_(o.begin(), o.end()) { adopt_own(o.size_); }
  column_t(column_t&& o) noexcept { *this = std::move(o); }
  column_t& operator=(const column_t& o) {
    if (this != &o) {
      own_.assign(o.begin(), o.end());
      external_ = false;
      adopt_own(o.size_);
    }
    return *this;
  }
  column_t& operator=(column_t&& o) noexcept {
    own_ = std::move(o.own_);
    data_ = o.external_ ? o.data_ : own_.data();
    size_ = o.size_, cap_ = o.external_ ? o.cap_ : own_.size(), external_ = o.external_;
    o.data_ = nullptr, o.size_ = o.cap_ = 0, o.external_ = false;
    return *this;
  }

  void push_back(const Fr& v) {
    if (size_ == cap_) grow(size_ + 1);
    data_[size_++] = v;
  }
  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void clear() { size_ = 0; }
  void resize(size_t n) {  // shrinking, or growing with zeros
    if (n > cap_) grow(n);
    for (size_t i = size_; i < n; ++i) data_[i] = Fr{};
    size_ = n;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Fr* data() const { return data_; }
  Fr* data() { return data_; }
  const Fr& operator[](size_t i) const { return data_[i]; }
  Fr& operator[](size_t i) { return data_[i]; }
  const Fr* begin() const { return data_; }
  const Fr* end() const { return data_ + size_; }
  friend bool operator==(const column_t& x, const column_t& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }
  friend bool operator==(const column_t& x, const std::vector<Fr>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }

 private:
  void adopt_own(size_t size) { data_ = own_.data(), size_ = size, cap_ = own_.size(); }
  void grow(size_t need) {
    if (external_)
      throw std::length_error("constraint system: more than the " + std::to_string(cap_) +
                              " elements its caller's region holds (the circuit is larger than the "
                              "buffer sized for it)");
    own_.resize(std::max<size_t>({need, 2 * cap_, 16}));
    adopt_own(size_);
  }
  std::vector<Fr> own_;  // owned storage (its size is the capacity)
  Fr* data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
  bool external_ = false;
};

// Shared wire bookkeeping: the witness (a std::vector, or a column_t) and the public-first rule.
template <class Fr, class Store = std::vector<Fr>>
class wires_t {
 public:
  wires_t() { w_.push_back(Fr::one()); }
  explicit wires_t(Store storage) : w_(std::move(storage)) { w_.push_back(Fr::one()); }
  uint32_t push_public(const Fr& v) {
    if (w_.size() != size_t(n_public_) + 1)
      throw std::logic_error(
          "alloc_public after a private wire: a circuit declares its public inputs first");
    ++n_public_;
    return push(v);
  }
  uint32_t push(const Fr& v) {
    w_.push_back(v);
    return uint32_t(w_.size() - 1);
  }
  // Back to just wire 0, keeping the capacity.
  void reset() {
    w_.resize(1);
    n_public_ = 0;
  }
  uint32_t n_wires() const { return uint32_t(w_.size()); }
  uint32_t n_public() const { return n_public_; }
  const Store& witness() const { return w_; }
  Store& witness() { return w_; }

 private:
  Store w_;
  uint32_t n_public_ = 0;
};
}  // namespace detail

template <class Fr>
class shape_cs_t {
 public:
  using fr_t = Fr;
  using lc_t = shape_lc_t<Fr>;

  lc_t one() const { return lc_t(0, Fr::one(), Fr::one()); }
  lc_t constant(const Fr& k) const { return lc_t(0, k, k); }
  lc_t alloc_public(const Fr& v) { return lc_t(wires_.push_public(v), Fr::one(), v); }
  lc_t alloc(const Fr& v) { return lc_t(wires_.push(v), Fr::one(), v); }

  void enforce(const lc_t& a, const lc_t& b, const lc_t& c) {
    append(shape_.a, a);
    append(shape_.b, b);
    append(shape_.c, c);
  }

  uint32_t n_wires() const { return wires_.n_wires(); }
  uint32_t n_public() const { return wires_.n_public(); }
  uint32_t n_constraints() const { return shape_.n_constraints(); }
  const std::vector<Fr>& witness() const { return wires_.witness(); }
  std::vector<Fr>& witness() { return wires_.witness(); }

  // The recorded R1CS (the system is left empty of constraints).
  r1cs_shape_t<Fr> take_shape() {
    shape_.n_wires = wires_.n_wires();
    shape_.n_public = wires_.n_public();
    r1cs_shape_t<Fr> s = std::move(shape_);
    shape_ = {};
    return s;
  }

 private:
  static void append(sparse_matrix_t<Fr>& m, const lc_t& lc) {
    for (const auto& t : lc.terms) {
      m.col.push_back(t.wire);
      m.coeff.push_back(t.coeff);
    }
    m.row_ptr.push_back(m.col.size());
  }
  detail::wires_t<Fr> wires_;
  r1cs_shape_t<Fr> shape_;
};

using ff::write_canonical_le;  // zk/ff/canonical.hpp

template <class Fr>
class prove_cs_t {
 public:
  using fr_t = Fr;
  using lc_t = value_lc_t<Fr>;
  using column_t = detail::column_t<Fr>;

  // Capacities (from the shape's counts) so that no push reallocates in the hot path.
  prove_cs_t(size_t wires_hint, size_t constraints_hint) {
    wires_.witness().reserve(wires_hint);
    a_.reserve(constraints_hint);
    b_.reserve(constraints_hint);
    c_.reserve(constraints_hint);
  }
  // Straight into caller-owned memory (a synth buffer's payload): the witness (wires_cap
  // elements, Montgomery form) and a, b, c (rows_cap each, input rows included); nothing is
  // allocated, and a circuit larger than the regions throws std::length_error.
  prove_cs_t(Fr* witness, size_t wires_cap, Fr* a, Fr* b, Fr* c, size_t rows_cap)
      : wires_(column_t(witness, wires_cap)), a_(a, rows_cap), b_(b, rows_cap), c_(c, rows_cap) {}

  lc_t one() const { return {Fr::one()}; }
  lc_t constant(const Fr& k) const { return {k}; }
  lc_t alloc_public(const Fr& v) {
    wires_.push_public(v);
    return {v};
  }
  lc_t alloc(const Fr& v) {
    wires_.push(v);
    return {v};
  }

  void enforce(const lc_t& a, const lc_t& b, const lc_t& c) {
    a_.push_back(a.value);
    b_.push_back(b.value);
    c_.push_back(c.value);
  }

  // Empties the system for the next synthesis, keeping every buffer's capacity (buffers are
  // allocated once and reused: fresh pages cost more to touch than the synthesis itself).
  void reset() {
    wires_.reset();
    a_.clear();
    b_.clear();
    c_.clear();
    finished_ = false;
    n_constraints_ = 0;
  }

  // Appends the nPublic+1 input rows (A = w_s, B = C = 0); call once, after synthesis.
  void finish() {
    if (finished_) throw std::logic_error("prove_cs_t::finish called twice");
    finished_ = true;
    n_constraints_ = uint32_t(a_.size());
    for (uint32_t s = 0; s <= wires_.n_public(); ++s) {
      a_.push_back(wires_.witness()[s]);
      b_.push_back(Fr{});
      c_.push_back(Fr{});
    }
  }

  uint32_t n_wires() const { return wires_.n_wires(); }
  uint32_t n_public() const { return wires_.n_public(); }
  uint32_t n_constraints() const { return finished_ ? n_constraints_ : uint32_t(a_.size()); }
  const column_t& witness() const { return wires_.witness(); }
  const column_t& a() const { return a_; }
  const column_t& b() const { return b_; }
  const column_t& c() const { return c_; }

  // The witness as the prover's MSMs read it: n_wires canonical little-endian integers of
  // sizeof(Fr::big_t) bytes (a .wtns's values section).
  std::vector<uint8_t> witness_bytes() const {
    const auto& w = wires_.witness();
    std::vector<uint8_t> out(w.size() * sizeof(typename Fr::big_t));
    write_canonical_le(w.data(), w.size(), out.data());
    return out;
  }

 private:
  detail::wires_t<Fr, column_t> wires_;
  column_t a_, b_, c_;
  bool finished_ = false;
  uint32_t n_constraints_ = 0;
};

template <class Fr>
class native_cs_t {
 public:
  using fr_t = Fr;
  using lc_t = value_lc_t<Fr>;

  lc_t one() const { return {Fr::one()}; }
  lc_t constant(const Fr& k) const { return {k}; }
  lc_t alloc_public(const Fr& v) const { return {v}; }
  lc_t alloc(const Fr& v) const { return {v}; }
  void enforce(const lc_t&, const lc_t&, const lc_t&) const {}
};

}  // namespace zk::circuit
