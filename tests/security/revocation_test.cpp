// The revocation list (common/security/revocation.hpp): revoke_cert writes DIR/revoked, once per
// certificate; read_revoked names a malformed line; and a TLS context made with the file
// (net::make_tls_context, what the tunnels, the data plane and the HTTP API use) refuses a revoked
// peer at its next handshake — the same context, no restart — with "certificate revoked", while
// other peers still pass, and takes it back when the line goes. Handshakes run in memory (a BIO
// pair) between real contexts made from `zkfleet certs`-made files.
#include "common/security/revocation.hpp"

#include <doctest/doctest.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <filesystem>
#include <string>

#include "common/net/tls.hpp"
#include "common/security/certs.hpp"
#include "tests/test_util.hpp"

using namespace zk::security;
using zk::test::contains;
using zk::test::read_text;
using zk::test::temp_dir_t;
using zk::test::thrown;
using zk::test::write_text;

namespace {

struct handshake_t {
  bool ok = false;
  long server_verify = X509_V_OK;  // what the server's verification of the client said
  long client_verify = X509_V_OK;
};

// One TLS handshake between a server and a client context, in memory.
handshake_t handshake(zk::net::tls_context_t& server, zk::net::tls_context_t& client) {
  SSL* s = SSL_new(server.native_handle());
  SSL* c = SSL_new(client.native_handle());
  BIO *bs = nullptr, *bc = nullptr;
  REQUIRE(BIO_new_bio_pair(&bs, 0, &bc, 0) == 1);
  SSL_set_bio(s, bs, bs);
  SSL_set_bio(c, bc, bc);
  SSL_set_accept_state(s);
  SSL_set_connect_state(c);
  handshake_t h;
  bool s_done = false, c_done = false, failed = false;
  for (int i = 0; i < 50 && !failed && !(s_done && c_done); ++i) {
    for (auto [ssl, done] : {std::pair{c, &c_done}, std::pair{s, &s_done}}) {
      if (*done) continue;
      const int rc = SSL_do_handshake(ssl);
      if (rc == 1) {
        *done = true;
        continue;
      }
      const int e = SSL_get_error(ssl, rc);
      if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) failed = true;
    }
  }
  h.ok = s_done && c_done && !failed;
  h.server_verify = SSL_get_verify_result(s);
  h.client_verify = SSL_get_verify_result(c);
  SSL_free(s);
  SSL_free(c);
  return h;
}

zk::net::tls_files_t files_of(const std::string& dir, role_t role, const std::string& name,
                              bool revocation) {
  return {cert_path(dir, role, name), key_path(dir, role, name), cert_path(dir, role_t::ca, ""),
          revocation ? revoked_path(dir) : ""};
}

}  // namespace

TEST_CASE("revoke_cert: one line per certificate, read back, a malformed line is named") {
  temp_dir_t d("zk_revocation");
  const std::string dir = d.path().string();
  create_ca(dir);
  create_cert(dir, role_t::client, "alice");
  CHECK(read_revoked(revoked_path(dir)).empty());  // no file: nothing revoked
  const auto alice = read_cert_info(cert_path(dir, role_t::client, "alice"));
  CHECK(revoke_cert(dir, alice));
  CHECK_FALSE(revoke_cert(dir, alice));  // already there: not written twice
  const auto list = read_revoked(revoked_path(dir));
  REQUIRE(list.size() == 1);
  CHECK(list[0].fingerprint == alice.fingerprint);
  CHECK(list[0].role == "client");
  CHECK(list[0].name == "alice");
  CHECK(list[0].revoked_at.size() == 20);
  write_text(revoked_path(dir), read_text(revoked_path(dir)) + "\nnot-a-fingerprint client x y\n");
  CHECK(contains(thrown([&] { read_revoked(revoked_path(dir)); }),
                 "revoked:3: not a revocation line"));
}

TEST_CASE("a revoked client certificate is refused at the next handshake, without a restart") {
  temp_dir_t d("zk_revocation");
  const std::string dir = d.path().string();
  create_ca(dir);
  create_cert(dir, role_t::node, "scheduler");
  create_cert(dir, role_t::client, "alice");
  create_cert(dir, role_t::client, "bob");
  using zk::net::tls_side_t;
  auto server =
      zk::net::make_tls_context(files_of(dir, role_t::node, "scheduler", true), tls_side_t::server);
  auto alice =
      zk::net::make_tls_context(files_of(dir, role_t::client, "alice", false), tls_side_t::client);
  auto bob =
      zk::net::make_tls_context(files_of(dir, role_t::client, "bob", false), tls_side_t::client);
  REQUIRE(handshake(*server, *alice).ok);
  REQUIRE(handshake(*server, *bob).ok);

  revoke_cert(dir, read_cert_info(cert_path(dir, role_t::client, "alice")));
  const auto refused = handshake(*server, *alice);  // the same server context
  CHECK_FALSE(refused.ok);
  CHECK(refused.server_verify == X509_V_ERR_CERT_REVOKED);
  CHECK(handshake(*server, *bob).ok);  // another client of the CA still passes

  // A server context made without the file checks nothing (the hook is what refuses).
  auto unchecked = zk::net::make_tls_context(files_of(dir, role_t::node, "scheduler", false),
                                             tls_side_t::server);
  CHECK(handshake(*unchecked, *alice).ok);

  // The list emptied: alice passes again, on the same context.
  write_text(revoked_path(dir), "");
  CHECK(handshake(*server, *alice).ok);
}

TEST_CASE("a client with the list refuses a server whose node certificate is revoked") {
  temp_dir_t d("zk_revocation");
  const std::string dir = d.path().string();
  create_ca(dir);
  create_cert(dir, role_t::node, "scheduler");
  create_cert(dir, role_t::node, "synth-1");
  using zk::net::tls_side_t;
  auto server = zk::net::make_tls_context(files_of(dir, role_t::node, "scheduler", false),
                                          tls_side_t::server);
  auto client =
      zk::net::make_tls_context(files_of(dir, role_t::node, "synth-1", true), tls_side_t::client);
  REQUIRE(handshake(*server, *client).ok);
  revoke_cert(dir, read_cert_info(cert_path(dir, role_t::node, "scheduler")));
  const auto h = handshake(*server, *client);
  CHECK_FALSE(h.ok);
  CHECK(h.client_verify == X509_V_ERR_CERT_REVOKED);
}
