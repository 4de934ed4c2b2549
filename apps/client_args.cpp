#include "apps/client_args.hpp"

#include "node/job_ref.hpp"

namespace zk::apps {

std::string config_path(const opt_t& config) {
  if (!config.given()) throw usage_error("--config FILE is required");
  return config.one();
}

config::config_t client_config(const std::string& path) {
  return config::load_config(path, {false});
}

opt_t add_config(CLI::App* app) {
  return add_value(app, "--config", "FILE", "the cluster's config file (required)");
}

opt_t add_client(CLI::App* app) {
  return add_value(app, "--client", "NAME",
                   "log in as this client (certificate client.NAME.crt; default admin)");
}

std::string job_arg(const opt_t& job) {
  auto ref = node::parse_job_ref(job.one());
  if (!ref) throw usage_error(ref.error());
  return ref->id.empty() ? std::to_string(ref->number) : ref->id;
}

}  // namespace zk::apps
