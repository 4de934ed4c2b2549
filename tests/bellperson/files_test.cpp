// zk/bellperson/groth16/files: proofs, verifying keys and .params — round trips, and every way a
// file can lie (cut short, a count too large, bytes left over, a bad point), each error naming the
// file, the part and the byte offset.
#include "zk/bellperson/groth16/files.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zk/base/error.hpp"

using namespace zk::bellperson;
using zk::test::random_g1;
using zk::test::random_g2;

namespace {

verifying_key_t random_vk(size_t n_ic) {
  verifying_key_t vk;
  vk.alpha_g1 = random_g1<curve_t>();
  vk.beta_g1 = random_g1<curve_t>();
  vk.beta_g2 = random_g2<curve_t>();
  vk.gamma_g2 = random_g2<curve_t>();
  vk.delta_g1 = random_g1<curve_t>();
  vk.delta_g2 = random_g2<curve_t>();
  for (size_t i = 0; i < n_ic; ++i) vk.ic.push_back(random_g1<curve_t>());
  return vk;
}

bool same_vk(const verifying_key_t& a, const verifying_key_t& b) {
  return a.alpha_g1 == b.alpha_g1 && a.beta_g1 == b.beta_g1 && a.beta_g2 == b.beta_g2 &&
         a.gamma_g2 == b.gamma_g2 && a.delta_g1 == b.delta_g1 && a.delta_g2 == b.delta_g2 &&
         a.ic == b.ic;
}

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}
void put_bytes(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// A point of E(Fq) outside G1 (x = 5, 6, …).
g1_affine_t off_subgroup_g1() {
  for (uint64_t x = 5;; ++x) {
    const fq_t fx = fq_t::from_u64(x);
    fq_t y;
    if (sqrt_fq(fx.sqr() * fx + curve_t::g1::b(), y) && !in_g1({fx, y})) return {fx, y};
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const zk::format_error& e) {
    return e.what();
  }
  return "(no error)";
}

struct small_params_t {
  verifying_key_t vk = random_vk(3);
  std::vector<g1_affine_t> h, l, a, b_g1;
  std::vector<g2_affine_t> b_g2;
  small_params_t() {
    for (int i = 0; i < 7; ++i) h.push_back(random_g1<curve_t>());
    for (int i = 0; i < 20; ++i) l.push_back(random_g1<curve_t>());
    for (int i = 0; i < 5; ++i) a.push_back(random_g1<curve_t>());
    for (int i = 0; i < 4; ++i) b_g1.push_back(random_g1<curve_t>());
    for (int i = 0; i < 3; ++i) b_g2.push_back(random_g2<curve_t>());
  }
  // Byte offset of point i of section s (0 = h … 4 = b_g2).
  uint64_t offset(int s, uint64_t i) const {
    const uint64_t counts[5] = {h.size(), l.size(), a.size(), b_g1.size(), b_g2.size()};
    uint64_t off = vk_size(vk_encoding_t::uncompressed, vk.ic.size());
    for (int k = 0; k < s; ++k) off += 4 + counts[k] * 96;
    return off + 4 + i * (s == 4 ? 192 : 96);
  }
};

}  // namespace

TEST_CASE("bellperson: proofs") {
  std::vector<uint8_t> bytes(3 * proof_size);
  std::vector<proof_t> proofs(3);
  for (size_t k = 0; k < 3; ++k) {
    proofs[k] = {random_g1<curve_t>(), random_g2<curve_t>(), random_g1<curve_t>()};
    encode_proof(proofs[k], &bytes[k * proof_size]);
  }
  const auto back = decode_proofs(bytes.data(), bytes.size(), "p.bin");
  REQUIRE(back.size() == 3);
  for (size_t k = 0; k < 3; ++k) {
    CHECK(back[k].a == proofs[k].a);
    CHECK(back[k].b == proofs[k].b);
    CHECK(back[k].c == proofs[k].c);
  }
  CHECK(error_of([&] { decode_proofs(bytes.data(), 191, "p.bin"); }) ==
        "p.bin: 191 bytes: a proof is 192 bytes a partition");
  CHECK(error_of([&] { decode_proofs(bytes.data(), 0, "p.bin"); }).find("0 bytes") !=
        std::string::npos);
  // Partition 2's C not in the subgroup.
  encode_g1_compressed(off_subgroup_g1(), &bytes[2 * proof_size + 144]);
  CHECK(error_of([&] { decode_proofs(bytes.data(), bytes.size(), "p.bin"); }) ==
        "p.bin: partition 2: C (offset 0x210): point not in the prime-order subgroup");
  // Partition 1's B at infinity.
  encode_g2_compressed(g2_affine_t::infinity(), &bytes[proof_size + 48]);
  CHECK(error_of([&] { decode_proofs(bytes.data(), bytes.size(), "p.bin"); }) ==
        "p.bin: partition 1: B (offset 0xf0): point at infinity");
}

