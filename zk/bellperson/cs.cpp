#include "zk/bellperson/cs.hpp"

#include <algorithm>

#include "zk/base/le_bytes.hpp"
#include "zk/filecoin/registry.hpp"

namespace zk::bellperson {

namespace {

void put_u32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

constexpr size_t digest_flush_bytes = size_t(1) << 20;

}  // namespace

const fr_t& pow2_fr(unsigned i) {
  static const std::array<fr_t, 256> table = [] {
    std::array<fr_t, 256> t{};
    t[0] = fr_t::one();
    for (unsigned k = 1; k < 256; ++k) t[k] = t[k - 1] + t[k - 1];
    return t;
  }();
  return table[i];
}

fr_t detail::fr_from_i64_large(int64_t v) {
  const fr_t m = fr_t::from_u64(v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v));
  return v < 0 ? -m : m;
}

std::string to_string(const counts_t& c) {
  return std::to_string(c.inputs) + " inputs, " + std::to_string(c.aux) + " aux, " +
         std::to_string(c.constraints) + " constraints";
}

uint64_t r1cs_shape_t::domain_size() const {
  uint64_t d = 1;
  while (d < prover_constraints()) d <<= 1;
  return d;
}

std::string r1cs_shape_t::digest_hex() const { return filecoin::to_hex(digest); }

std::string r1cs_shape_t::region_of_constraint(uint64_t i) const {
  const region_t* found = nullptr;
  for (const auto& r : regions) {
    if (r.start.constraints > i) break;
    found = &r;
  }
  return found ? found->name : std::string();
}

fr_t eval_row(const r1cs_shape_t& s, const r1cs_matrix_t& m, uint64_t i, const fr_t* inputs,
              const fr_t* aux) {
  fr_t acc{};
  for (uint64_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k) {
    const var_t x{m.var[k]};
    const fr_t& w = x.is_input() ? inputs[x.index()] : aux[x.index()];
    acc += s.coeffs[m.coeff[k]] * w;
  }
  return acc;
}

// ---- shape_cs_t ------------------------------------------------------------------------------

shape_cs_t::shape_cs_t(bool store_matrices) {
  shape_.has_matrices = store_matrices;
  static const char tag[] = "zkfleet/bellperson-r1cs/v1";
  digest_.update(tag, sizeof(tag) - 1);
  digest_buf_.reserve(digest_flush_bytes + (size_t(1) << 16));
  alloc_input(fr_t::one());  // ONE, before the circuit
}

uint32_t shape_cs_t::coeff_id(const fr_t& k) {
  // A small direct-mapped cache in front of the map: most terms carry one of a few coefficients.
  const size_t slot = fr_hash_t{}(k) % coeff_cache_.size();
  auto& c = coeff_cache_[slot];
  if (c.id != ~uint32_t(0) && c.value == k) return c.id;
  auto [it, inserted] = coeff_ids_.try_emplace(k, uint32_t(shape_.coeffs.size()));
  if (inserted) shape_.coeffs.push_back(k);
  c.value = k;
  c.id = it->second;
  return it->second;
}

void shape_cs_t::record(r1cs_matrix_t* m, const lc_t& lc) {
  put_u32(digest_buf_, uint32_t(lc.size()));
  for (const auto& t : lc.terms()) {
    const uint32_t id = coeff_id(t.coeff);
    put_u32(digest_buf_, t.var.raw);
    put_u32(digest_buf_, id);
    if (m) {
      m->var.push_back(t.var.raw);
      m->coeff.push_back(id);
    }
  }
  if (m) m->row_ptr.push_back(m->var.size());
  shape_.terms += lc.size();
}

void shape_cs_t::enforce(const lc_t& a, const lc_t& b, const lc_t& c) {
  if (finished_) throw std::logic_error("shape_cs_t: enforce after finish");
  const bool store = shape_.has_matrices;
  record(store ? &shape_.a : nullptr, a);
  record(store ? &shape_.b : nullptr, b);
  record(store ? &shape_.c : nullptr, c);
  // bellperson's prover: A tracks aux variables only (inputs have full density through their
  // input constraints), B tracks both; terms with a zero coefficient do not count.
  for (const auto& t : a.terms())
    if (!t.var.is_input() && !t.coeff.is_zero()) shape_.a_aux.set(t.var.index());
  for (const auto& t : b.terms()) {
    if (t.coeff.is_zero()) continue;
    if (t.var.is_input())
      shape_.b_input.set(t.var.index());
    else
      shape_.b_aux.set(t.var.index());
  }
  ++shape_.counts.constraints;
  if (digest_buf_.size() >= digest_flush_bytes) flush_digest();
}

void shape_cs_t::flush_digest() {
  digest_.update(digest_buf_.data(), digest_buf_.size());
  digest_buf_.clear();
}

r1cs_shape_t shape_cs_t::finish() {
  if (finished_) throw std::logic_error("shape_cs_t: finish called twice");
  finished_ = true;
  flush_digest();
  // The counts close the stream (they are known only now).
  std::vector<uint8_t> tail;
  put_u32(tail, shape_.counts.inputs);
  put_u32(tail, shape_.counts.aux);
  put_u32(tail, shape_.counts.constraints);
  put_u32(tail, uint32_t(shape_.coeffs.size()));
  for (const fr_t& k : shape_.coeffs) {
    const auto v = k.to_canonical();
    uint8_t bytes[32];
    for (int i = 0; i < 4; ++i) le_put(bytes, 8 * size_t(i), v.l[i]);
    tail.insert(tail.end(), bytes, bytes + 32);
  }
  digest_.update(tail.data(), tail.size());
  shape_.digest = digest_.finish();
  coeff_ids_.clear();
  return std::move(shape_);
}

// ---- prove_cs_t ------------------------------------------------------------------------------

void prove_cs_t::overflow(const char* what) const {
  throw std::length_error(std::string("bellperson prove_cs_t: more ") + what +
                          " than the range it was given (at " + to_string(at_) + ", limit " +
                          to_string(limit_) + "): the circuit does not match its shape");
}

void append_input_constraints(const assignment_view_t& out, counts_t counts) {
  if (counts.inputs > out.capacity.inputs || counts.constraints > out.capacity.constraints)
    throw std::length_error("append_input_constraints: counts " + to_string(counts) +
                            " exceed the arrays' capacity " + to_string(out.capacity));
  for (uint32_t i = 0; i < counts.inputs; ++i) {
    out.a[size_t(counts.constraints) + i] = out.inputs[i];
    out.b[size_t(counts.constraints) + i] = fr_t{};
    out.c[size_t(counts.constraints) + i] = fr_t{};
  }
}

}  // namespace zk::bellperson
