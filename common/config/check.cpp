#include "common/config/check.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/config/config.hpp"
#include "common/config/yaml_reader.hpp"
#include "common/net/networks.hpp"
#include "common/security/certs.hpp"

namespace zk::config {

namespace fs = std::filesystem;

namespace {

// Every listen address of `n` is loopback: it runs on the machine that reads the file.
bool runs_here(const node_t& n) {
  for (const auto* e : {&n.control, &n.data})
    if (*e && !net::is_loopback_host((*e)->host)) return false;
  return true;
}

// The problems of one node's files, each prefixed "node NAME: ".
class file_checker_t {
 public:
  file_checker_t(const config_t& c, const node_t& n, std::vector<std::string>& out,
                 const check_options_t& o)
      : c_(c), n_(n), out_(out), o_(o) {}

  void run() {
    if (c_.security.tls()) certificates();
    const bool sched = n_.has(node_role_t::scheduler), synth = n_.has(node_role_t::synth),
               prover = n_.has(node_role_t::prover);
    for (const auto& ci : c_.circuits) {
      if (config::uses_filecoin_params(ci.kind) && sched) file("circuits." + ci.id + ".vk", ci.vk);
      if (ci.kind != circuit_kind_t::circom) continue;  // keyed by the scheduler into key_dir
      if (sched || prover) file("circuits." + ci.id + ".zkey", ci.zkey);
      if (sched || synth || prover) file("circuits." + ci.id + ".r1cs", ci.r1cs);
      if (synth && !ci.witness_generator.empty())
        program("circuits." + ci.id + ".witness_generator[0]", ci.witness_generator[0]);
    }
    if (prover)
      for (const auto& [id, path] : n_.filecoin_params) file("filecoin_params." + id, path);
    if (sched || synth)
      for (size_t i = 0; i < c_.scheduler.input_roots.size(); ++i)
        folder("scheduler.input_roots[" + std::to_string(i) + "]", c_.scheduler.input_roots[i]);
    if (sched) {
      if (!c_.scheduler.journal.empty())
        writable("scheduler.journal", fs::path(c_.scheduler.journal).parent_path().string());
      writable("scheduler.uploads", c_.scheduler.uploads);
    }
    if (o_.node_files)
      o_.node_files(
          c_, n_, [this](const std::string& key, const std::string& what) { problem(key, what); });
  }

 private:
  void problem(const std::string& key, const std::string& what) {
    out_.push_back(c_.source + ": node " + n_.name + ": " + key + ": " + what);
  }

  void file(const std::string& key, const std::string& path) {
    if (path.empty()) return;  // missing from its entry: the file's reading said so
    std::error_code ec;
    if (!fs::exists(path, ec))
      problem(key, path + " does not exist");
    else if (!fs::is_regular_file(path, ec))
      problem(key, path + " is not a file");
    else if (::access(path.c_str(), R_OK) != 0)
      problem(key, path + " cannot be read");
  }

  void folder(const std::string& key, const std::string& path) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) problem(key, path + " is not a directory");
  }

  // The folder, or the nearest folder above it that exists (the node makes the rest), writable.
  void writable(const std::string& key, const std::string& path) {
    fs::path p = path;
    std::error_code ec;
    while (!p.empty() && !fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p)
      p = p.parent_path();
    if (!fs::is_directory(p, ec))
      problem(key, p.string() + " is not a directory (the node keeps " + path + " there)");
    else if (::access(p.c_str(), W_OK | X_OK) != 0)
      problem(key, p.string() + " is not writable (the node keeps " + path + " there)");
  }

  void program(const std::string& key, const std::string& argv0) {
    if (argv0.find('/') != std::string::npos) {
      if (::access(argv0.c_str(), X_OK) != 0) problem(key, argv0 + " is not an executable file");
      return;
    }
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');)
      if (!d.empty() && ::access((fs::path(d) / argv0).c_str(), X_OK) == 0) return;
    problem(key, argv0 + " is not on PATH (" + (path ? path : "") + ")");
  }

