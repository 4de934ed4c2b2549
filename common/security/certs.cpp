// The cluster's certificates (common/security/certs.hpp): making the CA and the node and client
// certificates with OpenSSL's library, writing them with the right modes, listing a directory.
#include "common/security/certs.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "common/security/openssl.hpp"
#include "zk/base/hex.hpp"

namespace zk::security {

const char* const name_rule =
    "1 to 64 characters of A-Z a-z 0-9 . _ -, not starting with '.' or '-'";

namespace {

namespace fs = std::filesystem;

using detail::openssl_errors;
using detail::ossl_ptr_t;
using detail::read_text;

// Throws "<what>: <OpenSSL's errors>" unless ok.
void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what + ": " + openssl_errors());
}

// --- files ---------------------------------------------------------------------------------------

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }
std::string dir_of(const std::string& path) { return fs::path(path).parent_path().string(); }

std::string exists_message(const std::string& path) {
  return file_name(path) + " already exists in " + dir_of(path) +
         ": remove it first or use --overwrite";
}

// Refuses, before anything is made, when one of the files exists and overwrite was not asked.
void refuse_existing(const std::vector<std::string>& paths, bool overwrite) {
  if (overwrite) return;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(p, ec))) throw std::runtime_error(exists_message(p));
  }
}

// Writes a new file created with `mode` (O_EXCL: the mode is the file's from its first byte; an
// overwritten file is removed first so that it never keeps an older, wider mode).
void write_new_file(const std::string& path, const std::string& data, mode_t mode, bool overwrite) {
  if (overwrite && ::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error("cannot remove " + path + ": " + std::strerror(errno));
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    if (errno == EEXIST) throw std::runtime_error(exists_message(path));
    throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  }
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(path.c_str());
      throw std::runtime_error("cannot write " + path + ": " + why);
    }
    done += size_t(n);
  }
  if (::close(fd) != 0)
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

// The certificates directory: created mode 0700 when missing (its parents as usual).
void ensure_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(dir, ec)) throw std::runtime_error(dir + " exists and is not a directory");
  const fs::path parent = fs::path(dir).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create directory " + dir + ": " + std::strerror(errno));
}

// --- PEM -----------------------------------------------------------------------------------------

ossl_ptr_t<BIO> memory_bio(const std::string& text) {
  ossl_ptr_t<BIO> b(BIO_new_mem_buf(text.data(), int(text.size())));
  check(b != nullptr, "BIO_new_mem_buf");
  return b;
}

std::string bio_text(BIO* b) {
  char* p = nullptr;
  const long n = BIO_get_mem_data(b, &p);
  return std::string(p, size_t(n));
}

int no_passphrase(char*, int, int, void*) { return 0; }  // encrypted keys are refused, not prompted

ossl_ptr_t<X509> read_cert(const std::string& path) {
  const std::string text = read_text(path);
  ossl_ptr_t<X509> x(PEM_read_bio_X509(memory_bio(text).get(), nullptr, no_passphrase, nullptr));
  check(x != nullptr, path + ": not a PEM certificate");
  return x;
}

ossl_ptr_t<EVP_PKEY> read_key(const std::string& path) {
  const std::string text = read_text(path);
  ossl_ptr_t<EVP_PKEY> k(
      PEM_read_bio_PrivateKey(memory_bio(text).get(), nullptr, no_passphrase, nullptr));
  check(k != nullptr, path + ": not an unencrypted PEM private key");
  return k;
}

std::string cert_pem(X509* x) {
  ossl_ptr_t<BIO> b(BIO_new(BIO_s_mem()));
  check(b && PEM_write_bio_X509(b.get(), x) == 1, "PEM_write_bio_X509");
  return bio_text(b.get());
}

