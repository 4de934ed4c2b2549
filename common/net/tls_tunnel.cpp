#include "common/net/tls_tunnel.hpp"

#include <openssl/x509.h>

#include <array>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <map>
#include <thread>

#include "common/net/socket_options.hpp"
#include "common/security/certs.hpp"

namespace zk::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct tls_tunnel_t::impl_t {
  // Declared before io: the pipes that io's pending handlers still own count down here and use
  // the context while io is destroyed.
  std::shared_ptr<tls_context_t> ctx;
  unsigned active = 0;
  std::map<std::string, unsigned> per_peer;
  bool server = false;      // terminate: TLS on the accepted side
  bool many = false;        // forward: every local connection, not only the first
  std::string remote_host;  // originate: where the TLS side connects
  uint16_t remote_port = 0;
  uint16_t local_port = 0;  // terminate: the local middleman
  std::string expected_peer;
  on_refused_t on_refused;
  tunnel_options_t options;
  bool stopped = false;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::thread thread;

  void accept();
  void refused(const std::string& peer, const std::string& why) {
    if (on_refused) on_refused(peer, why);
  }
};

namespace {

// One tunnelled connection: the TLS side and the plain side, bytes pumped both ways until either
// closes. Everything runs on the tunnel's one thread.
struct pipe_t : std::enable_shared_from_this<pipe_t> {
  tls_tunnel_t::impl_t& t;
  asio::ssl::stream<tcp::socket> tls;
  tcp::socket plain;
  asio::steady_timer timer;
  std::array<char, 1 << 16> up{}, down{};
  std::string addr;  // the peer's address (what per_peer counts)
  std::string peer;  // address:port, for messages
  std::string why;
  std::string name;         // terminate: the name its certificate carries
  uint16_t local_port = 0;  // terminate: the plain side's port, once reported open (on_pipe)
  bool closed = false;

  pipe_t(tls_tunnel_t::impl_t& tunnel, std::string address, std::string who)
      : t(tunnel),
        tls(tunnel.io, *tunnel.ctx),
        plain(tunnel.io),
        timer(tunnel.io),
        addr(std::move(address)),
        peer(std::move(who)) {
    ++t.active;
    ++t.per_peer[addr];
  }
  ~pipe_t() {
    if (!closed && local_port && t.options.on_pipe) t.options.on_pipe(name, local_port, false);
    --t.active;
    if (--t.per_peer[addr] == 0) t.per_peer.erase(addr);
  }

  void close() {
    if (closed) return;
    closed = true;
    // Reported gone before its local connection closes: its port is no one's from here on.
    if (local_port && t.options.on_pipe) t.options.on_pipe(name, local_port, false);
    boost::system::error_code ec;
    timer.cancel();
    plain.close(ec);
    tls.next_layer().close(ec);
  }

  void deadline(std::chrono::milliseconds d, const char* what) {
    timer.expires_after(d);
    timer.async_wait([self = shared_from_this(), what](const boost::system::error_code& ec) {
      if (ec) return;  // cancelled: the step finished in time
      self->t.refused(self->peer, std::string(what) + " did not finish in time");
      self->close();
    });
  }

