#include "node/cuzk/request.hpp"

#include <cstring>
#include <limits>

#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
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

std::string filecoin_circuits(const std::vector<circuit_def_t>& circuits, circuit_kind_t kind) {
  std::string out;
  for (const auto& c : circuits)
    if (c.kind == kind) out += (out.empty() ? "" : ", ") + c.id + " (" + c.native_params + ")";
  return out.empty() ? "none" : out;
}

namespace {

// The configured circuit of `kind` for the registered proof `name` (the first by id), or the
// refusal naming what is configured.
answer_t<circuit_def_t> circuit_of(const std::vector<circuit_def_t>& circuits, circuit_kind_t kind,
                                   std::string_view name, uint64_t number) {
  const circuit_def_t* best = nullptr;
  for (const auto& c : circuits)
    if (c.kind == kind && c.native_params == name && (!best || c.id < best->id)) best = &c;
  if (best) return *best;
  const std::string k = config::circuit_kind_name(kind);
  return refusal_t{code_t::failed_precondition,
                   "registered_proof " + std::to_string(number) + " (" + std::string(name) +
                       ") is not proved by this cluster: no " + k +
                       " circuit of it is configured (its " + k +
                       " circuits: " + filecoin_circuits(circuits, kind) + ")"};
}

// The update's part of check_submit (after the kind and the request id).
answer_t<circuit_def_t> check_snap_submit(const submit_t& s,
                                          const std::vector<circuit_def_t>& circuits) {
  auto invalid = [](std::string why) {
    return refusal_t{code_t::invalid_argument, std::move(why)};
  };
  const auto& all = fc::registered_update_proofs();
  if (s.registered_proof >= all.size())
    return invalid("registered_proof " + std::to_string(s.registered_proof) +
                   " is no RegisteredUpdateProof (0 to " + std::to_string(all.size() - 1) + ")");
  const fc::registered_update_proof_t& p = fc::registered_update_proof_by_id(s.registered_proof);
  auto circuit = circuit_for(circuits, p);
  if (!circuit) return circuit;
  if (s.sector_size != 0 && s.sector_size != p.sector_size)
    return invalid("sector_size " + std::to_string(s.sector_size) + " is not the sector size of " +
                   std::string(p.name) + " (" + std::to_string(p.sector_size) + ")");
  for (const auto& [name, v] :
       {std::pair<const char*, const std::string*>{"comm_r_old", &s.comm_r_old},
        {"comm_r_new", &s.comm_r_new},
        {"comm_d_new", &s.comm_d_new}})
    if (v->size() != 32)
      return invalid(std::string(name) + " must be 32 bytes, got " + std::to_string(v->size()));
  const uint32_t partitions = snap_config(circuit.value()).partitions;
  if (s.vanilla_proofs.size() != partitions)
    return invalid("vanilla_proofs: " + std::to_string(s.vanilla_proofs.size()) +
                   " partition proofs, an update of " + std::string(p.name) + " has " +
                   std::to_string(partitions));
  if (s.vanilla_proof_bytes != 0)
    return invalid(
        "vanilla_proof is for POREP_SEAL_COMMIT: an update's partitions go in "
        "vanilla_proofs");
  return circuit;
}

}  // namespace

answer_t<circuit_def_t> circuit_for(const std::vector<circuit_def_t>& circuits,
                                    const fc::registered_proof_t& proof) {
  return circuit_of(circuits, circuit_kind_t::filecoin_porep, proof.name, proof.id);
}

answer_t<circuit_def_t> circuit_for(const std::vector<circuit_def_t>& circuits,
                                    const fc::registered_update_proof_t& proof) {
  return circuit_of(circuits, circuit_kind_t::filecoin_snap, proof.name, proof.id);
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
  if (s.proof_kind != porep_seal_commit && s.proof_kind != snap_deals_update)
    return refusal_t{code_t::unimplemented,
                     kind +
                         " is not proved by this zkfleet cluster: it proves POREP_SEAL_COMMIT "
                         "and SNAP_DEALS_UPDATE (its filecoin-porep circuits: " +
                         filecoin_circuits(circuits) + "; its filecoin-snap circuits: " +
                         filecoin_circuits(circuits, circuit_kind_t::filecoin_snap) + ")"};
  if (s.request_id.size() > max_request_id)
    return invalid("request_id: " + std::to_string(s.request_id.size()) + " bytes, more than the " +
                   std::to_string(max_request_id) + " a job may carry");
  for (const char ch : s.request_id)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      return invalid("request_id: holds a control character");
  if (s.proof_kind == snap_deals_update) return check_snap_submit(s, circuits);
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
  if (s.proof_kind == snap_deals_update)  // the partitions stored, and the commitments
    for (const std::string* v : {&s.comm_r_old, &s.comm_r_new, &s.comm_d_new})
      text += "|" + to_hex(reinterpret_cast<const uint8_t*>(v->data()), v->size());
  if (s.proof_kind == snap_deals_update) text += "|" + (s.vanilla ? s.vanilla->sha256 : "");
  const bytes32_t d = sha256_t::hash(text.data(), text.size());
  return to_hex(d);
}

answer_t<job_request_msg> job_request_of(const submit_t& s, const circuit_def_t& circuit) {
  const bool snap = s.proof_kind == snap_deals_update;
  if (snap ? !s.vanilla : !s.c1)
    return refusal_t{code_t::invalid_argument,
                     snap ? "vanilla_proofs: the partitions were not stored"
                          : "vanilla_proof: the C1 output was not stored"};
  job_request_msg r;
  r.circuit = circuit.id;
  if (snap) {
    filecoin_snap_spec_t spec;
    for (auto [to, from] : {std::pair{&spec.comms.comm_r_old, &s.comm_r_old},
                            std::pair{&spec.comms.comm_r_new, &s.comm_r_new},
                            std::pair{&spec.comms.comm_d_new, &s.comm_d_new}}) {
      if (from->size() != 32)
        return refusal_t{code_t::invalid_argument, "a commitment is not 32 bytes"};
      std::memcpy(to->data(), from->data(), 32);
    }
    spec.sector = s.sector_number;
    spec.vanilla = input_file_t::of(*s.vanilla);
    r.partitions = snap_config(circuit).partitions;
    r.spec = {std::move(spec)};
  } else {
    auto prover = prover_id_of(s.miner_id);
    if (!prover) return refusal_t{code_t::invalid_argument, prover.error()};
    filecoin_porep_spec_t spec;
    spec.prover_id = prover.value();
    spec.sector = s.sector_number;
    spec.c1 = input_file_t::of(*s.c1);
    r.partitions = filecoin_config(circuit).partitions;
    r.spec = {std::move(spec)};
  }
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
  r.request_id = s.request_id;
  if (!r.request_id.empty()) r.request_digest = request_fingerprint(s);
  return r;
}

}  // namespace zk::node::cuzk
