// A bellperson .params as a key of the one Groth16 prover (zk/bellperson/groth16/key.hpp): the
// toy circuit's parameters (the one generator), decoded into a key view, proved by
// groth16::prover_t through prove_verified from a prove-mode synthesis written straight into the
// prover's arrays. The proof verifies with the file's key (bellperson::verify_proof, the batch
// verifier too) and not for other inputs; the same r, s give the same bytes with and without the
// 0/1 split, with base tables, and with accelerator hooks that take the densities' compacted
// scalars; the key view has the densities, bellperson's coset and the h count; a file of
// another circuit is refused naming the section.
#include "zk/bellperson/groth16/key.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/bellperson/toy_circuit.hpp"
#include "tests/test_util.hpp"
#include "zk/bellperson/groth16/generator.hpp"
#include "zk/bellperson/groth16/verifier.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/formats/packed_witness.hpp"
#include "zk/groth16/prove_verified.hpp"
#include "zk/msm/msm.hpp"

using namespace zk::bellperson;
using zk::test::temp_dir_t;
using zk::test::toy_circuit;
using zk::test::toy_values_t;

namespace {

using prover_t = zk::groth16::prover_t<curve_t>;

const toy_values_t values{{0x76543210u, 0xfedcba98u, 0x13579bdfu, 0x02468aceu},
                          fr_t::from_u64(987654321)};

// The toy circuit synthesized into the prover's own a, b, c and a witness (inputs ‖ aux,
// canonical), as zk/filecoin/api/c2.cpp does for Filecoin's circuit.
std::vector<fr_t> synthesize(prover_t& prover, const r1cs_shape_t& s) {
  std::vector<fr_t> w(uint64_t(s.counts.inputs) + s.counts.aux);
  const auto abc = prover.abc_for_loading(s.prover_constraints());
  const assignment_view_t view{w.data(), w.data() + s.counts.inputs, abc.a, abc.b, abc.c, s.counts};
  prove_cs_t cs(view);
  cs.alloc_input(fr_t::one());
  toy_circuit(cs, values);
  REQUIRE(cs.counts() == s.counts);
  append_input_constraints(view, s.counts);
  zk::ff::write_canonical_le(w.data(), w.size(), reinterpret_cast<uint8_t*>(w.data()));
  return w;
}

struct fixed_t {
  zk::bytes32_t r{}, s{};
  fixed_t() { r[0] = 7, r[9] = 1, s[0] = 11, s[20] = 3; }
};

// With `packed`, the witness goes to the prover as the packed wire carries it: packed
// (zk/formats/packed_witness.hpp) and read by class (groth16::witness_in_t::classed).
zk::groth16::verified_proof_t<curve_t> prove(
    prover_t& prover, const params_key_t& key, const r1cs_shape_t& s,
    std::vector<zk::groth16::stage_span_t>* spans = nullptr, bool packed = false) {
  const std::vector<fr_t> w = synthesize(prover, s);
  zk::groth16::prove_call_t call;
  call.abc = zk::groth16::abc_source_t::loaded;
  call.what = "the toy circuit";
  const fixed_t f;
  call.r = f.r;
  call.s = f.s;
  if (spans) call.observe = [spans](const zk::groth16::stage_span_t& sp) { spans->push_back(sp); };
  const auto* values = reinterpret_cast<const uint8_t*>(w.data());
  if (!packed) return zk::groth16::prove_verified(prover, key.verifying_key(), values, call);
  const uint64_t others = zk::formats::count_others(values, w.size());
  std::vector<uint8_t> bytes(zk::formats::packed_witness_bytes(w.size(), others));
  zk::formats::pack_witness(values, w.size(), others, bytes.data());
  zk::formats::check_packed_witness(bytes.data(), bytes.size(), fr_t::modulus.l, "toy");
  const zk::formats::witness_bits_t bits = zk::formats::witness_bits(bytes.data());
  REQUIRE(bits.n_others > 0);
  REQUIRE(bits.n_others < w.size() / 2);  // the toy's witness is mostly bits
  const zk::msm::classed_scalars_t classed = bits.classes();
  return zk::groth16::prove_verified(prover, key.verifying_key(),
                                     zk::groth16::witness_in_t(&classed), call);
}

bool same(const proof_t& x, const proof_t& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }

}  // namespace

