// zkfleet certs: the cluster's certificates in one directory (common/security/certs.hpp,
// CockroachDB's model: ca.crt/key, node.NAME.crt/key, client.NAME.crt/key):
//
//   zkfleet certs create-ca --certs-dir DIR [--days N] [--overwrite]
//   zkfleet certs create-node NAME [--host H]... --certs-dir DIR [--days N] [--overwrite]
//   zkfleet certs create-client NAME --certs-dir DIR [--days N] [--overwrite]
//   zkfleet certs list --certs-dir DIR
//   zkfleet certs revoke NAME [--node] --certs-dir DIR
//   zkfleet certs create-token NAME --certs-dir DIR
//   zkfleet certs list-tokens --certs-dir DIR
//   zkfleet certs revoke-token NAME --certs-dir DIR
//
// Each create prints one line per file written; list prints a table with each file's expiry and
// whether it is revoked (DIR/revoked, common/security/revocation.hpp); list-tokens the names with
// a token and when each was made (never the token).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "apps/commands.hpp"
#include "common/security/certs.hpp"
#include "common/security/revocation.hpp"
#include "common/security/tokens.hpp"

namespace zk::apps {
namespace {

using security::role_t;
using system_clock_t = std::chrono::system_clock;

// The options of one `certs` subcommand (those it does not declare stay unset).
struct certs_opts_t {
  CLI::App* app = nullptr;
  opt_t name, dir, days, overwrite, hosts, node;
  bool named = false;  // takes a NAME
};

std::string utc_date(system_clock_t::time_point t) {
  const time_t tt = system_clock_t::to_time_t(t);
  std::tm tm{};
  ::gmtime_r(&tt, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// "EXPIRED", "not valid before DATE" or "expires in N days".
std::string expiry_state(const security::cert_info_t& c, system_clock_t::time_point now) {
  if (c.not_after <= now) return "EXPIRED";
  if (c.not_before > now) return "not valid before " + utc_date(c.not_before);
  const auto days = std::chrono::duration_cast<std::chrono::hours>(c.not_after - now).count() / 24;
  return "expires in " + std::to_string(days) + (days == 1 ? " day" : " days");
}

std::string certs_dir(const certs_opts_t& o) {
  if (!o.dir.given()) throw usage_error("--certs-dir DIR is required");
  const std::string d = o.dir.one();
  if (d.empty()) throw usage_error("--certs-dir needs a directory");
  return d;
}

security::create_options_t create_options(const certs_opts_t& o) {
  security::create_options_t c;
  if (o.days.given()) c.days = int(parse_uint_arg("--days", o.days.one(), 1, 36500));
  c.overwrite = o.overwrite.given();
  c.hosts = o.hosts.all();
  return c;
}

// "wrote DIR/node.n1.key (node n1's private key, mode 0600)", then the certificate's line.
void report_written(const std::string& dir, role_t role, const std::string& name) {
  const auto info = security::read_cert_info(security::cert_path(dir, role, name));
  const std::string who = role == role_t::ca ? std::string("cluster CA")
                                             : std::string(security::role_name(role)) + " " + name;
  std::printf("wrote %s (%s's private key, mode 0600)\n",
              security::key_path(dir, role, name).c_str(), who.c_str());
  std::printf("wrote %s (%s, expires %s)\n", security::cert_path(dir, role, name).c_str(),
              who.c_str(), utc_date(info.not_after).c_str());
}

int run_create_ca(const certs_opts_t& o) {
  const std::string dir = certs_dir(o);
  security::create_ca(dir, create_options(o));
  report_written(dir, role_t::ca, "");
  return 0;
}

int run_create_leaf(const certs_opts_t& o, role_t role) {
  const std::string what = std::string("certs create-") + security::role_name(role);
  const std::string name = o.name.one();
  if (name.empty()) throw usage_error(what + " needs a NAME (" + security::name_rule + ")");
  if (!security::valid_name(name))
    throw usage_error(std::string("invalid ") + security::role_name(role) + " name '" + name +
                      "': a name is " + security::name_rule);
  const std::string dir = certs_dir(o);
  security::create_cert(dir, role, name, create_options(o));
  report_written(dir, role, name);
  return 0;
}

// A bearer token for the HTTP API (docs/api.md): shown once here, stored hashed in DIR/tokens.
int run_create_token(const certs_opts_t& o) {
  const std::string name = o.name.one();
  if (name.empty())
    throw usage_error("certs create-token needs a NAME (" + std::string(security::name_rule) + ")");
  if (!security::valid_name(name))
    throw usage_error("invalid client name '" + name + "': a name is " + security::name_rule);
  const std::string dir = certs_dir(o);
  const std::string token = security::create_token(dir, name);
  std::printf("%s\n", token.c_str());
  std::fprintf(stderr,
               "zkfleet certs: the bearer token of client %s (stored hashed in %s/tokens; it "
               "replaces an earlier one of %s). It is shown once: keep it now.\n",
               name.c_str(), dir.c_str(), name.c_str());
  return 0;
}

// Rows printed with columns as wide as their widest cell.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i)
      line += i + 1 < r.size() ? r[i] + std::string(width[i] - r[i].size() + 2, ' ') : r[i];
    std::printf("%s\n", line.c_str());
  }
}

// The table: file, role, name, expiry date (UTC) and state ("REVOKED 2026-12-06" first).
int run_list(const certs_opts_t& o) {
  const std::string dir = certs_dir(o);
  const auto certs = security::list_certs(dir);
  const auto revoked = security::read_revoked(security::revoked_path(dir));
  if (certs.empty()) {
    std::printf("no certificates in %s\n", dir.c_str());
    return 0;
  }
  const auto now = system_clock_t::now();
  std::vector<std::vector<std::string>> rows = {{"FILE", "ROLE", "NAME", "EXPIRES", "STATE"}};
  for (const auto& c : certs) {
    std::string state = expiry_state(c, now);
    for (const auto& r : revoked)
      if (r.fingerprint == c.fingerprint) state = "REVOKED " + r.revoked_at.substr(0, 10);
    rows.push_back({c.file, security::role_name(c.role), c.name, utc_date(c.not_after), state});
  }
  print_table(rows);
  if (!revoked.empty())
    std::printf("%zu revoked in %s\n", revoked.size(), security::revoked_path(dir).c_str());
  return 0;
}

// Adds DIR/client.NAME.crt (node.NAME.crt with --node) to DIR/revoked. The file is what the
// scheduler's host reads: copy it there (docs/security.md "Revocation").
int run_revoke(const certs_opts_t& o) {
  const role_t role = o.node.given() ? role_t::node : role_t::client;
  const std::string name = o.name.one();
  if (name.empty())
    throw usage_error("certs revoke needs a NAME (" + std::string(security::name_rule) + ")");
  if (!security::valid_name(name))
    throw usage_error(std::string("invalid ") + security::role_name(role) + " name '" + name +
                      "': a name is " + security::name_rule);
  const std::string dir = certs_dir(o);
  const std::string file = security::cert_path(dir, role, name);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw std::runtime_error(file + " does not exist: revoke where the certificate was made (the " +
                             "CA's folder keeps every certificate it signed)" +
                             (role == role_t::client ? "; a node's: --node" : ""));
  const auto info = security::read_cert_info(file);
  const bool added = security::revoke_cert(dir, info);
  std::printf("%s %s (%s %s, sha256 %s) in %s\n",
              added ? "revoked" : "already revoked:", file.c_str(), security::role_name(role),
              name.c_str(), info.fingerprint.c_str(), security::revoked_path(dir).c_str());
  std::fprintf(stderr,
               "zkfleet certs: a host refuses it from its next TLS handshake once its certs_dir "
               "has this revoked file (no restart); copy it to the scheduler's and every node's "
               "certs_dir. Connections already open stay open until they close.\n");
  return 0;
}

// NAME and when its token was made, one line each (the token itself is never kept).
int run_list_tokens(const certs_opts_t& o) {
  const std::string dir = certs_dir(o);
  const auto tokens = security::list_tokens(dir);
  if (tokens.empty()) {
    std::printf("no tokens in %s\n", (std::filesystem::path(dir) / "tokens").c_str());
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"NAME", "CREATED"}};
  for (const auto& t : tokens) rows.push_back({t.name, t.created});
  print_table(rows);
  return 0;
}

int run_revoke_token(const certs_opts_t& o) {
  const std::string name = o.name.one();
  if (name.empty())
    throw usage_error("certs revoke-token needs a NAME (" + std::string(security::name_rule) + ")");
  const std::string dir = certs_dir(o);
  security::revoke_token(dir, name);
  std::printf(
      "revoked the token of client %s (removed from %s); the HTTP API refuses it from "
      "the next request on\n",
      name.c_str(), (std::filesystem::path(dir) / "tokens").c_str());
  return 0;
}

// Declares one subcommand of `certs` and the options the four share.
certs_opts_t add_sub(CLI::App* certs, const std::string& name, const std::string& description,
                     bool creates, bool named, bool hosts = false) {
  certs_opts_t o;
  o.app = add_command(*certs, name, description);
  o.named = named;
  if (named) o.name = add_positional(o.app, "NAME", security::name_rule, false);
  o.dir = add_value(o.app, "--certs-dir", "DIR", "the certificates directory (required)");
  if (creates) {
    o.days = add_value(o.app, "--days", "N", "validity in days (default: CA 10 years, else 2)");
    o.overwrite = add_flag(o.app, "--overwrite", "replace existing files");
  }
  if (hosts)
    o.hosts = add_values(o.app, "--host", "HOST",
                         "another name or IP address of the node (a SAN), repeatable");
  if (name == "revoke")
    o.node = add_flag(o.app, "--node", "revoke node.NAME.crt (default: client.NAME.crt)");
  return o;
}

using runner_t = int (*)(const certs_opts_t&);

// The subcommand that was given, its stray words refused as finish_parse does for a command.
int run_certs(const std::vector<std::pair<certs_opts_t, runner_t>>& subs) {
  for (const auto& [o, run] : subs) {
    if (!o.app->parsed()) continue;
    command_t sub;
    sub.app = o.app;
    sub.takes = o.named ? "certs " + o.app->get_name() + " takes one NAME"
                        : "certs " + o.app->get_name() + " takes no arguments";
    finish_parse(sub);
    return run(o);
  }
  throw usage_error(
      "certs needs a command: create-ca, create-node NAME, create-client NAME, list, revoke NAME, "
      "create-token NAME, list-tokens or revoke-token NAME");
}

}  // namespace

