// zkfleet config check --config F [--host NAME]...: the file checked offline, every problem
// reported (common/config/check.hpp). Exit 0 when there is none, 1 otherwise.
//
//   configs/farm.yaml: 2 problems
//     configs/farm.yaml:17:20: scheduler.max_upload: "4 GB" is not a size (use e.g. 4GiB)
//     configs/farm.yaml: node gpu-1: circuits.porep-32g.zkey: /srv/zkfleet/keys/p.zkey does not
//     exist
//   files checked for gpu-1; not checked (other hosts; --host NAME checks a node's here): ...
#include <cstdio>
#include <string>

#include "apps/commands.hpp"
#include "common/config/check.hpp"
#include "node/filecoin_check.hpp"

namespace zk::apps {
namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

int run_check(const std::string& file, const std::vector<std::string>& hosts) {
  config::check_options_t o;
  o.hosts = hosts;
  o.node_files = node::check_filecoin_entries;
  const auto r = config::check_config(file, o);
  if (r.ok())
    std::printf("%s: no problems\n", file.c_str());
  else
    std::printf("%s: %zu problem%s\n", file.c_str(), r.problems.size(),
                r.problems.size() == 1 ? "" : "s");
  for (const auto& p : r.problems) std::printf("  %s\n", p.c_str());
  for (const auto& w : r.warnings) std::printf("warning: %s\n", w.c_str());
  if (!r.checked.empty()) std::printf("files checked for: %s\n", joined(r.checked).c_str());
  if (!r.not_checked.empty())
    std::printf("files not checked for: %s (other hosts; --host NAME checks a node's files here)\n",
                joined(r.not_checked).c_str());
  return r.ok() ? 0 : 1;
}

}  // namespace

void add_config_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "config", "Check a config file offline: every problem, not only the first");
  app->footer(
      "usage: zkfleet config check --config FILE [--host NAME]...\n"
      "Checks the keys and values, then the files of the nodes that run here: those named by "
      "--host;\nwithout it, the node of a `node:` file, or the nodes whose listen addresses are "
      "all loopback.\nExit 0: no problems; 1: the problems are listed.\n");
  CLI::App* check = add_command(*app, "check", "check FILE: keys, values, and this host's files");
  const opt_t config = add_value(check, "--config", "FILE", "the cluster's config file (required)");
  const opt_t hosts =
      add_values(check, "--host", "NAME", "check the files of node NAME on this host (repeatable)");
  command_t c;
  c.app = app;
  c.takes = "config takes a command: check";
  c.run = [=] {
    if (!check->parsed()) throw usage_error("config needs a command: check");
    command_t sub;
    sub.app = check;
    sub.takes = "config check takes no arguments";
    finish_parse(sub);
    if (!config.given()) throw usage_error("--config FILE is required");
    return run_check(config.one(), hosts.all());
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
