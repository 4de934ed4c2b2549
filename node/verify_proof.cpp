#include "node/verify_proof.hpp"

#include "node/filecoin_job.hpp"
#include "zk/base/sha256.hpp"
#include "zk/ec/with_curve.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/packed_witness.hpp"
#include "zk/formats/zkey.hpp"

namespace zk::node {

namespace {

// A Filecoin partition's proof (bellperson's 192 bytes) against the circuit's .vk.
check_t verify_filecoin(const circuit_def_t& c, const std::string& proof_text,
                        const std::vector<std::string>& public_signals) {
  auto bytes = filecoin_proof_bytes(proof_text);
  if (!bytes) throw std::runtime_error("proof: " + bytes.error());
  const auto vk = bellperson::read_vk_file(c.vk).vk;
  const auto proof = bellperson::decode_proof(bytes->data(), "proof", 0, 0);
  std::vector<filecoin::fr_t> inputs;
  for (size_t i = 0; i < public_signals.size(); ++i) {
    uint8_t le[32];
    std::optional<filecoin::fr_t> x;
    if (formats::decimal_to_le(public_signals[i], le, 32)) x = filecoin::fr_from_bytes(le);
    if (!x)
      throw std::runtime_error("public signal " + std::to_string(i) +
                               " is not a field element: " + public_signals[i].substr(0, 100));
    inputs.push_back(*x);
  }
  return bellperson::verify_proof(vk, proof, inputs);
}

}  // namespace

check_t verify_proof(const circuit_def_t& c, const std::string& proof_json,
                     const std::vector<std::string>& public_signals) {
  if (config::uses_filecoin_params(c.kind))  // a bellperson proof, checked with the circuit's .vk
    return verify_filecoin(c, proof_json, public_signals);
  return curves::with_curve(c.curve, [&](auto tag) {
    using C = decltype(tag);
    formats::zkey_file_t zkey(c.zkey, formats::zkey_open_t::verifier);
    auto pk = groth16::proving_key_t<C>::view(zkey);
    auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
    auto proof =
        groth16::proof_t<C>::from_json(formats::parse_proof_json(proof_json, "proof"), "proof");
    auto pub = groth16::public_from_json<C>(public_signals, "public");
    return groth16::verify(vk, pub, proof);
  });
}

namespace {

std::string sha256(const uint8_t* p, size_t n) {
  const auto d = sha256_t::hash(p, n);
  return std::string(d.begin(), d.end());
}

}  // namespace

std::string public_digest(const uint8_t* witness, uint64_t n_public) {
  return sha256(witness + 32, size_t(n_public) * 32);
}

std::string public_digest(const buffer::synth_header_t& h, const uint8_t* payload) {
  if (h.shape() != buffer::synth_shape_t::packed_witness) return public_digest(payload, h.n_public);
  std::vector<uint8_t> head(size_t(h.n_public + 1) * 32);
  formats::unpack_prefix(payload, h.n_public + 1, head.data());
  return public_digest(head.data(), h.n_public);
}

std::optional<std::string> public_digest(const std::vector<std::string>& public_signals) {
  std::vector<uint8_t> bytes(public_signals.size() * 32);
  for (size_t i = 0; i < public_signals.size(); ++i)
    if (!formats::decimal_to_le(public_signals[i], bytes.data() + 32 * i, 32)) return std::nullopt;
  return sha256(bytes.data(), bytes.size());
}

}  // namespace zk::node
