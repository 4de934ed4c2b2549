#include "zk/formats/zkey.hpp"

#include <cstring>

#include "zk/base/error.hpp"
#include "zk/formats/wtns.hpp"

namespace zk::formats {

namespace {

const char* zkey_section_name(uint32_t id) {
  switch (id) {
    case zkey_section::protocol:
      return "protocol";
    case zkey_section::header:
      return "Groth16 header";
    case zkey_section::ic:
      return "IC points";
    case zkey_section::coefficients:
      return "coefficients";
    case zkey_section::points_a:
      return "A points";
    case zkey_section::points_b1:
      return "B1 points";
    case zkey_section::points_b2:
      return "B2 points";
    case zkey_section::points_c:
      return "C points";
    case zkey_section::points_h:
      return "H points";
    case zkey_section::mpc_params:
      return "MPC params";
    default:
      return nullptr;
  }
}

const char* protocol_name(uint32_t id) {
  switch (id) {
    case zkey_protocol_groth16:
      return "Groth16";
    case zkey_protocol_plonk:
      return "PLONK";
    case zkey_protocol_fflonk:
      return "FFLONK";
    default:
      return "unknown";
  }
}

}  // namespace

zkey_point_section_t zkey_points_of(const zkey_header_t& h, uint32_t id) {
  const uint64_t n_vars = h.n_vars, n_public = h.n_public;
  switch (id) {
    case zkey_section::ic:
      return {n_public + 1, h.g1_size(), "2*n8q*(nPublic+1)"};
    case zkey_section::points_a:
      return {n_vars, h.g1_size(), "2*n8q*nVars"};
    case zkey_section::points_b1:
      return {n_vars, h.g1_size(), "2*n8q*nVars"};
    case zkey_section::points_b2:
      return {n_vars, h.g2_size(), "4*n8q*nVars"};
    case zkey_section::points_c:
      return {n_vars - n_public - 1, h.g1_size(), "2*n8q*(nVars-nPublic-1)"};
    case zkey_section::points_h:
      return {h.domain_size, h.g1_size(), "2*n8q*domainSize"};
    default:
      return {};
  }
}

check_t check_zkey_coefficient(const zkey_header_t& h, uint32_t matrix, uint32_t constraint,
                               uint32_t signal, const uint8_t* value) {
  if (matrix > 1) return "matrix " + std::to_string(matrix) + " is neither 0 (A) nor 1 (B)";
  if (constraint >= h.domain_size)
    return "constraint " + std::to_string(constraint) +
           " >= domainSize = " + std::to_string(h.domain_size);
  if (signal >= h.n_vars)
    return "signal " + std::to_string(signal) + " >= nVars = " + std::to_string(h.n_vars);
  if (!le_less(value, h.r, h.n8r)) return "value " + hex_le_number(value, h.n8r) + " >= r";
  return {};
}

zkey_file_t::zkey_file_t(std::string path, zkey_open_t open)
    : file_(std::move(path), "zkey", 1, zkey_section_name) {
  read_protocol();
  read_header();
  ic_ = points(zkey_section::ic);
  if (open == zkey_open_t::prover)
    read_coefficients();
  else
    file_.unique(zkey_section::coefficients);  // present once, like every section; not read
  a_ = points(zkey_section::points_a);
  b1_ = points(zkey_section::points_b1);
  b2_ = points(zkey_section::points_b2);
  c_ = points(zkey_section::points_c);
  h_ = points(zkey_section::points_h);
  read_mpc_params();
}

void zkey_file_t::read_protocol() {
  reader_t r = file_.read(zkey_section::protocol);
  file_.expect_size(r.section(), 4, "u32 protocol");
  const uint32_t protocol = r.u32();
  if (protocol != zkey_protocol_groth16) {
    file_.fail(r.section(), "protocol " + std::to_string(protocol) + " (" +
                                protocol_name(protocol) + ") is not Groth16 (1)");
  }
}

// Section 2 (§2.3): u32 n8q; q; u32 n8r; r; u32 nVars; u32 nPublic; u32 domainSize;
// then α₁, β₁, β₂, γ₂, δ₁, δ₂ — in this order (the comment atop snarkjs's zkey_utils.js, which
// puts δ₁ before β₂, is wrong; §7.5).
void zkey_file_t::read_header() {
  reader_t r = file_.read(zkey_section::header);
  const section_record_t& s = r.section();
  zkey_header_t& h = header_;

  h.n8q = r.field_size("n8q");
  h.q = r.bytes(h.n8q);
  h.n8r = r.field_size("n8r");
  h.r = r.bytes(h.n8r);

  const auto by_q = curve_from_base_prime(h.q, h.n8q);
  if (!by_q) {
    file_.fail(s, "unknown curve: q = " + hex_le_number(h.q, h.n8q) +
                      " is the base field of neither BN254 nor BLS12-381");
  }
  const auto by_r = curve_from_scalar_prime(h.r, h.n8r);
  if (by_r != by_q) {
    file_.fail(s, "unknown curve: r = " + hex_le_number(h.r, h.n8r) +
                      " is not the scalar field of " + curve_name(*by_q) + " (the curve of q)");
  }
  h.curve = *by_q;

  const uint64_t expected =
      4ull + h.n8q + 4 + h.n8r + 3 * 4 + 3ull * h.g1_size() + 3ull * h.g2_size();
  file_.expect_size(s, expected, "4+n8q+4+n8r+12+3*(2*n8q)+3*(4*n8q)");

  h.n_vars = r.u32();
  h.n_public = r.u32();
  h.domain_size = r.u32();
  h.alpha1 = r.bytes(h.g1_size());
  h.beta1 = r.bytes(h.g1_size());
  h.beta2 = r.bytes(h.g2_size());
  h.gamma2 = r.bytes(h.g2_size());
  h.delta1 = r.bytes(h.g1_size());
  h.delta2 = r.bytes(h.g2_size());
  r.expect_end();

  if (uint64_t(h.n_public) + 1 > h.n_vars) {
    file_.fail(s, "nPublic + 1 = " + std::to_string(uint64_t(h.n_public) + 1) +
                      " (wire 0 and the public wires) exceeds nVars = " + std::to_string(h.n_vars));
  }
  if (h.domain_size == 0 || (h.domain_size & (h.domain_size - 1)) != 0) {
    file_.fail(s, "domainSize = " + std::to_string(h.domain_size) + " is not a power of two");
  }
  while ((1u << h.log2_domain_size) < h.domain_size) ++h.log2_domain_size;
}

point_span_t zkey_file_t::points(uint32_t id) const {
  const zkey_point_section_t p = zkey_points_of(header_, id);
  const section_record_t& s = file_.unique(id);
  file_.expect_size(s, p.count * p.point_size, p.formula);
  return {file_.data() + s.offset, p.count, p.point_size};
}

// Section 4 (§2.4): u32 nCoef, then nCoef packed records of 12+n8r bytes. Only A (0) and B (1)
// are stored; C is never needed because c = a∘b (§3.2). Order is not relied on.
void zkey_file_t::read_coefficients() {
  reader_t r = file_.read(zkey_section::coefficients);
  const section_record_t& s = r.section();
  const uint64_t n = r.u32();
  const uint32_t stride = header_.coef_size();
  file_.expect_size(s, 4 + n * stride, "4+nCoef*(12+n8r) with nCoef = " + std::to_string(n));
  coefs_ = {r.bytes(n * stride), n, header_.n8r};

  uint32_t prev_constraint = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const coef_record_t c = coefs_[i];
    if (const check_t fits =
            check_zkey_coefficient(header_, c.matrix, c.constraint, c.signal, c.value);
        !fits) {
      file_.fail(s, "coefficient " + std::to_string(i) + ": " + fits.reason() + " at offset " +
                        hex(s.offset + 4 + i * stride));
    }
    if (c.constraint < prev_constraint) coefs_sorted_ = false;
    prev_constraint = c.constraint;
  }
}

