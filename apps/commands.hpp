#pragma once
// The subcommands of the zkfleet binary. Each returns the process exit status and throws
// usage_error for a malformed command line; any other exception is an input or runtime error.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/timeline/aggregator.hpp"

namespace zk::apps {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// apps/cli.cpp — shared by the subcommands:
// A subcommand's options: `takes` says what its value is ("a file name", for "--out needs a file
// name"); a flag without a value is made with bare().
struct flag_t {
  std::string name, takes;
  flag_t(const char* n, const char* t = "a value") : name(n), takes(t) {}
};
inline flag_t bare(const char* name) { return flag_t(name, ""); }
// The command line split into positionals and the known flags (each value kept, in order: a flag
// may repeat). An unknown option, or a flag with a value at the end, is a usage_error.
struct args_t {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> flags;
  bool has(const std::string& f) const { return flags.count(f) != 0; }
  // The flag's last value, or `def` when it is absent.
  std::string one(const std::string& f, const std::string& def = "") const;
  // Every value the flag was given.
  std::vector<std::string> all(const std::string& f) const;
};
args_t parse_args(const std::vector<std::string>& args, const std::vector<flag_t>& known);
// An unsigned integer argument in [lo, hi]: decimal digits only (no sign, no spaces, no
// overflow); else usage_error("<what> needs ..., got '<text>'").
uint64_t parse_uint_arg(const std::string& what, const std::string& text, uint64_t lo = 0,
                        uint64_t hi = UINT64_MAX);
// Columns for the waterfall: $COLUMNS, else the terminal's own (stdout a tty), else 100.
unsigned terminal_width();

int cmd_prove(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);
int cmd_setup(const std::vector<std::string>& args);
int cmd_demo(const std::vector<std::string>& args);

// Native circuits (apps/cmd_circuit.cpp): the `setup --circuit` and `prove --circuit` forms.
bool has_circuit_flag(const std::vector<std::string>& args);
int cmd_circuit_setup(const std::vector<std::string>& args);
int cmd_circuit_prove(const std::vector<std::string>& args);
int cmd_timeline(const std::vector<std::string>& args);
int cmd_simulate(const std::vector<std::string>& args);

// The cluster across processes (apps/cmd_cluster.cpp; built with CAF only).
int cmd_node(const std::vector<std::string>& args);
int cmd_up(const std::vector<std::string>& args);
int cmd_down(const std::vector<std::string>& args);
int cmd_submit(const std::vector<std::string>& args);
int cmd_status(const std::vector<std::string>& args);
int cmd_await(const std::vector<std::string>& args);
int cmd_cancel(const std::vector<std::string>& args);

// The running cluster's merged timeline (every reporter flushed first), for `zkfleet timeline
// --config F`: asks the scheduler of F for its aggregator and takes a snapshot. Throws naming
// the scheduler's endpoint when it cannot be reached.
timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path);

}  // namespace zk::apps
