// neptune's Poseidon: round numbers against neptune's table (round_numbers.rs
// test_round_numbers_against_known_values), the Grain constants against the hadeshash reference
// script's output shipped with neptune (parameters/round_constants-1-1-255-9-8-57-73EDA753…txt),
// the digests of neptune's own test (poseidon.rs hash_values, Strength::Standard, inputs 0..arity−1
// with the Merkle tag), and the optimised permutation equal to the plain one on random inputs.
#include "zk/neptune/poseidon.hpp"

#include <doctest/doctest.h>

#include <random>
#include <stdexcept>

using namespace zk;
using namespace zk::neptune;

namespace {

fr_t from_limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return fr_t::from_canonical(ff::bigint_t<4>{{a, b, c, d}});
}

fr_t from_hex(const char* h) {
  // big-endian hex, as in neptune's parameters file
  ff::bigint_t<4> v{};
  std::string s(h + 2);
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[s.size() - 1 - i];
    const uint64_t d = c <= '9' ? c - '0' : (c | 32) - 'a' + 10;
    v.l[i / 16] |= d << (4 * (i % 16));
  }
  return fr_t::from_canonical(v);
}

}  // namespace

TEST_CASE("poseidon: round numbers as neptune lists them") {
  const std::pair<unsigned, unsigned> cases[] = {
      {2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},  {9, 57},  {10, 57},
      {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59}, {17, 59}, {25, 59}, {37, 60}};
  for (auto [t, rp] : cases) {
    const poseidon_rounds_t r = poseidon_round_numbers(t - 1);
    CAPTURE(t);
    CHECK(r.full == 8);
    CHECK(r.partial == rp);
  }
}

TEST_CASE("poseidon: Grain constants equal the reference script's (t = 9)") {
  const std::vector<fr_t> c = poseidon_grain_constants(9, 8, 57);
  REQUIRE(c.size() == 585);
  CHECK(c[0] == from_hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  CHECK(c[1] == from_hex("0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39"));
  CHECK(c[2] == from_hex("0x513ad11016ab7bb8c7ce9ae51256040e062487edf7168d206ba1b86dfe963629"));
  CHECK(c[3] == from_hex("0x11f7cb649a0e7509a23d14173a5de7151173d08eacba753b99826b8b3779200a"));
  CHECK(c[583] == from_hex("0x5861985c6ad8159e1a4f056d02df583d9c79c96bae8c3b9313812b4e0b3bda60"));
  CHECK(c[584] == from_hex("0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"));
  // The constants of arity 8 are exactly these.
  CHECK(poseidon_constants(8).round_constants == c);
}

TEST_CASE("poseidon: neptune's known digests (Merkle tag, inputs 0..arity-1)") {
  struct known_t {
    unsigned arity;
    fr_t digest;
  };
  const known_t known[] = {
      {2,
       from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b)},
      {4,
       from_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a)},
      {8,
       from_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55)},
      {11,
       from_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28)},
  };
  for (const known_t& k : known) {
    CAPTURE(k.arity);
    std::vector<fr_t> in;
    for (unsigned i = 0; i < k.arity; ++i) in.push_back(fr_t::from_u64(i));
    const poseidon_constants_t& c = poseidon_constants(k.arity);
    CHECK(c.domain_tag == fr_t::from_u64((1u << k.arity) - 1));
    CHECK(c.compressed_round_constants.size() == c.width * 8 + c.partial_rounds);
    CHECK(c.sparse_matrixes.size() == c.partial_rounds);
    CHECK(poseidon_hash(c, in.data()) == k.digest);
    CHECK(poseidon_hash_reference(c, in.data()) == k.digest);
  }
}

TEST_CASE("poseidon: optimised equals plain on random inputs") {
  std::mt19937_64 rng(3);
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const poseidon_constants_t& c = poseidon_constants(arity);
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<fr_t> in;
      for (unsigned i = 0; i < arity; ++i)
        in.push_back(fr_t::from_canonical(ff::bigint_t<4>{{rng(), rng(), rng(), rng() >> 2}}));
      CHECK(poseidon_hash(c, in.data()) == poseidon_hash_reference(c, in.data()));
    }
  }
  CHECK_THROWS_AS(poseidon_constants(0), std::invalid_argument);
  CHECK_THROWS_AS(poseidon_constants(37), std::invalid_argument);
}

TEST_CASE("poseidon: eight hashes at once equal eight single hashes") {
  MESSAGE("poseidon_hash_x8 runs " << (poseidon_uses_ifma() ? "in IFMA lanes" : "one by one"));
  std::mt19937_64 rng(21);
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const poseidon_constants_t& c = poseidon_constants(arity);
    std::vector<fr_t> in(8 * arity);
    for (auto& x : in) x = fr_t::from_canonical(ff::bigint_t<4>{{rng(), rng(), rng(), rng() >> 2}});
    in[0] = fr_t::zero();
    in[1] = -fr_t::one();  // r − 1, the largest element
    fr_t out[8];
    poseidon_hash_x8(c, in.data(), out);
    for (unsigned k = 0; k < 8; ++k) {
      CAPTURE(arity);
      CAPTURE(k);
      CHECK(out[k] == poseidon_hash(c, &in[k * arity]));
    }
  }
}