  void certificates() {
    using security::role_t;
    const std::string& dir = c_.security.certs_dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      problem("security.certs_dir", dir + " does not exist");
      return;
    }
    const auto now = std::chrono::system_clock::now();
    auto cert = [&](role_t role, const std::string& name) {
      const std::string f = security::cert_path(dir, role, name);
      if (!fs::exists(f, ec)) {
        problem("security.certs_dir", f + " does not exist");
        return;
      }
      try {
        const auto info = security::read_cert_info(f);
        if (info.role != role || (role != role_t::ca && info.name != name))
          problem("security.certs_dir",
                  f + " is the certificate of " + security::role_name(info.role) + " " + info.name);
        else if (info.not_after <= now)
          problem("security.certs_dir", f + " has expired");
      } catch (const std::exception& e) {
        problem("security.certs_dir", e.what());
      }
    };
    cert(role_t::ca, "");
    cert(role_t::node, n_.name);
    const std::string key = security::key_path(dir, role_t::node, n_.name);
    if (!fs::exists(key, ec))
      problem("security.certs_dir", key + " does not exist");
    else if (::access(key.c_str(), R_OK) != 0)
      problem("security.certs_dir", key + " cannot be read");
  }

  const config_t& c_;
  const node_t& n_;
  std::vector<std::string>& out_;
  const check_options_t& o_;
};

}  // namespace

check_report_t check_config(const std::string& path, const check_options_t& options) {
  check_report_t r;
  config_t cfg;
  try {
    std::error_code ec;
    if (fs::is_directory(path, ec))
      throw config_error(path + ": is a directory, not a config file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw config_error(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    YAML::Node root;
    try {
      root = YAML::Load(text.str());
    } catch (const YAML::Exception& e) {
      throw config_error(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                         std::to_string(e.mark.column + 1) + ": not valid YAML: " + e.msg);
    }
    detail::ctx_t c{path, fs::absolute(fs::path(path)).parent_path().string(), {}};
    c.options.check_files = false;  // the files are checked below, per node
    c.problems = &r.problems;
    cfg = detail::read_root(c, root);
  } catch (const config_error& e) {
    r.problems.push_back(e.what());
    return r;
  }
  if (grpc_plaintext_open(cfg.scheduler)) {
    std::string nets;
    for (const auto& n : cfg.scheduler.grpc_insecure_networks)
      nets += (nets.empty() ? "" : ", ") + n;
    r.warnings.push_back(path + ": scheduler.grpc: " + cfg.scheduler.grpc +
                         " takes plaintext gRPC (no TLS, no client certificate: every call acts as "
                         "client " +
                         cfg.scheduler.grpc_client + ") from " + nets +
                         "; a remote Curio can go through `zkfleet gateway` and scheduler.grpc_tls "
                         "instead (docs/security.md)");
  }
  std::vector<const node_t*> here;
  for (const auto& h : options.hosts) {
    if (const node_t* n = cfg.find_node(h)) {
      if (std::find(here.begin(), here.end(), n) == here.end()) here.push_back(n);
    } else {
      std::string names;
      for (const auto& n : cfg.nodes) names += (names.empty() ? "" : ", ") + n.name;
      r.problems.push_back("--host " + h + ": " + path + " has no node named " + h +
                           " (its nodes: " + names + ")");
    }
  }
  if (options.hosts.empty())
    for (const auto& n : cfg.nodes)
      if (cfg.single_node || runs_here(n)) here.push_back(&n);
  for (const auto& n : cfg.nodes) {
    if (std::find(here.begin(), here.end(), &n) == here.end()) {
      r.not_checked.push_back(n.name);
      continue;
    }
    r.checked.push_back(n.name);
    file_checker_t(cfg, n, r.problems, options).run();
  }
  return r;
}

}  // namespace zk::config
