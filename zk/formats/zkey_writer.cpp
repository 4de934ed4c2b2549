#include "zk/formats/zkey_writer.hpp"

#include <cerrno>
#include <cstring>

#include "zk/base/error.hpp"

namespace zk::formats {

namespace {

constexpr uint32_t zkey_version = 1;
constexpr uint32_t zkey_n_sections = 10;
constexpr size_t write_buffer_size = size_t(4) << 20;

}  // namespace

zkey_writer_t::zkey_writer_t(std::string path, const zkey_header_t& header, uint64_t n_coefficients)
    : path_(std::move(path)), tmp_path_(path_ + ".tmp"), header_(header), n_coefs_(n_coefficients) {
  const zkey_header_t& h = header_;
  if (!valid_field_size(h.n8q) || !valid_field_size(h.n8r)) {
    fail("n8q = " + std::to_string(h.n8q) + ", n8r = " + std::to_string(h.n8r) +
         ": field sizes must be positive multiples of 8 up to 256");
  }
  if (h.q == nullptr || h.r == nullptr || h.alpha1 == nullptr || h.beta1 == nullptr ||
      h.beta2 == nullptr || h.gamma2 == nullptr || h.delta1 == nullptr || h.delta2 == nullptr) {
    fail("header is missing q, r or one of the six verification-key points");
  }
  // snarkjs picks the curve from q (getCurveFromQ) and rapidsnark checks r: both must be known.
  const auto by_q = curve_from_base_prime(h.q, h.n8q);
  if (!by_q || curve_from_scalar_prime(h.r, h.n8r) != by_q) {
    fail("unknown curve: q = " + hex_le_number(h.q, h.n8q) + ", r = " + hex_le_number(h.r, h.n8r));
  }
  if (h.domain_size == 0 || (h.domain_size & (h.domain_size - 1)) != 0) {
    fail("domainSize = " + std::to_string(h.domain_size) + " is not a power of two");
  }
  if (uint64_t(h.n_public) + 1 > h.n_vars) {
    fail("nPublic = " + std::to_string(h.n_public) +
         " must be below nVars = " + std::to_string(h.n_vars));
  }
  if (n_coefs_ > UINT32_MAX) fail("nCoef = " + std::to_string(n_coefs_) + " does not fit a u32");

  f_ = std::fopen(tmp_path_.c_str(), "wb");
  if (f_ == nullptr) fail_io("cannot create");
  buffer_.resize(write_buffer_size);
  std::setvbuf(f_, buffer_.data(), _IOFBF, buffer_.size());
  try {
    write_head();
  } catch (...) {
    // The destructor does not run for a constructor that throws.
    std::fclose(f_);
    std::remove(tmp_path_.c_str());
    throw;
  }
}

// File head (§1.1) and sections 1 and 2.
void zkey_writer_t::write_head() {
  const zkey_header_t& h = header_;
  put("zkey", 4);
  put_u32(zkey_version);
  put_u32(zkey_n_sections);

  // Section 1: protocol.
  begin_record(zkey_section::protocol, 4);
  put_u32(zkey_protocol_groth16);

  // Section 2: Groth16 header (§2.3), α₁ β₁ β₂ γ₂ δ₁ δ₂ in that order.
  begin_record(zkey_section::header, expected_size(zkey_section::header));
  put_u32(h.n8q);
  put(h.q, h.n8q);
  put_u32(h.n8r);
  put(h.r, h.n8r);
  put_u32(h.n_vars);
  put_u32(h.n_public);
  put_u32(h.domain_size);
  put(h.alpha1, h.g1_size());
  put(h.beta1, h.g1_size());
  put(h.beta2, h.g2_size());
  put(h.gamma2, h.g2_size());
  put(h.delta1, h.g1_size());
  put(h.delta2, h.g2_size());
}

zkey_writer_t::~zkey_writer_t() {
  if (f_ != nullptr) std::fclose(f_);
  if (!finished_) std::remove(tmp_path_.c_str());
}

uint64_t zkey_writer_t::expected_size(uint32_t id) const {
  const zkey_header_t& h = header_;
  switch (id) {
    case zkey_section::header:
      return 4ull + h.n8q + 4 + h.n8r + 12 + 3 * uint64_t(h.g1_size()) + 3 * uint64_t(h.g2_size());
    case zkey_section::coefficients:
      return 4 + n_coefs_ * h.coef_size();
    case zkey_section::mpc_params:
      return zkey_circuit_hash_size + 4;
    default: {  // the point sections, as the reader expects them
      const zkey_point_section_t p = zkey_points_of(h, id);
      return p.count * p.point_size;
    }
  }
}

void zkey_writer_t::put(const void* data, uint64_t n) {
  if (n != 0 && std::fwrite(data, 1, n, f_) != n) fail_io("write failed on");
}

void zkey_writer_t::put_u32(uint32_t v) {
  uint8_t b[4];
  store_u32(b, v);
  put(b, 4);
}

void zkey_writer_t::begin_record(uint32_t id, uint64_t size) {
  uint8_t head[12];
  store_u32(head, id);
  store_u64(head + 4, size);
  put(head, sizeof head);
}

void zkey_writer_t::begin_section(uint32_t id) {
  if (current_ != 0)
    fail("begin_section(" + std::to_string(id) + ") while section " + std::to_string(current_) +
         " is still open");
  if (id != next_section_) {
    fail("sections must be written in order: expected section " + std::to_string(next_section_) +
         ", got " + std::to_string(id));
  }
  current_ = id;
  written_ = 0;
  begin_record(id, expected_size(id));
  if (id == zkey_section::coefficients) {
    put_u32(static_cast<uint32_t>(n_coefs_));
    written_ = 4;
  }
}

void zkey_writer_t::write(const uint8_t* data, uint64_t n) {
  if (current_ == 0 || current_ == zkey_section::coefficients) {
    fail("write() needs an open point section (3, 5..9)");
  }
  if (n > expected_size(current_) - written_) {
    fail(section_label(current_, nullptr) + ": " + std::to_string(written_ + n) +
         " bytes exceed its length " + std::to_string(expected_size(current_)));
  }
  put(data, n);
  written_ += n;
}

void zkey_writer_t::add_coefficient(uint32_t matrix, uint32_t constraint, uint32_t signal,
                                    const uint8_t* value) {
  if (current_ != zkey_section::coefficients) fail("add_coefficient() outside section 4");
  const zkey_header_t& h = header_;
  check_t fits;
  if (coefs_written_ >= n_coefs_) {
    fits = "more records than nCoef = " + std::to_string(n_coefs_);
  } else if ((fits = check_zkey_coefficient(h, matrix, constraint, signal, value)) &&
             constraint < last_constraint_) {
    fits = "constraint " + std::to_string(constraint) + " follows constraint " +
           std::to_string(last_constraint_) + ": records must be sorted by constraint";
  }
  if (!fits) fail("coefficient " + std::to_string(coefs_written_) + ": " + fits.reason());

  uint8_t record[12 + max_field_bytes];  // n8r <= max_field_bytes (checked in the constructor)
  store_u32(record, matrix);
  store_u32(record + 4, constraint);
  store_u32(record + 8, signal);
  std::memcpy(record + 12, value, h.n8r);
  put(record, h.coef_size());
  last_constraint_ = constraint;
  ++coefs_written_;
  written_ += h.coef_size();
}

void zkey_writer_t::add_coefficients(const coef_span_t& records) {
  if (records.n8r != header_.n8r) {
    fail("coefficient records have n8r = " + std::to_string(records.n8r) +
         " but the header has n8r = " + std::to_string(header_.n8r));
  }
  for (uint64_t i = 0; i < records.count; ++i) {
    const coef_record_t c = records[i];
    add_coefficient(c.matrix, c.constraint, c.signal, c.value);
  }
}

void zkey_writer_t::end_section() {
  if (current_ == 0) fail("end_section() with no open section");
  const uint64_t expected = expected_size(current_);
  if (written_ != expected) {
    fail(section_label(current_, nullptr) + ": got " + std::to_string(written_) +
         " bytes, its length is " + std::to_string(expected));
  }
  current_ = 0;
  ++next_section_;
}

void zkey_writer_t::finish(const uint8_t* circuit_hash) {
  if (current_ != 0 || next_section_ != zkey_section::mpc_params) {
    fail("finish() before sections 3..9 were all written");
  }
  begin_record(zkey_section::mpc_params, expected_size(zkey_section::mpc_params));
  put(circuit_hash, zkey_circuit_hash_size);
  put_u32(0);  // nContributions

  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) fail_io("cannot close");
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) fail_io("cannot rename");
  finished_ = true;
}