std::string key_pem(EVP_PKEY* k) {  // PKCS#8, unencrypted ("BEGIN PRIVATE KEY")
  ossl_ptr_t<BIO> b(BIO_new(BIO_s_mem()));
  check(b && PEM_write_bio_PrivateKey(b.get(), k, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "PEM_write_bio_PrivateKey");
  return bio_text(b.get());
}

// --- certificate parts ---------------------------------------------------------------------------

ossl_ptr_t<EVP_PKEY> new_key() {
  ossl_ptr_t<EVP_PKEY> k(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  check(k != nullptr, "generating a P-256 key");
  return k;
}

ossl_ptr_t<X509_NAME> make_subject(role_t role, const std::string& cn) {
  ossl_ptr_t<X509_NAME> n(X509_NAME_new());
  check(n != nullptr, "X509_NAME_new");
  const std::pair<const char*, std::string> entries[] = {
      {"O", "zkfleet"}, {"OU", role_name(role)}, {"CN", cn}};
  for (const auto& [field, value] : entries)
    check(X509_NAME_add_entry_by_txt(n.get(), field, MBSTRING_UTF8,
                                     reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1,
                                     0) == 1,
          std::string("subject ") + field);
  return n;
}

// The end of the validity: `days` from now, or `default_years` calendar years when days is 0.
time_t valid_until(int days, int default_years) {
  const time_t now = std::time(nullptr);
  if (days > 0) return now + time_t(days) * 86400;
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  tm.tm_year += default_years;
  return ::timegm(&tm);
}

void check_days(int days) {
  if (days < 0 || days > 36500)
    throw std::runtime_error("a validity of " + std::to_string(days) +
                             " days: it must be from 1 to 36500 (0: the default)");
}

// A fresh certificate of `key` for `subject`: version 3, random 128-bit serial, valid from an
// hour ago (clocks differ) to `until`.
ossl_ptr_t<X509> new_cert(const X509_NAME* subject, EVP_PKEY* key, time_t until) {
  ossl_ptr_t<X509> x(X509_new());
  check(x != nullptr, "X509_new");
  check(X509_set_version(x.get(), 2) == 1, "X509_set_version");
  ossl_ptr_t<BIGNUM> serial(BN_new());
  check(serial && BN_rand(serial.get(), 128, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1,
        "random serial");
  if (BN_is_zero(serial.get())) BN_one(serial.get());
  check(BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(x.get())) != nullptr, "serial");
  check(X509_gmtime_adj(X509_getm_notBefore(x.get()), -3600) != nullptr, "notBefore");
  check(ASN1_TIME_set(X509_getm_notAfter(x.get()), until) != nullptr, "notAfter");
  check(X509_set_subject_name(x.get(), subject) == 1, "X509_set_subject_name");
  check(X509_set_pubkey(x.get(), key) == 1, "X509_set_pubkey");
  return x;
}

// One extension in OpenSSL's config syntax ("critical,CA:TRUE"), in the context of its issuer.
void add_ext(X509* x, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, x, nullptr, nullptr, 0);
  ossl_ptr_t<X509_EXTENSION> e(X509V3_EXT_nconf_nid(nullptr, &ctx, nid, value));
  check(e && X509_add_ext(x, e.get(), -1) == 1, std::string("extension ") + OBJ_nid2sn(nid));
}

// A host name as an IP address (v4 or v6, brackets allowed), else nullopt.
std::optional<std::string> ip_of(const std::string& host) {
  std::string h = host;
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  unsigned char buf[16];
  if (::inet_pton(AF_INET, h.c_str(), buf) == 1 || ::inet_pton(AF_INET6, h.c_str(), buf) == 1)
    return h;
  return std::nullopt;
}

// A DNS name for a SAN: labels of 1–63 characters of [A-Za-z0-9_-], 253 characters at most.
bool valid_dns(const std::string& h) {
  if (h.empty() || h.size() > 253) return false;
  size_t label = 0;
  for (char c : h) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') {
      if (++label > 63) return false;
    } else {
      return false;
    }
  }
  return label > 0;
}

void check_hosts(const std::vector<std::string>& hosts) {
  for (const auto& h : hosts)
    if (!ip_of(h) && !valid_dns(h))
      throw std::runtime_error("host '" + h + "' is neither an IP address nor a DNS name");
}

