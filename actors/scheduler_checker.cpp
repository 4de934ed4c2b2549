// The scheduler's checker: jobs taken in and proofs checked off the scheduler actor, and the
// circuit descriptions checked at start-up.
#include <chrono>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "node/scheduler/uploads.hpp"
#include "node/verify_proof.hpp"
#include "zk/base/result.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

caf::behavior scheduler_checker(caf::event_based_actor*,
                                std::shared_ptr<node::upload_store_t> uploads) {
  return {
      [uploads](intake_atom, const circuit_def_t& c, const job_spec_t& spec, uint32_t partitions,
                const std::vector<std::string>& roots) -> caf::result<job_spec_t> {
        try {
          auto taken = node::take_in(c, spec, partitions, node::intake_env_t{roots, uploads.get()});
          if (!taken) return caf::make_error(zk_errc::bad_request, taken.error());
          return std::move(taken.value());
        } catch (const std::exception& e) {
          return caf::make_error(zk_errc::bad_request,
                                 std::string("checking the inputs failed: ") + e.what());
        }
      },
      [uploads](collect_atom, const std::vector<std::string>& in_use) -> size_t {
        if (!uploads) return 0;
        const size_t gone = uploads->collect({in_use.begin(), in_use.end()}, std::chrono::hours(1));
        if (gone)
          log::info("scheduler: " + std::to_string(gone) + " stored inputs no job names freed");
        return gone;
      },
      // A refused submission's uploads (references), unless written again at or after `since`
      // (the store's clock, ns since its epoch).
      [uploads](drop_atom, const std::vector<std::string>& refs, int64_t since) {
        if (!uploads) return;
        std::vector<node::stored_object_t> objects;
        for (const auto& r : refs)
          if (auto o = node::parse_upload(r)) objects.push_back(*o);
        const size_t gone = uploads->drop(
            objects,
            std::filesystem::file_time_type(std::filesystem::file_time_type::duration(since)));
        if (gone)
          log::info("scheduler: " + std::to_string(gone) + " refused upload" +
                    (gone == 1 ? "" : "s") + " deleted");
      },
      [](verify_atom, const circuit_def_t& c, const std::string& proof,
         const std::vector<std::string>& pub, const std::string& expected) -> caf::result<void> {
        auto refuse = [](const std::string& why) {
          return caf::make_error(zk_errc::prove_failed, why);
        };
        try {
          if (expected.size() != 32 || public_digest(pub) != expected)
            return refuse("its public signals are not those of the witness it was sent");
          auto v = verify_proof(c, proof, pub);
          if (!v) return refuse("the proof fails the pairing check: " + v.reason());
          return caf::unit;
        } catch (const std::exception& e) {
          return refuse(std::string("the proof cannot be read: ") + e.what());
        }
      },
  };
}

// The checker's refusal (an error of zkfleet's with this code), or nullopt when the error is of
// the check itself (a timeout, the checker gone).
std::optional<std::string> refusal(const caf::error& e, zk_errc code) {
  if (e.category() != caf::atom("zkfleet") || zk_errc(e.code()) != code) return std::nullopt;
  return reason_of(e);
}

check_t check_circuit(const circuit_def_t& c) {
  if (c.id.empty() || c.id.size() > max_id_length || c.buffer_bytes == 0 || c.n_vars == 0)
    return "circuit '" + c.id.substr(0, max_id_length) +
           "' is not described (no id, size or wires)";
  if (uint8_t(c.priority) > uint8_t(priority_t::low))
    return "circuit '" + c.id + "': priority " + std::to_string(int(c.priority)) +
           " is not one of 0..3";
  return {};
}

}  // namespace zk::actors
