// The gRPC face's server (grpcapi/server.hpp): the listeners, who a call is, the calls' ends and
// the worker threads.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/util/log.hpp"
#include "grpcapi/service.hpp"

namespace zk::grpcapi {

grpc::Status status_of(const cz::refusal_t& r) {
  using grpc::StatusCode;
  StatusCode code = StatusCode::INTERNAL;
  switch (r.code) {
    case cz::code_t::invalid_argument:
      code = StatusCode::INVALID_ARGUMENT;
      break;
    case cz::code_t::not_found:
      code = StatusCode::NOT_FOUND;
      break;
    case cz::code_t::already_exists:
      code = StatusCode::ALREADY_EXISTS;
      break;
    case cz::code_t::failed_precondition:
      code = StatusCode::FAILED_PRECONDITION;
      break;
    case cz::code_t::unimplemented:
      code = StatusCode::UNIMPLEMENTED;
      break;
    case cz::code_t::permission_denied:
      code = StatusCode::PERMISSION_DENIED;
      break;
    case cz::code_t::unauthenticated:
      code = StatusCode::UNAUTHENTICATED;
      break;
    case cz::code_t::unavailable:
      code = StatusCode::UNAVAILABLE;
      break;
    case cz::code_t::internal:
      code = StatusCode::INTERNAL;
      break;
  }
  return grpc::Status(code, r.why);
}

// --- a call's end --------------------------------------------------------------------------------

void call_t::OnCancel() {
  node::api_cancel_t stop;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    stop = std::move(state_->stop_wait);
    state_->stop_wait = nullptr;
  }
  if (stop) stop();
  finish(state_, grpc::Status::CANCELLED);
}

void call_t::OnDone() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->call = nullptr;
  }
  delete this;
}

void finish(const call_t::state_ptr_t& s, const std::function<grpc::Status()>& fill) {
  call_t* call = nullptr;
  grpc::Status status;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    if (s->finished || !s->call) return;
    s->finished = true;
    call = s->call;
    status = fill();  // the response is the call's: it exists until Finish has run
  }
  call->Finish(std::move(status));  // gRPC calls OnDone later, never before this returns
}

void finish(const call_t::state_ptr_t& s, const grpc::Status& status) {
  finish(s, [&] { return status; });
}

void set_wait(const call_t::state_ptr_t& s, node::api_cancel_t stop) {
  {
    std::lock_guard<std::mutex> lock(s->mu);
    if (!s->finished) {
      s->stop_wait = std::move(stop);
      return;
    }
  }
  if (stop) stop();  // the call ended before its wait began: nobody wants the answer
}

std::chrono::milliseconds wait_bound(grpc::CallbackServerContext* ctx, uint64_t timeout_ms) {
  using std::chrono::milliseconds;
  milliseconds wait = forever_wait;
  const auto deadline = ctx->deadline();
  if (deadline != std::chrono::system_clock::time_point::max()) {
    // A second past it: gRPC ends the call at its deadline itself (DEADLINE_EXCEEDED).
    const auto left = std::chrono::duration_cast<milliseconds>(
        deadline - std::chrono::system_clock::now() + std::chrono::seconds(1));
    wait = std::max(milliseconds(1), std::min(wait, left));
  }
  if (timeout_ms > 0) wait = std::min<milliseconds>(wait, milliseconds(timeout_ms));
  return wait;
}

// --- workers -------------------------------------------------------------------------------------

workers_t::workers_t(unsigned n) {
  for (unsigned i = 0; i < std::max(1u, n); ++i)
    threads_.emplace_back([this] {
      for (;;) {
        std::function<void()> f;
        {
          std::unique_lock<std::mutex> lock(mu_);
          wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
          if (queue_.empty()) return;
          f = std::move(queue_.front());
          queue_.pop_front();
        }
        f();
      }
    });
}

workers_t::~workers_t() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void workers_t::post(std::function<void()> f) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(f));
  }
  wake_.notify_one();
}

// --- who calls -----------------------------------------------------------------------------------

