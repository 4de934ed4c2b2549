#include "zk/bellperson/groth16/files.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/thread_pool.hpp"

namespace zk::bellperson {

namespace {

uint32_t load_u32_be(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
void store_u32_be(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

// A proof or verifying key file is far smaller (a 32 GiB sector proof: 1,920 bytes).
constexpr uint64_t small_file_limit = uint64_t(1) << 30;

std::string at(uint64_t offset) { return "offset " + zk::hex(offset); }

// "<what> (offset 0x…)" or "<what> (point i, offset 0x…)".
std::string vk_where(const std::string& what, int64_t index, uint64_t offset) {
  return what + " (" + (index >= 0 ? "point " + std::to_string(index) + ", " : "") + at(offset) +
         ")";
}

// A key point at an offset: checked, finite; format_error "<file>: <where>: <why>".
g1_affine_t vk_g1(const uint8_t* data, uint64_t offset, bool compressed, std::string_view file,
                  const std::string& what, int64_t index = -1) {
  const auto d = compressed ? decode_g1_compressed(data + offset, point_check_t::subgroup)
                            : decode_g1_uncompressed(data + offset, point_check_t::subgroup);
  if (!d.ok())
    throw_file_error(file, vk_where(what, index, offset) + ": " + point_status_text(d.status));
  if (d.point.is_infinity())
    throw_file_error(file, vk_where(what, index, offset) + ": point at infinity");
  return d.point;
}
g2_affine_t vk_g2(const uint8_t* data, uint64_t offset, bool compressed, std::string_view file,
                  const std::string& what) {
  const auto d = compressed ? decode_g2_compressed(data + offset, point_check_t::subgroup)
                            : decode_g2_uncompressed(data + offset, point_check_t::subgroup);
  if (!d.ok())
    throw_file_error(file, vk_where(what, -1, offset) + ": " + point_status_text(d.status));
  if (d.point.is_infinity())
    throw_file_error(file, vk_where(what, -1, offset) + ": point at infinity");
  return d.point;
}

const char* const section_names[params_file_t::section_count] = {"h", "l", "a", "b_g1", "b_g2"};

}  // namespace

// --- proofs ------------------------------------------------------------------------------------

proof_t decode_proof(const uint8_t* in, std::string_view file, unsigned partition,
                     uint64_t offset) {
  constexpr uint64_t b_at = g1_compressed_size, c_at = g1_compressed_size + g2_compressed_size;
  auto where = [&](const char* part, uint64_t at_) {
    return "partition " + std::to_string(partition) + ": " + part + " (" + at(offset + at_) + "): ";
  };
  const auto a = decode_g1_compressed(in, point_check_t::subgroup);
  if (!a.ok()) throw_file_error(file, where("A", 0) + point_status_text(a.status));
  if (a.point.is_infinity()) throw_file_error(file, where("A", 0) + "point at infinity");
  const auto b = decode_g2_compressed(in + b_at, point_check_t::subgroup);
  if (!b.ok()) throw_file_error(file, where("B", b_at) + point_status_text(b.status));
  if (b.point.is_infinity()) throw_file_error(file, where("B", b_at) + "point at infinity");
  const auto c = decode_g1_compressed(in + c_at, point_check_t::subgroup);
  if (!c.ok()) throw_file_error(file, where("C", c_at) + point_status_text(c.status));
  if (c.point.is_infinity()) throw_file_error(file, where("C", c_at) + "point at infinity");
  return proof_t{a.point, b.point, c.point};
}

void encode_proof(const proof_t& p, uint8_t out[proof_size]) {
  encode_g1_compressed(p.a, out);
  encode_g2_compressed(p.b, out + g1_compressed_size);
  encode_g1_compressed(p.c, out + g1_compressed_size + g2_compressed_size);
}

std::vector<proof_t> decode_proofs(const uint8_t* data, uint64_t n, std::string_view file) {
  if (n == 0 || n % proof_size != 0)
    throw_file_error(file, std::to_string(n) + " bytes: a proof is 192 bytes a partition");
  std::vector<proof_t> out;
  out.reserve(size_t(n / proof_size));
  for (uint64_t k = 0; k < n / proof_size; ++k)
    out.push_back(decode_proof(data + k * proof_size, file, unsigned(k), k * proof_size));
  return out;
}

std::vector<proof_t> read_proof_file(const std::string& path) {
  const std::string bytes = read_text(path, small_file_limit);
  return decode_proofs(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
}

// --- verifying key -----------------------------------------------------------------------------

uint64_t vk_size(vk_encoding_t e, uint64_t n_ic) {
  const uint64_t g1 = e == vk_encoding_t::compressed ? g1_compressed_size : g1_uncompressed_size;
  const uint64_t g2 = e == vk_encoding_t::compressed ? g2_compressed_size : g2_uncompressed_size;
  return 3 * g1 + 3 * g2 + 4 + n_ic * g1;
}

vk_read_t parse_vk(const uint8_t* data, uint64_t n, std::string_view file, bool detect,
                   vk_encoding_t encoding, bool exact) {
  if (n == 0) throw_file_error(file, "verifying key: no bytes");
  vk_read_t r;
  r.encoding = detect ? ((data[0] & 0x80) ? vk_encoding_t::compressed : vk_encoding_t::uncompressed)
                      : encoding;
  const bool c = r.encoding == vk_encoding_t::compressed;
  const uint64_t g1 = c ? g1_compressed_size : g1_uncompressed_size;
  const uint64_t g2 = c ? g2_compressed_size : g2_uncompressed_size;
  const uint64_t fixed = vk_size(r.encoding, 0);
  const char* enc = c ? "compressed" : "uncompressed";
  if (n < fixed)
    throw_file_error(file, std::string("verifying key (") + enc + "): cut short at " + at(n) +
                               ": its fixed part (six points and the IC count) needs " +
                               std::to_string(fixed) + " bytes");
  const uint64_t n_ic = load_u32_be(data + fixed - 4);
  const uint64_t need = n_ic * g1;
  if (need > n - fixed)
    throw_file_error(file, "verifying key: ic count " + std::to_string(n_ic) + " (" +
                               at(fixed - 4) + ") needs " + std::to_string(need) + " bytes, only " +
                               std::to_string(n - fixed) + " follow");
  if (exact && n > fixed + need)
    throw_file_error(file, "verifying key: " + std::to_string(n - fixed - need) +
                               " bytes after the last IC point (" + at(fixed + need) + ")");
  if (n_ic == 0) throw_file_error(file, "verifying key: no IC points (" + at(fixed - 4) + ")");
  verifying_key_t& vk = r.vk;
  vk.alpha_g1 = vk_g1(data, 0, c, file, "verifying key alpha_g1");
  vk.beta_g1 = vk_g1(data, g1, c, file, "verifying key beta_g1");
  vk.beta_g2 = vk_g2(data, 2 * g1, c, file, "verifying key beta_g2");
  vk.gamma_g2 = vk_g2(data, 2 * g1 + g2, c, file, "verifying key gamma_g2");
  vk.delta_g1 = vk_g1(data, 2 * g1 + 2 * g2, c, file, "verifying key delta_g1");
  vk.delta_g2 = vk_g2(data, 3 * g1 + 2 * g2, c, file, "verifying key delta_g2");
  vk.ic.resize(size_t(n_ic));
  for (uint64_t i = 0; i < n_ic; ++i)
    vk.ic[size_t(i)] = vk_g1(data, fixed + i * g1, c, file, "verifying key ic", int64_t(i));
  r.size = fixed + need;
  return r;
}

namespace {

// Whether the file is a whole .params (its heads read; no point decoded): said when it was given
// for a .vk.
bool is_params_file(const std::string& path) {
  try {
    params_file_t f(path, params_file_t::mode_t::unchecked);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

vk_read_t read_vk_file(const std::string& path) {
  try {
    const std::string bytes = read_text(path, small_file_limit);
    return parse_vk(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path, true,
                    vk_encoding_t::uncompressed, true);
  } catch (const std::exception&) {  // too large for a key, or not one
    if (is_params_file(path))
      throw_file_error(path,
                       "a .params file (the proving parameters), not a .vk (the verifying key): "
                       "give the .vk of the same parameters (zkfleet filecoin setup writes both; "
                       "Filecoin's parameter cache has a .vk beside each .params)");
    throw;
  }
}

std::vector<uint8_t> encode_vk(const verifying_key_t& vk, vk_encoding_t e) {
  const bool c = e == vk_encoding_t::compressed;
  std::vector<uint8_t> out(size_t(vk_size(e, vk.ic.size())));
  uint8_t* p = out.data();
  auto put1 = [&](const g1_affine_t& x) {
    if (c) {
      encode_g1_compressed(x, p);
      p += g1_compressed_size;
    } else {
      encode_g1_uncompressed(x, p);
      p += g1_uncompressed_size;
    }
  };
  auto put2 = [&](const g2_affine_t& x) {
    if (c) {
      encode_g2_compressed(x, p);
      p += g2_compressed_size;
    } else {
      encode_g2_uncompressed(x, p);
      p += g2_uncompressed_size;
    }
  };
  put1(vk.alpha_g1);
  put1(vk.beta_g1);
  put2(vk.beta_g2);
  put2(vk.gamma_g2);
  put1(vk.delta_g1);
  put2(vk.delta_g2);
  store_u32_be(p, uint32_t(vk.ic.size()));
  p += 4;
  for (const auto& x : vk.ic) put1(x);
  return out;
}

void write_vk_file(const std::string& path, const verifying_key_t& vk, vk_encoding_t e) {
  const std::vector<uint8_t> bytes = encode_vk(vk, e);
  write_file_atomic(path,
                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// --- parameters --------------------------------------------------------------------------------

params_file_t::params_file_t(std::string path, mode_t mode) : file_(std::move(path)), mode_(mode) {
  try {
    read_heads();
  } catch (const format_error&) {
    // A .vk given for the .params: said so, not as the first section the file lacks.
    bool vk = false;
    try {
      parse_vk(file_.data(), file_.size(), file_.path(), true, vk_encoding_t::uncompressed, true);
      vk = true;
    } catch (const std::exception&) {
    }
    if (vk)
      throw_file_error(file_.path(),
                       "a .vk file (the verifying key), not the .params (the proving "
                       "parameters): give the .params it came with");
    throw;
  }
  if (mode_ == mode_t::checked) check_all_points();
}

void params_file_t::read_heads() {
  const uint8_t* d = file_.data();
  const uint64_t n = file_.size();
  const std::string& name = file_.path();
  const vk_read_t vk = parse_vk(d, n, name, false, vk_encoding_t::uncompressed, false);
  vk_ = vk.vk;
  vk_bytes_ = vk.size;
  uint64_t off = vk.size;
  for (size_t i = 0; i < section_count; ++i) {
    section_t& s = sections_[i];
    s.name = section_names[i];
    s.g2 = i == 4;
    s.point_size = s.g2 ? g2_uncompressed_size : g1_uncompressed_size;
    if (n - off < 4)
      throw_file_error(name, std::string("section ") + s.name + ": cut short at " + at(n) +
                                 " before its u32 count (" + at(off) + ")");
    s.count = load_u32_be(d + off);
    s.offset = off + 4;
    const uint64_t need = s.count * s.point_size;
    if (need > n - s.offset)
      throw_file_error(name, std::string("section ") + s.name + ": count " +
                                 std::to_string(s.count) + " (" + at(off) + ") needs " +
                                 std::to_string(need) + " bytes, the file has " +
                                 std::to_string(n - s.offset) + " left");
    off = s.offset + need;
  }
  if (off != n)
    throw_file_error(name, std::to_string(n - off) + " bytes after section b_g2 (" + at(off) + ")");
}

void params_file_t::point_error(const section_t& s, uint64_t i, const char* why) const {
  throw_file_error(file_.path(), std::string("section ") + s.name + " (point " + std::to_string(i) +
                                     ", " + at(s.offset + i * s.point_size) + "): " + why);
}

g1_affine_t params_file_t::g1(const section_t& s, uint64_t i) const {
  if (s.g2 || i >= s.count)
    throw std::out_of_range(std::string("params section ") + s.name + ": no G1 point " +
                            std::to_string(i));
  const auto d =
      decode_g1_uncompressed(file_.data() + s.offset + i * s.point_size, point_check_t::none);
  if (!d.ok()) point_error(s, i, point_status_text(d.status));
  if (d.point.is_infinity()) point_error(s, i, "point at infinity");
  return d.point;
}

g2_affine_t params_file_t::g2(const section_t& s, uint64_t i) const {
  if (!s.g2 || i >= s.count)
    throw std::out_of_range(std::string("params section ") + s.name + ": no G2 point " +
                            std::to_string(i));
  const auto d =
      decode_g2_uncompressed(file_.data() + s.offset + i * s.point_size, point_check_t::none);
  if (!d.ok()) point_error(s, i, point_status_text(d.status));
  if (d.point.is_infinity()) point_error(s, i, "point at infinity");
  return d.point;
}

void params_file_t::read_g1(const section_t& s, uint64_t first, uint64_t n,
                            g1_affine_t* out) const {
  if (s.g2 || first > s.count || n > s.count - first)
    throw std::out_of_range(std::string("params section ") + s.name + ": G1 points " +
                            std::to_string(first) + "+" + std::to_string(n));
  parallel_for(size_t(n), [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) out[j] = g1(s, first + j);
  });
}

void params_file_t::read_g2(const section_t& s, uint64_t first, uint64_t n,
                            g2_affine_t* out) const {
  if (!s.g2 || first > s.count || n > s.count - first)
    throw std::out_of_range(std::string("params section ") + s.name + ": G2 points " +
                            std::to_string(first) + "+" + std::to_string(n));
  parallel_for(size_t(n), [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) out[j] = g2(s, first + j);
  });
}

void params_file_t::check_section(const section_t& s) const {
  // Each chunk stops at its first bad point; the smallest bad index is reported, so the error
  // names the first bad point in file order whatever the scheduling.
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  const uint8_t* base = file_.data() + s.offset;
  const size_t chunks = std::max<size_t>(1, std::min<uint64_t>(s.count / 4096 + 1, 1024));
  parallel_for(
      size_t(s.count),
      [&](size_t b, size_t e) {
        for (size_t j = b; j < e; ++j) {
          if (j > first_bad.load(std::memory_order_relaxed)) return;
          const uint8_t* p = base + j * s.point_size;
          bool good;
          if (s.g2) {
            const auto d = decode_g2_uncompressed(p, point_check_t::subgroup);
            good = d.ok() && !d.point.is_infinity();
          } else {
            const auto d = decode_g1_uncompressed(p, point_check_t::subgroup);
            good = d.ok() && !d.point.is_infinity();
          }
          if (!good) {
            uint64_t cur = first_bad.load();
            while (j < cur && !first_bad.compare_exchange_weak(cur, j)) {
            }
            return;
          }
        }
      },
      chunks);
  const uint64_t bad = first_bad.load();
  if (bad == UINT64_MAX) return;
  const uint8_t* p = base + bad * s.point_size;
  point_status_t st;
  bool inf;
  if (s.g2) {
    const auto d = decode_g2_uncompressed(p, point_check_t::subgroup);
    st = d.status;
    inf = d.point.is_infinity();
  } else {
    const auto d = decode_g1_uncompressed(p, point_check_t::subgroup);
    st = d.status;
    inf = d.point.is_infinity();
  }
  point_error(s, bad,
              st != point_status_t::ok ? point_status_text(st)
              : inf                    ? "point at infinity"
                                       : "?");
}

void params_file_t::check_all_points() const {
  for (const section_t& s : sections_) check_section(s);
}

// --- writer ------------------------------------------------------------------------------------

params_writer_t::params_writer_t(std::string path, const verifying_key_t& vk)
    : path_(std::move(path)) {
  f_ = std::fopen(path_.c_str(), "wb");
  if (f_ == nullptr) throw_file_error(path_, std::string("cannot create: ") + std::strerror(errno));
  const auto bytes = encode_vk(vk, vk_encoding_t::uncompressed);
  write(bytes.data(), bytes.size());
}

params_writer_t::~params_writer_t() {
  // Not finished (an exception on the way): no half-written parameters are left behind.
  if (f_ != nullptr) {
    std::fclose(f_);
    std::remove(path_.c_str());
  }
}

void params_writer_t::write(const void* p, size_t n) {
  if (std::fwrite(p, 1, n, f_) != n) throw_file_error(path_, "write failed");
}

void params_writer_t::end_section() {
  if (section_ >= 0 && written_ != announced_)
    throw std::invalid_argument(std::string("params writer: section ") + section_names[section_] +
                                " announced " + std::to_string(announced_) + " points, got " +
                                std::to_string(written_));
}

void params_writer_t::begin_section(uint64_t count) {
  end_section();
  if (section_ + 1 >= int(params_file_t::section_count))
    throw std::invalid_argument("params writer: all five sections are written");
  if (count > UINT32_MAX)
    throw std::invalid_argument("params writer: a section holds at most 2^32 - 1 points");
  ++section_;
  announced_ = count;
  written_ = 0;
  uint8_t c[4];
  store_u32_be(c, uint32_t(count));
  write(c, 4);
}

void params_writer_t::append_g1(const g1_affine_t* points, size_t n) {
  if (section_ < 0 || section_ == 4)
    throw std::invalid_argument("params writer: no G1 section is open");
  if (n > announced_ - written_)
    throw std::invalid_argument(std::string("params writer: more points than section ") +
                                section_names[section_] + " announced");
  constexpr size_t batch = 1 << 14;
  std::vector<uint8_t> buf(std::min(n, batch) * g1_uncompressed_size);
  for (size_t at0 = 0; at0 < n; at0 += batch) {
    const size_t m = std::min(batch, n - at0);
    for (size_t j = 0; j < m; ++j)
      if (points[at0 + j].is_infinity())
        throw std::invalid_argument(std::string("params writer: section ") +
                                    section_names[section_] + " point " +
                                    std::to_string(written_ + at0 + j) + " is at infinity");
    parallel_for(m, [&](size_t b, size_t e) {
      for (size_t j = b; j < e; ++j)
        encode_g1_uncompressed(points[at0 + j], &buf[j * g1_uncompressed_size]);
    });
    write(buf.data(), m * g1_uncompressed_size);
  }
  written_ += n;
}

void params_writer_t::append_g2(const g2_affine_t* points, size_t n) {
  if (section_ != 4) throw std::invalid_argument("params writer: section b_g2 is not open");
  if (n > announced_ - written_)
    throw std::invalid_argument("params writer: more points than section b_g2 announced");
  constexpr size_t batch = 1 << 13;
  std::vector<uint8_t> buf(std::min(n, batch) * g2_uncompressed_size);
  for (size_t at0 = 0; at0 < n; at0 += batch) {
    const size_t m = std::min(batch, n - at0);
    for (size_t j = 0; j < m; ++j)
      if (points[at0 + j].is_infinity())
        throw std::invalid_argument("params writer: section b_g2 point " +
                                    std::to_string(written_ + at0 + j) + " is at infinity");
    parallel_for(m, [&](size_t b, size_t e) {
      for (size_t j = b; j < e; ++j)
        encode_g2_uncompressed(points[at0 + j], &buf[j * g2_uncompressed_size]);
    });
    write(buf.data(), m * g2_uncompressed_size);
  }
  written_ += n;
}

void params_writer_t::finish() {
  end_section();
  if (section_ != 4)
    throw std::invalid_argument("params writer: finished after " + std::to_string(section_ + 1) +
                                " of 5 sections");
  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) throw_file_error(path_, "write failed");
}

void write_params_file(const std::string& path, const verifying_key_t& vk,
                       const std::vector<g1_affine_t>& h, const std::vector<g1_affine_t>& l,
                       const std::vector<g1_affine_t>& a, const std::vector<g1_affine_t>& b_g1,
                       const std::vector<g2_affine_t>& b_g2) {
  params_writer_t w(path, vk);
  for (const auto* s : {&h, &l, &a, &b_g1}) {
    w.begin_section(s->size());
    w.append_g1(s->data(), s->size());
  }
  w.begin_section(b_g2.size());
  w.append_g2(b_g2.data(), b_g2.size());
  w.finish();
}

}  // namespace zk::bellperson
