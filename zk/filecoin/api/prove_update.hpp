#pragma once
// A SnapDeals update's proof (filecoin-proofs 19.1.0 api/update.rs
// generate_empty_sector_update_proof_with_vanilla, the call Curio's ProveUpdate and cuzk make):
// one Groth16 proof a partition of storage-proofs-update's circuit (zk/filecoin/update/
// circuit.hpp), with a bellperson `.params` file of that circuit, by the one prover of the project,
// so that filecoin-proofs' verify_empty_sector_update_proof accepts the concatenated 192-byte
// proofs with the file's verifying key (zk/filecoin/api/verify_update.hpp; docs/filecoin.md
// "SnapDeals").
//
//   update_prover_t         the .params of one update circuit decoded for it (params_prover_t,
//                           zk/filecoin/api/params_prover.hpp, as c2_prover_t for PoRep) and the
//                           update's configuration
//   synthesize_update_into  partition k's assignment from its vanilla proof and the sector's
//                           commitments, in prove mode straight into a witness (inputs ‖ aux,
//                           canonical) and the prover's a, b, c; every constraint checked
//   prove_update_partition  partition k's vanilla proof checked (verify_update_partition), then
//                           synthesized and proved → the verified proof and its 192 bytes
//
// Unlike filecoin-proofs' prove_with_vanilla, which proves whatever it is given (its circuit's
// assert_eq!s panic on some bad witnesses), the vanilla proof is verified first. Refusals are
// values naming the partition and the check: "partition 2: challenge 7 (node 181234): …" (the
// vanilla verifier), "partition 0: constraint 1234 (challenge 3: tree R new) is not satisfied",
// "partition 0: public input 2 …", "partition 0: … the proof fails verification …".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/base/stop.hpp"
#include "zk/filecoin/api/params_prover.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::filecoin {

class update_prover_t : public params_prover_t {
 public:
  // Decodes the file for the update circuit of `config` (the file must be for it:
  // std::invalid_argument naming the section otherwise); the file may be closed afterwards.
  update_prover_t(const bellperson::params_file_t& params, const update_config_t& config);

  const update_config_t& config() const { return config_; }

 private:
  update_config_t config_;
};

// Partition k (of the prover's configuration) synthesized in prove mode from its vanilla proof
// (as read_update_vanilla_file decoded it for that configuration) and the commitments into
// `witness` (resized to inputs + aux, left canonical little-endian) and the prover's own a, b, c
// (abc_for_loading). Refused, naming the partition: k not below the partitions, a value that is
// not a field element, a witness the circuit does not take (check_update_witness, the computed
// leaf_r_new), a constraint that is not satisfied. `stop` as synthesize_update_partition polls it
// (zk::cancelled_error).
result_t<synthesis_report_t> synthesize_update_into(update_prover_t& prover,
                                                    const update_commitments_t& comms,
                                                    const update_partition_proof_t& proof,
                                                    uint32_t k, std::vector<fr_t>& witness,
                                                    const stop_t& stop = {});

struct prove_update_partition_t {
  const update_partition_proof_t* proof = nullptr;  // partition k's vanilla proof
  update_commitments_t comms;         // the sector's comm_r_old, comm_d_new, comm_r_new
  uint32_t partition = 0;             // k
  groth16::stage_observer_t observe;  // the prover's stages, then verify
  std::optional<bytes32_t> r, s;      // fixed randomizers (tests); unset: the OS CSPRNG
  stop_t stop;                        // polled in synthesis and at the prover's safe points
};

// Partition k's verified proof: refused (nothing proved), naming the partition and the check, when
// its vanilla proof fails verify_update_partition, when synthesize_update_into refuses, when the
// synthesized public inputs are not update_public_inputs(config, k, comms), or when the proof does
// not verify with the params' verifying key. A sector's proof is the partitions' `bytes`
// concatenated, partition 0 first (192 × partitions bytes).
result_t<partition_proof_t> prove_update_partition(update_prover_t& prover,
                                                   const prove_update_partition_t& in);

}  // namespace zk::filecoin