namespace {

// A gRPC peer ("ipv4:127.0.0.1:5555", "ipv6:[::1]:5555", "unix:/run/x.sock"): its address and
// port (empty for a unix socket).
struct peer_t {
  bool unix_socket = false;
  std::string address;
  uint16_t port = 0;
};

std::optional<peer_t> parse_peer(const std::string& p) {
  peer_t out;
  if (p.rfind("unix:", 0) == 0 || p.rfind("unix-abstract:", 0) == 0) {
    out.unix_socket = true;
    return out;
  }
  std::string rest;
  if (p.rfind("ipv4:", 0) == 0)
    rest = p.substr(5);
  else if (p.rfind("ipv6:", 0) == 0)
    rest = p.substr(5);
  else
    return std::nullopt;
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  out.address = rest.substr(0, colon);
  if (out.address.size() > 2 && out.address.front() == '[' && out.address.back() == ']')
    out.address = out.address.substr(1, out.address.size() - 2);
  try {
    out.port = uint16_t(std::stoul(rest.substr(colon + 1)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return out;
}

}  // namespace

cz::answer_t<std::string> server_t::impl_t::identify(grpc::CallbackServerContext* ctx) const {
  const std::string text = ctx->peer();
  const auto peer = parse_peer(text);
  if (!peer)
    return cz::refusal_t{cz::code_t::permission_denied, "cannot tell who the peer " + text + " is"};
  // A connection the scheduler's mutual-TLS tunnel piped here: the client its certificate named.
  if (!peer->unix_socket && o.tunnel_client && net::is_loopback_host(peer->address))
    if (auto who = o.tunnel_client(peer->port)) return *who;
  const bool unix_listener = o.listen.rfind("unix:", 0) == 0;
  if (o.listen.empty() || peer->unix_socket != unix_listener)
    return cz::refusal_t{
        cz::code_t::unauthenticated,
        "this scheduler takes gRPC from " +
            (o.listen.empty() ? std::string("zkfleet gateway only (scheduler.grpc_tls)")
                              : o.listen + " and zkfleet gateway (scheduler.grpc_tls)")};
  if (peer->unix_socket || net::is_loopback_host(peer->address) ||
      net::in_networks(networks, peer->address))
    return o.client;
  return cz::refusal_t{cz::code_t::permission_denied,
                       "the peer " + peer->address +
                           " may not use this plaintext listener: it is not loopback and not in "
                           "scheduler.grpc_insecure_networks (a remote Curio goes through "
                           "`zkfleet gateway`)"};
}

std::string server_t::impl_t::session(const std::string& client) {
  std::lock_guard<std::mutex> lock(mu);
  auto& t = session_of[client];
  if (t.empty()) t = sessions->add({security::role_t::client, client});
  return t;
}

cz::answer_t<std::vector<node::circuit_def_t>> server_t::impl_t::circuit_list() {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (std::chrono::steady_clock::now() - circuits_at < std::chrono::minutes(1)) return circuits;
  }
  auto list = gateway->circuits(session("admin"));
  if (!list)
    return cz::refusal_t{cz::code_t::unavailable,
                         "the scheduler " + list.error().detail + " (its circuits)"};
  std::lock_guard<std::mutex> lock(mu);
  circuits = *list;
  circuits_at = std::chrono::steady_clock::now();
  return circuits;
}

// --- the server ----------------------------------------------------------------------------------

server_t::server_t(std::shared_ptr<node::api_gateway_t> gateway,
                   std::shared_ptr<node::sessions_t> sessions, server_options_t options)
    : impl_(std::make_unique<impl_t>()) {
  impl_t& s = *impl_;
  s.gateway = std::move(gateway);
  s.sessions = std::move(sessions);
  s.o = std::move(options);
  for (const auto& n : s.o.insecure_networks) {
    auto parsed = net::parse_network(n);
    if (!parsed) throw std::runtime_error("gRPC: '" + n + "' is not a network (CIDR)");
    s.networks.push_back(*parsed);
  }
  s.workers = std::make_unique<workers_t>(s.o.workers);
  grpc::ServerBuilder b;
  const int max = int(std::min<uint64_t>(s.o.max_message, uint64_t(INT32_MAX)));
  b.SetMaxReceiveMessageSize(max);
  b.SetMaxSendMessageSize(max);
  int plain_port = 0;
  std::string host;
  if (!s.o.listen.empty()) {
    if (s.o.listen.rfind("unix://", 0) == 0) {
      // A socket left by an earlier run would refuse the bind: a socket file (only) goes.
      const std::string path = s.o.listen.substr(7);
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());
    } else {
      host = s.o.listen.substr(0, s.o.listen.rfind(':'));
    }
    b.AddListeningPort(s.o.listen, grpc::InsecureServerCredentials(), &plain_port);
  }
  if (s.o.tunnel)
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &s.tunnel_port);
  b.RegisterService(&s.service);
  s.server = b.BuildAndStart();
  if (!s.server || (!s.o.listen.empty() && plain_port == 0 && host.size()) ||
      (s.o.tunnel && s.tunnel_port == 0))
    throw std::runtime_error(
        "gRPC: cannot listen on " +
        (s.o.listen.empty() ? std::string("127.0.0.1 (the tunnel's port)") : s.o.listen) +
        " (gRPC's reason is on stderr)");
  s.address = host.empty() ? s.o.listen : host + ":" + std::to_string(plain_port);
}

server_t::~server_t() {
  // In-flight calls are cancelled (their waits stop; OnCancel finishes them); the workers finish
  // what they hold, then the server is gone.
  impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  impl_->workers.reset();
  impl_->server->Wait();
}

std::string server_t::address() const { return impl_->address; }
uint16_t server_t::tunnel_port() const { return uint16_t(impl_->tunnel_port); }

}  // namespace zk::grpcapi
