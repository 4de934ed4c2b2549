#include "common/buffer/synth_buffer.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "common/buffer/checksum.hpp"
#include "zk/base/error.hpp"
#include "zk/base/le_bytes.hpp"
#include "zk/formats/packed_witness.hpp"

namespace zk::buffer {
namespace {

// Byte offsets of the header fields (the table in synth_buffer.hpp).
namespace off {
constexpr size_t magic = 0, version = 4, header_size = 6, curve = 8, flags = 10, fr_bytes = 12,
                 digest = 16, job_id = 48, partition = 56, reserved0 = 60, n_vars = 64,
                 n_public = 72, domain_rows = 80, payload_bytes = 88, payload_checksum = 96,
                 reserved1 = 104, header_checksum = 120;
}  // namespace off

std::string msg(header_field_t f, const std::string& what) {
  return std::string("synth header: ") + field_name(f) + ": " + what;
}

}  // namespace

namespace {

// The header's fields at their offsets, once for both directions: f(offset, field) for each
// integer, raw(offset, bytes) for each byte array.
template <class H, class Int, class Raw>
void for_each_field(H& h, Int f, Raw raw) {
  f(off::magic, h.magic);
  f(off::version, h.version);
  f(off::header_size, h.header_size);
  f(off::curve, h.curve);
  f(off::flags, h.flags);
  f(off::fr_bytes, h.fr_bytes);
  raw(off::digest, h.circuit_digest);
  f(off::job_id, h.job_id);
  f(off::partition, h.partition);
  f(off::reserved0, h.reserved0);
  f(off::n_vars, h.n_vars);
  f(off::n_public, h.n_public);
  f(off::domain_rows, h.domain_rows);
  f(off::payload_bytes, h.payload_bytes);
  f(off::payload_checksum, h.payload_checksum);
  raw(off::reserved1, h.reserved1);
  f(off::header_checksum, h.header_checksum);
}

}  // namespace

header_bytes_t encode_header(const synth_header_t& h) {
  header_bytes_t b{};
  uint8_t* p = b.data();
  for_each_field(
      h, [p](size_t at, auto v) { le_put(p, at, v); },
      [p](size_t at, const auto& bytes) { std::memcpy(p + at, bytes.data(), bytes.size()); });
  return b;
}

synth_header_t decode_header(const uint8_t* p) {
  synth_header_t h;
  for_each_field(
      h, [p](size_t at, auto& v) { v = le_get<std::remove_reference_t<decltype(v)>>(p, at); },
      [p](size_t at, auto& bytes) { std::memcpy(bytes.data(), p + at, bytes.size()); });
  return h;
}

uint64_t compute_header_checksum(const synth_header_t& h) {
  const header_bytes_t b = encode_header(h);
  return xxh64(b.data(), off::header_checksum);
}

uint64_t payload_bytes_for(uint64_t n_vars, uint64_t domain_rows, synth_shape_t shape) {
  if (n_vars > max_count || domain_rows > max_count) return 0;
  if (shape == synth_shape_t::packed_witness) return formats::packed_witness_bytes(n_vars, n_vars);
  uint64_t elems = n_vars;
  if (shape == synth_shape_t::abc_witness) elems += 3 * domain_rows;
  return elems * fr_bytes;  // ≤ 2^32·4·32 = 2^39: no overflow
}

namespace {
// The payload sizes a header's counts allow: [min, max].
std::pair<uint64_t, uint64_t> payload_range(const synth_header_t& h) {
  const uint64_t max = payload_bytes_for(h.n_vars, h.domain_rows, h.shape());
  if (h.shape() != synth_shape_t::packed_witness) return {max, max};
  return {formats::packed_witness_bytes(h.n_vars, 0), max};
}
}  // namespace

payload_layout_t payload_layout(const synth_header_t& h) {
  payload_layout_t l;
  l.witness = 0;
  l.a = h.n_vars * fr_bytes;
  if (h.shape() == synth_shape_t::packed_witness) {
    l.a = l.b = l.c = l.end = h.payload_bytes;
  } else if (h.shape() == synth_shape_t::abc_witness) {
    l.b = l.a + h.domain_rows * fr_bytes;
    l.c = l.b + h.domain_rows * fr_bytes;
    l.end = l.c + h.domain_rows * fr_bytes;
  } else {
    l.b = l.c = l.end = l.a;
  }
  return l;
}

uint64_t payload_checksum(const std::vector<byte_span_t>& payload) {
  xxh64_state_t s;
  for (const auto& piece : payload) s.update(piece.data, piece.size);
  return s.digest();
}

synth_header_t make_header(const synth_params_t& p, const std::vector<byte_span_t>& payload) {
  synth_header_t h;
  h.curve = curve_code(p.curve);
  h.flags = p.shape == synth_shape_t::abc_witness      ? flag_abc
            : p.shape == synth_shape_t::packed_witness ? flag_packed
                                                       : 0;
  h.circuit_digest = p.circuit_digest;
  h.job_id = p.job_id;
  h.partition = p.partition;
  h.n_vars = p.n_vars;
  h.n_public = p.n_public;
  h.domain_rows = p.domain_rows;
  uint64_t given = 0;
  for (const auto& piece : payload) given += piece.size;
  h.payload_bytes = given;
  const auto [lo, hi] = payload_range(h);
  if (given < lo || given > hi) {
    throw std::invalid_argument(
        "make_header: payload pieces hold " + std::to_string(given) + " bytes, the counts need " +
        (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)));
  }
  h.payload_checksum = payload_checksum(payload);
  h.header_checksum = compute_header_checksum(h);
  if (auto err = validate_header(h)) throw std::invalid_argument("make_header: " + err->message);
  return h;
}

