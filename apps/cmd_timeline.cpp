// zkfleet timeline [--format ascii|chrome|json|stats|prometheus] [--save FILE] (<events-file> |
// --config F): the timeline's renderers on a saved events file, or on a running cluster's merged
// timeline (every reporter flushed first; apps/client.hpp).
#include <cstdio>
#include <string>

#include "apps/client.hpp"
#include "apps/commands.hpp"
#include "common/timeline/render.hpp"

namespace zk::apps {
namespace {

int run_timeline(const std::string& format, const std::string& config, const std::string& client,
                 const std::string& save, const std::string& file) {
  if (file.empty() == config.empty())
    throw usage_error(file.empty() ? "timeline needs an events file (e.g. from zkfleet demo "
                                     "--trace FILE) or --config F (a running cluster)"
                                   : "timeline takes an events file or --config F, not both");
  if (format != "ascii" && format != "chrome" && format != "json" && format != "stats" &&
      format != "prometheus")
    throw usage_error("unknown --format '" + format + "' (ascii, chrome, json, stats, prometheus)");
  timeline::aggregator_t agg =
      !config.empty() ? fetch_cluster_timeline(config, client) : timeline::aggregator_t::load(file);
  if (!save.empty()) agg.save(save);
  auto ev = agg.events();
  if (format == "ascii")
    std::printf("%s", timeline::render_ascii(ev, agg.names(), terminal_width()).c_str());
  else if (format == "chrome")
    std::printf("%s", timeline::render_chrome(ev, agg.names()).c_str());
  else if (format == "json")
    std::printf("%s", timeline::render_json(ev, agg.names()).c_str());
  else if (format == "stats")
    std::printf("%s", timeline::render_stats(timeline::compute_stats(ev, agg.names())).c_str());
  else
    std::printf("%s", agg.metrics().render_prometheus().c_str());
  return 0;
}

}  // namespace

void add_timeline_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "timeline",
                  "The merged timeline of a running cluster (--config) or of a saved events file: "
                  "waterfall, Chrome trace, JSON, stats or Prometheus text");
  const opt_t file = add_positional(app, "events-file",
                                    "a saved events file (zkfleet demo --trace, --save)", false);
  const opt_t format =
      add_value(app, "--format", "FORMAT", "ascii (default), chrome, json, stats or prometheus");
  const opt_t config =
      add_value(app, "--config", "FILE", "the running cluster's config file (its scheduler)");
  const opt_t save = add_value(app, "--save", "FILE", "also save the events to FILE");
  const opt_t client =
      add_value(app, "--client", "NAME", "with --config: log in as this client (default admin)");
  command_t c;
  c.app = app;
  c.takes = "timeline takes one events file";
  c.run = [=] {
    return run_timeline(format.one("ascii"), config.one(), client.one("admin"), save.one(),
                        file.one());
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