TEST_CASE("bellperson: verifying keys in both encodings") {
  const verifying_key_t vk = random_vk(5);
  for (auto enc : {vk_encoding_t::uncompressed, vk_encoding_t::compressed}) {
    const auto bytes = encode_vk(vk, enc);
    CHECK(bytes.size() == vk_size(enc, 5));
    const auto r =
        parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::compressed, true);
    CHECK(r.encoding == enc);
    CHECK(r.size == bytes.size());
    CHECK(same_vk(r.vk, vk));
    CHECK(encode_vk(r.vk, enc) == bytes);
    // Every prefix is refused with a format_error (never a crash or an over-read).
    for (size_t n = 1; n < bytes.size(); n += (n < 700 ? 1 : 13)) {
      CAPTURE(n);
      CHECK_THROWS_AS(parse_vk(bytes.data(), n, "k.vk", true, vk_encoding_t::uncompressed, true),
                      zk::format_error);
    }
  }
  // 2 KiB's key: 40 IC points, 4,708 bytes uncompressed (the size of the official key).
  CHECK(vk_size(vk_encoding_t::uncompressed, 40) == 4708);
  CHECK(vk_size(vk_encoding_t::compressed, 40) == 2356);

  auto bytes = encode_vk(vk, vk_encoding_t::uncompressed);
  const size_t count_at = 3 * 96 + 3 * 192;
  SUBCASE("a count that lies") {
    bytes[count_at] = 0x10;  // 2^28 + 5 points
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, true);
          }) ==
          "k.vk: verifying key: ic count 268435461 (offset 0x360) needs 25769804256 "
          "bytes, only 480 follow");
  }
  SUBCASE("cut short") {
    CHECK(error_of([&] {
            parse_vk(bytes.data(), 100, "k.vk", true, vk_encoding_t::uncompressed, true);
          }) ==
          "k.vk: verifying key (uncompressed): cut short at offset 0x64: its fixed part "
          "(six points and the IC count) needs 868 bytes");
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size() - 1, "k.vk", true, vk_encoding_t::uncompressed,
                     true);
          }).find("ic count 5") != std::string::npos);
  }
  SUBCASE("bytes left over") {
    bytes.push_back(0);
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, true);
          }) == "k.vk: verifying key: 1 bytes after the last IC point (offset 0x544)");
    // Inside a .params the rest is the sections.
    CHECK(parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, false)
              .size == bytes.size() - 1);
  }
  SUBCASE("a bad point") {
    encode_g1_uncompressed(off_subgroup_g1(), &bytes[count_at + 4 + 3 * 96]);
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, true);
          }) ==
          "k.vk: verifying key ic (point 3, offset 0x484): point not in the prime-order "
          "subgroup");
    bytes = encode_vk(vk, vk_encoding_t::uncompressed);
    bytes[96 + 95] ^= 1;  // beta_g1.y
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, true);
          }) == "k.vk: verifying key beta_g1 (offset 0x60): point not on the curve");
  }
  SUBCASE("infinity") {
    encode_g2_uncompressed(g2_affine_t::infinity(), &bytes[2 * 96 + 192]);
    CHECK(error_of([&] {
            parse_vk(bytes.data(), bytes.size(), "k.vk", true, vk_encoding_t::uncompressed, true);
          }) == "k.vk: verifying key gamma_g2 (offset 0x180): point at infinity");
  }
}

TEST_CASE("bellperson: .vk files") {
  zk::test::temp_dir_t dir("fc_vk");
  const verifying_key_t vk = random_vk(2);
  const std::string a = dir.path().string() + "/a.vk", b = dir.path().string() + "/b.vk";
  write_vk_file(a, vk);
  write_vk_file(b, vk, vk_encoding_t::compressed);
  CHECK(same_vk(read_vk_file(a).vk, vk));
  CHECK(read_vk_file(b).encoding == vk_encoding_t::compressed);
  CHECK(same_vk(read_vk_file(b).vk, vk));
  CHECK(error_of([&] { read_vk_file(dir.path().string() + "/missing.vk"); }).find("cannot open") !=
        std::string::npos);
}