  // The peer's leaf must be a zkfleet certificate of the CA: a node or a client (server side), a
  // node named expected_peer when set (client side). The chain itself OpenSSL checked.
  bool verify(bool preverified, asio::ssl::verify_context& vc) {
    X509_STORE_CTX* ctx = vc.native_handle();
    if (!preverified) {
      if (why.empty())
        why = std::string("certificate refused: ") +
              X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx));
      return false;
    }
    if (X509_STORE_CTX_get_error_depth(ctx) > 0) return true;  // the CA
    const auto id = security::subject_identity(X509_STORE_CTX_get_current_cert(ctx));
    const bool ok =
        id && (t.server ? id->role != security::role_t::ca &&
                              (!t.options.clients_only || id->role == security::role_t::client)
                        : id->role == security::role_t::node &&
                              (t.expected_peer.empty() || id->name == t.expected_peer));
    if (!ok && why.empty())
      why = !id ? "the certificate is not a zkfleet certificate"
                : std::string("the certificate is of ") + security::role_name(id->role) + " " +
                      id->name +
                      (t.server ? (t.options.clients_only ? ", not of a client" : "")
                                : ", not of the scheduler node " + t.expected_peer);
    if (ok) name = id->name;
    return ok;
  }

  void handshake(asio::ssl::stream_base::handshake_type side) {
    // `this`, not a shared_ptr: the stream owns the callback (a shared_ptr would be a cycle that
    // keeps every pipe, and its connection count, alive forever).
    tls.set_verify_callback(
        [p = this](bool pre, asio::ssl::verify_context& vc) { return p->verify(pre, vc); });
    deadline(t.options.handshake_timeout, "the TLS handshake");
    tls.async_handshake(side, [self = shared_from_this()](const boost::system::error_code& ec) {
      self->timer.cancel();
      if (ec) {
        self->t.refused(self->peer, self->why.empty() ? ec.message() : self->why);
        return self->close();
      }
      if (self->t.server) return self->connect_local();
      self->pump();
    });
  }

  // terminate: the handshake held; now the local middleman.
  void connect_local() {
    deadline(t.options.connect_timeout, "connecting to the local middleman");
    plain.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), t.local_port),
                        [self = shared_from_this()](const boost::system::error_code& ec) {
                          self->timer.cancel();
                          if (ec) return self->close();
                          if (self->t.options.on_pipe) {  // before a byte goes through
                            boost::system::error_code e2;
                            self->local_port = self->plain.local_endpoint(e2).port();
                            if (e2) return self->close();
                            self->t.options.on_pipe(self->name, self->local_port, true);
                          }
                          self->pump();
                        });
  }

  // originate: the local middleman connected; now the cluster address.
  void connect_remote() {
    auto resolver = std::make_shared<tcp::resolver>(t.io);
    deadline(t.options.connect_timeout, "connecting to the scheduler");
    resolver->async_resolve(
        t.remote_host, std::to_string(t.remote_port),
        [self = shared_from_this(), resolver](const boost::system::error_code& ec,
                                              tcp::resolver::results_type rs) {
          if (ec) {
            self->t.refused(self->peer, "cannot resolve " + self->t.remote_host);
            return self->close();
          }
          asio::async_connect(self->tls.next_layer(), rs,
                              [self](const boost::system::error_code& ec2, const tcp::endpoint&) {
                                self->timer.cancel();
                                if (ec2) return self->close();
                                tune_socket(self->tls.next_layer());
                                self->handshake(asio::ssl::stream_base::client);
                              });
        });
  }

  void pump() {
    tune_socket(plain);
    tls_to_plain();
    plain_to_tls();
  }
  void tls_to_plain() {
    tls.async_read_some(asio::buffer(up),
                        [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                          if (ec) return self->close();
                          asio::async_write(self->plain, asio::buffer(self->up.data(), n),
                                            [self](const boost::system::error_code& ec2, size_t) {
                                              if (ec2) return self->close();
                                              self->tls_to_plain();
                                            });
                        });
  }
  void plain_to_tls() {
    plain.async_read_some(asio::buffer(down), [self = shared_from_this()](
                                                  const boost::system::error_code& ec, size_t n) {
      if (ec) return self->close();
      asio::async_write(self->tls, asio::buffer(self->down.data(), n),
                        [self](const boost::system::error_code& ec2, size_t) {
                          if (ec2) return self->close();
                          self->plain_to_tls();
                        });
    });
  }
};

}  // namespace

void tls_tunnel_t::impl_t::accept() {
  acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket s) {
    if (stopped) return;
    if (!ec) {
      boost::system::error_code e2;
      const auto ep = s.remote_endpoint(e2);
      const std::string addr = e2 ? "?" : ep.address().to_string();
      const std::string who = e2 ? "?" : addr + ":" + std::to_string(ep.port());
      if (active >= options.max_connections || per_peer[addr] >= options.max_per_peer) {
        refused(who, "too many connections");
        s.close(e2);
      } else {
        auto p = std::make_shared<pipe_t>(*this, addr, who);
        if (server) {
          p->tls.next_layer() = std::move(s);
          tune_socket(p->tls.next_layer());
          p->handshake(asio::ssl::stream_base::server);
        } else {
          p->plain = std::move(s);
          p->connect_remote();
        }
      }
    }
    // originate serves its process's one middleman connection: one local connection, then
    // the port closes (no other local user rides this host's certificate).
    if (server || many) return accept();
    boost::system::error_code e3;
    acceptor.close(e3);
  });
}

