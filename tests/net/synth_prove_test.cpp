// End to end through the data plane: a synth buffer made from a real circuit (the snarkjs
// fixtures) crosses loopback into a prover node's store, and the prover proves from the received
// bytes — a, b, c loaded as synthesis evaluated them (abc+witness), or recomputed from the
// witness alone (witness-only) — and the proof verifies. A payload the prover cannot use would
// fail here even if every checksum matched.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>

#include "common/buffer/buffer_store.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "tests/test_util.hpp"
#include "zk/formats/wtns.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/groth16/keys.hpp"
#include "zk/groth16/prover.hpp"
#include "zk/groth16/verifier.hpp"

using namespace zk;

namespace {

template <class C>
void prove_across(const std::string& curve, const std::string& name, curve_id_t id) {
  using fr_t = typename C::fr_t;
  static_assert(sizeof(fr_t) == buffer::fr_bytes, "an Fr element is 32 bytes in a synth buffer");
  const auto dir = test::fixture_dir(curve, name);
  REQUIRE_MESSAGE(std::filesystem::exists(dir + "/circuit.zkey"), dir << ": fixture missing");
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  formats::wtns_file_t wtns(dir + "/witness.wtns");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
  std::vector<fr_t> x(pk.n_public);
  for (uint32_t i = 0; i < pk.n_public; ++i) {
    typename fr_t::big_t v;
    std::memcpy(v.l, wtns.value(i + 1), 32);
    x[i] = fr_t::from_canonical(v);
  }

  // The synthesis side: a, b, c evaluated for the witness, into one buffer each shape.
  groth16::prover_t<C> synth(pk);
  synth.build_ab(wtns.values());
  const std::vector<fr_t> a = synth.a(), b = synth.b(), c = synth.c();

  buffer::buffer_store_t store(256 << 20);
  std::vector<net::received_t> got;
  std::mutex mu;
  net::data_server_t server(store, {}, [&](const net::received_t& r) {
    std::lock_guard<std::mutex> g(mu);
    got.push_back(r);
  });

  for (auto shape : {buffer::synth_shape_t::abc_witness, buffer::synth_shape_t::witness_only}) {
    CAPTURE(int(shape));
    buffer::synth_params_t p;
    p.curve = id;
    p.circuit_digest.fill(0x5a);
    p.job_id = 1;
    p.n_vars = pk.n_vars;
    p.n_public = pk.n_public;
    p.domain_rows = a.size();
    p.shape = shape;
    std::vector<buffer::byte_span_t> spans{{wtns.values(), size_t(pk.n_vars) * 32}};
    std::vector<boost::asio::const_buffer> pieces{
        boost::asio::buffer(wtns.values(), size_t(pk.n_vars) * 32)};
    if (shape == buffer::synth_shape_t::abc_witness) {
      for (const auto* v : {&a, &b, &c}) {
        spans.push_back({v->data(), v->size() * sizeof(fr_t)});
        pieces.push_back(boost::asio::buffer(v->data(), v->size() * sizeof(fr_t)));
      }
    }
    const auto header = buffer::make_header(p, spans);
    auto sent = net::send_buffer("127.0.0.1", server.port(), header, pieces);
    REQUIRE_MESSAGE(sent.ok, sent.error);

    // The prover side: only what arrived.
    auto ref = store.find(sent.buffer_id);
    REQUIRE(ref.has_value());
    const auto& h = ref->header();
    CHECK(curve_from_code(h.curve) == id);
    const auto lay = buffer::payload_layout(h);
    groth16::prover_t<C> prover(pk);
    groth16::proof_t<C> proof;
    if (h.shape() == buffer::synth_shape_t::abc_witness) {
      const auto* base = ref->data();
      prover.load_abc(reinterpret_cast<const fr_t*>(base + lay.a),
                      reinterpret_cast<const fr_t*>(base + lay.b),
                      reinterpret_cast<const fr_t*>(base + lay.c), h.domain_rows);
      proof = prover.prove_loaded(ref->data() + lay.witness, fr_t::one(), fr_t::one());
    } else {
      proof = prover.prove(ref->data() + lay.witness);
    }
    const auto v = groth16::verify(vk, x, proof);
    CHECK_MESSAGE(v.ok(), v.reason());
    CHECK(store.release(sent.buffer_id));
  }
  CHECK(got.size() == 2);
}

}  // namespace

TEST_CASE("a synth buffer of a real circuit crosses the data plane and proves (BN254)") {
  prove_across<curves::bn254>("bn254", "mulchain", curve_id_t::bn254);
}

TEST_CASE("a synth buffer of a real circuit crosses the data plane and proves (BLS12-381)") {
  prove_across<curves::bls12_381>("bls12_381", "mulchain", curve_id_t::bls12_381);
}
