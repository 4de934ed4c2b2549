#pragma once
// .r1cs version 1 reader (docs/formats.md §1.2; iden3/r1csfile doc/r1cs_bin_format.md).
//
// Sections: 1 header, 2 constraints, 3 wire->label map, 4/5 custom gates (PLONK only, ignored).
// circom writes section 2 BEFORE section 1, so the header is located through the section index.
// Constraint records are { LC A, LC B, LC C }, each LC = u32 nTerms then nTerms x
// { u32 wire, fs-byte coefficient }. Coefficients are canonical (not Montgomery) LE, < prime.
// Terms are sorted by circom by the minimal LE byte string of the wire id, not numerically (§1.2):
// nothing here relies on term order.
//
// Everything is validated once at open; the views below then read the mapping without checks.

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/curve_id.hpp"
#include "zk/formats/binfile.hpp"

namespace zk::formats {

namespace r1cs_section {
inline constexpr uint32_t header = 1;
inline constexpr uint32_t constraints = 2;
inline constexpr uint32_t wire_to_label = 3;
inline constexpr uint32_t custom_gates_list = 4;
inline constexpr uint32_t custom_gates_uses = 5;
}  // namespace r1cs_section

struct r1cs_header_t {
  uint32_t fs = 0;                 // bytes per field element (32 on both curves)
  const uint8_t* prime = nullptr;  // the scalar field r, fs bytes LE (points into the mapping)
  uint32_t n_wires = 0;            // = nVars, includes wire 0 (the constant 1)
  uint32_t n_pub_out = 0;
  uint32_t n_pub_in = 0;
  uint32_t n_prv_in = 0;
  uint64_t n_labels = 0;
  uint32_t n_constraints = 0;

  // snarkjs's nPublic (zkey_new.js): public wires are 1..nPublic, outputs first.
  uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

struct lc_term_t {
  uint32_t wire;
  const uint8_t* coef;  // fs bytes, canonical LE
};

// One linear combination, as laid out in the file: terms at a fixed stride of 4 + fs bytes.
class linear_combination_t {
 public:
  linear_combination_t() = default;
  linear_combination_t(const uint8_t* terms, uint32_t n_terms, uint32_t fs)
      : terms_(terms), n_(n_terms), stride_(4 + fs) {}

  uint32_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  lc_term_t operator[](uint32_t i) const {
    const uint8_t* p = terms_ + uint64_t(i) * stride_;
    return {load_u32(p), p + 4};
  }
  // First byte after the last term.
  const uint8_t* end_ptr() const { return terms_ + uint64_t(n_) * stride_; }

 private:
  const uint8_t* terms_ = nullptr;
  uint32_t n_ = 0;
  uint32_t stride_ = 0;
};

// ⟨A,w⟩·⟨B,w⟩ − ⟨C,w⟩ = 0
struct r1cs_constraint_t {
  linear_combination_t a, b, c;
};

// Forward iteration over the (already validated) constraints section.
class r1cs_constraint_iterator_t {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = r1cs_constraint_t;
  using difference_type = std::ptrdiff_t;
  using pointer = const r1cs_constraint_t*;
  using reference = const r1cs_constraint_t&;

  r1cs_constraint_iterator_t() = default;
  r1cs_constraint_iterator_t(const uint8_t* p, uint32_t left, uint32_t fs)
      : next_(p), left_(left), fs_(fs) {
    if (left_ != 0) parse();
  }

  reference operator*() const { return cur_; }
  pointer operator->() const { return &cur_; }
  r1cs_constraint_iterator_t& operator++() {
    if (--left_ != 0) parse();
    return *this;
  }
  bool operator==(const r1cs_constraint_iterator_t& o) const { return left_ == o.left_; }
  bool operator!=(const r1cs_constraint_iterator_t& o) const { return left_ != o.left_; }

 private:
  linear_combination_t take_lc() {
    const uint32_t n = load_u32(next_);
    linear_combination_t lc(next_ + 4, n, fs_);
    next_ = lc.end_ptr();
    return lc;
  }
  void parse() {
    cur_.a = take_lc();
    cur_.b = take_lc();
    cur_.c = take_lc();
  }

  const uint8_t* next_ = nullptr;
  uint32_t left_ = 0;
  uint32_t fs_ = 0;
  r1cs_constraint_t cur_;
};

class r1cs_constraints_t {
 public:
  r1cs_constraints_t(const uint8_t* data, uint32_t count, uint32_t fs)
      : data_(data), count_(count), fs_(fs) {}
  r1cs_constraint_iterator_t begin() const { return {data_, count_, fs_}; }
  r1cs_constraint_iterator_t end() const { return {}; }
  uint32_t size() const { return count_; }

 private:
  const uint8_t* data_;
  uint32_t count_;
  uint32_t fs_;
};

// What opening an .r1cs reads. full: everything, every term checked. header: the header, the
// section table and the label map's size; the constraints section must be there but none of it is
// read (a node that needs the counts of a 1.5 GB .r1cs maps none of it); constraint access is a
// logic error then.
enum class r1cs_open_t { full, header };

class r1cs_file_t {
 public:
  // Maps and fully validates `path`: header and constraints sections present and unique, header
  // length exact, every wire id < nWires, every coefficient < prime, term counts fit, the
  // constraints section consumed exactly. Throws format_error naming file, section and offset.
  explicit r1cs_file_t(std::string path, r1cs_open_t open = r1cs_open_t::full);

  const std::string& path() const { return file_.path(); }
  const binfile_t& file() const { return file_; }
  const r1cs_header_t& header() const { return header_; }
  // Curve whose scalar field is the header prime, if it is one we know.
  std::optional<curve_id_t> curve() const;

  r1cs_constraints_t constraints() const;
  // Number of terms over all constraints in A, B and C.
  const std::array<uint64_t, 3>& nnz() const { return nnz_; }

 private:
  void read_header();
  void validate_constraints();

  binfile_t file_;
  r1cs_header_t header_;
  const uint8_t* constraints_ = nullptr;
  std::array<uint64_t, 3> nnz_{};
};

// Compressed sparse rows of one matrix: row i (constraint i) holds terms
// [row_ptr[i], row_ptr[i+1]) with wire ids col[k] and coefficients at coef_at(k).
// Rows are the r1cs constraints only: the nPublic+1 "input constraints" of a zkey (§2.4, §7.7)
// are not added here.
struct csr_matrix_t {
  uint32_t fs = 0;
  std::vector<uint64_t> row_ptr;  // n_constraints + 1 entries
  std::vector<uint32_t> col;      // nnz wire ids, in file order within each row
  std::vector<uint8_t> coef;      // nnz * fs bytes, canonical LE (copied from the file)

  uint64_t nnz() const { return col.size(); }
  uint64_t n_rows() const { return row_ptr.empty() ? 0 : row_ptr.size() - 1; }
  const uint8_t* coef_at(uint64_t k) const { return coef.data() + k * fs; }
};

struct r1cs_csr_t {
  csr_matrix_t a, b, c;
};

// One pass over the constraints; the arrays are sized exactly from r1cs.nnz().
r1cs_csr_t build_csr(const r1cs_file_t& r1cs);

}  // namespace zk::formats