tls_tunnel_t::tls_tunnel_t(std::shared_ptr<impl_t> impl) : impl_(std::move(impl)) {}

namespace {

std::shared_ptr<tls_tunnel_t::impl_t> make_impl(const std::string& host, uint16_t port,
                                                const tls_files_t& files, tls_side_t side,
                                                tls_tunnel_t::on_refused_t on_refused,
                                                tunnel_options_t options) {
  auto impl = std::make_shared<tls_tunnel_t::impl_t>();
  impl->ctx = make_tls_context(files, side);
  impl->server = side == tls_side_t::server;
  impl->on_refused = std::move(on_refused);
  impl->options = options;
  boost::system::error_code ec;
  tcp::resolver resolver(impl->io);
  auto rs = resolver.resolve(host, std::to_string(port), ec);
  if (ec || rs.empty())
    throw std::runtime_error("cannot resolve " + host + ": " + (ec ? ec.message() : "no address"));
  const tcp::endpoint at = *rs.begin();
  impl->acceptor.open(at.protocol(), ec);
  if (!ec) impl->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(at, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) + ": " +
                             ec.message());
  return impl;
}

void start(tls_tunnel_t::impl_t& impl) {
  impl.accept();
  impl.thread = std::thread([&impl] { impl.io.run(); });
}

}  // namespace

std::unique_ptr<tls_tunnel_t> tls_tunnel_t::terminate(const std::string& host, uint16_t port,
                                                      uint16_t local_port, const tls_files_t& files,
                                                      on_refused_t on_refused,
                                                      tunnel_options_t options) {
  auto impl = make_impl(host, port, files, tls_side_t::server, std::move(on_refused), options);
  impl->local_port = local_port;
  start(*impl);
  return std::unique_ptr<tls_tunnel_t>(new tls_tunnel_t(std::move(impl)));
}

std::unique_ptr<tls_tunnel_t> tls_tunnel_t::originate(const std::string& host, uint16_t port,
                                                      const tls_files_t& files,
                                                      const std::string& expected_peer,
                                                      on_refused_t on_refused,
                                                      tunnel_options_t options) {
  auto impl = make_impl("127.0.0.1", 0, files, tls_side_t::client, std::move(on_refused), options);
  impl->remote_host = host;
  impl->remote_port = port;
  impl->expected_peer = expected_peer;
  start(*impl);
  return std::unique_ptr<tls_tunnel_t>(new tls_tunnel_t(std::move(impl)));
}

std::unique_ptr<tls_tunnel_t> tls_tunnel_t::forward(const std::string& listen_host,
                                                    uint16_t listen_port, const std::string& host,
                                                    uint16_t port, const tls_files_t& files,
                                                    const std::string& expected_peer,
                                                    on_refused_t on_refused,
                                                    tunnel_options_t options) {
  auto impl = make_impl(listen_host, listen_port, files, tls_side_t::client, std::move(on_refused),
                        options);
  impl->remote_host = host;
  impl->remote_port = port;
  impl->expected_peer = expected_peer;
  impl->many = true;
  start(*impl);
  return std::unique_ptr<tls_tunnel_t>(new tls_tunnel_t(std::move(impl)));
}

uint16_t tls_tunnel_t::port() const {
  boost::system::error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

void tls_tunnel_t::stop() {
  if (!impl_ || impl_->stopped) return;
  asio::post(impl_->io, [impl = impl_.get()] {
    impl->stopped = true;
    boost::system::error_code ec;
    impl->acceptor.close(ec);
    impl->io.stop();
  });
  if (impl_->thread.joinable()) impl_->thread.join();
}

tls_tunnel_t::~tls_tunnel_t() { stop(); }

}  // namespace zk::net
