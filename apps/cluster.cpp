#include "apps/cluster.hpp"

#include <csignal>

namespace zk::apps {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

}  // namespace

void catch_stop_signals() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

bool stop_requested() { return g_stop != 0; }

void refuse_model(const config::config_t& c) {
  if (c.simulation.enabled)
    throw std::runtime_error(
        c.source +
        ": simulation.enabled is true: this file is a simulated workload, run it with "
        "`zkfleet simulate --config " +
        c.source + "`");
}

opt_t add_log_level(CLI::App* app) {
  return add_value(app, "--log-level", "LEVEL", "trace, debug, info (default), warn, error or off");
}

log::level_t log_level(const opt_t& level) {
  try {
    return log::parse_level(level.one("info"));
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("--log-level: ") + e.what());
  }
}

}  // namespace zk::apps