// subjectAltName: DNS:<name>, then each host as an IP or DNS entry (duplicates once).
void add_san(X509* x, const std::string& name, const std::vector<std::string>& hosts) {
  ossl_ptr_t<GENERAL_NAMES> gens(sk_GENERAL_NAME_new_null());
  check(gens != nullptr, "subjectAltName");
  std::vector<std::string> seen;
  auto push = [&](const std::string& host) {
    if (std::find(seen.begin(), seen.end(), host) != seen.end()) return;
    seen.push_back(host);
    GENERAL_NAME* g = GENERAL_NAME_new();
    check(g != nullptr, "GENERAL_NAME_new");
    if (const auto ip = ip_of(host)) {
      ASN1_OCTET_STRING* a = a2i_IPADDRESS(ip->c_str());
      check(a != nullptr, "subjectAltName IP " + *ip);
      GENERAL_NAME_set0_value(g, GEN_IPADD, a);
    } else {
      ASN1_IA5STRING* s = ASN1_IA5STRING_new();
      check(s && ASN1_STRING_set(s, host.data(), int(host.size())) == 1, "subjectAltName DNS");
      GENERAL_NAME_set0_value(g, GEN_DNS, s);
    }
    sk_GENERAL_NAME_push(gens.get(), g);
  };
  push(name);
  for (const auto& h : hosts) push(h);
  check(X509_add1_ext_i2d(x, NID_subject_alt_name, gens.get(), 0, X509V3_ADD_DEFAULT) == 1,
        "subjectAltName");
}

void sign(X509* x, EVP_PKEY* issuer_key) {
  check(X509_sign(x, issuer_key, EVP_sha256()) > 0, "signing the certificate");
}

// Writes the key (0600) first, then the certificate (0644); the key is removed when the
// certificate cannot be written.
void write_pair(const std::string& crt, const std::string& key, X509* x, EVP_PKEY* k,
                bool overwrite) {
  write_new_file(key, key_pem(k), 0600, overwrite);
  try {
    write_new_file(crt, cert_pem(x), 0644, overwrite);
  } catch (...) {
    ::unlink(key.c_str());  // never a key without its certificate
    throw;
  }
}

std::chrono::system_clock::time_point to_time(const ASN1_TIME* t, const std::string& file) {
  std::tm tm{};
  check(ASN1_TIME_to_tm(t, &tm) == 1, file + ": a validity date that does not parse");
  return std::chrono::system_clock::from_time_t(::timegm(&tm));
}

// The one entry of `nid` in a name, as UTF-8; nullopt when absent or repeated.
std::optional<std::string> only_entry(const X509_NAME* n, int nid) {
  const int i = X509_NAME_get_index_by_NID(n, nid, -1);
  if (i < 0 || X509_NAME_get_index_by_NID(n, nid, i) >= 0) return std::nullopt;
  unsigned char* utf8 = nullptr;
  const int len = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(n, i)));
  if (len < 0) return std::nullopt;
  std::string s(reinterpret_cast<char*>(utf8), size_t(len));
  OPENSSL_free(utf8);
  return s;
}

// The CA of `dir`, its certificate and key, checked to belong together.
std::pair<ossl_ptr_t<X509>, ossl_ptr_t<EVP_PKEY>> load_ca(const std::string& dir) {
  const std::string crt = cert_path(dir, role_t::ca, ""), key = key_path(dir, role_t::ca, "");
  for (const auto& f : {crt, key})
    if (!fs::exists(f))
      throw std::runtime_error("no CA in " + dir + ": " + f +
                               " does not exist (make one first: zkfleet certs create-ca)");
  auto x = read_cert(crt);
  auto k = read_key(key);
  const auto s = subject_identity(x.get());
  if (!s || s->role != role_t::ca)
    throw std::runtime_error(crt + ": not a zkfleet CA certificate (O=zkfleet, OU=ca)");
  if (X509_check_private_key(x.get(), k.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error(key + " is not the key of " + crt);
  }
  return {std::move(x), std::move(k)};
}

}  // namespace

// --- names and paths -----------------------------------------------------------------------------

const char* role_name(role_t role) {
  switch (role) {
    case role_t::ca:
      return "ca";
    case role_t::node:
      return "node";
    case role_t::client:
      return "client";
  }
  return "?";
}

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] == '.' || name[0] == '-') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

// Joined as paths: a directory written with a trailing '/' gives no "//".
std::string cert_path(const std::string& dir, role_t role, const std::string& name) {
  return (fs::path(dir) / (role == role_t::ca ? std::string("ca.crt")
                                              : std::string(role_name(role)) + "." + name + ".crt"))
      .string();
}

std::string key_path(const std::string& dir, role_t role, const std::string& name) {
  return (fs::path(dir) / (role == role_t::ca ? std::string("ca.key")
                                              : std::string(role_name(role)) + "." + name + ".key"))
      .string();
}

