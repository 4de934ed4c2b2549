// common/security: the cluster's certificates (certs.hpp) — files, modes, subjects, extensions,
// refusals — the identity check by signed challenge (identity.hpp), and a TLS 1.3 handshake with
// mutual authentication made from those files (OpenSSL, memory BIO pair).
#include "common/security/certs.hpp"

#include <doctest/doctest.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/security/identity.hpp"
#include "tests/test_util.hpp"

using namespace zk::security;
using std::chrono::hours;
using std::chrono::system_clock;
using zk::test::read_text;
using zk::test::thrown;
using zk::test::write_text;

namespace {

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

struct x509_deleter_t {
  void operator()(X509* x) const { X509_free(x); }
};
using x509_ptr_t = std::unique_ptr<X509, x509_deleter_t>;

x509_ptr_t load_x509(const std::string& path) {
  const std::string pem = read_text(path);
  BIO* b = BIO_new_mem_buf(pem.data(), int(pem.size()));
  x509_ptr_t x(PEM_read_bio_X509(b, nullptr, nullptr, nullptr));
  BIO_free(b);
  REQUIRE(x != nullptr);
  return x;
}

EVP_PKEY* load_key(const std::string& path) {
  const std::string pem = read_text(path);
  BIO* b = BIO_new_mem_buf(pem.data(), int(pem.size()));
  EVP_PKEY* k = PEM_read_bio_PrivateKey(b, nullptr, nullptr, nullptr);
  BIO_free(b);
  REQUIRE(k != nullptr);
  return k;
}

// "how long from now", in hours, for comparing validity ends.
long hours_from_now(system_clock::time_point t) {
  return long(std::chrono::duration_cast<hours>(t - system_clock::now()).count());
}

// A certificates directory with a CA, node n1 (extra hosts) and client alice.
struct cluster_dir_t {
  zk::test::temp_dir_t t{"zk_certs"};
  std::string dir = t.file("certs");
  explicit cluster_dir_t(bool with_leaves = true) {
    create_ca(dir);
    if (!with_leaves) return;
    create_options_t o;
    o.hosts = {"127.0.0.1", "n1.example.org", "::1"};
    create_cert(dir, role_t::node, "n1", o);
    create_cert(dir, role_t::client, "alice");
  }
  std::string crt(role_t r, const std::string& n = "") const { return cert_path(dir, r, n); }
  std::string key(role_t r, const std::string& n = "") const { return key_path(dir, r, n); }
};

}  // namespace