TEST_CASE("bellperson: .params write and read, checked and unchecked") {
  zk::test::temp_dir_t dir("fc_params");
  const std::string path = dir.path().string() + "/p.params";
  const small_params_t sp;
  write_params_file(path, sp.vk, sp.h, sp.l, sp.a, sp.b_g1, sp.b_g2);
  const uint64_t size = file_bytes(path).size();
  CHECK(size == sp.offset(4, 3));
  for (auto mode : {params_file_t::mode_t::checked, params_file_t::mode_t::unchecked}) {
    const params_file_t p(path, mode);
    CHECK(same_vk(p.vk(), sp.vk));
    CHECK(p.h().count == 7);
    CHECK(p.l().count == 20);
    CHECK(p.b_g2().count == 3);
    CHECK(p.l().offset == sp.offset(1, 0));
    std::vector<g1_affine_t> l(20);
    p.read_g1(p.l(), 0, 20, l.data());
    CHECK(l == sp.l);
    CHECK(p.g1(p.h(), 6) == sp.h[6]);
    CHECK(p.g2(p.b_g2(), 2) == sp.b_g2[2]);
    std::vector<g2_affine_t> b2(2);
    p.read_g2(p.b_g2(), 1, 2, b2.data());
    CHECK(b2[1] == sp.b_g2[2]);
    CHECK_THROWS_AS(p.g1(p.h(), 7), std::out_of_range);
    CHECK_THROWS_AS(p.g1(p.b_g2(), 0), std::out_of_range);
    CHECK_THROWS_AS(p.read_g1(p.a(), 3, 3, l.data()), std::out_of_range);
  }
  // The writer: reading back and writing again gives the same bytes.
  const params_file_t p(path);
  std::vector<g1_affine_t> h(7), l(20), a(5), b1(4);
  std::vector<g2_affine_t> b2(3);
  p.read_g1(p.h(), 0, 7, h.data());
  p.read_g1(p.l(), 0, 20, l.data());
  p.read_g1(p.a(), 0, 5, a.data());
  p.read_g1(p.b_g1(), 0, 4, b1.data());
  p.read_g2(p.b_g2(), 0, 3, b2.data());
  const std::string again = dir.path().string() + "/again.params";
  write_params_file(again, p.vk(), h, l, a, b1, b2);
  CHECK(file_bytes(again) == file_bytes(path));
}

TEST_CASE("bellperson: a .params given for a .vk, or a .vk for the .params, says which is which") {
  zk::test::temp_dir_t dir("fc_swapped");
  const std::string params = dir.path().string() + "/p.params", vk = dir.path().string() + "/p.vk";
  const small_params_t sp;
  write_params_file(params, sp.vk, sp.h, sp.l, sp.a, sp.b_g1, sp.b_g2);
  write_vk_file(vk, sp.vk);
  CHECK(error_of([&] { read_vk_file(params); }) ==
        params +
            ": a .params file (the proving parameters), not a .vk (the verifying key): give the "
            ".vk of the same parameters (zkfleet filecoin setup writes both; Filecoin's parameter "
            "cache has a .vk beside each .params)");
  for (auto mode : {params_file_t::mode_t::checked, params_file_t::mode_t::unchecked})
    CHECK(error_of([&] { params_file_t p(vk, mode); }) ==
          vk + ": a .vk file (the verifying key), not the .params (the proving parameters): give "
               "the .params it came with");
  // Neither: the reader's own message.
  put_bytes(vk, std::vector<uint8_t>(100, 0));
  CHECK(error_of([&] { read_vk_file(vk); }).find("cut short") != std::string::npos);
}

