#pragma once
// One partition of a C2 as its synthesis needs it: the circuit's witness (zk/filecoin/porep/
// circuit/circuit.hpp partition_witness_t: the values every challenge shares and, per challenge,
// its data leaf, Merkle paths and column openings) and the challenged nodes with their parents
// (what the partition's public inputs are made of, public_inputs.hpp challenge_t), in a compact
// binary form. A scheduler reads and checks the C1 once (check_c1.hpp) and hands each partition's
// synthesis only this: ≈ 16.6 KiB for 2 KiB sectors, ≈ 739 KiB for 32 GiB, ≈ 749 KiB for 64 GiB,
// against the whole C1 (≈ 100 KB of JSON for 2 KiB, ≈ 38 MB for 32 GiB) and its parse.
//
// Layout, little-endian, every count fixed by the registered proof (no length is stored):
//   offset  size
//        0     4  magic "ZKFP"
//        4     2  version (partition_input_version)
//        6     2  0 (reserved)
//        8     8  the registered proof's id (zk/filecoin/api/registry.hpp)
//       16     4  partition k (< the proof's partitions)
//       20     4  challenges per partition (the proof's)
//       24   160  replica_id, comm_d, comm_r, comm_r_last, comm_c (32-byte field elements)
//      184        per challenge:
//                   8  node (u64; 1 ≤ node < nodes)
//                  24  its 6 DRG parents (u32 each, < nodes)
//                  32  its 8 expander parents (u32 each, < nodes)
//                  32  the data leaf
//                      tree D path:  log2(nodes) × (1 index byte, 1 sibling)
//                      tree R path:  per level (1 index byte, arity − 1 siblings), bottom-up
//                      tree C path:  the same
//                      6 DRG then 8 expander columns: layers values, then a tree C path
// A field element is 32 bytes, little-endian, below r; an index byte is below its level's arity.
//
// The reader checks the whole length against the registered proof's before it reads (or
// allocates) anything, then every field; errors name the input and the byte offset
// (zk/base/error.hpp: format_error).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

inline constexpr uint16_t partition_input_version = 1;
inline constexpr char partition_input_magic[4] = {'Z', 'K', 'F', 'P'};

struct partition_input_t {
  const registered_proof_t* proof = nullptr;
  uint32_t partition = 0;
  partition_witness_t witness;
  std::vector<challenge_t> challenges;  // the public inputs' nodes and parents, in order
};

// The exact size of a partition input of this registered proof.
uint64_t partition_input_size(const porep_config_t& pc);

// Encodes a partition's witness (check_witness must accept it) and its challenges (as many as
// the witness has, witness.challenges[j].challenge == challenges[j].node). Throws
// std::invalid_argument naming what does not fit.
std::vector<uint8_t> write_partition_input(const porep_config_t& pc, uint32_t partition,
                                           const partition_witness_t& witness,
                                           const std::vector<challenge_t>& challenges);

// Partition k of a C1 whose vanilla proofs passed check_c1: the witness of vanilla_proofs[k]
// (witness_from_vanilla) with the challenges the verifier derives from the sector's ids
// (partition_inputs). Throws std::invalid_argument as those do, and when a vanilla proof is not
// of the challenge derived for it.
std::vector<uint8_t> partition_input_from_c1(const porep_config_t& pc, const graph_t& g,
                                             const c1_output_t& c1, const sector_ids_t& ids,
                                             uint32_t k);

// Reads `n` bytes at `p`, the input of a partition of `pc`'s registered proof; `name` names it
// in errors. Throws format_error ("<name>: at byte 1234: …") for a length that is not
// partition_input_size(pc), another magic, version or registered proof, a partition or challenge
// count other than the proof's, a value not below r, a node or parent outside the graph, an index
// byte not below its arity.
partition_input_t read_partition_input(const porep_config_t& pc, const uint8_t* p, size_t n,
                                       const std::string& name);
// The same from a file, refused by its size before any of it is read.
partition_input_t read_partition_input_file(const porep_config_t& pc, const std::string& path);

// The partition's public inputs (ONE excluded), in circuit order: replica_id, comm_d, comm_r, then
// each challenge's (append_challenge_inputs) — what partition_inputs derives for the same sector.
std::vector<fr_t> public_inputs_of(const partition_input_t& in);

}  // namespace zk::filecoin
