#include "common/buffer/synth_buffer.hpp"

#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffer/checksum.hpp"

using namespace zk::buffer;

namespace {

struct sample_t {
  std::vector<uint8_t> witness, a, b, c;
  synth_params_t params;
  std::vector<byte_span_t> spans() const {
    std::vector<byte_span_t> s{{witness.data(), witness.size()}};
    if (params.shape == synth_shape_t::abc_witness) {
      s.push_back({a.data(), a.size()});
      s.push_back({b.data(), b.size()});
      s.push_back({c.data(), c.size()});
    }
    return s;
  }
};

sample_t sample(synth_shape_t shape, uint64_t n_vars = 10, uint64_t rows = 16) {
  sample_t s;
  s.params.curve = zk::curve_id_t::bls12_381;
  for (size_t i = 0; i < 32; ++i) s.params.circuit_digest[i] = uint8_t(i + 1);
  s.params.job_id = 0x1122334455667788ULL;
  s.params.partition = 3;
  s.params.n_vars = n_vars;
  s.params.n_public = 2;
  s.params.domain_rows = rows;
  s.params.shape = shape;
  s.witness.resize(n_vars * 32);
  for (size_t i = 0; i < s.witness.size(); ++i) s.witness[i] = uint8_t(i);
  if (shape == synth_shape_t::abc_witness) {
    s.a.assign(rows * 32, 0xa1);
    s.b.assign(rows * 32, 0xb2);
    s.c.assign(rows * 32, 0xc3);
  }
  return s;
}

// Re-seals the header checksum after a field was changed on purpose.
synth_header_t reseal(synth_header_t h) {
  h.header_checksum = compute_header_checksum(h);
  return h;
}

header_field_t failing_field(const synth_header_t& h) {
  auto e = validate_header(h);
  REQUIRE(e.has_value());
  return e->field;
}

}  // namespace

TEST_CASE("make_header seals a valid header that round-trips through its bytes") {
  for (auto shape : {synth_shape_t::abc_witness, synth_shape_t::witness_only}) {
    auto s = sample(shape);
    const synth_header_t h = make_header(s.params, s.spans());
    CHECK_FALSE(validate_header(h).has_value());
    CHECK(h.payload_bytes == (shape == synth_shape_t::abc_witness ? 32 * (10 + 3 * 16) : 32 * 10));
    std::vector<uint8_t> all;
    for (auto& sp : s.spans())
      all.insert(all.end(), (const uint8_t*)sp.data, (const uint8_t*)sp.data + sp.size);
    CHECK(h.payload_checksum == xxh64(all.data(), all.size()));
    const header_bytes_t bytes = encode_header(h);
    CHECK(bytes[0] == 'Z');
    CHECK(bytes[3] == 'B');
    const synth_header_t back = decode_header(bytes.data());
    CHECK(encode_header(back) == bytes);
    CHECK_FALSE(validate_header(back).has_value());
    CHECK(back.job_id == 0x1122334455667788ULL);
    CHECK(back.partition == 3);
    CHECK(back.shape() == shape);
    CHECK(zk::curve_from_code(back.curve) == zk::curve_id_t::bls12_381);
    const auto l = payload_layout(back);
    CHECK(l.a == 320);
    CHECK(l.end == back.payload_bytes);
  }
}

TEST_CASE("make_header refuses pieces that do not add up to the counts") {
  auto s = sample(synth_shape_t::abc_witness);
  s.c.pop_back();
  CHECK_THROWS_AS(make_header(s.params, s.spans()), std::invalid_argument);
  auto w = sample(synth_shape_t::witness_only);
  w.params.n_public = 10;  // not below n_vars
  CHECK_THROWS_AS(make_header(w.params, w.spans()), std::invalid_argument);
}

TEST_CASE("validate_header names each bad field") {
  auto s = sample(synth_shape_t::abc_witness);
  const synth_header_t good = make_header(s.params, s.spans());

  auto h = good;
  h.magic = 0x12345678;
  CHECK(failing_field(h) == header_field_t::magic);
  CHECK(validate_header(h)->message.find("synth header: magic: ") == 0);

  h = good;
  h.version = 7;
  CHECK(failing_field(h) == header_field_t::version);
  CHECK(validate_header(h)->message == "synth header: version: 7 is not supported (expected 1)");

  h = good;
  h.header_size = 64;
  CHECK(failing_field(h) == header_field_t::header_size);

  h = good;
  h.n_vars += 1;  // not resealed: reads as corruption
  CHECK(failing_field(h) == header_field_t::header_checksum);

  h = good;
  h.curve = 9;
  CHECK(failing_field(reseal(h)) == header_field_t::curve);
  h = good;
  h.flags = 0x8001;
  CHECK(failing_field(reseal(h)) == header_field_t::flags);
  h = good;
  h.fr_bytes = 48;
  CHECK(failing_field(reseal(h)) == header_field_t::fr_bytes);
  h = good;
  h.reserved1[5] = 1;
  CHECK(failing_field(reseal(h)) == header_field_t::reserved);
  h = good;
  h.n_vars = 0;
  CHECK(failing_field(reseal(h)) == header_field_t::n_vars);
  h = good;
  h.n_vars = (uint64_t(1) << 32) + 1;
  CHECK(failing_field(reseal(h)) == header_field_t::n_vars);
  h = good;
  h.n_public = h.n_vars;
  CHECK(failing_field(reseal(h)) == header_field_t::n_public);
  h = good;
  h.domain_rows = 2;  // below n_public + 1 = 3
  CHECK(failing_field(reseal(h)) == header_field_t::domain_rows);
  h = good;
  h.payload_bytes -= 32;
  CHECK(failing_field(reseal(h)) == header_field_t::payload_bytes);
  h = good;
  h.flags = 0;  // witness-only: the length no longer matches the counts
  CHECK(failing_field(reseal(h)) == header_field_t::payload_bytes);

  // The receiver's limit.
  CHECK_FALSE(validate_header(good, good.payload_bytes).has_value());
  auto e = validate_header(good, good.payload_bytes - 1);
  REQUIRE(e.has_value());
  CHECK(e->field == header_field_t::payload_bytes);
  CHECK(e->message.find("exceeds the receiver's limit") != std::string::npos);
}

