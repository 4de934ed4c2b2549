// The client side of the cluster commands (apps/client.hpp): the probe, the connect loop, the
// requests. The only file of the cluster commands that sends to the scheduler from outside it.
#include "apps/client.hpp"

#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <caf/io/all.hpp>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "actors/node.hpp"
#include "actors/timeline.hpp"
#include "apps/cluster.hpp"
#include "common/net/timed_socket.hpp"
#include "common/net/tls.hpp"
#include "common/security/revocation.hpp"
#include "common/util/log.hpp"
#include "node/scheduler/sessions.hpp"

namespace zk::apps {

using namespace std::chrono_literals;
using actors::describe;

tls_identity_t tls_identity(const config::config_t& c, security::role_t role,
                            const std::string& name) {
  tls_identity_t t;
  t.role = role;
  t.name = name;
  if (!c.security.tls()) return t;
  const std::string& dir = c.security.certs_dir;
  t.ca = security::cert_path(dir, security::role_t::ca, "");
  t.cert = security::cert_path(dir, role, name);
  t.key = security::key_path(dir, role, name);
  t.revoked = security::revoked_path(dir);
  namespace fs = std::filesystem;
  std::error_code ec;
  // A folder without ca.crt is most often a typo of certs_dir: a new CA would not help (the
  // cluster trusts its own), so the message says where the cluster's ca.crt comes from.
  if (!fs::is_regular_file(t.ca, ec))
    throw std::runtime_error(
        "security.certs_dir in " + c.source + ": " + dir +
        (fs::is_directory(dir, ec) ? " has no ca.crt" : " does not exist") +
        ". Is the path right? Every host and client needs the cluster's own ca.crt there (copy "
        "it from where the CA was made); a new CA would not be trusted by the cluster");
  // A missing identity: say which ones this folder has (a client host holds its own only, so
  // the default --client admin is rarely there), and make it only where ca.key is.
  for (const auto* f : {&t.cert, &t.key}) {
    if (fs::is_regular_file(*f, ec)) continue;
    std::string have;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string(),
                        prefix = std::string(security::role_name(role)) + ".";
      if (n.rfind(prefix, 0) == 0 && e.path().extension() == ".crt")
        have += (have.empty() ? "" : ", ") + n.substr(prefix.size(), n.size() - prefix.size() - 4);
    }
    std::string hint;
    if (role == security::role_t::client && !have.empty())
      hint = "the client certificates in " + dir + ": " + have + "; give --client NAME";
    else if (fs::exists(security::key_path(dir, security::role_t::ca, ""), ec))
      hint = std::string("make it: zkfleet certs create-") + security::role_name(role) + " " +
             name + " --certs-dir " + dir;
    else
      hint = std::string("make it where the CA key is kept (zkfleet certs create-") +
             security::role_name(role) + " " + name + ") and copy " + security::role_name(role) +
             "." + name + ".crt/.key here";
    throw std::runtime_error(
        *f + " does not exist: " + security::role_name(role) + " " + name +
        (role == security::role_t::client && name == "admin" ? " (the default of --client)" : "") +
        " has no certificate in " + dir + "; " + hint);
  }
  return t;
}

control_timing_t timing_of(const config::config_t& c) {
  return {c.scheduler.heartbeat, c.scheduler.node_timeout};
}

middleman_system_t::middleman_system_t(tls_identity_t identity, control_timing_t timing)
    : tls(std::move(identity)) {
  actors::add_message_types(cfg);
  cfg.load<caf::io::middleman>();
  // A peer that stops answering without closing its connection (power loss, a partition,
  // SIGSTOP) is dropped after the timeout: its actors' down messages follow (the scheduler
  // requeues its work; a node reconnects). Through the TLS tunnels too: they carry the bytes.
  if (timing.heartbeat.count() > 0) {
    cfg.set("middleman.heartbeat-interval", caf::timespan(timing.heartbeat));
    cfg.set("middleman.connection-timeout", caf::timespan(timing.timeout));
  }
  cfg.set("scheduler.max-threads", 2);
  // Idle workers go to CAF's relaxed polling (sleep 10 ms) after a few empty polls instead of
  // 600: an idle node process then costs ~0.5 % of a core, not ~4 % (bench/idle-cpu).
  cfg.set("work-stealing.aggressive-poll-attempts", 10);
  cfg.set("work-stealing.moderate-poll-attempts", 10);
  sys = std::make_unique<caf::actor_system>(cfg);
}