TEST_CASE("certs: a CA, a node and a client: files, modes, subjects, extensions") {
  const mode_t old = ::umask(022);
  cluster_dir_t c;
  ::umask(old);
  CHECK(mode_of(c.dir) == 0700);
  CHECK(c.crt(role_t::ca) == c.dir + "/ca.crt");
  CHECK(c.key(role_t::node, "n1") == c.dir + "/node.n1.key");
  CHECK(c.crt(role_t::client, "alice") == c.dir + "/client.alice.crt");
  const std::vector<std::pair<role_t, std::string>> files = {
      {role_t::ca, ""}, {role_t::node, "n1"}, {role_t::client, "alice"}};
  for (const auto& [r, n] : files) {
    CHECK(mode_of(c.key(r, n)) == 0600);
    CHECK(mode_of(c.crt(r, n)) == 0644);
  }

  auto ca = load_x509(c.crt(role_t::ca));
  auto node = load_x509(c.crt(role_t::node, "n1"));
  auto client = load_x509(c.crt(role_t::client, "alice"));
  char line[256];
  X509_NAME_oneline(X509_get_subject_name(ca.get()), line, sizeof line);
  CHECK(std::string(line) == "/O=zkfleet/OU=ca/CN=zkfleet CA");
  X509_NAME_oneline(X509_get_subject_name(node.get()), line, sizeof line);
  CHECK(std::string(line) == "/O=zkfleet/OU=node/CN=n1");
  X509_NAME_oneline(X509_get_subject_name(client.get()), line, sizeof line);
  CHECK(std::string(line) == "/O=zkfleet/OU=client/CN=alice");

  // CA: CA:TRUE (critical), keyCertSign + cRLSign; leaves: CA:FALSE and their extended usages.
  CHECK(X509_check_ca(ca.get()) == 1);
  int crit = 0;
  BASIC_CONSTRAINTS* bc = static_cast<BASIC_CONSTRAINTS*>(
      X509_get_ext_d2i(ca.get(), NID_basic_constraints, &crit, nullptr));
  REQUIRE(bc != nullptr);
  CHECK(crit == 1);
  BASIC_CONSTRAINTS_free(bc);
  CHECK(X509_get_key_usage(ca.get()) == (KU_KEY_CERT_SIGN | KU_CRL_SIGN));
  CHECK(X509_check_ca(node.get()) == 0);
  CHECK(X509_check_ca(client.get()) == 0);
  CHECK((X509_get_key_usage(node.get()) & KU_DIGITAL_SIGNATURE) != 0);
  CHECK(X509_get_extended_key_usage(node.get()) == (XKU_SSL_SERVER | XKU_SSL_CLIENT));
  CHECK(X509_get_extended_key_usage(client.get()) == XKU_SSL_CLIENT);

  // The node's SANs: its name and every host, as DNS or IP entries.
  CHECK(X509_check_host(node.get(), "n1", 0, 0, nullptr) == 1);
  CHECK(X509_check_host(node.get(), "n1.example.org", 0, 0, nullptr) == 1);
  CHECK(X509_check_ip_asc(node.get(), "127.0.0.1", 0) == 1);
  CHECK(X509_check_ip_asc(node.get(), "::1", 0) == 1);
  CHECK(X509_check_host(node.get(), "n2", 0, 0, nullptr) == 0);

  // ECDSA P-256, SHA-256 signatures, 128-bit random serials.
  EVP_PKEY* k = load_key(c.key(role_t::node, "n1"));
  CHECK(EVP_PKEY_base_id(k) == EVP_PKEY_EC);
  char group[64] = {};
  size_t glen = 0;
  CHECK(EVP_PKEY_get_group_name(k, group, sizeof group, &glen) == 1);
  CHECK(std::string(group) == "prime256v1");
  EVP_PKEY_free(k);
  CHECK(X509_get_signature_nid(node.get()) == NID_ecdsa_with_SHA256);
  CHECK(X509_get_signature_nid(ca.get()) == NID_ecdsa_with_SHA256);
  BIGNUM* s1 = ASN1_INTEGER_to_BN(X509_get0_serialNumber(node.get()), nullptr);
  BIGNUM* s2 = ASN1_INTEGER_to_BN(X509_get0_serialNumber(client.get()), nullptr);
  CHECK(BN_num_bits(s1) <= 128);
  CHECK(BN_num_bits(s1) > 96);
  CHECK(BN_cmp(s1, s2) != 0);
  BN_free(s1);
  BN_free(s2);
}

