// The prover and verifier on the snarkjs fixtures of both curves: our proofs verify, snarkjs's
// proofs verify, tampered proofs and public inputs are rejected, and the stages are right alone.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/test_util.hpp"
#include "zk/formats/wtns.hpp"
#include "zk/groth16/api.hpp"
#include "zk/groth16/prove_verified.hpp"
#include "zk/groth16/verifier.hpp"

using namespace zk;
namespace fs = std::filesystem;

namespace {

template <class C>
std::vector<typename C::fr_t> public_of(const formats::wtns_file_t& w, uint32_t n_public) {
  std::vector<typename C::fr_t> x(n_public);
  for (uint32_t i = 0; i < n_public; ++i) {
    typename C::fr_t::big_t v;
    std::memcpy(v.l, w.value(i + 1), 32);
    x[i] = C::fr_t::from_canonical(v);
  }
  return x;
}

template <class C>
void check_fixture(const std::string& curve, const std::string& name) {
  auto dir = test::fixture_dir(curve, name);
  REQUIRE_MESSAGE(fs::exists(dir + "/circuit.zkey"),
                  dir << ": fixture missing (tests/interop/make_fixtures.sh)");
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  formats::wtns_file_t wtns(dir + "/witness.wtns");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
  auto x = public_of<C>(wtns, pk.n_public);
  groth16::prover_t<C> prover(pk);

  // build_ab alone: for a satisfying witness c = a∘b is also ⟨C_row, w⟩, so after compute_h
  // the odd-coset values p = a·b − c must interpolate a multiple of Z — checked through the proof.
  prover.build_ab(wtns.values());
  size_t nonzero = 0;
  for (const auto& v : prover.a()) nonzero += !v.is_zero();
  CHECK(nonzero > 0);

  // load_abc + prove_loaded (how synthesized a/b/c enter the prover) gives a valid proof, with c
  // given or derived as a∘b.
  {
    std::vector<typename C::fr_t> a = prover.a(), b = prover.b(), c = prover.c();
    groth16::prover_t<C> other(pk);
    other.load_abc(a.data(), b.data(), c.data(), a.size());
    const auto v0 =
        groth16::verify(vk, x, other.prove_loaded(wtns.values(), C::fr_t::one(), C::fr_t::one()));
    CHECK_MESSAGE(v0.ok(), v0.reason());
    other.load_abc(a.data(), b.data(), nullptr, a.size());
    CHECK(
        groth16::verify(vk, x, other.prove_loaded(wtns.values(), C::fr_t::zero(), C::fr_t::one())));
    a[0] += C::fr_t::one();  // a wrong evaluation must not verify
    other.load_abc(a.data(), b.data(), nullptr, a.size());
    CHECK_FALSE(groth16::verify(
        vk, x, other.prove_loaded(wtns.values(), C::fr_t::zero(), C::fr_t::zero())));
    CHECK_THROWS(other.load_abc(a.data(), b.data(), nullptr, a.size() + 1));
  }

  // Deterministic proof (r = s = 0) and randomized proofs both verify.
  auto p0 = prover.prove(wtns.values(), C::fr_t::zero(), C::fr_t::zero());
  auto v = groth16::verify(vk, x, p0);
  CHECK_MESSAGE(v.ok(), v.reason());
  auto p1 = prover.prove(wtns.values());
  v = groth16::verify(vk, x, p1);
  CHECK_MESSAGE(v.ok(), v.reason());
  auto p2 = prover.prove(wtns.values());
  CHECK(p1.a != p2.a);  // fresh randomizers

  // Every CPU path gives the very same proof for the same r, s: base tables (endomorphism
  // images, shifted copies), the portable kernels (ZK_NO_IFMA is read once per process, so the
  // kernels are compared in tests/msm), the stages reported once each.
  {
    const auto r = test::random_field<typename C::fr_t>(),
               s = test::random_field<typename C::fr_t>();
    const auto want = prover.prove(wtns.values(), r, s);
    CHECK(groth16::verify(vk, x, want));
    for (const groth16::precompute_t pre :
         {groth16::precompute_t{true, 1}, groth16::precompute_t{false, 2},
          groth16::precompute_t{true, 2}}) {
      const auto tables = groth16::key_tables_t<C>::build(pk, pre);
      CHECK(tables.bytes() == groth16::key_tables_t<C>::bytes_for(pk, pre));
      groth16::prover_t<C> with_tables(pk);
      with_tables.set_tables(&tables);
      std::vector<int> seen(9, 0);
      const auto got = with_tables.prove(wtns.values(), r, s, [&](const groth16::stage_span_t& sp) {
        CHECK(sp.begin_ns <= sp.end_ns);
        CHECK(sp.backend == groth16::stage_backend_t::cpu);
        ++seen[size_t(sp.stage)];
      });
      CHECK(got.a == want.a);
      CHECK(got.b == want.b);
      CHECK(got.c == want.c);
      for (auto st : groth16::all_prover_stages) CHECK(seen[size_t(st)] == 1);
    }
  }

  // The verification key JSON that snarkjs wrote agrees with the zkey.
  auto vj = formats::read_vkey_json(dir + "/verification_key.json");
  auto vk_json = groth16::verifying_key_t<C>::from_json(vj, dir + "/verification_key.json");
  CHECK(vk_json.alpha1 == vk.alpha1);
  CHECK(vk_json.delta2 == vk.delta2);
  CHECK(vk_json.ic == vk.ic);
  CHECK(groth16::verify(vk_json, x, p1));

  // snarkjs's own proof verifies with our verifier.
  auto sj = groth16::proof_t<C>::from_json(formats::read_proof_json(dir + "/proof.json"),
                                           dir + "/proof.json");
  auto sx = groth16::public_from_json<C>(formats::read_public_json(dir + "/public.json"),
                                         dir + "/public.json");
  CHECK(sx == x);
  CHECK(groth16::verify(vk, sx, sj));

  // Tampering is rejected: swapped points, a changed public input, a point off the subgroup.
  auto bad = p1;
  std::swap(bad.a, bad.c);
  CHECK_FALSE(groth16::verify(vk, x, bad));
  auto x2 = x;
  x2[0] += C::fr_t::one();
  v = groth16::verify(vk, x2, p1);
  CHECK_FALSE(v.ok());
  CHECK(v.reason() == "the pairing check failed");
  x2.pop_back();
  CHECK_FALSE(groth16::verify(vk, x2, p1));
  bad = p1;
  bad.a = C::g1_jacobian::from_affine(p1.a).dbl().to_affine();
  CHECK_FALSE(groth16::verify(vk, x, bad));
}

}  // namespace

