#pragma once
// The synth buffer (docs/design.md "Synth buffers"): a fixed 128-byte header followed
// by raw arrays of Fr, 32 bytes an element. It is the unit a synthesis node keeps in its buffer
// store and the data plane moves to a prover node; its header is also the data-plane frame header
// (common/net/README.md), so the frame's version, length and checksum are these fields.
//
// Header, little-endian, fixed offsets (version 1):
//
//   off size field             meaning
//     0   4 magic             "ZKSB"
//     4   2 version           1
//     6   2 header_size       128
//     8   2 curve             1 = BN254, 2 = BLS12-381
//    10   2 flags             bit 0: shape abc+witness (a, b, c follow the witness); bit 1:
//                             packed witness (the witness alone, packed: the prover rebuilds
//                             a, b, c); neither: witness-only. At most one; others zero.
//    12   4 fr_bytes          32 (bytes per Fr element; both curves' Fr fit 4 limbs)
//    16  32 circuit_digest    identifies the circuit (and key) the buffer was made for
//    48   8 job_id
//    56   4 partition
//    60   4 reserved          zero
//    64   8 n_vars            witness length, including the constant 1 at index 0
//    72   8 n_public          public signals (outputs + public inputs); n_public < n_vars
//    80   8 domain_rows       rows of a, b, c (the first rows of the domain, the rest is zero):
//                             ≥ n_public + 1, the input rows must be included (prover.hpp
//                             load_abc)
//    88   8 payload_bytes     32·n_vars, plus 3·32·domain_rows for abc+witness; packed: the
//                             packed witness's size, within what n_vars allows
//    96   8 payload_checksum  XXH64 (seed 0) of the payload bytes (checksum.hpp)
//   104  16 reserved          zero
//   120   8 header_checksum   XXH64 of header bytes [0, 120)
//
// Payload: witness[n_vars] (canonical little-endian, as in .wtns), then for abc+witness
// a[domain_rows], b[domain_rows], c[domain_rows] (Montgomery form, as prover_t::load_abc takes
// them); packed: zk/formats/packed_witness.hpp's bytes for n_vars values, and the prover rebuilds
// a, b, c (its domain_rows rows) from them with the circuit's structure. Limits: n_vars and
// domain_rows at most 2^32 each, so sizes never overflow.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/curve_id.hpp"

namespace zk::buffer {

inline constexpr uint32_t synth_magic = 0x42534b5a;  // "ZKSB" read as a little-endian u32
inline constexpr uint16_t synth_version = 1;
inline constexpr size_t synth_header_size = 128;
inline constexpr uint32_t fr_bytes = 32;
inline constexpr uint64_t max_count = uint64_t(1) << 32;  // n_vars, domain_rows

enum class synth_shape_t { witness_only, abc_witness, packed_witness };
inline constexpr uint16_t flag_abc = 1;
inline constexpr uint16_t flag_packed = 2;

// Curves in the header: curve_id_t's value is the code (curve_from_code reads it).
inline constexpr uint16_t curve_code(curve_id_t c) { return uint16_t(c); }

using digest_t = std::array<uint8_t, 32>;
using header_bytes_t = std::array<uint8_t, synth_header_size>;

// The header as fields. decode_header fills it verbatim (reserved bytes included), so a decoded
// header re-encodes to the same bytes and validate_header can check its checksum.
struct synth_header_t {
  uint32_t magic = synth_magic;
  uint16_t version = synth_version;
  uint16_t header_size = synth_header_size;
  uint16_t curve = curve_code(curve_id_t::bn254);
  uint16_t flags = 0;
  uint32_t fr_bytes = buffer::fr_bytes;
  digest_t circuit_digest{};
  uint64_t job_id = 0;
  uint32_t partition = 0;
  uint32_t reserved0 = 0;
  uint64_t n_vars = 0;
  uint64_t n_public = 0;
  uint64_t domain_rows = 0;
  uint64_t payload_bytes = 0;
  uint64_t payload_checksum = 0;
  std::array<uint8_t, 16> reserved1{};
  uint64_t header_checksum = 0;

  synth_shape_t shape() const {
    if (flags & flag_abc) return synth_shape_t::abc_witness;
    if (flags & flag_packed) return synth_shape_t::packed_witness;
    return synth_shape_t::witness_only;
  }
};

header_bytes_t encode_header(const synth_header_t& h);
synth_header_t decode_header(const uint8_t* bytes);  // synth_header_size bytes, not validated
// XXH64 of the first 120 encoded bytes: the value header_checksum must hold.
uint64_t compute_header_checksum(const synth_header_t& h);

// Payload size for these counts (0 when a count exceeds max_count); packed: the largest a packed
// witness of n_vars values can be (every value "other").
uint64_t payload_bytes_for(uint64_t n_vars, uint64_t domain_rows, synth_shape_t shape);

// Byte offsets of the arrays within the payload (a/b/c only for abc+witness; packed: the packed
// witness from 0 to end).
struct payload_layout_t {
  uint64_t witness = 0, a = 0, b = 0, c = 0, end = 0;
};
payload_layout_t payload_layout(const synth_header_t& h);

// One contiguous piece of a payload (the payload may be gathered from separate arrays).
struct byte_span_t {
  const void* data;
  size_t size;
};

// What the synthesizer knows; make_header adds sizes and checksums.
struct synth_params_t {
  curve_id_t curve = curve_id_t::bn254;
  digest_t circuit_digest{};
  uint64_t job_id = 0;
  uint32_t partition = 0;
  uint64_t n_vars = 0;
  uint64_t n_public = 0;
  uint64_t domain_rows = 0;
  synth_shape_t shape = synth_shape_t::abc_witness;
};

// A sealed, valid header for the payload given as pieces in order (witness, then a, b, c).
// Throws std::invalid_argument when the counts are invalid or the pieces do not add up to
// payload_bytes_for(counts) (packed: a size a packed witness of n_vars values can have) — a caller
// bug, not bad input.
synth_header_t make_header(const synth_params_t& p, const std::vector<byte_span_t>& payload);

// The header field a validation error is about.
enum class header_field_t {
  magic,
  version,
  header_size,
  header_checksum,
  curve,
  flags,
  fr_bytes,
  reserved,
  n_vars,
  n_public,
  domain_rows,
  payload_bytes,
};
const char* field_name(header_field_t f);

struct header_error_t {
  header_field_t field;
  std::string message;  // "synth header: version: 7 is not supported (expected 1)"
};

// Every field of a received header, in wire order of trust: magic, version, header_size, then the
// header checksum (so a corrupted header reads as corruption, not as nonsense counts), then curve,
// flags, fr_bytes, reserved bytes, counts and the payload length they imply, and the payload
// length against max_payload_bytes (the receiver's limit). nullopt when valid.
std::optional<header_error_t> validate_header(const synth_header_t& h,
                                              uint64_t max_payload_bytes = UINT64_MAX);

// XXH64 of the payload pieces in order.
uint64_t payload_checksum(const std::vector<byte_span_t>& payload);

}  // namespace zk::buffer