TEST_CASE("certs: list_certs reports each file's role, name, validity and fingerprint") {
  cluster_dir_t c;
  create_options_t o;
  o.days = 30;
  create_cert(c.dir, role_t::client, "bob", o);
  const auto l = list_certs(c.dir);
  REQUIRE(l.size() == 4);
  CHECK(l[0].file == "ca.crt");
  CHECK(l[0].role == role_t::ca);
  CHECK(l[0].name == "zkfleet CA");
  CHECK(l[1].file == "client.alice.crt");
  CHECK(l[1].role == role_t::client);
  CHECK(l[1].name == "alice");
  CHECK(l[2].file == "client.bob.crt");
  CHECK(l[3].file == "node.n1.crt");
  CHECK(l[3].role == role_t::node);
  CHECK(l[3].name == "n1");
  const long day = 24;
  CHECK(hours_from_now(l[0].not_after) / day >= 3650);  // 10 calendar years
  CHECK(hours_from_now(l[0].not_after) / day <= 3653);
  CHECK(hours_from_now(l[1].not_after) / day >= 729);  // 2 years
  CHECK(hours_from_now(l[1].not_after) / day <= 731);
  CHECK(hours_from_now(l[2].not_after) / day == 29);  // --days 30, a moment ago
  CHECK(l[3].not_before < system_clock::now());
  CHECK(l[3].fingerprint.size() == 64);
  CHECK(l[3].fingerprint.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(l[3].fingerprint != l[1].fingerprint);
  CHECK(read_cert_info(c.crt(role_t::node, "n1")).fingerprint == l[3].fingerprint);

  // A leaf never outlives its CA.
  cluster_dir_t short_ca(false);
  create_options_t ca_opt;
  ca_opt.days = 10;
  ca_opt.overwrite = true;
  create_ca(short_ca.dir, ca_opt);
  create_cert(short_ca.dir, role_t::node, "n9");
  const auto s = list_certs(short_ca.dir);
  REQUIRE(s.size() == 2);
  CHECK(s[1].not_after == s[0].not_after);

  // A file that does not parse is an error naming it.
  write_text(c.dir + "/junk.crt", "not a certificate\n");
  const std::string e = thrown([&] { list_certs(c.dir); });
  CHECK(e.find("junk.crt") != std::string::npos);
  CHECK(thrown([&] { list_certs(c.dir + "/absent"); }).find("absent") != std::string::npos);
}

TEST_CASE("certs: invalid names, existing files, a missing CA and bad options are refused") {
  CHECK(valid_name("n1"));
  CHECK(valid_name("synth-1.rack_2"));
  CHECK(valid_name(std::string(64, 'a')));
  CHECK_FALSE(valid_name(""));
  CHECK_FALSE(valid_name(std::string(65, 'a')));
  CHECK_FALSE(valid_name(".hidden"));
  CHECK_FALSE(valid_name("-n"));
  CHECK_FALSE(valid_name("a b"));
  CHECK_FALSE(valid_name("a/b"));
  CHECK_FALSE(valid_name("é"));
  CHECK(std::string(role_name(role_t::ca)) == "ca");
  CHECK(std::string(role_name(role_t::node)) == "node");
  CHECK(std::string(role_name(role_t::client)) == "client");

  cluster_dir_t c;
  for (const std::string& bad :
       std::vector<std::string>{"-x", ".x", "a b", "../n1", std::string(65, 'n')}) {
    const std::string e = thrown([&] { create_cert(c.dir, role_t::node, bad); });
    CHECK(e.find("'" + bad + "'") != std::string::npos);
    CHECK(e.find("64 characters") != std::string::npos);
  }

  // Existing files: refused without overwrite, replaced (with mode 0600 again) with it.
  CHECK(thrown([&] { create_ca(c.dir); }) ==
        "ca.crt already exists in " + c.dir + ": remove it first or use --overwrite");
  CHECK(thrown([&] { create_cert(c.dir, role_t::node, "n1"); }) ==
        "node.n1.crt already exists in " + c.dir + ": remove it first or use --overwrite");
  std::filesystem::remove(c.crt(role_t::client, "alice"));  // the key alone is enough to refuse
  CHECK(thrown([&] { create_cert(c.dir, role_t::client, "alice"); }).find("client.alice.key") !=
        std::string::npos);
  const std::string before = read_cert_info(c.crt(role_t::node, "n1")).fingerprint;
  ::chmod(c.key(role_t::node, "n1").c_str(), 0644);
  create_options_t over;
  over.overwrite = true;
  create_cert(c.dir, role_t::node, "n1", over);
  CHECK(read_cert_info(c.crt(role_t::node, "n1")).fingerprint != before);
  CHECK(mode_of(c.key(role_t::node, "n1")) == 0600);

  // No CA, hosts where they do not belong, a host that is no name, a validity out of range.
  zk::test::temp_dir_t empty("zk_certs_empty");
  CHECK(thrown([&] { create_cert(empty.path().string(), role_t::node, "n1"); }).find("no CA in") !=
        std::string::npos);
  create_options_t h;
  h.hosts = {"10.0.0.1"};
  CHECK(thrown([&] { create_cert(c.dir, role_t::client, "carol", h); }).find("node") !=
        std::string::npos);
  CHECK(thrown([&] { create_ca(c.dir, h); }) != "");
  h.hosts = {"bad host"};
  CHECK(thrown([&] { create_cert(c.dir, role_t::node, "n2", h); }).find("'bad host'") !=
        std::string::npos);
  create_options_t d;
  d.days = -1;
  CHECK(thrown([&] { create_cert(c.dir, role_t::node, "n2", d); }) != "");
  CHECK_FALSE(std::filesystem::exists(c.crt(role_t::node, "n2")));
  CHECK_FALSE(std::filesystem::exists(c.key(role_t::node, "n2")));
}

TEST_CASE("identity: the verifier accepts this cluster's nodes and clients, by signed challenge") {
  cluster_dir_t c;
  const verifier_t v(c.crt(role_t::ca));
  const signer_t node(c.crt(role_t::node, "n1"), c.key(role_t::node, "n1"));
  const signer_t client(c.crt(role_t::client, "alice"), c.key(role_t::client, "alice"));
  CHECK(node.identity().role == role_t::node);
  CHECK(node.identity().name == "n1");
  CHECK(client.identity().role == role_t::client);
  CHECK(client.identity().name == "alice");
  CHECK(node.cert_pem().rfind("-----BEGIN CERTIFICATE-----", 0) == 0);

  const auto id = v.verify(node.cert_pem());
  REQUIRE_MESSAGE(id.ok(), id.error());
  CHECK(id->role == role_t::node);
  CHECK(id->name == "n1");

  const std::string challenge = random_hex(16);
  CHECK(challenge.size() == 32);
  CHECK(challenge.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(random_hex(16) != challenge);
  const auto signed_id = v.verify_signed(client.cert_pem(), challenge, client.sign(challenge));
  REQUIRE_MESSAGE(signed_id.ok(), signed_id.error());
  CHECK(signed_id->role == role_t::client);
  CHECK(signed_id->name == "alice");

  // Copies share their state; const methods from several threads at once.
  const verifier_t v2 = v;
  const signer_t node2 = node;
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      for (int j = 0; j < 20; ++j) {
        const std::string m = "challenge " + std::to_string(i * 100 + j);
        ok[size_t(i)] += v2.verify_signed(node2.cert_pem(), m, node2.sign(m)).ok();
      }
    });
  for (auto& t : threads) t.join();
  CHECK(ok == std::vector<int>(4, 20));
}

