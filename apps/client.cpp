// The client side of the cluster commands (apps/client.hpp): the probe, the connect loop, the
// requests. The only file of the cluster commands that sends to the scheduler from outside it.
#include "apps/client.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <caf/io/all.hpp>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "actors/node.hpp"
#include "actors/timeline.hpp"
#include "apps/cluster.hpp"

namespace zk::apps {

using namespace std::chrono_literals;
using actors::describe;

middleman_system_t::middleman_system_t() {
  actors::add_message_types(cfg);
  cfg.load<caf::io::middleman>();
  cfg.set("scheduler.max-threads", 2);
  sys = std::make_unique<caf::actor_system>(cfg);
}

middleman_system_t::~middleman_system_t() = default;

greeting_t probe(const config::endpoint_t& ep, std::chrono::milliseconds wait) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (::getaddrinfo(ep.host.c_str(), std::to_string(ep.port).c_str(), &hints, &res) != 0)
    return greeting_t::nobody;
  greeting_t g = greeting_t::nobody;
  for (addrinfo* ai = res; ai && g == greeting_t::nobody; ai = ai->ai_next) {
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
        g = greeting_t::silent;
      } else if (ready == 1) {
        const ssize_t n = ::recv(fd, &first, 1, 0);
        // Closed at once (a proxy whose backend is not up yet): nobody there yet, try again.
        if (n == 1) g = first == 0 ? greeting_t::scheduler : greeting_t::foreign;
      }  // interrupted (a signal): nobody yet
    }
    ::close(fd);
  }
  ::freeaddrinfo(res);
  return g;
}

actors::scheduler_actor connect_scheduler(caf::actor_system& sys, const config::config_t& c,
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
    const greeting_t g = probe(ep, 5s);
    if (g == greeting_t::foreign) throw not_a_scheduler("did not greet as CAF does");
    if (g == greeting_t::silent) {
      if (still_ok) still_ok();
      if (std::chrono::steady_clock::now() >= end || stop_requested())
        throw not_a_scheduler("said nothing within 5 s");
      continue;
    }
    auto a = sys.middleman().remote_actor<actors::scheduler_actor>(ep.host, ep.port);
    if (a) return *a;
    if (!said && std::chrono::steady_clock::now() - start > 2s) {  // say why the wait, once
      const std::string why = "no scheduler at " + ep.str() + " yet (" + sys.render(a.error()) +
                              "); retrying for up to " + std::to_string(patience.count()) + " s";
      if (note) {
        note(why);
      } else {
        std::fprintf(stderr, "zkfleet: %s\n", why.c_str());
        std::fflush(stderr);
      }
      said = true;
    }
    if (still_ok) still_ok();
    if (std::chrono::steady_clock::now() >= end || stop_requested())
      throw std::runtime_error("no scheduler at " + ep.str() + ": " + sys.render(a.error()));
    std::this_thread::sleep_for(200ms);
  }
}

scheduler_link_t connect_node(caf::actor_system& sys, const config::config_t& c,
                              std::chrono::seconds patience,
                              const std::function<void(const std::string&)>& note) {
  scheduler_link_t l;
  l.scheduler = connect_scheduler(sys, c, patience, {}, note);
  auto agg =
      actors::ask<actors::timeline_actor>(sys, l.scheduler, 10s, actors::timeline_atom::value);
  if (!agg)
    throw std::runtime_error("the scheduler names no timeline aggregator: " +
                             describe(agg.error()));
  l.aggregator = *agg;
  return l;
}

// --- the client
// -----------------------------------------------------------------------------------

struct cluster_client_t::impl_t {
  middleman_system_t system;
  actors::scheduler_actor scheduler;

  // One request answered within `timeout`, or std::runtime_error with `what` and the reason.
  template <class T, class Handle, class... Ts>
  T request(const Handle& dest, std::chrono::milliseconds timeout, const std::string& what,
            Ts&&... xs) {
    auto r = actors::ask<T>(*system.sys, dest, timeout, std::forward<Ts>(xs)...);
    if (!r) throw std::runtime_error(what + describe(r.error()));
    return std::move(*r);
  }
};

cluster_client_t::cluster_client_t(const config::config_t& c, std::chrono::seconds patience,
                                   const std::function<void()>& still_ok)
    : impl_(std::make_unique<impl_t>()) {
  impl_->scheduler = connect_scheduler(*impl_->system.sys, c, patience, still_ok);
}

cluster_client_t::~cluster_client_t() = default;

uint64_t cluster_client_t::submit(const actors::job_request& r) {
  return impl_->request<uint64_t>(impl_->scheduler, 10s, "", actors::submit_atom::value, r);
}

actors::job_status_msg cluster_client_t::status(uint64_t job) {
  return impl_->request<actors::job_status_msg>(impl_->scheduler, 10s, "",
                                                actors::status_atom::value, job);
}

std::optional<actors::job_result_msg> cluster_client_t::await(uint64_t job,
                                                              std::chrono::seconds timeout) {
  auto r = actors::ask<actors::job_result_msg>(*impl_->system.sys, impl_->scheduler, timeout,
                                               actors::await_atom::value, job);
  if (!r && r.error() == caf::sec::request_timeout) return std::nullopt;
  if (!r) throw std::runtime_error(describe(r.error()));
  return std::move(*r);
}

bool cluster_client_t::cancel(uint64_t job) {
  return impl_->request<bool>(impl_->scheduler, 10s, "", actors::cancel_atom::value, job);
}

std::vector<actors::node_usage_msg> cluster_client_t::nodes(std::chrono::milliseconds timeout) {
  return impl_->request<std::vector<actors::node_usage_msg>>(impl_->scheduler, timeout, "",
                                                             actors::stats_atom::value);
}

timeline::aggregator_t cluster_client_t::timeline() {
  auto agg = impl_->request<actors::timeline_actor>(
      impl_->scheduler, 10s,
      "the scheduler names no timeline aggregator: ", actors::timeline_atom::value);
  // Every reporter sends what it holds first; a node that does not answer only delays this.
  auto flushed = actors::ask<caf::ok_atom>(*impl_->system.sys, agg, 15s, actors::flush_atom::value);
  if (!flushed)
    std::fprintf(stderr, "zkfleet timeline: flush: %s (showing what arrived)\n",
                 describe(flushed.error()).c_str());
  auto snap = impl_->request<actors::timeline_snapshot_msg>(
      agg, 15s, "the timeline aggregator did not answer: ", actors::snapshot_atom::value);
  return actors::to_aggregator(snap);
}

timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path) {
  cluster_client_t client(config::load_config(config_path, {false}));
  return client.timeline();
}

}  // namespace zk::apps
