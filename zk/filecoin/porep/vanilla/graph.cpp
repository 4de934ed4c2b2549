#include "zk/filecoin/porep/vanilla/graph.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/blake2b.hpp"
#include "zk/base/chacha.hpp"
#include "zk/base/sha256.hpp"

namespace zk::filecoin {

namespace {

// storage-proofs-core crypto/mod.rs derive_porep_domain_seed.
sha256_t::digest_t domain_seed(const char* tag, const bytes32_t& porep_id) {
  return sha256_t().update(tag, std::strlen(tag)).update(porep_id.data(), 32).finalize();
}

// crypto/feistel.rs feistel(): BLAKE2b-512 of right ‖ key (each u64 big-endian, 16 bytes), the
// first 8 digest bytes read big-endian, masked to the right half.
uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask) {
  uint8_t data[16];
  for (int i = 0; i < 8; ++i) {
    data[i] = uint8_t(right >> (56 - 8 * i));
    data[8 + i] = uint8_t(key >> (56 - 8 * i));
  }
  const auto h = blake2b_t::hash512(data, sizeof data);
  uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = (r << 8) | h[size_t(i)];
  return r & right_mask;
}

}  // namespace

graph_t::graph_t(uint64_t nodes, const bytes32_t& porep_id, api_version_t api_version)
    : nodes_(nodes), api_version_(api_version) {
  if (nodes < 2 || nodes >= (uint64_t(1) << 32))
    throw std::invalid_argument("SDR graph: " + std::to_string(nodes) +
                                " nodes (needs 2 to 2^32 - 1)");
  const auto drg = domain_seed("Filecoin_DRSample", porep_id);
  std::memcpy(drg_seed_.data(), drg.data(), 28);
  const auto fk = domain_seed("Filecoin_Feistel", porep_id);
  for (size_t k = 0; k < 4; ++k) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | fk[8 * k + size_t(i)];
    feistel_keys_[k] = v;
  }
  // crypto/feistel.rs precompute(nodes · 8): the least even bit count 2·log4 with 4^log4 ≥ n.
  const uint64_t n = nodes * exp_degree;
  uint64_t next_pow4 = 4;
  unsigned log4 = 1;
  while (next_pow4 < n) {
    next_pow4 *= 4;
    ++log4;
  }
  half_bits_ = log4;
  right_mask_ = (uint64_t(1) << log4) - 1;
  left_mask_ = right_mask_ << log4;
}

void graph_t::check_node(uint64_t node) const {
  if (node >= nodes_)
    throw std::out_of_range("SDR graph: node " + std::to_string(node) + " of " +
                            std::to_string(nodes_));
}

void graph_t::drg_parents(uint64_t node, uint32_t out[drg_degree]) const {
  check_node(node);
  if (node < 2) {
    for (unsigned i = 0; i < drg_degree; ++i) out[i] = 0;
    return;
  }
  uint8_t seed[32];
  std::memcpy(seed, drg_seed_.data(), 28);
  for (int i = 0; i < 4; ++i) seed[28 + i] = uint8_t(node >> (8 * i));
  chacha8_rng_t rng(seed);

  constexpr uint64_t m_prime = drg_degree - 1;
  const uint64_t metagraph_node = node * m_prime;
  // (metagraph_node as f64).log2().ceil(), as drgraph.rs computes it (exact for these sizes).
  const uint64_t n_buckets = uint64_t(std::ceil(std::log2(double(metagraph_node))));
  const bool legacy = api_version_ == api_version_t::v1_0_0;
  const unsigned predecessor = legacy ? unsigned(m_prime) : 0;
  uint32_t* others = legacy ? out : out + 1;
  for (uint64_t i = 0; i < m_prime; ++i) {
    const uint64_t bucket = rng.next_u64() % n_buckets + 1;
    const uint64_t largest = std::min(metagraph_node, uint64_t(1) << bucket);
    const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
    const uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const uint32_t mapped = uint32_t((metagraph_node - distance) / m_prime);
    others[i] = mapped == node ? uint32_t(node - 1) : mapped;
  }
  out[predecessor] = uint32_t(node - 1);
}

uint64_t graph_t::feistel_encode(uint64_t index) const {
  uint64_t left = (index & left_mask_) >> half_bits_;
  uint64_t right = index & right_mask_;
  constexpr size_t rounds = 3;  // crypto/feistel.rs FEISTEL_ROUNDS: keys[0], [1], [2]
  for (size_t k = 0; k < rounds; ++k) {
    const uint64_t next_right = left ^ feistel_round(right, feistel_keys_[k], right_mask_);
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t graph_t::feistel_permute(uint64_t index) const {
  const uint64_t n = nodes_ * exp_degree;
  uint64_t u = feistel_encode(index);
  while (u >= n) u = feistel_encode(u);  // cycle walking back into [0, n)
  return u;
}

void graph_t::exp_parents(uint64_t node, uint32_t out[exp_degree]) const {
  check_node(node);
  for (unsigned i = 0; i < exp_degree; ++i) {
    const uint64_t t = feistel_permute(node * exp_degree + i);
    out[i] =
        api_version_ == api_version_t::v1_0_0 ? uint32_t(t) / exp_degree : uint32_t(t / exp_degree);
  }
}

void graph_t::parents(uint64_t node, uint32_t out[graph_degree]) const {
  drg_parents(node, out);
  exp_parents(node, out + drg_degree);
}

}  // namespace zk::filecoin
