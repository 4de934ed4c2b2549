// .r1cs reader: zk::formats::r1cs_file_t(path) (zk/formats/r1cs.hpp), then everything a caller
// does with an accepted file without further checks: the constraint iterator and build_csr.
// Expected for bad input: format_error. Properties of an accepted file: iteration visits
// exactly nConstraints constraints, ends at the end of the section, sees only wires < nWires and
// coefficients < prime, and agrees with nnz() and with the CSR matrices.
#include "zk/formats/r1cs.hpp"

#include <cstdint>
#include <cstring>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"

namespace {

void check_accepted(const zk::formats::r1cs_file_t& f) {
  using namespace zk;
  using namespace zk::formats;
  const r1cs_header_t& h = f.header();
  (void)f.curve();
  const section_record_t& sec = f.file().unique(r1cs_section::constraints);
  const uint8_t* const section_end = f.file().data() + sec.offset + sec.size;

  const r1cs_csr_t csr = build_csr(f);
  const csr_matrix_t* mats[3] = {&csr.a, &csr.b, &csr.c};
  uint64_t seen[3] = {0, 0, 0};
  uint64_t rows = 0;
  const uint8_t* last_end = f.file().data() + sec.offset;
  for (const r1cs_constraint_t& con : f.constraints()) {
    const linear_combination_t* lcs[3] = {&con.a, &con.b, &con.c};
    for (int m = 0; m < 3; ++m) {
      const linear_combination_t& lc = *lcs[m];
      const csr_matrix_t& mat = *mats[m];
      ZK_FUZZ_CHECK(mat.row_ptr[rows] == seen[m]);
      for (uint32_t t = 0; t < lc.size(); ++t) {
        const lc_term_t term = lc[t];
        ZK_FUZZ_CHECK(term.wire < h.n_wires);
        ZK_FUZZ_CHECK(le_less(term.coef, h.prime, h.fs));
        ZK_FUZZ_CHECK(mat.col[seen[m] + t] == term.wire);
        ZK_FUZZ_CHECK(std::memcmp(mat.coef_at(seen[m] + t), term.coef, h.fs) == 0);
      }
      seen[m] += lc.size();
      last_end = lc.end_ptr();
      ZK_FUZZ_CHECK(last_end <= section_end);
    }
    ++rows;
  }
  ZK_FUZZ_CHECK(rows == h.n_constraints);
  ZK_FUZZ_CHECK(last_end == section_end);
  for (int m = 0; m < 3; ++m) {
    ZK_FUZZ_CHECK(seen[m] == f.nnz()[m]);
    ZK_FUZZ_CHECK(mats[m]->n_rows() == rows);
    ZK_FUZZ_CHECK(mats[m]->nnz() == seen[m]);
    ZK_FUZZ_CHECK(mats[m]->row_ptr[rows] == seen[m]);
  }
  ZK_FUZZ_CHECK(1ull + h.n_pub_out + h.n_pub_in + h.n_prv_in <= h.n_wires);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = zk::fuzz::input_file().write(data, size);
  try {
    const zk::formats::r1cs_file_t f(path);
    check_accepted(f);
  } catch (const zk::format_error&) {
    // bad input, rejected with a message: expected
  }
  return 0;
}
