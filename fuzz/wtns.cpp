// .wtns reader: zk::formats::wtns_file_t(path) (zk/formats/wtns.hpp).
// Expected for bad input: format_error. Properties of an accepted file: nWitness ≥ 1,
// witness[0] = 1, every value < prime, the values lie inside the mapping.
#include "zk/formats/wtns.hpp"

#include <cstdint>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zk;
  using namespace zk::formats;
  const std::string& path = zk::fuzz::input_file().write(data, size);
  try {
    const wtns_file_t w(path);
    (void)w.curve();
    ZK_FUZZ_CHECK(w.n_witness() >= 1);
    ZK_FUZZ_CHECK(valid_field_size(w.n8()));
    ZK_FUZZ_CHECK(le_is_one(w.value(0), w.n8()));
    const uint8_t* end = w.file().data() + w.file().size();
    ZK_FUZZ_CHECK(w.value(w.n_witness() - 1) + w.n8() <= end);
    for (uint32_t i = 0; i < w.n_witness(); ++i)
      ZK_FUZZ_CHECK(le_less(w.value(i), w.prime(), w.n8()));
  } catch (const format_error&) {
  }
  return 0;
}
