#pragma once
// A job's typed specification: what a client asks proved, one type per circuit kind
// (config::circuit_kind_t), from intake through the journal, the dispatches and synthesis. No
// layer reads a kind from a string's shape: each kind's file knows its kind, and this one
// dispatches to them (std::visit without a default: a kind that misses a function is a compile
// error).
//
//   kind            spec (its file)                            a partition's synthesis gets
//   circom          circom_spec_t (node/circom_job.hpp): one   its circom_input_t (one file)
//                   .wtns / input.json for all partitions, or
//                   one per partition
//   porep_lite      porep_lite_spec_t (node/porep_lite_job):   the seed
//                   the replica's seed
//   filecoin_porep  filecoin_porep_spec_t (node/filecoin_job): filecoin_porep_partition_t: its
//                   prover id, sector, the C1 as submitted;     own input (zk/filecoin/api/
//                   after intake each partition's input and     partition_input.hpp), never the C1
//                   its public inputs' digest
//   filecoin_snap   filecoin_snap_spec_t (node/filecoin_snap_  filecoin_snap_partition_t: its own
//                   job): the update's vanilla proofs and      input (zk/filecoin/api/
//                   commitments; after intake each partition's update_input.hpp)
//                   input and its public inputs' digest
//
// The flow: a client builds the spec (zkfleet submit, the HTTP API); the scheduler checks it
// cheaply on its actor (check_request), then takes it in on its checker thread (take_in: files
// found and read, a C1 checked once and cut into its partitions' inputs, stored durably); the
// journal keeps the taken-in spec as JSON (to_json / job_spec_from_json, schema v2; v1's strings
// are read once by job_spec_from_v1); each dispatch carries partition_spec(spec, k).
// Room for more kinds (Window/Winning PoSt): a kind value, a spec struct with its file, a variant
// alternative here; nothing else in the scheduler, journal schema or messages changes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "node/circom_job.hpp"
#include "node/circuit.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "node/input_file.hpp"
#include "node/porep_lite_job.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

// Alternatives in circuit_kind_t's order: the index is the kind.
struct job_spec_t {
  std::variant<circom_spec_t, porep_lite_spec_t, filecoin_porep_spec_t, filecoin_snap_spec_t> v;
};
struct partition_spec_t {
  std::variant<circom_input_t, porep_lite_spec_t, filecoin_porep_partition_t,
               filecoin_snap_partition_t>
      v;
};

circuit_kind_t kind_of(const job_spec_t& s);
circuit_kind_t kind_of(const partition_spec_t& s);

// The checks the scheduler's actor makes before any file is touched: the spec's kind is the
// circuit's, its counts and names are well formed (a Filecoin spec brings no partition inputs:
// only intake makes them). They pass, or refuse with the reason.
check_t check_request(const circuit_def_t& c, const job_spec_t& s, uint32_t partitions);
// The spec taken in (see the top): as given, or with what intake made (Filecoin: the partitions'
// inputs, in the store). The reason when the job cannot be proven. Reads files: never on an
// actor that must stay responsive.
result_t<job_spec_t> take_in(const circuit_def_t& c, const job_spec_t& s, uint32_t partitions,
                             const intake_env_t& env);
// Whether intake has not made what the spec needs yet (a Filecoin spec journaled by schema v1, or
// a job journaled before its intake ended).
bool needs_intake(const job_spec_t& s);

// What partition k's synthesis gets.
partition_spec_t partition_spec(const job_spec_t& s, uint32_t k);
// The file partition k's synthesis reads, if any.
const input_file_t* file_of(const partition_spec_t& p);
// Every object of the store the spec needs from here on (the store collects the others).
std::vector<stored_object_t> stored_objects(const job_spec_t& s);
// The digest (node/verify_proof.hpp public_digest) partition k's public signals must have, when
// intake derived them (Filecoin PoRep and SnapDeals): a synthesis node's buffer of other inputs is
// refused.
std::optional<std::string> expected_public_digest(const job_spec_t& s, uint32_t k);

// The journal's form: one JSON object, {"v": 1, "kind": "<circuit_kind_name>", …the kind's
// fields}. from_json throws std::invalid_argument naming the field (an unknown kind or version,
// a field missing or of the wrong type).
std::string to_json(const job_spec_t& s);
job_spec_t job_spec_from_json(std::string_view text);

// A circom job of these paths (each one's form by its name) and a porep-lite job of a seed: what
// tests, benches and the demo build.
job_spec_t circom_job_spec(const std::vector<std::string>& paths);
job_spec_t porep_lite_job_spec(uint64_t seed);

// A schema-v1 journal's inputs (length-prefixed strings, as zkfleet ≤ 0.x wrote them) read once,
// by the journal's migration (node/job_spec_v1.cpp; the only code left that reads those strings):
// "prover_id=HEX" and "sector=N" with one C1 → filecoin_porep; none, "" or "seed=N" →
// porep_lite; anything else → circom (".json" an input.json; "upload:sha256:<hex>.<ext>" an
// object of the store, else a path). A Filecoin spec read so has no partition inputs yet
// (needs_intake). Throws std::invalid_argument for strings that are none of these.
job_spec_t job_spec_from_v1(const std::vector<std::string>& inputs);

}  // namespace zk::node
