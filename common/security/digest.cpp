#include "common/security/digest.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "zk/base/hex.hpp"

namespace zk::security {

struct sha256_stream_t::ctx_t {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~ctx_t() { EVP_MD_CTX_free(md); }
  void start() {
    if (!md || EVP_DigestInit_ex(md, EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
  }
};

sha256_stream_t::sha256_stream_t() : ctx_(std::make_unique<ctx_t>()) { ctx_->start(); }
sha256_stream_t::~sha256_stream_t() = default;

void sha256_stream_t::update(std::string_view bytes) {
  if (EVP_DigestUpdate(ctx_->md, bytes.data(), bytes.size()) != 1)
    throw std::runtime_error("SHA-256: OpenSSL failed to hash");
}

std::string sha256_stream_t::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx_->md, md, &n) != 1)
    throw std::runtime_error("SHA-256: OpenSSL failed to finish");
  ctx_->start();
  return to_hex(md, n);
}

result_t<std::string, file_error_t> sha256_file_hex(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return file_error_t{path + ": cannot read (" + std::strerror(errno) + ")"};
  sha256_stream_t h;
  std::vector<char> piece(size_t(1) << 20);
  for (;;) {
    const size_t n = std::fread(piece.data(), 1, piece.size(), f);
    h.update({piece.data(), n});
    if (n < piece.size()) break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return file_error_t{path + ": a read failed"};
  return h.hex();
}

bool same_secret(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace zk::security
