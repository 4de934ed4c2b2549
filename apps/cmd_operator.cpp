// What an operator of a running cluster reaches for besides submit/status/await (docs/api.md has
// the HTTP routes of each):
//
//   zkfleet jobs     --config F [--limit N]      the newest jobs, one line each (number, id, state)
//
// Each logs in as client admin, or as --client NAME; a client sees its own jobs, admin every one.
#include <chrono>
#include <cstdio>
#include <string>

#include "apps/client.hpp"
#include "apps/client_args.hpp"
#include "apps/commands.hpp"

namespace zk::apps {
namespace {

// One word for where a job is: queued (nothing placed yet), running, done, failed, cancelled.
std::string job_state(const actors::job_status_msg& s) {
  if (s.cancelled) return "cancelled";
  if (s.failed > 0) return "failed";
  if (s.finished) return "done";
  for (const auto& p : s.part_states)
    if (p != "queued") return "running";
  return "queued";
}

std::string age_of(int64_t submitted_ms) {
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  const int64_t s = std::max<int64_t>(0, (now_ms - submitted_ms) / 1000);
  if (s < 120) return std::to_string(s) + "s";
  if (s < 7200) return std::to_string(s / 60) + "m";
  if (s < 172800) return std::to_string(s / 3600) + "h";
  return std::to_string(s / 86400) + "d";
}

int run_jobs(const opt_t& config, const opt_t& client_name, const opt_t& limit) {
  const std::string path = config_path(config);
  const auto n = uint32_t(parse_uint_arg("--limit", limit.one("50"), 1, 1000));
  cluster_client_t client(client_config(path), client_name.one("admin"));
  std::printf("%-6s %-32s %-9s %9s %6s %-8s %-16s %-12s %s\n", "#", "id", "state", "done", "failed",
              "priority", "circuit", "owner", "age");
  for (const auto& s : client.jobs(n))
    std::printf("%-6llu %-32s %-9s %9s %6u %-8s %-16s %-12s %s\n", (unsigned long long)s.seq,
                s.id.c_str(), job_state(s).c_str(),
                (std::to_string(s.done) + "/" + std::to_string(s.partitions)).c_str(), s.failed,
                config::priority_name(s.priority), s.circuit.c_str(), s.owner.c_str(),
                age_of(s.submitted_ms).c_str());
  return 0;
}

}  // namespace

void add_operator_commands(CLI::App& root, commands_t& out) {
  {
    CLI::App* app = add_command(root, "jobs",
                                "The newest jobs, newest first: number, id, state, partitions "
                                "done, priority, circuit, owner, age");
    const opt_t config = add_config(app);
    const opt_t limit = add_value(app, "--limit", "N", "how many (1 to 1000, default 50)");
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_jobs(config, client, limit); };
    out.push_back(std::move(c));
  }
}

}  // namespace zk::apps