TEST_CASE("a packed-witness header: any size a packed witness of n_vars values can have") {
  // zk/formats/packed_witness.hpp: 24 bytes, 2 bits a value, 32 bytes an "other" value.
  synth_params_t p;
  p.curve = zk::curve_id_t::bls12_381;
  p.n_vars = 10;
  p.n_public = 2;
  p.domain_rows = 20;
  p.shape = synth_shape_t::packed_witness;
  CHECK(payload_bytes_for(10, 20, synth_shape_t::packed_witness) == 24 + 3 + 320);
  for (uint64_t bytes : {uint64_t(24 + 3), uint64_t(24 + 3 + 32 * 4), uint64_t(24 + 3 + 320)}) {
    std::vector<uint8_t> payload(bytes, 0);
    const synth_header_t h = make_header(p, {{payload.data(), payload.size()}});
    CHECK(h.shape() == synth_shape_t::packed_witness);
    CHECK(h.flags == flag_packed);
    CHECK_FALSE(validate_header(h).has_value());
    CHECK(payload_layout(h).end == bytes);
  }
  std::vector<uint8_t> payload(24 + 3 + 32, 0);
  synth_header_t h = make_header(p, {{payload.data(), payload.size()}});
  for (uint64_t bad : {uint64_t(24 + 2), uint64_t(24 + 3 + 321)}) {
    h.payload_bytes = bad;
    const auto e = validate_header(reseal(h));
    REQUIRE(e.has_value());
    CHECK(e->field == header_field_t::payload_bytes);
    CHECK_MESSAGE(
        e->message.find("a packed witness of n_vars values: 27 to 347") != std::string::npos,
        e->message);
  }
  h.flags = flag_packed | flag_abc;
  h.payload_bytes = payload.size();
  CHECK(failing_field(reseal(h)) == header_field_t::flags);
  std::vector<uint8_t> short_payload(20, 0);
  CHECK_THROWS_AS(make_header(p, {{short_payload.data(), short_payload.size()}}),
                  std::invalid_argument);
}

TEST_CASE("payload_bytes_for refuses counts beyond 2^32") {
  CHECK(payload_bytes_for(5, 8, synth_shape_t::abc_witness) == 32 * 29);
  CHECK(payload_bytes_for(5, 8, synth_shape_t::witness_only) == 160);
  CHECK(payload_bytes_for((uint64_t(1) << 32) + 1, 1, synth_shape_t::witness_only) == 0);
}

TEST_CASE("every single-bit flip of an encoded header is rejected, naming a field") {
  auto s = sample(synth_shape_t::abc_witness);
  const header_bytes_t good = encode_header(make_header(s.params, s.spans()));
  for (size_t byte = 0; byte < synth_header_size; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      header_bytes_t b = good;
      b[byte] ^= uint8_t(1u << bit);
      const auto err = validate_header(decode_header(b.data()));
      REQUIRE_MESSAGE(err.has_value(), "byte " << byte << " bit " << bit);
      // Flips in magic, version and header_size name those fields; any other is caught by the
      // header checksum (and a flip in the checksum itself too).
      const header_field_t want = byte < 4   ? header_field_t::magic
                                  : byte < 6 ? header_field_t::version
                                  : byte < 8 ? header_field_t::header_size
                                             : header_field_t::header_checksum;
      CHECK(err->field == want);
    }
  }
}

TEST_CASE("random header bytes never validate and never crash the validator") {
  std::mt19937_64 g(11);
  for (int i = 0; i < 20000; ++i) {
    header_bytes_t b;
    for (auto& x : b) x = uint8_t(g());
    if (i % 2 == 0) {  // valid magic/version/size so the later checks run too
      b[0] = 'Z', b[1] = 'K', b[2] = 'S', b[3] = 'B', b[4] = 1, b[5] = 0, b[6] = 128, b[7] = 0;
    }
    synth_header_t h = decode_header(b.data());
    if (i % 4 == 0) h.header_checksum = compute_header_checksum(h);  // past the checksum as well
    CHECK(validate_header(h).has_value());
  }
}