middleman_system_t::~middleman_system_t() {
  for (auto& t : tunnels) t->stop();  // the connections go before the middleman does
}

void middleman_system_t::drop_tunnels() {
  for (auto& t : tunnels) t->stop();
  tunnels.clear();
}

net::tls_files_t middleman_system_t::files() const {
  return {tls.cert, tls.key, tls.ca, tls.revoked};
}

caf::expected<uint16_t> middleman_system_t::publish(const actors::scheduler_actor& a,
                                                    const config::endpoint_t& at) {
  if (!tls.enabled()) return sys->middleman().publish(a, at.port, at.host.c_str(), true);
  // The middleman on loopback, the cluster address behind mutual TLS (net/tls_tunnel.hpp).
  auto local = sys->middleman().publish(a, 0, "127.0.0.1", true);
  if (!local) return local;
  tunnels.push_back(net::tls_tunnel_t::terminate(
      at.host, at.port, *local, files(), [](const std::string& peer, const std::string& why) {
        log::warn("control plane: refused " + peer + ": " + why);
      }));
  return at.port;
}

caf::expected<actors::scheduler_actor> middleman_system_t::remote_scheduler(
    const config::endpoint_t& at, const std::string& scheduler_name) {
  if (!tls.enabled())
    return sys->middleman().remote_actor<actors::scheduler_actor>(at.host, at.port);
  tunnels.push_back(net::tls_tunnel_t::originate(
      at.host, at.port, files(), scheduler_name,
      [](const std::string& peer, const std::string& why) {
        log::warn("control plane: the connection to the scheduler failed (" + peer + "): " + why);
      }));
  return sys->middleman().remote_actor<actors::scheduler_actor>("127.0.0.1",
                                                                tunnels.back()->port());
}

namespace {

// A TLS handshake with the endpoint within `wait`, on the shared TLS code (common/net/tls.hpp's
// client context, timed_socket_t's handshake): scheduler when it completed, else how it failed and
// what the server or this side said.
probe_t tls_probe(const config::endpoint_t& ep, const tls_identity_t& tls,
                  std::chrono::milliseconds wait) {
  std::shared_ptr<net::tls_context_t> ctx;
  try {
    // The probe only tells a TLS listener from another; revocation is the connection's to check.
    ctx = net::make_tls_context({tls.cert, tls.key, tls.ca, /*revoked_file=*/""},
                                net::tls_side_t::client);
  } catch (const std::exception& e) {
    return {greeting_t::tls_refused, e.what()};
  }
  // An error of the handshake as the probe reports it: a plaintext answer (a record that is not
  // TLS), a close without an alert, or a refusal with OpenSSL's reason (or this side's, naming
  // the server's certificate).
  auto failed = [](const net::error_code& ec, const std::string& ours) -> probe_t {
    namespace asio = boost::asio;
    if (ec == asio::ssl::error::stream_truncated || ec == asio::error::eof ||
        ec == asio::error::connection_reset)
      return {greeting_t::tls_cut, "the connection closed during the TLS handshake"};
    if (ec.category() != asio::error::get_ssl_category())
      return {greeting_t::tls_refused, ec.message()};
    const unsigned long err = static_cast<unsigned long>(ec.value());
    const int reason = ERR_GET_REASON(err);
    const char* text = ERR_reason_error_string(err);
    if (reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG)
      return {greeting_t::plaintext, text ? text : "not TLS"};
    if (reason == SSL_R_UNEXPECTED_EOF_WHILE_READING)  // closed, no alert
      return {greeting_t::tls_cut, "the connection closed during the TLS handshake"};
    if (!ours.empty()) return {greeting_t::tls_refused, ours};
    return {greeting_t::tls_refused, text ? text : ec.message()};
  };
  net::timed_socket_t s(ctx);
  const auto ec = s.connect(ep.host, ep.port, wait);
  if (ec == boost::asio::error::timed_out)
    return {s.reached() ? greeting_t::silent : greeting_t::nobody, ""};
  if (ec && !s.reached()) return {};
  if (ec) {
    // The server was reached, but its certificate is not signed by this side's ca.crt.
    if (const long v = s.peer_verify_error(); net::is_foreign_ca_error(v)) {
      probe_t p{greeting_t::tls_refused, X509_verify_cert_error_string(v)};
      p.untrusted_server = true;
      return p;
    }
    return failed(ec, s.peer_error());
  }
  // TLS 1.3: the server checks the client's certificate after the client's Finished; a refusal
  // arrives as an alert on the first read (nothing else comes: the client speaks first).
  char b = 0;
  const auto alert = s.read(boost::asio::buffer(&b, 1), std::chrono::milliseconds(300));
  if (alert && alert != boost::asio::error::timed_out &&
      alert.category() == boost::asio::error::get_ssl_category())
    return failed(alert, "");
  return {greeting_t::scheduler, ""};
}

}  // namespace

