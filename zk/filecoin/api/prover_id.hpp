#pragma once
// A sector's prover id as an operator gives it: the 32 bytes themselves (64 hex digits, as
// seal_commit_phase1 takes them), or the miner's actor address (f0… on mainnet, t0… on test
// networks) or bare actor id, made into the prover id as lotus and curio make it (filecoin-ffi
// toProverID: the ID address's payload — the actor id as an unsigned LEB128 varint — then zeros to
// 32 bytes; f01000 is e807 then 30 zero bytes).
#include <cstdint>
#include <string_view>

#include "zk/base/bytes.hpp"

namespace zk::filecoin {

// The prover id of actor `id`.
bytes32_t prover_id_of_actor(uint64_t id);

// `text` as above; std::invalid_argument naming `what` (the flag or query field) and saying which
// forms are taken.
bytes32_t parse_prover_id(std::string_view text, std::string_view what);

}  // namespace zk::filecoin
