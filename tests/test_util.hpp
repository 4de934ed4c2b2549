#pragma once
// Shared helpers for the doctest suites: deterministic random field elements and points.
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

#include "zk/ec/curves.hpp"

namespace zk::test {

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

}  // namespace zk::test
