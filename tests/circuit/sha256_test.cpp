// SHA-256, native and as constraints, on the FIPS 180-4 example vectors (NIST "SHA256.pdf"
// examples: "abc", the 448-bit two-block message; the empty string's well-known digest).
#include "zk/circuit/sha256.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "tests/circuit/circuit_util.hpp"
#include "zk/base/hex.hpp"
#include "zk/circuit/porep.hpp"

using namespace zk;
using namespace zk::circuit;

namespace {

struct vec_t {
  const char* msg;
  const char* digest;
};
const vec_t vectors[] = {
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
};

// The gadget on `msg`'s bits in shape mode; returns the digest's hex and checks satisfaction.
template <class Fr>
std::string gadget_hex(const std::string& msg, uint32_t* constraints, bool tamper) {
  shape_cs_t<Fr> cs;
  std::vector<shape_lc_t<Fr>> bits;
  for (unsigned char ch : msg)
    for (int i = 7; i >= 0; --i) bits.push_back(alloc_bit(cs, (ch >> i) & 1));
  const uint32_t before = cs.n_constraints();
  std::vector<shape_lc_t<Fr>> digest(256);
  sha256_bits(cs, bits.data(), bits.size(), digest.data());
  *constraints = cs.n_constraints() - before;
  uint8_t out[32] = {};
  for (unsigned i = 0; i < 256; ++i) {
    REQUIRE((digest[i].value.is_zero() || digest[i].value.is_one()));
    if (digest[i].value.is_one()) out[i / 8] |= uint8_t(0x80 >> (i % 8));
  }
  if (tamper) {
    // a message bit (if any), a wire in the middle, the last wire (part of the final sum)
    std::initializer_list<uint32_t> none = {cs.n_wires() / 2, cs.n_wires() - 1};
    std::initializer_list<uint32_t> with_msg = {1, cs.n_wires() / 2, cs.n_wires() - 1};
    test::check_shape(cs, msg.empty() ? none : with_msg);
  } else {
    test::check_shape(cs);
  }
  return to_hex(out, 32);
}

}  // namespace

TEST_CASE("sha256 native: FIPS 180-4 vectors") {
  for (const auto& v : vectors) {
    auto d = sha256(reinterpret_cast<const uint8_t*>(v.msg), std::strlen(v.msg));
    CHECK(to_hex(d) == v.digest);
  }
  // One million 'a' (FIPS 180-4 example, exercises many full blocks).
  std::vector<uint8_t> a(1000000, 'a');
  CHECK(to_hex(sha256(a)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 gadget: FIPS 180-4 vectors, satisfied, tampering caught") {
  using Fr = bn254::fr_t;
  for (const auto& v : vectors) {
    uint32_t n = 0;
    CHECK(gadget_hex<Fr>(v.msg, &n, true) == v.digest);
    const uint32_t blocks = (std::strlen(v.msg) * 8 + 1 + 64 + 511) / 512;
    CHECK(n == blocks * porep_sha256_block_constraints);
  }
}

TEST_CASE("sha256 gadget equals native at the padding boundaries (BLS12-381)") {
  using Fr = bls12_381::fr_t;
  for (size_t len : {55u, 56u, 64u}) {
    std::string msg;
    for (size_t i = 0; i < len; ++i) msg.push_back(char('A' + i % 26));
    uint32_t n = 0;
    CHECK(gadget_hex<Fr>(msg, &n, false) ==
          to_hex(sha256(reinterpret_cast<const uint8_t*>(msg.data()), msg.size())));
  }
}
