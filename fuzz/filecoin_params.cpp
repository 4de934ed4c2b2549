// bellperson .params reader: bellperson::params_file_t (zk/bellperson/groth16/files.hpp), opened
// through its real open/fstat/mmap path (a memfd, fuzz_util.hpp) in both modes. Expected for bad
// input: format_error. Properties of an accepted file: the sections tile the file exactly after
// the key, every point reads (checked mode), and the writer writes the same bytes back; in
// unchecked mode every point read either decodes or throws format_error.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/bellperson/groth16/files.hpp"

namespace {

using namespace zk::bellperson;

void check_layout(const params_file_t& p) {
  uint64_t off = p.vk_bytes();
  for (size_t i = 0; i < params_file_t::section_count; ++i) {
    const auto& s = p.section(i);
    ZK_FUZZ_CHECK(s.offset == off + 4);
    off = s.offset + s.count * s.point_size;
  }
  ZK_FUZZ_CHECK(off == p.file_size());
}

void round_trip(const params_file_t& p) {
  std::vector<g1_affine_t> g1s[4];
  for (size_t i = 0; i < 4; ++i) {
    g1s[i].resize(p.section(i).count);
    p.read_g1(p.section(i), 0, p.section(i).count, g1s[i].data());
  }
  std::vector<g2_affine_t> g2s(p.b_g2().count);
  p.read_g2(p.b_g2(), 0, g2s.size(), g2s.data());
  static const std::string out = zk::fuzz::scratch_dir() + "/rewritten.params";
  write_params_file(out, p.vk(), g1s[0], g1s[1], g1s[2], g1s[3], g2s);
  std::ifstream a(p.path(), std::ios::binary), b(out, std::ios::binary);
  const std::vector<char> x((std::istreambuf_iterator<char>(a)), {});
  const std::vector<char> y((std::istreambuf_iterator<char>(b)), {});
  ZK_FUZZ_CHECK(x == y);
  ::unlink(out.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = zk::fuzz::input_file().write(data, size);
  try {
    const params_file_t p(path, params_file_t::mode_t::checked);
    check_layout(p);
    round_trip(p);
  } catch (const zk::format_error&) {
  }
  try {
    const params_file_t p(path, params_file_t::mode_t::unchecked);
    check_layout(p);
    for (size_t i = 0; i < params_file_t::section_count; ++i)
      for (uint64_t j = 0; j < p.section(i).count; ++j) try {
          if (p.section(i).g2)
            (void)p.g2(p.section(i), j);
          else
            (void)p.g1(p.section(i), j);
        } catch (const zk::format_error&) {
        }
  } catch (const zk::format_error&) {
  }
  return 0;
}