TEST_CASE("prove and verify: BN254 fixtures") {
  check_fixture<curves::bn254>("bn254", "mulchain");
  check_fixture<curves::bn254>("bn254", "poseidon");
}
TEST_CASE("prove and verify: BLS12-381 fixtures") {
  check_fixture<curves::bls12_381>("bls12_381", "mulchain");
  check_fixture<curves::bls12_381>("bls12_381", "poseidon");
}

TEST_CASE("prove_files refuses a witness of another circuit") {
  auto a = test::fixture_dir("bn254", "mulchain"), b = test::fixture_dir("bn254", "poseidon");
  test::temp_dir_t dir("zkfleet_prover_test");  // fresh: nothing left by an earlier run
  const fs::path tmp = dir.path();
  // Same curve and (by construction of the fixtures) different wire counts: rejected up front.
  CHECK_THROWS_WITH(groth16::prove_files(a + "/circuit.zkey", b + "/witness.wtns",
                                         (tmp / "p.json").string(), (tmp / "pub.json").string()),
                    doctest::Contains("witness.wtns"));
  // Other curve.
  CHECK_THROWS(groth16::prove_files(a + "/circuit.zkey",
                                    test::fixture_dir("bls12_381", "mulchain") + "/witness.wtns",
                                    (tmp / "p.json").string(), (tmp / "pub.json").string()));
  CHECK_FALSE(fs::exists(tmp / "p.json"));
}

