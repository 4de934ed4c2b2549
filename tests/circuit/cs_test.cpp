// The constraint systems: public-first wires, linear combinations, shape vs prove mode, and the
// .r1cs writer read back by formats::r1cs_file_t.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/circuit/circuit_util.hpp"
#include "zk/circuit/gadgets_bits.hpp"
#include "zk/circuit/r1cs_writer.hpp"
#include "zk/formats/r1cs.hpp"

using namespace zk;
using namespace zk::circuit;

namespace {

// x³ + x + 5 = out (public out, private x), the classic example, in any mode.
template <class CS>
void cubic(CS& cs, uint64_t x_value) {
  using Fr = typename CS::fr_t;
  const uint64_t out_value = x_value * x_value * x_value + x_value + 5;
  auto out = cs.alloc_public(Fr::from_u64(out_value));
  auto x = cs.alloc(Fr::from_u64(x_value));
  auto x2 = mul(cs, x, x);
  auto x3 = mul(cs, x2, x);
  cs.enforce(x3 + x + cs.constant(Fr::from_u64(5)), cs.one(), out);
}

}  // namespace

TEST_CASE_TEMPLATE("public inputs come first", Fr, ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> s;
  s.alloc_public(Fr::one());
  s.alloc(Fr::one());
  CHECK_THROWS_AS(s.alloc_public(Fr::one()), std::logic_error);
  prove_cs_t<Fr> p(4, 4);
  p.alloc(Fr::one());
  CHECK_THROWS_AS(p.alloc_public(Fr::one()), std::logic_error);
}

TEST_CASE_TEMPLATE("linear combinations merge terms", Fr, ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> cs;
  auto x = cs.alloc(Fr::from_u64(3));
  auto y = cs.alloc(Fr::from_u64(4));
  auto z = x * Fr::from_u64(2) + y - x - x;  // = y
  REQUIRE(z.terms.size() == 1);
  CHECK(z.terms[0].wire == 2);
  CHECK(z.value == Fr::from_u64(4));
  auto k = y + cs.constant(Fr::from_u64(7)) + x;
  REQUIRE(k.terms.size() == 3);
  CHECK(k.terms[0].wire == 0);
  CHECK(k.terms[1].wire == 1);
  CHECK(k.value == Fr::from_u64(14));
  CHECK((x * Fr::zero()).terms.empty());
}

TEST_CASE_TEMPLATE("shape and prove modes agree, and the input rows are appended", Fr,
                   ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> s;
  cubic(s, 3);
  auto w = s.witness();
  auto shape = s.take_shape();
  CHECK(shape.n_constraints() == 3);
  CHECK(shape.n_wires == 5);
  CHECK(shape.n_public == 1);
  CHECK(first_unsatisfied(shape, w) == -1);
  auto bad = w;
  bad[1] += Fr::one();  // a wrong public output
  CHECK(first_unsatisfied(shape, bad) == 2);

  prove_cs_t<Fr> p(shape.n_wires, shape.n_constraints() + shape.n_public + 1);
  cubic(p, 3);
  p.finish();
  CHECK(p.witness() == w);
  REQUIRE(p.a().size() == shape.n_constraints() + shape.n_public + 1);
  for (uint32_t i = 0; i < shape.n_constraints(); ++i) {
    CHECK(p.a()[i] == shape.a.eval_row(i, w));
    CHECK(p.b()[i] == shape.b.eval_row(i, w));
    CHECK(p.c()[i] == shape.c.eval_row(i, w));
  }
  for (uint32_t s_ = 0; s_ <= shape.n_public; ++s_) {
    CHECK(p.a()[shape.n_constraints() + s_] == w[s_]);
    CHECK(p.b()[shape.n_constraints() + s_].is_zero());
    CHECK(p.c()[shape.n_constraints() + s_].is_zero());
  }
  CHECK_THROWS_AS(p.finish(), std::logic_error);
  // witness bytes: canonical LE, wire 1 = 35
  auto bytes = p.witness_bytes();
  REQUIRE(bytes.size() == 32 * w.size());
  CHECK(bytes[32] == 35);
  CHECK(bytes[33] == 0);
  CHECK(bytes[0] == 1);
}