probe_t probe(const config::endpoint_t& ep, std::chrono::milliseconds wait,
              const tls_identity_t& tls) {
  if (tls.enabled()) return tls_probe(ep, tls, wait);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (::getaddrinfo(ep.host.c_str(), std::to_string(ep.port).c_str(), &hints, &res) != 0) return {};
  probe_t g;
  for (addrinfo* ai = res; ai && g.greeting == greeting_t::nobody; ai = ai->ai_next) {
    const int fd =
        ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    pollfd p{fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    const bool connected =
        (::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS) &&
        ::poll(&p, 1, int(wait.count())) == 1 &&
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
    if (connected) {
      p = {fd, POLLIN, 0};
      uint8_t first = 0xff;
      const int ready = ::poll(&p, 1, int(wait.count()));
      if (ready == 0) {
        g.greeting = greeting_t::silent;
      } else if (ready == 1) {
        const ssize_t n = ::recv(fd, &first, 1, 0);
        // Closed at once (a proxy whose backend is not up yet): nobody there yet, try again.
        if (n == 1) g.greeting = first == 0 ? greeting_t::scheduler : greeting_t::foreign;
      }  // interrupted (a signal): nobody yet
    }
    ::close(fd);
  }
  ::freeaddrinfo(res);
  return g;
}

std::string scheduler_node_name(const config::config_t& c) {
  for (const auto& n : c.nodes)
    if (n.has(config::node_role_t::scheduler)) return n.name;
  return "";
}

result_t<net::http_answer_t> call_scheduler_http(const config::config_t& c,
                                                 const tls_identity_t& tls, net::http_call_t call) {
  if (!c.scheduler.http)
    throw std::runtime_error("scheduler.http is not set in " + c.source +
                             ": the scheduler serves no HTTP to send or fetch inputs through");
  call.host = c.scheduler.http->host;
  call.port = c.scheduler.http->port;
  if (tls.enabled()) {
    call.tls = {tls.cert, tls.key, tls.ca, tls.revoked};
    call.expected_server = scheduler_node_name(c);
  }
  return net::http_call(call);
}

actors::scheduler_actor connect_scheduler(middleman_system_t& s, const config::config_t& c,
                                          std::chrono::seconds patience,
                                          const std::function<void()>& still_ok,
                                          const std::function<void(const std::string&)>& note) {
  const auto& ep = c.scheduler.endpoint;
  const auto start = std::chrono::steady_clock::now(), end = start + patience;
  auto not_a_scheduler = [&](const char* what) {
    return std::runtime_error(ep.str() + " accepted the connection but " + what +
                              ": it is not a zkfleet scheduler (is scheduler.endpoint in " +
                              c.source +
                              " the scheduler's control port, not a data or metrics port?)");
  };
  for (bool said = false;;) {
    // Only a greeting that cannot be CAF's ends the wait at once; a silent listener is tried again
    // (remote_actor would wait on it for minutes) until the patience runs out.
    const probe_t found = probe(ep, 5s, s.tls);
    const greeting_t g = found.greeting;
    if (g == greeting_t::foreign) throw not_a_scheduler("did not greet as CAF does");
    if (g == greeting_t::tls_cut && std::chrono::steady_clock::now() < end && !stop_requested()) {
      if (still_ok) still_ok();
      std::this_thread::sleep_for(200ms);  // the scheduler restarting: try again
      continue;
    }
    if (g == greeting_t::plaintext)
      throw std::runtime_error(ep.str() +
                               " answered in plaintext, not TLS: is security the same in every "
                               "node's config (" +
                               c.source + ")?");
    if (found.untrusted_server)
      throw std::runtime_error("reached the server at " + ep.str() +
                               " but its certificate is not signed by your ca.crt (" + s.tls.ca +
                               ": " + found.why + "); is that file the cluster's ca.crt?");
    if (g == greeting_t::tls_refused && found.why.find("revoked") != std::string::npos)
      throw std::runtime_error("the scheduler at " + ep.str() + " refused " + s.tls.cert +
                               ": the certificate is revoked (" + found.why +
                               "; docs/security.md \"Revocation\")");
    if (g == greeting_t::tls_refused || g == greeting_t::tls_cut)
      throw std::runtime_error("the TLS handshake with " + ep.str() + " failed (" + found.why +
                               "): is " + s.tls.cert + " a certificate of this cluster's CA?");
    if (g == greeting_t::silent) {
      if (still_ok) still_ok();
      if (std::chrono::steady_clock::now() >= end || stop_requested())
        throw not_a_scheduler("said nothing within 5 s");
      continue;
    }
    auto a = g == greeting_t::scheduler ? s.remote_scheduler(ep, scheduler_node_name(c))
                                        : caf::expected<actors::scheduler_actor>(
                                              caf::make_error(caf::sec::cannot_connect_to_node));
    if (a) return *a;
    if (!said && std::chrono::steady_clock::now() - start > 2s) {  // say why the wait, once
      const std::string w = "no scheduler at " + ep.str() + " yet (" + s.sys->render(a.error()) +
                            "); retrying for up to " + std::to_string(patience.count()) + " s";
      if (note) {
        note(w);
      } else {
        std::fprintf(stderr, "zkfleet: %s\n", w.c_str());
        std::fflush(stderr);
      }
      said = true;
    }
    if (still_ok) still_ok();
    if (std::chrono::steady_clock::now() >= end || stop_requested())
      throw std::runtime_error("no scheduler at " + ep.str() + ": " + s.sys->render(a.error()));
    std::this_thread::sleep_for(200ms);
  }
}

std::string log_in(caf::actor_system& sys, const actors::scheduler_actor& scheduler,
                   const config::config_t& c, const tls_identity_t& tls) {
  const std::string nonce = security::random_hex(16);
  auto h = actors::ask<actors::hello_msg>(sys, scheduler, 10s, actors::hello_atom::value, nonce);
  if (!h && h.error() == caf::sec::request_receiver_down)
    throw scheduler_lost_error("the scheduler went away before it greeted: " + describe(h.error()));
  // Reached but silent for 10 s (a scheduler still starting on a loaded host): worth another try.
  if (!h && h.error() == caf::sec::request_timeout)
    throw scheduler_lost_error("the scheduler did not greet within 10 s: " + describe(h.error()));
  if (!h) throw std::runtime_error("the scheduler did not greet: " + describe(h.error()));
  actors::login_msg m;
  m.name = tls.name;
  m.node = tls.role == security::role_t::node;
  m.challenge = h->challenge;
  if (tls.enabled() != h->secure)
    throw std::runtime_error(std::string("the scheduler at ") + c.scheduler.endpoint.str() +
                             (h->secure ? " uses certificates" : " is insecure") +
                             " but this side's config does not (" + c.source + ")");
  if (tls.enabled()) {
    // The scheduler proves it is the config's scheduler node before anything is sent to it.
    const security::verifier_t verifier(tls.ca);
    auto them = verifier.verify_signed(h->scheduler_cert, node::hello_text(nonce, h->challenge),
                                       h->signature);
    if (!them) throw std::runtime_error("the scheduler's identity is refused: " + them.error());
    const std::string want = scheduler_node_name(c);
    if (want.empty())
      throw std::runtime_error(c.source +
                               " names no node with the scheduler role: with "
                               "certificates the scheduler's name must be known");
    if (them->role != security::role_t::node || them->name != want)
      throw std::runtime_error("the scheduler at " + c.scheduler.endpoint.str() +
                               " shows the certificate of " + security::role_name(them->role) +
                               " " + them->name + ", not node " + want + " (the scheduler of " +
                               c.source + ")");
    const security::signer_t signer(tls.cert, tls.key);
    m.cert_pem = signer.cert_pem();
    m.signature =
        signer.sign(node::login_text(h->challenge, tls.role, tls.name, caf::to_string(sys.node())));
  }
  auto token = actors::ask<std::string>(sys, scheduler, 10s, actors::login_atom::value, m);
  if (!token && token.error() == caf::sec::request_receiver_down)
    throw scheduler_lost_error("the scheduler went away during the login of " + tls.name + ": " +
                               actors::reason_of(token.error()));
  if (!token)
    throw std::runtime_error("the scheduler refused the login of " +
                             std::string(security::role_name(tls.role)) + " " + tls.name + ": " +
                             actors::reason_of(token.error()));
  return *token;
}

scheduler_link_t connect_node(middleman_system_t& s, const config::config_t& c,
                              std::chrono::seconds patience,
                              const std::function<void(const std::string&)>& note) {
  scheduler_link_t l;
  l.scheduler = connect_scheduler(s, c, patience, {}, note);
  l.token = log_in(*s.sys, l.scheduler, c, s.tls);
  auto agg = actors::ask<actors::timeline_actor>(*s.sys, l.scheduler, 10s,
                                                 actors::timeline_atom::value, l.token);
  if (!agg)
    throw std::runtime_error("the scheduler names no timeline aggregator: " +
                             describe(agg.error()));
  l.aggregator = *agg;
  return l;
}

// --- the client
// -----------------------------------------------------------------------------------

struct cluster_client_t::impl_t {
  impl_t(tls_identity_t t, control_timing_t timing) : system(std::move(t), timing) {}
  middleman_system_t system;
  actors::scheduler_actor scheduler;
  std::string token;

  // One request answered within `timeout`, or std::runtime_error with `what` and the reason.
  template <class T, class Handle, class... Ts>
  T request(const Handle& dest, std::chrono::milliseconds timeout, const std::string& what,
            Ts&&... xs) {
    auto r = actors::ask<T>(*system.sys, dest, timeout, std::forward<Ts>(xs)...);
    if (!r) throw std::runtime_error(what + describe(r.error()));
    return std::move(*r);
  }
};

cluster_client_t::cluster_client_t(const config::config_t& c, const std::string& client,
                                   std::chrono::seconds patience,
                                   const std::function<void()>& still_ok)
    : impl_(std::make_unique<impl_t>(tls_identity(c, security::role_t::client, client),
                                     timing_of(c))) {
  // A scheduler that was reached but did not greet (or went away before it did) is tried again,
  // for at least 30 s: on a loaded host its greeting can take longer than log_in's 10 s.
  const auto end = std::chrono::steady_clock::now() + std::max<std::chrono::seconds>(patience, 30s);
  for (;;) {
    impl_->scheduler = connect_scheduler(impl_->system, c, patience, still_ok);
    try {
      impl_->token = log_in(*impl_->system.sys, impl_->scheduler, c, impl_->system.tls);
      return;
    } catch (const scheduler_lost_error&) {
      if (std::chrono::steady_clock::now() + 1s >= end || stop_requested()) throw;
      if (still_ok) still_ok();
      std::this_thread::sleep_for(500ms);
    }
  }
}

cluster_client_t::~cluster_client_t() = default;

std::string cluster_client_t::submit(const actors::job_request_msg& r) {
  return impl_->request<std::string>(impl_->scheduler, 70s, "", actors::submit_atom::value,
                                     impl_->token, r);
}

actors::job_status_msg cluster_client_t::status(const std::string& job) {
  return impl_->request<actors::job_status_msg>(impl_->scheduler, 10s, "",
                                                actors::status_atom::value, impl_->token, job);
}

std::optional<actors::job_result_msg> cluster_client_t::await(const std::string& job,
                                                              std::chrono::seconds timeout) {
  auto r = actors::ask<actors::job_result_msg>(*impl_->system.sys, impl_->scheduler, timeout,
                                               actors::await_atom::value, impl_->token, job);
  if (!r && r.error() == caf::sec::request_timeout) return std::nullopt;
  if (!r && r.error().category() != caf::atom("zkfleet"))  // not the scheduler's answer
    throw scheduler_lost_error(describe(r.error()));
  const auto code = r ? actors::zk_errc{} : static_cast<actors::zk_errc>(r.error().code());
  if (!r && (code == actors::zk_errc::job_cancelled || code == actors::zk_errc::job_failed))
    throw job_ended_error(describe(r.error()));
  if (!r) throw std::runtime_error(describe(r.error()));
  return std::move(*r);
}

actors::job_result_msg cluster_client_t::proofs(const std::string& job) {
  return impl_->request<actors::job_result_msg>(impl_->scheduler, 30s, "",
                                                actors::proofs_atom::value, impl_->token, job);
}

std::vector<actors::job_status_msg> cluster_client_t::jobs(uint32_t limit) {
  return impl_->request<std::vector<actors::job_status_msg>>(
      impl_->scheduler, 10s, "", actors::jobs_atom::value, impl_->token, limit);
}

actors::job_status_msg cluster_client_t::retry(const std::string& job) {
  return impl_->request<actors::job_status_msg>(impl_->scheduler, 10s, "",
                                                actors::retry_atom::value, impl_->token, job);
}

actors::job_status_msg cluster_client_t::set_priority(const std::string& job,
                                                      node::priority_t priority) {
  return impl_->request<actors::job_status_msg>(
      impl_->scheduler, 10s, "", actors::priority_atom::value, impl_->token, job, priority);
}

actors::node_usage_msg cluster_client_t::drain(const std::string& node, bool draining) {
  return impl_->request<actors::node_usage_msg>(
      impl_->scheduler, 10s, "", actors::drain_atom::value, impl_->token, node, draining);
}

bool cluster_client_t::cancel(const std::string& job) {
  return impl_->request<bool>(impl_->scheduler, 10s, "", actors::cancel_atom::value, impl_->token,
                              job);
}

std::vector<actors::node_usage_msg> cluster_client_t::nodes(std::chrono::milliseconds timeout) {
  return impl_->request<std::vector<actors::node_usage_msg>>(
      impl_->scheduler, timeout, "", actors::stats_atom::value, impl_->token);
}

timeline::aggregator_t cluster_client_t::timeline() {
  auto agg = impl_->request<actors::timeline_actor>(
      impl_->scheduler, 10s,
      "the scheduler names no timeline aggregator: ", actors::timeline_atom::value, impl_->token);
  // Every reporter sends what it holds first; a node that does not answer only delays this.
  auto flushed = actors::ask<caf::ok_atom>(*impl_->system.sys, agg, 15s, actors::flush_atom::value);
  if (!flushed)
    std::fprintf(stderr, "zkfleet timeline: flush: %s (showing what arrived)\n",
                 describe(flushed.error()).c_str());
  auto snap = impl_->request<actors::timeline_snapshot_msg>(
      agg, 15s, "the timeline aggregator did not answer: ", actors::snapshot_atom::value);
  return actors::to_aggregator(snap);
}

timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path,
                                              const std::string& client_name) {
  cluster_client_t client(config::load_config(config_path, {false}), client_name);
  return client.timeline();
}

}  // namespace zk::apps