const char* field_name(header_field_t f) {
  switch (f) {
    case header_field_t::magic:
      return "magic";
    case header_field_t::version:
      return "version";
    case header_field_t::header_size:
      return "header_size";
    case header_field_t::header_checksum:
      return "header_checksum";
    case header_field_t::curve:
      return "curve";
    case header_field_t::flags:
      return "flags";
    case header_field_t::fr_bytes:
      return "fr_bytes";
    case header_field_t::reserved:
      return "reserved";
    case header_field_t::n_vars:
      return "n_vars";
    case header_field_t::n_public:
      return "n_public";
    case header_field_t::domain_rows:
      return "domain_rows";
    case header_field_t::payload_bytes:
      return "payload_bytes";
  }
  return "?";
}

std::optional<header_error_t> validate_header(const synth_header_t& h, uint64_t max_payload_bytes) {
  auto fail = [](header_field_t f, const std::string& what) {
    return std::optional<header_error_t>(header_error_t{f, msg(f, what)});
  };
  using std::to_string;
  if (h.magic != synth_magic) {
    return fail(header_field_t::magic, hex(h.magic) + " is not \"ZKSB\" (0x42534b5a)");
  }
  if (h.version != synth_version) {
    return fail(header_field_t::version, to_string(h.version) + " is not supported (expected " +
                                             to_string(synth_version) + ")");
  }
  if (h.header_size != synth_header_size) {
    return fail(header_field_t::header_size,
                to_string(h.header_size) + " (expected " + to_string(synth_header_size) + ")");
  }
  const uint64_t want = compute_header_checksum(h);
  if (h.header_checksum != want) {
    return fail(header_field_t::header_checksum, hex(h.header_checksum) +
                                                     " does not match the header bytes (" +
                                                     hex(want) + "): corrupted header");
  }
  if (!curve_from_code(h.curve)) {
    return fail(header_field_t::curve,
                to_string(h.curve) + " is not a known curve (1 = BN254, 2 = BLS12-381)");
  }
  if ((h.flags & ~(flag_abc | flag_packed)) != 0) {
    return fail(header_field_t::flags,
                hex(h.flags) +
                    " has unknown bits (only bit 0, abc+witness, and bit 1, packed, are defined)");
  }
  if ((h.flags & flag_abc) && (h.flags & flag_packed)) {
    return fail(header_field_t::flags,
                hex(h.flags) + ": abc+witness and packed exclude each other");
  }
  if (h.fr_bytes != fr_bytes) {
    return fail(header_field_t::fr_bytes, to_string(h.fr_bytes) + " (expected 32)");
  }
  bool reserved_zero = h.reserved0 == 0;
  for (uint8_t b : h.reserved1) reserved_zero = reserved_zero && b == 0;
  if (!reserved_zero) return fail(header_field_t::reserved, "reserved bytes are not zero");
  if (h.n_vars == 0 || h.n_vars > max_count) {
    return fail(header_field_t::n_vars, to_string(h.n_vars) + " is out of range [1, 2^32]");
  }
  if (h.n_public >= h.n_vars) {
    return fail(header_field_t::n_public,
                to_string(h.n_public) + " must be below n_vars = " + to_string(h.n_vars));
  }
  if (h.domain_rows > max_count || h.domain_rows < h.n_public + 1) {
    return fail(header_field_t::domain_rows,
                to_string(h.domain_rows) +
                    " is out of range [n_public + 1 = " + to_string(h.n_public + 1) + ", 2^32]");
  }
  const auto [lo, hi] = payload_range(h);
  if (h.shape() == synth_shape_t::packed_witness) {
    if (h.payload_bytes < lo || h.payload_bytes > hi)
      return fail(header_field_t::payload_bytes,
                  to_string(h.payload_bytes) +
                      " does not fit the counts (a packed witness of n_vars values: " +
                      to_string(lo) + " to " + to_string(hi) + ")");
  } else if (h.payload_bytes != hi) {
    return fail(header_field_t::payload_bytes,
                to_string(h.payload_bytes) + " does not match the counts (" +
                    (h.shape() == synth_shape_t::abc_witness ? "32·(n_vars + 3·domain_rows) = "
                                                             : "32·n_vars = ") +
                    to_string(hi) + ")");
  }
  if (h.payload_bytes > max_payload_bytes) {
    return fail(header_field_t::payload_bytes, to_string(h.payload_bytes) +
                                                   " exceeds the receiver's limit of " +
                                                   to_string(max_payload_bytes) + " bytes");
  }
  return std::nullopt;
}

}  // namespace zk::buffer