TEST_CASE("identity: refuses another CA's certificates, the CA, tampering and wrong signatures") {
  cluster_dir_t c;
  cluster_dir_t other;  // another cluster: its own CA, its own n1 and alice
  const verifier_t v(c.crt(role_t::ca));
  const signer_t node(c.crt(role_t::node, "n1"), c.key(role_t::node, "n1"));
  const signer_t foreign(other.crt(role_t::node, "n1"), other.key(role_t::node, "n1"));
  const std::string m = random_hex(16);

  auto r = v.verify(foreign.cert_pem());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("certificate is not signed by this cluster's CA") == 0);
  r = v.verify_signed(foreign.cert_pem(), m, foreign.sign(m));
  CHECK(r.error().find("not signed by this cluster's CA") != std::string::npos);

  r = v.verify(read_text(c.crt(role_t::ca)));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("not a node or client certificate") == 0);

  // One base64 character of the body changed, anywhere (the last line aside: its final character
  // may carry padding bits only): it no longer parses or no longer verifies.
  const std::string pem = node.cert_pem();
  int refused = 0, tried = 0;
  for (size_t at = pem.find('\n') + 1; at + 100 < pem.size(); at += 13) {
    if (pem[at] == '\n') continue;
    std::string tampered = pem;
    tampered[at] = tampered[at] == 'A' ? 'B' : 'A';
    ++tried;
    refused += !v.verify(tampered).ok();
  }
  CHECK(tried > 30);
  CHECK(refused == tried);
  CHECK(v.verify("garbage").error().find("does not parse") != std::string::npos);

  // Signatures: of another message, by another key, not a signature at all.
  r = v.verify_signed(node.cert_pem(), m, node.sign(m + "x"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("signature does not match") != std::string::npos);
  CHECK_FALSE(v.verify_signed(node.cert_pem(), m, foreign.sign(m)).ok());
  CHECK_FALSE(v.verify_signed(node.cert_pem(), m, "").ok());
  CHECK_FALSE(v.verify_signed(node.cert_pem(), m, std::string(72, '\x30')).ok());

  // Files that do not belong together, a leaf where the CA is expected.
  CHECK(thrown([&] {
          signer_t(c.crt(role_t::node, "n1"), other.key(role_t::node, "n1"));
        }).find("is not the key of") != std::string::npos);
  CHECK(thrown([&] { signer_t(c.crt(role_t::ca), c.key(role_t::ca)); }).find("not a node") !=
        std::string::npos);
  CHECK(thrown([&] { verifier_t x(c.crt(role_t::node, "n1")); }).find("not a zkfleet CA") !=
        std::string::npos);
  CHECK(thrown([&] { verifier_t x(c.dir + "/absent.crt"); }).find("absent.crt") !=
        std::string::npos);
}

