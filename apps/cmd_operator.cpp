// What an operator of a running cluster reaches for besides submit/status/await (docs/api.md has
// the HTTP routes of each):
//
//   zkfleet jobs     --config F [--limit N]      the newest jobs, one line each (number, id, state)
//   zkfleet drain    --config F NODE             NODE finishes its work and takes no more
//   zkfleet undrain  --config F NODE             NODE takes work again
//   zkfleet retry    --config F JOB              a failed job's failed partitions, queued again
//   zkfleet priority --config F JOB P            an unfinished job's priority (critical … low)
//
// Each logs in as client admin, or as --client NAME; a client sees its own jobs, admin every one;
// only admin drains. A JOB is its id or its number (apps/client_args.hpp).
#include <chrono>
#include <cstdio>
#include <string>

#include "apps/client.hpp"
#include "apps/client_args.hpp"
#include "apps/commands.hpp"

namespace zk::apps {
namespace {

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
                s.id.c_str(), node::job_state(s),
                (std::to_string(s.done) + "/" + std::to_string(s.partitions)).c_str(), s.failed,
                config::priority_name(s.priority), s.circuit.c_str(), s.owner.c_str(),
                age_of(s.submitted_ms).c_str());
  return 0;
}

int run_drain(const opt_t& config, const opt_t& client_name, const opt_t& node, bool draining) {
  const std::string path = config_path(config);
  cluster_client_t client(client_config(path), client_name.one("admin"));
  const auto u = client.drain(node.one(), draining);
  if (!draining)
    std::printf("node %s undrained: it takes work again\n", u.name.c_str());
  else if (u.drained)
    std::printf("node %s drained: it holds no work; safe to stop\n", u.name.c_str());
  else
    std::printf(
        "node %s draining: it finishes what it holds (%u synthesizing, %u in its "
        "pipeline) and takes no new work; `zkfleet status` says drained when done\n",
        u.name.c_str(), u.synthesizing, u.pipeline);
  return 0;
}

int run_retry(const opt_t& config, const opt_t& client_name, const opt_t& job) {
  const std::string path = config_path(config);
  const std::string id = job_arg(job);
  cluster_client_t client(client_config(path), client_name.one("admin"));
  const auto s = client.retry(id);
  std::printf("job %s (#%llu): %u of %u partitions queued again\n", s.id.c_str(),
              (unsigned long long)s.seq, s.partitions - s.done, s.partitions);
  return 0;
}

int run_priority(const opt_t& config, const opt_t& client_name, const opt_t& job,
                 const opt_t& priority) {
  const std::string path = config_path(config);
  const std::string id = job_arg(job);
  const auto p = config::parse_priority(priority.one());
  if (!p)
    throw usage_error("'" + priority.one().substr(0, 40) +
                      "' is not a priority (critical, high, normal or low)");
  cluster_client_t client(client_config(path), client_name.one("admin"));
  const auto s = client.set_priority(id, *p);
  std::printf("job %s (#%llu): priority %s\n", s.id.c_str(), (unsigned long long)s.seq,
              config::priority_name(s.priority));
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
  for (bool draining : {true, false}) {
    CLI::App* app =
        add_command(root, draining ? "drain" : "undrain",
                    draining ? "Drain a node before maintenance: it finishes what it holds and "
                               "takes no new work (admin)"
                             : "Give a drained node work again (admin)");
    const opt_t node = add_positional(app, "NODE", "the node's name");
    const opt_t config = add_config(app);
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_drain(config, client, node, draining); };
    c.takes = draining ? "drain takes one node name" : "undrain takes one node name";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app = add_command(root, "retry",
                                "Queue a failed job's failed partitions again (its finished "
                                "proofs stay)");
    const opt_t job = add_positional(app, "JOB", "the job's id or number");
    const opt_t config = add_config(app);
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_retry(config, client, job); };
    c.takes = "retry takes one job";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app = add_command(root, "priority",
                                "Change an unfinished job's priority: its queued partitions are "
                                "placed by it from now on");
    const opt_t job = add_positional(app, "JOB", "the job's id or number");
    const opt_t priority = add_positional(app, "PRIORITY", "critical, high, normal or low");
    const opt_t config = add_config(app);
    const opt_t client = add_client(app);
    command_t c;
    c.app = app;
    c.run = [=] { return run_priority(config, client, job, priority); };
    c.takes = "priority takes a job and a priority";
    out.push_back(std::move(c));
  }
}

}  // namespace zk::apps