// Section 10: 64-byte circuit hash, u32 nContributions, contributions (not parsed here).
void zkey_file_t::read_mpc_params() {
  const section_record_t* s = file_.find_unique(zkey_section::mpc_params);
  if (s == nullptr) return;
  if (s->size < zkey_circuit_hash_size + 4) {
    file_.fail(*s, "length " + std::to_string(s->size) +
                       " is too short for the 64-byte circuit hash and the contribution count");
  }
  circuit_hash_ = file_.data() + s->offset;
}

void check_witness_matches(const zkey_file_t& zkey, const wtns_file_t& wtns) {
  const zkey_header_t& h = zkey.header();
  const bool same_prime = wtns.n8() == h.n8r && std::memcmp(wtns.prime(), h.r, h.n8r) == 0;
  if (!same_prime) {
    throw format_error(wtns.path() + ": witness prime " + hex_le_number(wtns.prime(), wtns.n8()) +
                       " does not match " + zkey.path() + ": r = " + hex_le_number(h.r, h.n8r) +
                       " (the witness is for another curve)");
  }
  if (wtns.n_witness() != h.n_vars) {
    throw format_error(wtns.path() + ": nWitness = " + std::to_string(wtns.n_witness()) +
                       " does not match " + zkey.path() + ": nVars = " + std::to_string(h.n_vars));
  }
}

}  // namespace zk::formats