TEST_CASE("identity: an expired certificate of this CA is refused with its date") {
  cluster_dir_t c(false);
  // A node certificate that ended yesterday, signed by the CA's key (the API cannot make one).
  auto ca = load_x509(c.crt(role_t::ca));
  EVP_PKEY* ca_key = load_key(c.key(role_t::ca));
  EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
  X509_gmtime_adj(X509_getm_notBefore(x), -10 * 86400);
  X509_gmtime_adj(X509_getm_notAfter(x), -86400);
  X509_NAME* n = X509_NAME_new();
  X509_NAME_add_entry_by_txt(n, "O", MBSTRING_ASC, (const unsigned char*)"zkfleet", -1, -1, 0);
  X509_NAME_add_entry_by_txt(n, "OU", MBSTRING_ASC, (const unsigned char*)"node", -1, -1, 0);
  X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char*)"old", -1, -1, 0);
  X509_set_subject_name(x, n);
  X509_NAME_free(n);
  X509_set_issuer_name(x, X509_get_subject_name(ca.get()));
  X509_set_pubkey(x, k);
  REQUIRE(X509_sign(x, ca_key, EVP_sha256()) > 0);
  BIO* b = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(b, x);
  char* p = nullptr;
  const long len = BIO_get_mem_data(b, &p);
  const std::string pem(p, size_t(len));
  BIO_free(b);
  X509_free(x);
  EVP_PKEY_free(k);
  EVP_PKEY_free(ca_key);

  const auto r = verifier_t(c.crt(role_t::ca)).verify(pem);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("certificate expired on ") == 0);
  CHECK(r.error().find("UTC") != std::string::npos);
}