// device_timed_observer on the host: a stage with a device span inside its host interval is
// reported with that span, one without (or with a span outside it) with its host times, and a span
// left over from before the wrapper was made is dropped. (tests/gpu checks it with real CUDA
// spans.)
TEST_CASE("device_timed_observer reports device spans inside the stage, host times otherwise") {
  using C = curves::bn254;
  std::vector<std::pair<uint64_t, uint64_t>> pending = {{1, 2}};  // left by unobserved work
  groth16::accelerator_t<C> acc;
  acc.take_device_span = [&](uint64_t& b, uint64_t& e) {
    if (pending.empty()) return false;
    b = pending.front().first, e = pending.front().second;
    pending.erase(pending.begin());
    return true;
  };
  std::vector<std::pair<uint64_t, uint64_t>> got;
  auto timed = groth16::device_timed_observer<C>(&acc, [&](const groth16::stage_span_t& sp) {
    got.push_back({sp.begin_ns, sp.end_ns});
  });
  CHECK(pending.empty());  // the stale span was taken and dropped
  const auto acc_stage = groth16::stage_backend_t::accelerator;
  timed({groth16::prover_stage_t::build_ab, 10, 20, groth16::stage_backend_t::cpu});  // no work
  pending = {{32, 38}};
  timed({groth16::prover_stage_t::compute_h, 30, 40, acc_stage});  // device work inside
  pending = {{45, 70}};
  timed({groth16::prover_stage_t::msm_h, 40, 60, acc_stage});  // ends after the stage: not believed
  REQUIRE(got.size() == 3);
  CHECK(got[0] == std::pair<uint64_t, uint64_t>{10, 20});
  CHECK(got[1] == std::pair<uint64_t, uint64_t>{32, 38});
  CHECK(got[2] == std::pair<uint64_t, uint64_t>{40, 60});
  // No hook or no observer: the observer is returned as it is.
  groth16::accelerator_t<C> plain;
  CHECK_FALSE(groth16::device_timed_observer<C>(&plain, nullptr));
}

// A stop request (zk/base/stop.hpp: a cancelled job) ends the proof at its next safe point with
// zk::cancelled_error, whatever point that is; a stop that never answers true changes nothing,
// and the prover proves again afterwards with the same work arrays.
TEST_CASE("a stop request ends the proof at its next safe point") {
  using C = curves::bn254;
  auto dir = test::fixture_dir("bn254", "mulchain");
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  formats::wtns_file_t wtns(dir + "/witness.wtns");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
  auto x = public_of<C>(wtns, pk.n_public);
  groth16::prover_t<C> prover(pk);
  const auto r = test::random_field<C::fr_t>(), s = test::random_field<C::fr_t>();
  const auto want = prover.prove(wtns.values(), r, s);
  REQUIRE(groth16::verify(vk, x, want));

  // Stopped at the k-th poll: polled again at most a few times (the tasks already running end
  // theirs), then cancelled_error; the stages reported are only those that ended before.
  size_t polls_without_stop = 0;
  {
    size_t polls = 0;
    prover.set_stop([&] { return ++polls, false; });
    CHECK(prover.prove(wtns.values(), r, s).a == want.a);
    polls_without_stop = polls;
  }
  CHECK(polls_without_stop >= 3);  // polled through the proof, not only at its end
  for (size_t k : {size_t(0), size_t(1), polls_without_stop / 2, polls_without_stop - 1}) {
    CAPTURE(k);
    size_t polls = 0;
    std::vector<int> seen(9, 0);
    prover.set_stop([&] { return ++polls > k; });
    CHECK_THROWS_AS(
        prover.prove(wtns.values(), r, s,
                     [&](const groth16::stage_span_t& sp) { ++seen[size_t(sp.stage)]; }),
        zk::cancelled_error);
    CHECK(seen[size_t(groth16::prover_stage_t::assemble)] == 0);  // never finished
    if (k == 0) CHECK(seen[size_t(groth16::prover_stage_t::compute_h)] == 0);
  }
  prover.set_stop({});
  CHECK(prover.prove(wtns.values(), r, s).a == want.a);  // the arrays serve the next proof

  // Through prove_verified: the call's stop, its `what` in the message, and no stop left behind.
  groth16::prove_call_t call;
  call.what = "job 7 partition 0";
  call.stop = [] { return true; };
  try {
    (void)groth16::prove_verified(prover, vk, wtns.values(), call);
    FAIL("a stopped proof returned");
  } catch (const zk::cancelled_error& e) {
    CHECK(std::string(e.what()) == "job 7 partition 0: stopped (cancelled)");
  }
  call.stop = {};
  CHECK(groth16::prove_verified(prover, vk, wtns.values(), call).proof.a != want.a);
}
