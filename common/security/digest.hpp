#pragma once
// SHA-256 of bytes that arrive in pieces (an upload as it streams in, a file read a piece at a
// time), through OpenSSL (SHA-NI where the CPU has it): memory does not grow with the input.
#include <memory>
#include <string>
#include <string_view>

#include "zk/base/result.hpp"

namespace zk::security {

class sha256_stream_t {
 public:
  sha256_stream_t();
  ~sha256_stream_t();
  sha256_stream_t(const sha256_stream_t&) = delete;
  sha256_stream_t& operator=(const sha256_stream_t&) = delete;

  void update(std::string_view bytes);
  // The digest of everything given so far, as 64 lower-case hex digits; the stream starts over.
  std::string hex();

 private:
  struct ctx_t;
  std::unique_ptr<ctx_t> ctx_;
};

// Why a file could not be hashed (it names the file).
struct file_error_t {
  std::string why;
};
// The SHA-256 (hex) of a file, read 1 MiB at a time; or why it could not be read.
result_t<std::string, file_error_t> sha256_file_hex(const std::string& path);

// Two secrets (MACs, token hashes) compared in time independent of where they differ; unequal
// lengths compare unequal at once (a length is no secret).
bool same_secret(std::string_view a, std::string_view b);

}  // namespace zk::security