void zkey_writer_t::fail(const std::string& what) const { throw_file_error(path_, what); }

void zkey_writer_t::fail_io(const char* what) const {
  throw_file_error(tmp_path_, std::string(what) + ": " + std::strerror(errno));
}

zkey_sections_t sections_of(const zkey_file_t& zkey) {
  auto raw = [](const point_span_t& p) { return byte_span_t{p.data, p.size_bytes()}; };
  return {raw(zkey.ic()), zkey.coefficients(), raw(zkey.a()), raw(zkey.b1()),
          raw(zkey.b2()), raw(zkey.c()),       raw(zkey.h())};
}

void write_zkey(const std::string& path, const zkey_header_t& header,
                const zkey_sections_t& sections, const uint8_t* circuit_hash) {
  zkey_writer_t w(path, header, sections.coefficients.count);
  const byte_span_t* points[] = {&sections.ic, nullptr,     &sections.a, &sections.b1,
                                 &sections.b2, &sections.c, &sections.h};
  for (uint32_t id = zkey_section::ic; id <= zkey_section::points_h; ++id) {
    w.begin_section(id);
    if (id == zkey_section::coefficients) {
      w.add_coefficients(sections.coefficients);
    } else {
      const byte_span_t& s = *points[id - zkey_section::ic];
      w.write(s.data, s.size);
    }
    w.end_section();
  }
  w.finish(circuit_hash);
}

}  // namespace zk::formats
