#pragma once
// What the cluster commands (node, up and the clients of apps/cmd_client.cpp) share: the stop
// signal, the refusal of a model file, the --log-level option.
#include "apps/cli.hpp"
#include "common/config/config.hpp"
#include "common/util/log.hpp"

namespace zk::apps {

// SIGINT and SIGTERM set the stop flag (a node stops, `up` stops its nodes, a connect loop gives
// up).
void catch_stop_signals();
bool stop_requested();

// A file whose simulation is enabled is a model: `zkfleet simulate` runs it, not real nodes.
void refuse_model(const config::config_t& c);

// `--log-level LEVEL` (trace, debug, info, warn, error, off; default info) and its value;
// an unknown name is a usage_error.
opt_t add_log_level(CLI::App* app);
log::level_t log_level(const opt_t& level);

}  // namespace zk::apps
