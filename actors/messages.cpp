#include "actors/messages.hpp"

namespace zk::actors {

std::string to_string(zk_errc e) {
  switch (e) {
    case zk_errc::bad_message:
      return "bad_message";
    case zk_errc::bad_request:
      return "bad_request";
    case zk_errc::unknown_job:
      return "unknown_job";
    case zk_errc::job_failed:
      return "job_failed";
    case zk_errc::job_cancelled:
      return "job_cancelled";
    case zk_errc::synth_failed:
      return "synth_failed";
    case zk_errc::prove_failed:
      return "prove_failed";
    case zk_errc::node_lost:
      return "node_lost";
    case zk_errc::unavailable:
      return "unavailable";
    case zk_errc::unauthenticated:
      return "unauthenticated";
    case zk_errc::forbidden:
      return "forbidden";
    case zk_errc::send_failed:
      return "send_failed";
    case zk_errc::internal:
      return "internal";
    case zk_errc::bad_input:
      return "bad_input";
    case zk_errc::conflict:
      return "conflict";
  }
  return "unknown_error";
}

std::string describe(const caf::error& e) {
  if (!e) return "no error";
  if (e.category() != caf::atom("zkfleet")) return caf::to_string(e);
  std::string s = to_string(zk_errc(e.code()));
  if (e.context().match_elements<std::string>()) s += ": " + reason_of(e);
  return s;
}

std::string reason_of(const caf::error& e) {
  const caf::message& ctx = e.context();
  if (e.category() == caf::atom("zkfleet") && ctx.match_elements<std::string>())
    return ctx.get_as<std::string>(0);
  return caf::to_string(e);
}

void add_message_types(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::zkfleet>();
  // (0.17.6's add_error_category<T> does not compile: give the renderer directly.)
  cfg.add_error_category(caf::atom("zkfleet"),
                         [](uint8_t code, caf::atom_value, const caf::message& ctx) {
                           return describe(caf::error(code, caf::atom("zkfleet"), ctx));
                         });
}

}  // namespace zk::actors
