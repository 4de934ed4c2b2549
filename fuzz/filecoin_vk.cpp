// bellperson verifying keys and proofs: bellperson::parse_vk (both encodings, detected) and
// decode_proofs (zk/bellperson/groth16/files.hpp) on the same bytes. Expected for bad input:
// format_error. Properties of an accepted input: every point is finite and in its subgroup, the
// encoder writes exactly the input bytes back (the encodings are canonical), and the key's size is
// the one vk_size computes.
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/bellperson/groth16/files.hpp"

namespace {

using namespace zk::bellperson;

void check_vk(const uint8_t* data, size_t size, const vk_read_t& r) {
  ZK_FUZZ_CHECK(r.size == size);
  ZK_FUZZ_CHECK(r.size == vk_size(r.encoding, r.vk.ic.size()));
  ZK_FUZZ_CHECK(!r.vk.ic.empty());
  for (const auto& p : r.vk.ic) ZK_FUZZ_CHECK(!p.is_infinity() && in_g1(p));
  ZK_FUZZ_CHECK(in_g1(r.vk.alpha_g1) && in_g2(r.vk.beta_g2) && in_g2(r.vk.delta_g2));
  const std::vector<uint8_t> again = encode_vk(r.vk, r.encoding);
  ZK_FUZZ_CHECK(again.size() == size && std::memcmp(again.data(), data, size) == 0);
}

void check_proofs(const uint8_t* data, size_t size, const std::vector<proof_t>& proofs) {
  ZK_FUZZ_CHECK(proofs.size() * proof_size == size);
  for (size_t k = 0; k < proofs.size(); ++k) {
    ZK_FUZZ_CHECK(!proofs[k].a.is_infinity() && !proofs[k].b.is_infinity());
    uint8_t again[proof_size];
    encode_proof(proofs[k], again);
    ZK_FUZZ_CHECK(std::memcmp(again, data + k * proof_size, proof_size) == 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    check_vk(data, size, parse_vk(data, size, "fuzz.vk", true, vk_encoding_t::uncompressed, true));
  } catch (const zk::format_error&) {
  }
  try {
    check_proofs(data, size, decode_proofs(data, size, "fuzz.proof"));
  } catch (const zk::format_error&) {
  }
  return 0;
}