void add_certs_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "certs",
                  "The cluster's certificates and tokens: create the CA, node and client "
                  "certificates and bearer tokens, list and revoke them (ECDSA P-256)");
  app->footer(
      "usage: zkfleet certs create-ca --certs-dir DIR [--days N] [--overwrite]\n"
      "       zkfleet certs create-node NAME [--host H]... --certs-dir DIR [--days N] "
      "[--overwrite]\n"
      "       zkfleet certs create-client NAME --certs-dir DIR [--days N] [--overwrite]\n"
      "       zkfleet certs list --certs-dir DIR\n"
      "       zkfleet certs revoke NAME [--node] --certs-dir DIR\n"
      "       zkfleet certs create-token NAME --certs-dir DIR\n"
      "       zkfleet certs list-tokens --certs-dir DIR\n"
      "       zkfleet certs revoke-token NAME --certs-dir DIR\n"
      "Files: DIR/ca.crt|key, DIR/node.NAME.crt|key, DIR/client.NAME.crt|key; keys are mode "
      "0600;\nDIR/tokens (hashes), DIR/revoked (revoked certificates' fingerprints).\n"
      "NAME: " +
      std::string(security::name_rule) + ".\n");
  const std::vector<std::pair<certs_opts_t, runner_t>> subs = {
      {add_sub(app, "create-ca", "make the cluster CA (ca.crt, ca.key)", true, false),
       run_create_ca},
      {add_sub(app, "create-node", "make node.NAME.crt|key, signed by the CA (TLS server+client)",
               true, true, true),
       [](const certs_opts_t& o) { return run_create_leaf(o, role_t::node); }},
      {add_sub(app, "create-client", "make client.NAME.crt|key, signed by the CA (TLS client)",
               true, true),
       [](const certs_opts_t& o) { return run_create_leaf(o, role_t::client); }},
      {add_sub(app, "list",
               "list the directory's certificates, when each expires, which are revoked", false,
               false),
       run_list},
      {add_sub(app, "revoke",
               "revoke client.NAME.crt (node.NAME.crt with --node): DIR/revoked, read at every TLS "
               "handshake",
               false, true),
       run_revoke},
      {add_sub(app, "create-token",
               "make a bearer token of client NAME for the HTTP API (printed once, kept hashed)",
               false, true),
       run_create_token},
      {add_sub(app, "list-tokens",
               "list the clients that have a bearer token, and when each was made", false, false),
       run_list_tokens},
      {add_sub(app, "revoke-token",
               "remove client NAME's bearer token (refused from the next request)", false, true),
       run_revoke_token}};
  command_t c;
  c.app = app;
  c.takes =
      "certs takes a command: create-ca, create-node, create-client, list, revoke, create-token, "
      "list-tokens or revoke-token";
  c.run = [subs] { return run_certs(subs); };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
