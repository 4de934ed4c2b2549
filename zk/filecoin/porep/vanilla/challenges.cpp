#include "zk/filecoin/porep/vanilla/challenges.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/blake2b.hpp"
#include "zk/base/chacha.hpp"
#include "zk/base/sha256.hpp"

namespace zk::filecoin {

namespace {

// challenges.rs bigint_to_challenge: (the 256-bit little-endian number mod (nodes − 1)) + 1.
uint64_t to_challenge(const uint8_t* le, size_t n, uint64_t nodes) {
  const uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (size_t i = n; i-- > 0;) r = ((r << 8) | le[i]) % m;
  return uint64_t(r) + 1;
}

void put_u32_le(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

constexpr uint64_t default_synth_challenge_count = uint64_t(1) << 18;
constexpr uint8_t synth_nonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

// challenges.rs chacha20_gen / chacha20_select: ChaCha20 keyed with a keyed BLAKE2b-256 of
// replica_id ‖ second.
chacha20_ietf_t synth_stream(const char* tag, const bytes32_t& replica_id,
                             const bytes32_t& second) {
  uint8_t key[32];
  blake2b_t(32, tag, std::strlen(tag))
      .update(replica_id.data(), 32)
      .update(second.data(), 32)
      .finalize(key);
  return chacha20_ietf_t(key, synth_nonce);
}
constexpr const char* synth_generation_tag = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr const char* synth_selection_tag = "filecoin.io|PoRep|1|Synthetic|1|Selection";

uint64_t synthetic_challenge(chacha20_ietf_t& gen, uint64_t i, uint64_t nodes) {
  uint8_t rand[32];
  gen.seek(i * 32);
  gen.keystream(rand, 32);
  return to_challenge(rand, 32, nodes);
}

}  // namespace

bytes32_t replica_id(const bytes32_t& prover_id, uint64_t sector, const bytes32_t& ticket,
                     const bytes32_t& comm_d, const bytes32_t& porep_id) {
  uint8_t sector_be[8];
  for (int i = 0; i < 8; ++i) sector_be[i] = uint8_t(sector >> (56 - 8 * i));
  auto h = sha256_t()
               .update(prover_id.data(), 32)
               .update(sector_be, 8)
               .update(ticket.data(), 32)
               .update(comm_d.data(), 32)
               .update(porep_id.data(), 32)
               .finalize();
  h[31] &= 0x3f;
  return h;
}

std::vector<uint64_t> synthetic_challenge_set(uint64_t nodes, const bytes32_t& replica_id,
                                              const bytes32_t& comm_r) {
  const uint64_t count = std::min(nodes, default_synth_challenge_count);
  auto gen = synth_stream(synth_generation_tag, replica_id, comm_r);
  std::vector<uint64_t> out(static_cast<size_t>(count));
  uint8_t rand[32];
  for (auto& c : out) {
    gen.keystream(rand, 32);
    c = to_challenge(rand, 32, nodes);
  }
  return out;
}

std::vector<uint64_t> porep_challenges(const porep_config_t& c, const bytes32_t& replica_id,
                                       const bytes32_t& seed, const bytes32_t& comm_r, uint32_t k) {
  if (k >= c.partitions)
    throw std::out_of_range("partition " + std::to_string(k) + " of " +
                            std::to_string(c.partitions));
  const uint32_t n = c.challenges_per_partition;
  std::vector<uint64_t> out;
  out.reserve(n);
  switch (c.challenge_kind) {
    case challenge_kind_t::interactive:
      for (uint32_t i = 0; i < n; ++i) {
        uint8_t j[4];
        put_u32_le(j, n * k + i);
        const auto h = sha256_t()
                           .update(replica_id.data(), 32)
                           .update(seed.data(), 32)
                           .update(j, 4)
                           .finalize();
        out.push_back(to_challenge(h.data(), 32, c.nodes));
      }
      break;
    case challenge_kind_t::non_interactive: {
      static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
      for (uint32_t i = 0; i < n; ++i) {
        uint8_t j[4];
        put_u32_le(j, n * k + i);
        const auto h = sha256_t()
                           .update(tag, sizeof tag - 1)
                           .update(replica_id.data(), 32)
                           .update(comm_r.data(), 32)
                           .update(j, 4)
                           .finalize();
        out.push_back(to_challenge(h.data(), 32, c.nodes));
      }
      break;
    }
    case challenge_kind_t::synthetic: {
      // SynthChallengeGenerator::gen_porep_partition_challenges.
      const uint64_t count = std::min(c.nodes, default_synth_challenge_count);
      auto select = synth_stream(synth_selection_tag, replica_id, seed);
      select.seek(uint64_t(k) * n * 4);
      std::vector<uint8_t> idx(size_t(n) * 4);
      select.keystream(idx.data(), idx.size());
      auto gen = synth_stream(synth_generation_tag, replica_id, comm_r);
      for (uint32_t i = 0; i < n; ++i) {
        const uint8_t* p = &idx[4 * size_t(i)];
        const uint32_t v =
            uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
        out.push_back(synthetic_challenge(gen, v % count, c.nodes));
      }
      break;
    }
  }
  return out;
}

}  // namespace zk::filecoin
