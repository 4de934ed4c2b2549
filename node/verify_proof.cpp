#include "node/verify_proof.hpp"

#include "common/ec/with_curve.hpp"
#include "common/formats/json.hpp"
#include "common/formats/zkey.hpp"

namespace zk::node {

groth16::verdict_t verify_proof(const circuit_def_t& c, const std::string& proof_json,
                                const std::vector<std::string>& public_signals) {
  return curves::with_curve(c.curve, [&](auto tag) {
    using C = decltype(tag);
    formats::zkey_file zkey(c.zkey);
    auto pk = groth16::proving_key_t<C>::view(zkey);
    auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
    auto proof =
        groth16::proof_t<C>::from_json(formats::parse_proof_json(proof_json, "proof"), "proof");
    auto pub = groth16::public_from_json<C>(public_signals, "public");
    return groth16::verify(vk, pub, proof);
  });
}

}  // namespace zk::node
