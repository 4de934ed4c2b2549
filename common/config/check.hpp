#pragma once
// `zkfleet config check --config F [--host NAME]...`: a config file checked offline, every
// problem reported (not only the first), without starting anything or reaching any host.
//
// First the file (keys, values, the checks across nodes, as a node reads it): each section's
// problem is reported and the next section read (a section stops at its own first problem).
// Then the files of the nodes that run on this host: for each, what its roles read — the
// certificates of security.certs_dir (ca.crt, node.NAME.crt/.key, each parsed, of that node, not
// expired), the circuits' zkey and r1cs (scheduler: both; synth: r1cs; prover: zkey and r1cs),
// a witness generator's program (synth), a Filecoin circuit's vk (scheduler) and a prover's
// filecoin_params (existing, readable files), scheduler.input_roots (scheduler, synth), and where
// the scheduler writes (the journal's and the uploads' folders: existing and writable, or
// makeable). Which nodes run here: those named by --host; without --host, the node of a `node:`
// file, or the nodes of a `nodes:` file whose listen addresses are all loopback (one machine). The
// files of other hosts are not looked at (they name paths on those hosts), and the report says
// which.
#include <functional>
#include <string>
#include <vector>

namespace zk::config {

struct config_t;
struct node_t;

struct check_options_t {
  std::vector<std::string> hosts;  // nodes whose files to check here; empty: see above
  // More of a node's files, checked by a layer that can read them (`zkfleet config check`: the
  // Filecoin parameters and verifying keys, node/filecoin_check.hpp), after the generic checks;
  // each problem as (key, what), reported "<file>: node NAME: <key>: <what>".
  std::function<void(const config_t&, const node_t&,
                     const std::function<void(const std::string&, const std::string&)>&)>
      node_files;
};

struct check_report_t {
  std::vector<std::string> problems;  // each "<file>:<line>:<col>: <key>: <what>" or with a node
  // What is allowed but worth a second look (a plaintext gRPC listener open past this host): said,
  // not failed.
  std::vector<std::string> warnings;
  std::vector<std::string> checked;      // nodes whose files were checked
  std::vector<std::string> not_checked;  // nodes whose files were not (other hosts)
  bool ok() const { return problems.empty(); }
};

check_report_t check_config(const std::string& path, const check_options_t& options = {});

}  // namespace zk::config
