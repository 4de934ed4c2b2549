#include "zk/formats/r1cs.hpp"

#include <cstring>
#include <stdexcept>

#include "zk/base/error.hpp"

namespace zk::formats {

namespace {

const char* r1cs_section_name(uint32_t id) {
  switch (id) {
    case r1cs_section::header:
      return "header";
    case r1cs_section::constraints:
      return "constraints";
    case r1cs_section::wire_to_label:
      return "wire-to-label map";
    case r1cs_section::custom_gates_list:
      return "custom gates list";
    case r1cs_section::custom_gates_uses:
      return "custom gates uses";
    default:
      return nullptr;
  }
}

constexpr const char* matrix_names[3] = {"A", "B", "C"};

}  // namespace

r1cs_file_t::r1cs_file_t(std::string path, r1cs_open_t open)
    : file_(std::move(path), "r1cs", 1, r1cs_section_name) {
  read_header();
  if (open == r1cs_open_t::full)
    validate_constraints();
  else
    file_.unique(r1cs_section::constraints);
}

void r1cs_file_t::read_header() {
  reader_t r = file_.read(r1cs_section::header);
  header_.fs = r.field_size("field size fs");
  file_.expect_size(r.section(), 32ull + header_.fs, "32+fs");
  header_.prime = r.bytes(header_.fs);
  header_.n_wires = r.u32();
  header_.n_pub_out = r.u32();
  header_.n_pub_in = r.u32();
  header_.n_prv_in = r.u32();
  header_.n_labels = r.u64();
  header_.n_constraints = r.u32();
  r.expect_end();

  // Wire 0 (the constant 1) plus the public and private inputs must all be wires.
  const uint64_t inputs = 1ull + header_.n_pub_out + header_.n_pub_in + header_.n_prv_in;
  if (inputs > header_.n_wires) {
    file_.fail(r.section(), "1 + nPubOut + nPubIn + nPrvIn = " + std::to_string(inputs) +
                                " exceeds nWires = " + std::to_string(header_.n_wires));
  }

  // The label map is optional; when present it holds one u64 per wire (§1.2).
  if (const section_record_t* labels = file_.find_unique(r1cs_section::wire_to_label)) {
    file_.expect_size(*labels, 8ull * header_.n_wires, "8*nWires");
  }
}

void r1cs_file_t::validate_constraints() {
  const uint32_t fs = header_.fs;
  const uint64_t stride = 4ull + fs;
  reader_t r = file_.read(r1cs_section::constraints);
  constraints_ = file_.data() + r.section().offset;

  for (uint32_t i = 0; i < header_.n_constraints; ++i) {
    for (int m = 0; m < 3; ++m) {
      const uint32_t n = r.u32();
      if (uint64_t(n) * stride > r.remaining()) {
        r.fail("constraint " + std::to_string(i) + " " + matrix_names[m] + ": " +
               std::to_string(n) + " terms need " + std::to_string(n * stride) + " bytes, only " +
               std::to_string(r.remaining()) + " left in the section");
      }
      const uint64_t terms_offset = r.file_offset();
      const uint8_t* p = r.bytes(n * stride);
      for (uint32_t t = 0; t < n; ++t, p += stride) {
        const uint32_t wire = load_u32(p);
        const bool bad_wire = wire >= header_.n_wires;
        if (bad_wire || !le_less(p + 4, header_.prime, fs)) {
          std::string what = "constraint " + std::to_string(i) + " " + matrix_names[m] + " term " +
                             std::to_string(t) + ": ";
          what += bad_wire ? "wire " + std::to_string(wire) +
                                 " >= nWires = " + std::to_string(header_.n_wires)
                           : "coefficient " + hex_le_number(p + 4, fs) + " >= prime " +
                                 hex_le_number(header_.prime, fs);
          file_.fail(r.section(), what + " at offset " + hex(terms_offset + uint64_t(t) * stride));
        }
      }
      nnz_[m] += n;
    }
  }
  r.expect_end();
}

std::optional<curve_id_t> r1cs_file_t::curve() const {
  return curve_from_scalar_prime(header_.prime, header_.fs);
}

r1cs_constraints_t r1cs_file_t::constraints() const {
  if (constraints_ == nullptr && header_.n_constraints != 0)
    throw std::logic_error(file_.path() + ": opened for its header only, not its constraints");
  return {constraints_, header_.n_constraints, header_.fs};
}

r1cs_csr_t build_csr(const r1cs_file_t& r1cs) {
  const uint32_t fs = r1cs.header().fs;
  const uint32_t rows = r1cs.header().n_constraints;
  r1cs_csr_t out;
  csr_matrix_t* mats[3] = {&out.a, &out.b, &out.c};
  for (int m = 0; m < 3; ++m) {
    csr_matrix_t& mat = *mats[m];
    mat.fs = fs;
    mat.row_ptr.resize(uint64_t(rows) + 1);
    mat.col.resize(r1cs.nnz()[m]);
    mat.coef.resize(r1cs.nnz()[m] * fs);
  }

  uint64_t fill[3] = {0, 0, 0};
  uint64_t row = 0;
  for (const r1cs_constraint_t& con : r1cs.constraints()) {
    const linear_combination_t* lcs[3] = {&con.a, &con.b, &con.c};
    for (int m = 0; m < 3; ++m) {
      csr_matrix_t& mat = *mats[m];
      const linear_combination_t& lc = *lcs[m];
      mat.row_ptr[row] = fill[m];
      uint32_t* col = mat.col.data() + fill[m];
      uint8_t* coef = mat.coef.data() + fill[m] * fs;
      for (uint32_t t = 0; t < lc.size(); ++t) {
        const lc_term_t term = lc[t];
        col[t] = term.wire;
        std::memcpy(coef + uint64_t(t) * fs, term.coef, fs);
      }
      fill[m] += lc.size();
    }
    ++row;
  }
  for (int m = 0; m < 3; ++m) mats[m]->row_ptr[rows] = fill[m];
  return out;
}

}  // namespace zk::formats
