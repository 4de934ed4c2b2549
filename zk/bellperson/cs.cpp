#include "zk/bellperson/cs.hpp"

#include <algorithm>

#include "zk/base/hex.hpp"
#include "zk/base/le_bytes.hpp"

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

std::string r1cs_shape_t::digest_hex() const { return to_hex(digest); }

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

namespace {
void append_row(r1cs_matrix_t& m, const std::vector<uint32_t>& var,
                const std::vector<uint32_t>& id) {
  m.var.insert(m.var.end(), var.begin(), var.end());
  m.coeff.insert(m.coeff.end(), id.begin(), id.end());
  m.row_ptr.push_back(m.var.size());
}
}  // namespace

void shape_cs_t::to_row(const lc_t& lc, row_t& r) {
  r.var.clear();
  r.id.clear();
  for (const auto& t : lc.terms()) {
    r.var.push_back(t.var.raw);
    r.id.push_back(coeff_id(t.coeff));
  }
}

void shape_cs_t::emit_lc(r1cs_matrix_t* m, const row_t& r) {
  put_u32(digest_buf_, uint32_t(r.var.size()));
  for (size_t k = 0; k < r.var.size(); ++k) {
    put_u32(digest_buf_, r.var[k]);
    put_u32(digest_buf_, r.id[k]);
  }
  if (m) append_row(*m, r.var, r.id);
  shape_.terms += r.var.size();
}

void shape_cs_t::emit(const row_t& a, const row_t& b, const row_t& c) {
  const bool store = shape_.has_matrices;
  emit_lc(store ? &shape_.a : nullptr, a);
  emit_lc(store ? &shape_.b : nullptr, b);
  emit_lc(store ? &shape_.c : nullptr, c);
  // bellperson's prover: A tracks aux variables only (inputs have full density through their
  // input constraints), B tracks both; terms with a zero coefficient do not count.
  for (size_t k = 0; k < a.var.size(); ++k) {
    const var_t x{a.var[k]};
    if (!x.is_input() && !shape_.coeffs[a.id[k]].is_zero()) shape_.a_aux.set(x.index());
  }
  for (size_t k = 0; k < b.var.size(); ++k) {
    const var_t x{b.var[k]};
    if (shape_.coeffs[b.id[k]].is_zero()) continue;
    if (x.is_input())
      shape_.b_input.set(x.index());
    else
      shape_.b_aux.set(x.index());
  }
  ++shape_.counts.constraints;
  if (digest_buf_.size() >= digest_flush_bytes) flush_digest();
}

void shape_cs_t::enforce(const lc_t& a, const lc_t& b, const lc_t& c) {
  if (finished_) throw std::logic_error("shape_cs_t: enforce after finish");
  to_row(a, ra_);
  to_row(b, rb_);
  to_row(c, rc_);
  emit(ra_, rb_, rc_);
  if (recording_) {
    append_row(part_a_, ra_.var, ra_.id);
    append_row(part_b_, rb_.var, rb_.id);
    append_row(part_c_, rc_.var, rc_.id);
  }
}

void shape_cs_t::start_part() {
  recording_ = true;
  part_start_ = shape_.counts;
  part_regions_ = shape_.regions.size();
  part_a_ = part_b_ = part_c_ = r1cs_matrix_t{};
}

void shape_cs_t::repeat_part(
    uint32_t n, const std::function<std::string(const std::string&, uint32_t)>& rename) {
  repeat_part(n, rename, {});
}

void shape_cs_t::repeat_part(uint32_t n,
                             const std::function<std::string(const std::string&, uint32_t)>& rename,
                             const std::function<var_t(var_t, uint32_t)>& shared) {
  if (!recording_) throw std::logic_error("shape_cs_t: repeat_part without start_part");
  recording_ = false;
  const counts_t d{shape_.counts.inputs - part_start_.inputs, shape_.counts.aux - part_start_.aux,
                   shape_.counts.constraints - part_start_.constraints};
  const size_t regions_end = shape_.regions.size();
  row_t a, b, c;
  for (uint32_t k = 1; k <= n; ++k) {
    const counts_t copy_start = shape_.counts;
    const uint32_t shift_in = copy_start.inputs - part_start_.inputs;
    const uint32_t shift_aux = copy_start.aux - part_start_.aux;
    const uint32_t shift_c = copy_start.constraints - part_start_.constraints;
    for (size_t r = part_regions_; r < regions_end; ++r) {
      const region_t src = shape_.regions[r];
      const counts_t at{src.start.inputs + shift_in, src.start.aux + shift_aux,
                        src.start.constraints + shift_c};
      shape_.regions.push_back({at, rename(src.name, k)});
    }
    for (uint32_t i = 0; i < d.aux; ++i) alloc(fr_t{});
    for (uint32_t i = 0; i < d.inputs; ++i) alloc_input(fr_t{});
    auto relocate = [&](const r1cs_matrix_t& m, uint64_t row, row_t& out) {
      out.var.clear();
      out.id.clear();
      for (uint64_t t = m.row_ptr[row]; t < m.row_ptr[row + 1]; ++t) {
        var_t x{m.var[t]};
        if (x.is_input() && x.index() >= part_start_.inputs)
          x = var_t::input(x.index() + shift_in);
        else if (!x.is_input() && x.index() >= part_start_.aux)
          x = var_t::aux(x.index() + shift_aux);
        else if (shared)
          x = shared(x, k);
        if (shared && !out.var.empty() && out.var.back() >= x.raw)
          throw std::logic_error("shape_cs_t: repeat_part: copy " + std::to_string(k) +
                                 " reorders a linear combination's shared variables");
        out.var.push_back(x.raw);
        out.id.push_back(m.coeff[t]);
      }
    };
    for (uint64_t row = 0; row < d.constraints; ++row) {
      relocate(part_a_, row, a);
      relocate(part_b_, row, b);
      relocate(part_c_, row, c);
      emit(a, b, c);
    }
  }
  part_a_ = part_b_ = part_c_ = r1cs_matrix_t{};
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
  shape_.digest = digest_.finalize();
  coeff_ids_.clear();
  return std::move(shape_);
}

// ---- prove_cs_t ------------------------------------------------------------------------------

void prove_cs_t::overflow(const char* what) const {
  throw std::length_error(std::string("bellperson prove_cs_t: more ") + what +
                          " than the range it was given (at " + to_string(at_) + ", limit " +
                          to_string(limit_) + "): the circuit does not match its shape");
}

void prove_cs_t::skip_to(counts_t at) {
  if (at.inputs < at_.inputs || at.aux < at_.aux || at.constraints < at_.constraints ||
      at.inputs > limit_.inputs || at.aux > limit_.aux || at.constraints > limit_.constraints)
    throw std::length_error("prove_cs_t: skip_to " + to_string(at) + " from " + to_string(at_) +
                            " (limit " + to_string(limit_) + ")");
  at_ = at;
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