TEST_CASE_TEMPLATE("the .r1cs writer is read back by formats::r1cs_file", Fr, ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> s;
  cubic(s, 3);
  auto shape = s.take_shape();
  auto dir = std::filesystem::temp_directory_path() /
             ("zk_circuit_cs_" + std::to_string(Fr::bits) + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = (dir / "cubic.r1cs").string();
  write_bytes(path, r1cs_bytes(shape));
  formats::r1cs_file_t f(path);
  const auto& h = f.header();
  CHECK(h.n_wires == shape.n_wires);
  CHECK(h.n_public() == shape.n_public);
  CHECK(h.n_constraints == shape.n_constraints());
  CHECK(h.n_labels == shape.n_wires);
  CHECK(f.nnz()[0] == shape.a.nnz());
  CHECK(f.nnz()[1] == shape.b.nnz());
  CHECK(f.nnz()[2] == shape.c.nnz());
  REQUIRE(f.curve().has_value());
  CHECK(*f.curve() == (Fr::bits == 254 ? curve_id_t::bn254 : curve_id_t::bls12_381));
  // Coefficients round-trip: the last constraint's A is x3 + x + 5 (terms wire 0 = 5, …).
  auto csr = formats::build_csr(f);
  const uint64_t last = csr.a.n_rows() - 1;
  REQUIRE(csr.a.row_ptr[last + 1] - csr.a.row_ptr[last] == 3);
  const uint64_t k0 = csr.a.row_ptr[last];
  CHECK(csr.a.col[k0] == 0);
  CHECK(csr.a.coef_at(k0)[0] == 5);
  for (int i = 1; i < 32; ++i) CHECK(csr.a.coef_at(k0)[i] == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE_TEMPLATE("a reset prove system synthesizes again without reallocating", Fr,
                   ZK_CIRCUIT_FIELDS) {
  prove_cs_t<Fr> p(5, 5);
  cubic(p, 3);
  p.finish();
  const auto a = p.a();
  const auto* data = p.a().data();
  p.reset();
  CHECK(p.n_wires() == 1);
  CHECK(p.n_constraints() == 0);
  cubic(p, 3);
  p.finish();
  CHECK(p.a() == a);
  CHECK(p.a().data() == data);
}

TEST_CASE_TEMPLATE("a prove system writes into a caller's regions, and refuses to outgrow them", Fr,
                   ZK_CIRCUIT_FIELDS) {
  prove_cs_t<Fr> owned(5, 7);
  cubic(owned, 3);
  owned.finish();
  // The layout of an abc+witness synth buffer: witness | a | b | c, filled in place.
  std::vector<Fr> region(5 + 3 * 7, Fr::from_u64(99));
  prove_cs_t<Fr> p(region.data(), 5, region.data() + 5, region.data() + 12, region.data() + 19, 7);
  cubic(p, 3);
  p.finish();
  CHECK(p.witness() == owned.witness());
  CHECK(p.a() == owned.a());
  CHECK(p.b() == owned.b());
  CHECK(p.c() == owned.c());
  CHECK(p.witness().data() == region.data());
  CHECK(p.c().data() == region.data() + 19);
  CHECK(std::equal(owned.c().begin(), owned.c().end(), region.begin() + 19));
  // A copy owns its elements: changing the region does not change it.
  const auto a = p.a();
  region[5] = Fr::from_u64(7);
  CHECK(a[0] != p.a()[0]);
  // One row too few: the system stops at the region's end instead of writing past it.
  REQUIRE(owned.a().size() == 5);  // 3 constraints and the 2 input rows
  std::vector<Fr> small(5 + 3 * 4);
  prove_cs_t<Fr> q(small.data(), 5, small.data() + 5, small.data() + 9, small.data() + 13, 4);
  cubic(q, 3);
  CHECK_THROWS_AS(q.finish(), std::length_error);
  std::vector<Fr> few(4 + 3 * 7);
  prove_cs_t<Fr> r(few.data(), 4, few.data() + 4, few.data() + 11, few.data() + 18, 7);
  CHECK_THROWS_AS(cubic(r, 3), std::length_error);
}
