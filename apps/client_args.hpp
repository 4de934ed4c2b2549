#pragma once
// What every client command of a running cluster takes: --config (required), --client, and a job
// (its id or its number: node/job_ref.hpp).
#include <string>

#include "apps/cli.hpp"
#include "common/config/config.hpp"

namespace zk::apps {

// The cluster's config file: --config is required.
std::string config_path(const opt_t& config);
// The config, read without checking the circuits' files (they may live on other hosts), once the
// rest of the command line has been checked.
config::config_t client_config(const std::string& path);
opt_t add_config(CLI::App* app);
opt_t add_client(CLI::App* app);
// The job a user typed, as the scheduler takes it: its id (32 hex digits, lower case) or its
// number ("7"; "#7" and "job7" as logs and the dashboard show it). usage_error otherwise.
std::string job_arg(const opt_t& job);

}  // namespace zk::apps
