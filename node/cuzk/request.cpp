#include "node/cuzk/request.hpp"

#include <limits>

#include "node/filecoin_job.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/sha256.hpp"

namespace zk::node::cuzk {

namespace fc = zk::filecoin;

const char* code_name(code_t c) {
  switch (c) {
    case code_t::invalid_argument:
      return "INVALID_ARGUMENT";
    case code_t::not_found:
      return "NOT_FOUND";
    case code_t::already_exists:
      return "ALREADY_EXISTS";
    case code_t::failed_precondition:
      return "FAILED_PRECONDITION";
    case code_t::unimplemented:
      return "UNIMPLEMENTED";
    case code_t::permission_denied:
      return "PERMISSION_DENIED";
    case code_t::unauthenticated:
      return "UNAUTHENTICATED";
    case code_t::unavailable:
      return "UNAVAILABLE";
    case code_t::internal:
      return "INTERNAL";
  }
  return "?";
}

const char* proof_kind_name(uint64_t kind) {
  switch (kind) {
    case 0:
      return "PROOF_KIND_UNSPECIFIED";
    case 1:
      return "POREP_SEAL_COMMIT";
    case 2:
      return "SNAP_DEALS_UPDATE";
    case 3:
      return "WINDOW_POST_PARTITION";
    case 4:
      return "WINNING_POST";
    default:
      return "";
  }
}

result_t<bytes32_t> prover_id_of(uint64_t miner_id) {
  // go-address NewIDAddress: "IDs must be less than 2^63" (the chain's actor ids are int64).
  if (miner_id > uint64_t(std::numeric_limits<int64_t>::max()))
    return "miner_id " + std::to_string(miner_id) +
           " is not an actor id (Filecoin's ID addresses are below 2^63)";
  bytes32_t id{};  // AsByteArray32: the payload left-aligned, the rest zero
  size_t i = 0;
  uint64_t v = miner_id;
  while (v >= 0x80) {  // unsigned LEB128 (go-varint ToUvarint), seven bits a byte, low first
    id[i++] = uint8_t(v & 0x7f) | 0x80;
    v >>= 7;
  }
  id[i] = uint8_t(v);
  return id;
}

result_t<const fc::registered_proof_t*> seal_proof_of(uint64_t registered_proof) {
  const auto& all = fc::registered_proofs();
  if (registered_proof >= all.size())
    return "registered_proof " + std::to_string(registered_proof) +
           " is no RegisteredSealProof (0 to " + std::to_string(all.size() - 1) + ")";
  return &fc::registered_proof_by_id(registered_proof);
}

std::string filecoin_circuits(const std::vector<circuit_def_t>& circuits) {
  std::string out;
  for (const auto& c : circuits)
    if (c.kind == circuit_kind_t::filecoin_porep)
      out += (out.empty() ? "" : ", ") + c.id + " (" + c.native_params + ")";
  return out.empty() ? "none" : out;
}

answer_t<circuit_def_t> circuit_for(const std::vector<circuit_def_t>& circuits,
                                    const fc::registered_proof_t& proof) {
  const circuit_def_t* best = nullptr;
  for (const auto& c : circuits)
    if (c.kind == circuit_kind_t::filecoin_porep && c.native_params == proof.name &&
        (!best || c.id < best->id))
      best = &c;
  if (best) return *best;
  return refusal_t{code_t::failed_precondition,
                   "registered_proof " + std::to_string(proof.id) + " (" + std::string(proof.name) +
                       ") is not proved by this cluster: no filecoin-porep circuit of it is "
                       "configured (its filecoin-porep circuits: " +
                       filecoin_circuits(circuits) + ")"};
}

answer_t<circuit_def_t> check_submit(const submit_t& s,
                                     const std::vector<circuit_def_t>& circuits) {
  auto invalid = [](std::string why) {
    return refusal_t{code_t::invalid_argument, std::move(why)};
  };
  const std::string kind = proof_kind_name(s.proof_kind);
  if (s.proof_kind == 0 || kind.empty())
    return invalid("invalid proof_kind: " + std::to_string(s.proof_kind) +
                   (kind.empty() ? std::string() : " (" + kind + ")"));
  if (s.proof_kind != porep_seal_commit)
    return refusal_t{code_t::unimplemented,
                     kind +
                         " is not proved by this zkfleet cluster: it proves POREP_SEAL_COMMIT "
                         "only (its filecoin-porep circuits: " +
                         filecoin_circuits(circuits) + ")"};
  if (s.request_id.size() > max_request_id)
    return invalid("request_id: " + std::to_string(s.request_id.size()) + " bytes, more than the " +
                   std::to_string(max_request_id) + " a job may carry");
  for (const char ch : s.request_id)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      return invalid("request_id: holds a control character");
  auto proof = seal_proof_of(s.registered_proof);
  if (!proof) return invalid(proof.error());
  const fc::registered_proof_t& p = *proof.value();
  // No circuit of that proof first: what the cluster lacks says more than a size beside it.
  auto circuit = circuit_for(circuits, p);
  if (!circuit) return circuit;
  if (s.sector_size != 0 && s.sector_size != p.sector_size)
    return invalid("sector_size " + std::to_string(s.sector_size) + " is not the sector size of " +
                   std::string(p.name) + " (" + std::to_string(p.sector_size) + ")");
  if (auto id = prover_id_of(s.miner_id); !id) return invalid(id.error());
  if (s.vanilla_proof_bytes == 0)
    return invalid("vanilla_proof is empty: POREP_SEAL_COMMIT proves the sector's C1 output");
  return circuit;
}

std::string request_fingerprint(const submit_t& s) {
  std::string text = "zkfleet cuzk request v1";
  for (uint64_t v : {s.proof_kind, s.registered_proof, s.sector_size, s.miner_id, s.sector_number})
    text += "|" + std::to_string(v);
  text += "|" + (s.c1 ? s.c1->sha256 : std::string());
  const bytes32_t d = sha256_t::hash(text.data(), text.size());
  return to_hex(d);
}

answer_t<job_request_msg> job_request_of(const submit_t& s, const circuit_def_t& circuit) {
  if (!s.c1)
    return refusal_t{code_t::invalid_argument, "vanilla_proof: the C1 output was not stored"};
  auto prover = prover_id_of(s.miner_id);
  if (!prover) return refusal_t{code_t::invalid_argument, prover.error()};
  job_request_msg r;
  r.circuit = circuit.id;
  r.partitions = filecoin_config(circuit).partitions;
  switch (s.priority) {
    case 0:  // the circuit's (else scheduler.default_priority); cuzk's PoRep default is NORMAL
      r.circuit_priority = true;
      break;
    case 1:
      r.priority = priority_t::low;
      break;
    case 3:
      r.priority = priority_t::high;
      break;
    case 4:
      r.priority = priority_t::critical;
      break;
    default:  // 2, and numbers past CRITICAL as cuzk takes them
      r.priority = priority_t::normal;
      break;
  }
  filecoin_porep_spec_t spec;
  spec.prover_id = prover.value();
  spec.sector = s.sector_number;
  spec.c1 = input_file_t::of(*s.c1);
  r.spec = {std::move(spec)};
  r.request_id = s.request_id;
  if (!r.request_id.empty()) r.request_digest = request_fingerprint(s);
  return r;
}

}  // namespace zk::node::cuzk