TEST_CASE("bellperson key view: the one prover proves with a .params, densities and coset") {
  shape_cs_t shape_cs(true);
  toy_circuit(shape_cs, values);
  const r1cs_shape_t s = shape_cs.finish();
  temp_dir_t tmp;
  const std::string params = tmp.file("toy.params"), vk = tmp.file("toy.vk");
  generate_parameters(s, 5, params, vk);
  const params_file_t file(params, params_file_t::mode_t::unchecked);
  const params_key_t key(file, s);
  const auto& pk = key.view();

  // The view: bellperson's numbering, densities, coset and h count.
  CHECK(pk.n_vars == s.counts.inputs + s.counts.aux);
  CHECK(pk.n_public == s.counts.inputs - 1);
  CHECK(pk.domain_size == s.domain_size());
  CHECK((uint64_t(1) << pk.log_domain) == pk.domain_size);
  CHECK(pk.h_form == zk::groth16::h_form_t::coset_quotient);
  CHECK(pk.domain_generator == 7);
  CHECK(pk.h_points() == file.h().count);
  CHECK(pk.a_points() == file.a().count);
  CHECK(pk.b_points() == file.b_g1().count);
  CHECK(pk.c_points() == file.l().count);
  REQUIRE(pk.a_density);
  REQUIRE(pk.b_density);
  CHECK(pk.a_density->count() < pk.n_vars);  // the toy's densities leave variables out
  CHECK(pk.b_density->count() < pk.n_vars);
  for (uint32_t i = 0; i < s.counts.inputs; ++i) CHECK(pk.a_density->test(i));
  CHECK(key.bytes() >= (file.h().count + file.l().count) * sizeof(g1_affine_t));
  CHECK(key.bytes() == params_key_t::bytes_for(file, s));
  CHECK(key.bytes() == params_key_t::bytes_for(s));  // the shape alone gives what its file holds
  CHECK_THROWS_AS(prover_t(pk).build_ab(nullptr), std::logic_error);  // no coefficients

  // A proof, verified with the file's key; not for other public inputs.
  prover_t prover(pk);
  std::vector<zk::groth16::stage_span_t> spans;
  const auto p = prove(prover, key, s, &spans);
  std::vector<fr_t> publics;
  for (const auto& d : p.public_signals) {
    fr_t x;
    REQUIRE(fr_t::from_string(d, x));
    publics.push_back(x);
  }
  REQUIRE(publics.size() == 2);
  CHECK(verify_proof(file.vk(), p.proof, publics).ok());
  CHECK(verify_proofs_batch(file.vk(), {p.proof, p.proof}, {publics, publics}).ok());
  std::vector<fr_t> other = publics;
  other[0] += fr_t::one();
  CHECK_FALSE(verify_proof(file.vk(), p.proof, other).ok());
  CHECK(spans.size() == 8);  // compute_h, the five MSMs, assemble, verify; no build_ab
  for (const auto& sp : spans) CHECK(sp.backend == zk::groth16::stage_backend_t::cpu);

  // The same r, s: the same proof again (the prover's arrays reused), without the split, with
  // base tables (GLV/GLS images and shifted copies, over the densities' bases).
  CHECK(same(prove(prover, key, s).proof, p.proof));
  prover_t no_split(pk);
  no_split.set_split(false);
  CHECK(same(prove(no_split, key, s).proof, p.proof));
  const auto tables = zk::groth16::key_tables_t<curve_t>::build(pk, {true, 2});
  CHECK(tables.bytes() == zk::groth16::key_tables_t<curve_t>::bytes_for(pk, {true, 2}));
  prover_t with_tables(pk);
  with_tables.set_tables(&tables);
  CHECK(same(prove(with_tables, key, s).proof, p.proof));
  // The witness read by class (the packed wire's): the same proof, also over tables; without the
  // split the CPU MSMs cannot plan from classes, and say so.
  CHECK(same(prove(prover, key, s, nullptr, true).proof, p.proof));
  CHECK(same(prove(with_tables, key, s, nullptr, true).proof, p.proof));
  CHECK_FALSE(no_split.reads_classed());
  CHECK_THROWS_AS(prove(no_split, key, s, nullptr, true), std::logic_error);

  // Accelerator hooks (here the CPU's plain MSM) get each density's scalars compacted, and the
  // stages they take are reported as the accelerator's; compute_h has no hook for this coset.
  zk::groth16::accelerator_t<curve_t> acc;
  acc.name = "test hooks";
  acc.msm_g1 = [](const g1_affine_t* b, const uint8_t* k, size_t n, curve_t::g1_jacobian& out) {
    out = zk::msm::msm<curve_t::g1>(b, k, n, fr_t::bits);
  };
  acc.msm_g2 = [](const g2_affine_t* b, const uint8_t* k, size_t n, curve_t::g2_jacobian& out) {
    out = zk::msm::msm<curve_t::g2>(b, k, n, fr_t::bits);
  };
  acc.compute_h = [](fr_t*, const fr_t*, const fr_t*, unsigned) {
    FAIL("compute_h's hook is snarkjs's odd coset: never called for bellperson's coset");
  };
  prover_t on_acc(pk);
  on_acc.set_accelerator(&acc);
  CHECK(on_acc.backend_of(zk::groth16::prover_stage_t::compute_h) ==
        zk::groth16::stage_backend_t::cpu);
  std::vector<zk::groth16::stage_span_t> acc_spans;
  CHECK(same(prove(on_acc, key, s, &acc_spans).proof, p.proof));
  // A classed witness: the hooks' scalars written from its classes, the same proof.
  CHECK(on_acc.reads_classed());
  CHECK(same(prove(on_acc, key, s, nullptr, true).proof, p.proof));
  for (const auto& sp : acc_spans) {
    CAPTURE(zk::groth16::stage_name(sp.stage));
    const bool msm = sp.stage == zk::groth16::prover_stage_t::msm_a ||
                     sp.stage == zk::groth16::prover_stage_t::msm_b1 ||
                     sp.stage == zk::groth16::prover_stage_t::msm_b2 ||
                     sp.stage == zk::groth16::prover_stage_t::msm_c ||
                     sp.stage == zk::groth16::prover_stage_t::msm_h;
    CHECK((sp.backend == zk::groth16::stage_backend_t::accelerator) == msm);
  }
}

TEST_CASE("bellperson key view: a .params of another circuit is refused naming the section") {
  shape_cs_t toy_cs(true);
  toy_circuit(toy_cs, values);
  const r1cs_shape_t s = toy_cs.finish();
  // Another circuit: the toy with one more constraint (x·x = x² again).
  shape_cs_t more_cs(true);
  toy_circuit(more_cs, values);
  const num_t x = alloc_num(more_cs, fr_t::from_u64(3));
  num_square(more_cs, x);
  const r1cs_shape_t more = more_cs.finish();
  temp_dir_t tmp;
  generate_parameters(more, 1, tmp.file("more.params"), tmp.file("more.vk"));
  const params_file_t file(tmp.file("more.params"), params_file_t::mode_t::unchecked);
  const std::string why = zk::test::thrown<std::invalid_argument>([&] { params_key_t k(file, s); });
  CHECK(zk::test::contains(why, "more.params: section "));
  CHECK(zk::test::contains(why, "parameters for another circuit"));
}