std::optional<identity_t> subject_identity(const x509_st* cert) {
  const X509_NAME* n = X509_get_subject_name(cert);
  if (!n || only_entry(n, NID_organizationName) != std::optional<std::string>("zkfleet"))
    return std::nullopt;
  const auto ou = only_entry(n, NID_organizationalUnitName);
  const auto cn = only_entry(n, NID_commonName);
  if (!ou || !cn) return std::nullopt;
  for (role_t r : {role_t::ca, role_t::node, role_t::client})
    if (*ou == role_name(r) && (r == role_t::ca || valid_name(*cn))) return identity_t{r, *cn};
  return std::nullopt;
}

// --- making --------------------------------------------------------------------------------------

void create_ca(const std::string& dir, const create_options_t& opt) {
  check_days(opt.days);
  if (!opt.hosts.empty()) throw std::runtime_error("hosts are for node certificates, not the CA");
  ensure_dir(dir);
  const std::string crt = cert_path(dir, role_t::ca, ""), key = key_path(dir, role_t::ca, "");
  refuse_existing({crt, key}, opt.overwrite);
  auto k = new_key();
  auto subject = make_subject(role_t::ca, "zkfleet CA");
  auto x = new_cert(subject.get(), k.get(), valid_until(opt.days, 10));
  check(X509_set_issuer_name(x.get(), subject.get()) == 1, "X509_set_issuer_name");
  add_ext(x.get(), x.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(x.get(), x.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
  add_ext(x.get(), x.get(), NID_subject_key_identifier, "hash");
  sign(x.get(), k.get());
  write_pair(crt, key, x.get(), k.get(), opt.overwrite);
}

void create_cert(const std::string& dir, role_t role, const std::string& name,
                 const create_options_t& opt) {
  if (role == role_t::ca)
    throw std::runtime_error("create_cert makes node and client certificates (the CA: create_ca)");
  if (!valid_name(name))
    throw std::runtime_error(std::string("invalid ") + role_name(role) + " name '" + name +
                             "': a name is " + name_rule);
  if (role == role_t::client && !opt.hosts.empty())
    throw std::runtime_error("hosts are for node certificates, not client " + name);
  check_days(opt.days);
  check_hosts(opt.hosts);
  auto [ca, ca_key] = load_ca(dir);
  const std::string crt = cert_path(dir, role, name), key = key_path(dir, role, name);
  refuse_existing({crt, key}, opt.overwrite);

  auto k = new_key();
  auto x = new_cert(make_subject(role, name).get(), k.get(), valid_until(opt.days, 2));
  if (ASN1_TIME_compare(X509_get0_notAfter(x.get()), X509_get0_notAfter(ca.get())) > 0)
    check(X509_set1_notAfter(x.get(), X509_get0_notAfter(ca.get())) == 1, "notAfter");
  check(X509_set_issuer_name(x.get(), X509_get_subject_name(ca.get())) == 1, "issuer");
  add_ext(x.get(), ca.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_ext(x.get(), ca.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(x.get(), ca.get(), NID_ext_key_usage,
          role == role_t::node ? "serverAuth,clientAuth" : "clientAuth");
  add_ext(x.get(), ca.get(), NID_subject_key_identifier, "hash");
  add_ext(x.get(), ca.get(), NID_authority_key_identifier, "keyid:always");
  if (role == role_t::node) add_san(x.get(), name, opt.hosts);
  sign(x.get(), ca_key.get());
  write_pair(crt, key, x.get(), k.get(), opt.overwrite);
}

// --- reading -------------------------------------------------------------------------------------

cert_info_t read_cert_info(const std::string& file) {
  auto x = read_cert(file);
  const auto s = subject_identity(x.get());
  if (!s)
    throw std::runtime_error(file +
                             ": not a zkfleet certificate (its subject is not O=zkfleet, OU "
                             "ca|node|client, CN a valid name)");
  cert_info_t i;
  i.file = file_name(file);
  i.role = s->role;
  i.name = s->name;
  i.not_before = to_time(X509_get0_notBefore(x.get()), file);
  i.not_after = to_time(X509_get0_notAfter(x.get()), file);
  i.fingerprint = detail::cert_fingerprint(x.get());
  check(!i.fingerprint.empty(), "X509_digest");
  return i;
}

std::vector<cert_info_t> list_certs(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": no such directory");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".crt" && e.is_regular_file(ec))
      files.push_back(e.path().filename().string());
  if (ec) throw std::runtime_error("cannot list " + dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<cert_info_t> out;
  for (const auto& f : files) out.push_back(read_cert_info((fs::path(dir) / f).string()));
  return out;
}

}  // namespace zk::security
