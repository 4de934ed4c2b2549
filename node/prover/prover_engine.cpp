#include "node/prover/prover_engine.hpp"

#include <stdexcept>

#include "common/util/log.hpp"
#include "node/filecoin_job.hpp"
#include "node/prover/filecoin_key.hpp"
#include "node/prover/key_file.hpp"
#include "node/prover/prover_key.hpp"
#include "zk/base/fingerprint.hpp"
#include "zk/base/hex.hpp"
#include "zk/circuit/sha256.hpp"
#include "zk/ec/with_curve.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::node {

namespace {

template <class C>
struct typed_key_t final : prover_engine_t::key_t {
  formats::zkey_file_t file;
  groth16::proving_key_t<C> pk;
  groth16::prover_t<C> prover;
  groth16::verifying_key_t<C> vk;
  groth16::key_tables_t<C> tables;

  // room: the precompute budget not yet taken by other keys' tables.
  typed_key_t(const circuit_def_t& c, const groth16::accelerator_t<C>* acc,
              const groth16::precompute_t& pre, uint64_t room)
      : file(c.zkey),
        pk(groth16::proving_key_t<C>::view(file)),
        prover(pk),
        vk(groth16::verifying_key_t<C>::from_zkey(pk)) {
    prover.set_accelerator(acc);
    prover.release_work();  // touched by the allocation: held only while a proof runs
    log_stage_backends(c, prover, acc ? acc->name : "");
    sample = sampled_fingerprint(file.file().data(), file.file().size());
    if (!pre.enabled()) return;
    const uint64_t need = groth16::key_tables_t<C>::bytes_for(pk, pre);
    if (need > room) {
      log::warn("circuit '" + c.id + "': precomputed tables need " + std::to_string(need) +
                " bytes, " + std::to_string(room) +
                " left of the precompute budget: proving without");
      return;
    }
    tables = groth16::key_tables_t<C>::build(pk, pre);
    prover.set_tables(&tables);
    table_bytes = tables.bytes();
    log::info("circuit '" + c.id + "': precomputed tables, " + std::to_string(table_bytes) +
              " bytes");
  }

  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                       const groth16::stage_observer_t& observe, const stop_t& stop) override {
    auto p = prove_buffer(prover, vk, c, b, observe, stop);
    return {formats::proof_to_json(p.proof.to_json()), std::move(p.public_signals), p.prove_seconds,
            p.verify_seconds};
  }
};

std::unique_ptr<prover_engine_t::key_t> load_key(const circuit_def_t& c, const std::string& path,
                                                 const accelerators_t& acc,
                                                 const groth16::precompute_t& pre, uint64_t room) {
  const auto before = file_id_of(path);
  if (config::uses_filecoin_params(c.kind)) {  // the node's own parameters, resident
    auto k = load_filecoin_key(c, path, acc.bls12_381);
    if (before) k->loaded = *before;
    return k;
  }
  std::unique_ptr<prover_engine_t::key_t> k = curves::with_curve(c.curve, [&](auto tag) {
    using C = decltype(tag);
    return std::unique_ptr<prover_engine_t::key_t>(
        std::make_unique<typed_key_t<C>>(c, acc.of<C>(), pre, room));
  });
  if (before) k->loaded = *before;
  return k;
}

}  // namespace

prover_engine_t::prover_engine_t() = default;
prover_engine_t::~prover_engine_t() = default;

prover_engine_t::key_t& prover_engine_t::key(const circuit_def_t& c) {
  // The mapped key file itself (same inode) changed since it was mapped: it is unmapped before
  // anything reads it and mapped again; the new mapping proves only when its sampled bytes are
  // those this prover first mapped (a touch, a byte-identical copy), else the proof fails saying
  // so, until the first bytes are back or a restart registers the new key.
  const std::string path = key_path(c);
  if (path.empty())
    throw std::runtime_error("circuit '" + c.id + "': this prover has no filecoin_params for it");
  auto it = keys_.find(c.id);
  if (it != keys_.end()) {
    const auto now = file_id_of(path);
    if (now && it->second->loaded.changed_in_place(*now)) {
      keys_.erase(it);
      it = keys_.end();
    }
  }
  if (it == keys_.end()) {
    const uint64_t used = precompute_bytes();
    const uint64_t room = precompute_budget_ > used ? precompute_budget_ - used : 0;
    auto k = load_key(c, path, acc_, precompute_, room);  // a damaged file throws, naming it
    auto [first, fresh] = first_sample_.emplace(c.id, k->sample);
    if (!fresh && first->second != k->sample)
      throw std::runtime_error(
          "circuit '" + c.id + "': " + path + " was rewritten in place with other bytes since " +
          "this prover first mapped it: not proving with a key other than the one registered " +
          "(restart the cluster to register the new key, or replace keys by renaming a new " +
          "file over the old one)");
    it = keys_.emplace(c.id, std::move(k)).first;
  }
  return *it->second;
}

void prover_engine_t::load(const circuit_def_t& c) { key(c); }

std::string prover_engine_t::key_path(const circuit_def_t& c) const {
  if (!config::uses_filecoin_params(c.kind)) return c.zkey;
  for (const auto& [id, path] : filecoin_params_)
    if (id == c.id) return path;
  return "";
}

uint64_t prover_engine_t::precompute_bytes() const {
  uint64_t sum = 0;
  for (const auto& [id, k] : keys_) sum += k->table_bytes;
  return sum;
}

std::vector<std::string> prover_engine_t::loaded() const {
  std::vector<std::string> out;
  for (const auto& [id, k] : keys_) out.push_back(id);
  return out;
}

bool prover_engine_t::unload(const std::string& circuit_id) { return keys_.erase(circuit_id) > 0; }

proof_result_t prover_engine_t::prove(const circuit_def_t& c, const buffer::buffer_ref_t& buffer,
                                      const groth16::stage_observer_t& observe,
                                      const stop_t& stop) {
  const auto& h = buffer.header();
  const std::string what =
      "buffer of job " + std::to_string(h.job_id) + " partition " + std::to_string(h.partition);
  if (auto err = buffer::validate_header(h)) throw std::runtime_error(what + ": " + err->message);
  if (zk::to_hex(h.circuit_digest.data(), h.circuit_digest.size()) != c.digest)
    throw std::runtime_error(what + ": made for another circuit than '" + c.id +
                             "' (digest differs)");
  if (h.curve != buffer::curve_code(c.curve) || h.n_vars != c.n_vars || h.n_public != c.n_public ||
      !takes_shape(c, h.shape()))
    throw std::runtime_error(what + ": curve, counts or shape do not match circuit '" + c.id + "'");
  // The payload checksum is not hashed again here: a store only holds buffers whose checksum was
  // computed from their bytes (make_header at synthesis) or verified on receipt (data_server).
  return key(c).prove(c, buffer, observe, stop);
}

}  // namespace zk::node