TEST_CASE("bellperson: .params that lie") {
  zk::test::temp_dir_t dir("fc_params_bad");
  const std::string good = dir.path().string() + "/good.params",
                    bad = dir.path().string() + "/bad.params";
  const small_params_t sp;
  write_params_file(good, sp.vk, sp.h, sp.l, sp.a, sp.b_g1, sp.b_g2);
  const std::vector<uint8_t> bytes = file_bytes(good);
  auto open_bad = [&](std::vector<uint8_t> b, params_file_t::mode_t m) {
    put_bytes(bad, b);
    return error_of([&] { params_file_t p(bad, m); });
  };
  const auto checked = params_file_t::mode_t::checked, unchecked = params_file_t::mode_t::unchecked;

  SUBCASE("cut short anywhere") {
    for (size_t n = 1; n < bytes.size(); n += (n < 1200 ? 7 : 61)) {
      CAPTURE(n);
      const std::string e =
          open_bad(std::vector<uint8_t>(bytes.begin(), bytes.begin() + long(n)), unchecked);
      CHECK(e.rfind(bad + ": ", 0) == 0);
      // Cut right after its verifying key, the file is a .vk, and is said to be one.
      if (n == sp.offset(0, 0) - 4)
        CHECK(e.find("a .vk file (the verifying key), not the .params") != std::string::npos);
      else
        CHECK(e.find("offset 0x") != std::string::npos);
    }
    const uint64_t b_g2_at = sp.offset(4, 0);
    CHECK(open_bad(std::vector<uint8_t>(bytes.begin(), bytes.begin() + long(b_g2_at) + 100),
                   unchecked) == bad + ": section b_g2: count 3 (offset " + zk::hex(b_g2_at - 4) +
                                     ") needs 576 bytes, the file has 100 left");
  }
  SUBCASE("a count that lies") {
    std::vector<uint8_t> b = bytes;
    b[sp.offset(1, 0) - 4] = 0x7f;  // section l's count
    CHECK(open_bad(b, unchecked) == bad + ": section l: count 2130706452 (offset " +
                                        zk::hex(sp.offset(1, 0) - 4) +
                                        ") needs 204547819392 bytes, the file has " +
                                        std::to_string(bytes.size() - sp.offset(1, 0)) + " left");
    b = bytes;
    b[sp.offset(2, 0) - 1] = 4;  // a says 4 where there are 5: everything shifts
    CHECK(open_bad(b, unchecked).find("after section b_g2") == std::string::npos);
  }
  SUBCASE("bytes after b_g2") {
    std::vector<uint8_t> b = bytes;
    b.insert(b.end(), {1, 2, 3});
    CHECK(open_bad(b, unchecked) ==
          bad + ": 3 bytes after section b_g2 (offset " + zk::hex(bytes.size()) + ")");
  }
  SUBCASE("a point off the curve (checked mode; unchecked reads trust it)") {
    std::vector<uint8_t> b = bytes;
    b[sp.offset(1, 17) + 95] ^= 1;  // l[17].y
    CHECK(open_bad(b, checked) == bad + ": section l (point 17, offset " +
                                      zk::hex(sp.offset(1, 17)) + "): point not on the curve");
    CHECK(open_bad(b, unchecked) == "(no error)");
  }
  SUBCASE("a point outside the subgroup, the first in file order named") {
    std::vector<uint8_t> b = bytes;
    encode_g1_uncompressed(off_subgroup_g1(), &b[sp.offset(2, 4)]);
    encode_g1_uncompressed(off_subgroup_g1(), &b[sp.offset(2, 1)]);
    CHECK(open_bad(b, checked) == bad + ": section a (point 1, offset " + zk::hex(sp.offset(2, 1)) +
                                      "): point not in the prime-order subgroup");
  }
  SUBCASE("G2 off the curve") {
    std::vector<uint8_t> b = bytes;
    b[sp.offset(4, 2) + 191] ^= 1;
    CHECK(open_bad(b, checked) == bad + ": section b_g2 (point 2, offset " +
                                      zk::hex(sp.offset(4, 2)) + "): point not on the curve");
  }
  SUBCASE("infinity: refused in both modes") {
    std::vector<uint8_t> b = bytes;
    encode_g1_uncompressed(g1_affine_t::infinity(), &b[sp.offset(0, 3)]);
    CHECK(open_bad(b, checked) == bad + ": section h (point 3, offset " + zk::hex(sp.offset(0, 3)) +
                                      "): point at infinity");
    put_bytes(bad, b);
    const params_file_t p(bad, unchecked);
    CHECK(error_of([&] { p.g1(p.h(), 3); }) == bad + ": section h (point 3, offset " +
                                                   zk::hex(sp.offset(0, 3)) +
                                                   "): point at infinity");
  }
  SUBCASE("bad flags in a section") {
    std::vector<uint8_t> b = bytes;
    b[sp.offset(3, 0)] |= 0x80;
    put_bytes(bad, b);
    const params_file_t p(bad, unchecked);
    CHECK(error_of([&] { p.g1(p.b_g1(), 0); }).find("invalid flag bits") != std::string::npos);
  }
}

TEST_CASE("bellperson: the params writer refuses what no reader accepts") {
  zk::test::temp_dir_t dir("fc_writer");
  const std::string path = dir.path().string() + "/w.params";
  const verifying_key_t vk = random_vk(1);
  const g1_affine_t inf = g1_affine_t::infinity(), p = random_g1<curve_t>();
  {
    params_writer_t w(path, vk);
    w.begin_section(2);
    w.append_g1(&p, 1);
    CHECK_THROWS_AS(w.append_g1(&inf, 1), std::invalid_argument);
    CHECK_THROWS_AS(w.begin_section(1), std::invalid_argument);  // h got 1 of 2
  }
  CHECK(!std::ifstream(path).good());  // unfinished: removed
  {
    params_writer_t w(path, vk);
    for (int s = 0; s < 4; ++s) {
      w.begin_section(1);
      CHECK_THROWS_AS(w.append_g2(nullptr, 0), std::invalid_argument);
      w.append_g1(&p, 1);
    }
    CHECK_THROWS_AS(w.finish(), std::invalid_argument);  // b_g2 missing
  }
}