namespace {

struct ssl_ctx_deleter_t {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
using ctx_ptr_t = std::unique_ptr<SSL_CTX, ssl_ctx_deleter_t>;

// A TLS 1.3-only context with a certificate, its key, and peers verified against `ca`.
ctx_ptr_t tls_ctx(bool server, const std::string& crt, const std::string& key,
                  const std::string& ca) {
  ctx_ptr_t ctx(SSL_CTX_new(TLS_method()));
  REQUIRE(ctx != nullptr);
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(ctx.get(), TLS1_3_VERSION);
  REQUIRE(SSL_CTX_use_certificate_chain_file(ctx.get(), crt.c_str()) == 1);
  REQUIRE(SSL_CTX_use_PrivateKey_file(ctx.get(), key.c_str(), SSL_FILETYPE_PEM) == 1);
  REQUIRE(SSL_CTX_check_private_key(ctx.get()) == 1);
  REQUIRE(SSL_CTX_load_verify_locations(ctx.get(), ca.c_str(), nullptr) == 1);
  SSL_CTX_set_verify(ctx.get(),
                     server ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER,
                     nullptr);
  return ctx;
}

// One step of a handshake: true when done, false while it wants I/O; throws when it failed.
bool step(SSL* s, bool& failed) {
  const int r = SSL_do_handshake(s);
  if (r == 1) return true;
  const int e = SSL_get_error(s, r);
  if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) failed = true;
  return false;
}

struct tls_outcome_t {
  bool ok = false;           // both ends finished and the server read what the client wrote
  std::string peer_subject;  // the client certificate's subject, as the server saw it
  long server_verify = 0;    // SSL_get_verify_result on the server
};

// A client and a server over a memory BIO pair, the client checking the server's name is `host`.
tls_outcome_t handshake(SSL_CTX* server_ctx, SSL_CTX* client_ctx, const std::string& host) {
  SSL* s = SSL_new(server_ctx);
  SSL* c = SSL_new(client_ctx);
  BIO *bs = nullptr, *bc = nullptr;
  REQUIRE(BIO_new_bio_pair(&bs, 0, &bc, 0) == 1);
  SSL_set_bio(s, bs, bs);
  SSL_set_bio(c, bc, bc);
  SSL_set_accept_state(s);
  SSL_set_connect_state(c);
  SSL_set1_host(c, host.c_str());
  bool c_done = false, s_done = false, failed = false;
  for (int i = 0; i < 50 && !failed && !(c_done && s_done); ++i) {
    if (!c_done) c_done = step(c, failed);
    if (!s_done && !failed) s_done = step(s, failed);
  }
  tls_outcome_t out;
  out.server_verify = SSL_get_verify_result(s);
  if (c_done && s_done && !failed) {
    char buf[8] = {};
    const bool wrote = SSL_write(c, "ping", 4) == 4;
    out.ok = wrote && SSL_read(s, buf, sizeof buf) == 4 && std::string(buf, 4) == "ping";
    if (X509* peer = SSL_get1_peer_certificate(s)) {
      char line[256];
      X509_NAME_oneline(X509_get_subject_name(peer), line, sizeof line);
      out.peer_subject = line;
      X509_free(peer);
    }
  }
  ERR_clear_error();
  SSL_free(s);
  SSL_free(c);
  return out;
}

}  // namespace

TEST_CASE("TLS 1.3 with these files: mutual authentication, and another CA's client refused") {
  cluster_dir_t c;
  cluster_dir_t other;
  const std::string ca = c.crt(role_t::ca);
  auto server = tls_ctx(true, c.crt(role_t::node, "n1"), c.key(role_t::node, "n1"), ca);
  auto client = tls_ctx(false, c.crt(role_t::client, "alice"), c.key(role_t::client, "alice"), ca);
  const tls_outcome_t good = handshake(server.get(), client.get(), "n1");
  CHECK(good.ok);
  CHECK(good.server_verify == X509_V_OK);
  CHECK(good.peer_subject == "/O=zkfleet/OU=client/CN=alice");

  // A node certificate works as a TLS client too (serverAuth + clientAuth).
  auto node_client = tls_ctx(false, c.crt(role_t::node, "n1"), c.key(role_t::node, "n1"), ca);
  CHECK(handshake(server.get(), node_client.get(), "n1.example.org").ok);

  // The client checks the server's name against its SANs.
  CHECK_FALSE(handshake(server.get(), client.get(), "n2").ok);

  // A client certificate of another cluster (the client still trusts our CA for the server).
  auto stranger =
      tls_ctx(false, other.crt(role_t::client, "alice"), other.key(role_t::client, "alice"), ca);
  const tls_outcome_t bad = handshake(server.get(), stranger.get(), "n1");
  CHECK_FALSE(bad.ok);
  CHECK(bad.server_verify != X509_V_OK);
}
