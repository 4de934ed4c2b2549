#pragma once
// Shared helpers of the doctest suites (every area's; one header, so that none is written twice):
// text and files (contains, read_text, write_text, temp_dir_t, fixture_dir), exceptions (thrown),
// bounded waits on a condition (eventually), deterministic random field elements and points.
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

// The math helpers only where the target may include the math (the include roots of the layers,
// CMakeLists.txt zk_layer: a dashboard test, say, sees no zk/).
#if __has_include("zk/ec/curves.hpp")
#include "zk/ec/curves.hpp"
#define ZK_TEST_UTIL_MATH 1
#endif

namespace zk::test {

#ifdef ZK_TEST_UTIL_MATH
inline std::mt19937_64& rng() {
  static std::mt19937_64 g(0x5eed2026);
  return g;
}

// Uniform-ish element of F (rejection sampling on the top limb).
template <class F>
F random_field() {
  for (;;) {
    typename F::big_t v{};
    for (int i = 0; i < F::N; ++i) v.l[i] = rng()();
    v.l[F::N - 1] &= (F::bits % 64 == 0) ? ~0ULL : ((1ULL << (F::bits % 64)) - 1);
    if (ff::big_lt(v, F::modulus)) return F::from_canonical(v);
  }
}

template <class F2>
F2 random_fq2() {
  using F = typename F2::base_t;
  return F2{random_field<F>(), random_field<F>()};
}

// A random point of the prime-order subgroup: [k]·generator.
template <class C>
typename C::g1_affine random_g1() {
  auto k = random_field<typename C::fr_t>().to_canonical();
  return C::g1_jacobian::from_affine(C::g1_generator).mul(k).to_affine();
}
template <class C>
typename C::g2_affine random_g2() {
  auto k = random_field<typename C::fr_t>().to_canonical();
  return C::g2_jacobian::from_affine(C::g2_generator).mul(k).to_affine();
}

#endif  // ZK_TEST_UTIL_MATH

// A fresh directory under the system temp dir, removed with everything in it.
class temp_dir_t {
 public:
  explicit temp_dir_t(const std::string& prefix = "zk_test") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~temp_dir_t() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir_t(const temp_dir_t&) = delete;
  temp_dir_t& operator=(const temp_dir_t&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string fixture_dir(const std::string& curve, const std::string& name) {
  return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/" + curve + "/" + name;
}

// Whether `part` occurs in `s`.
inline bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// A file's bytes ("" when it cannot be read); a file made of `text`.
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
inline void write_text(const std::string& path, std::string_view text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(text.data(), static_cast<std::streamsize>(text.size()));
}

// The message of what `f` throws as E ("" when it throws nothing; another exception propagates).
template <class E = std::exception, class F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// A bounded wait on a condition: polls `cond` every `poll` until it holds (true) or `limit` has
// passed (false, after one last try). For what a test waits on to happen (a connection closed, a
// node dropped, a buffer expired): a fixed sleep is either too short on a loaded machine or
// wasted time on an idle one.
template <class F>
bool eventually(F&& cond, std::chrono::milliseconds limit = std::chrono::seconds(10),
                std::chrono::milliseconds poll = std::chrono::milliseconds(10)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (cond()) return true;
    std::this_thread::sleep_for(poll);
  }
  return cond();
}

}  // namespace zk::test
