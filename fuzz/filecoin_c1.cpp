// Filecoin C1 output reader: zk::filecoin::parse_c1 (zk/filecoin/api/c1.hpp), the API's JSON and
// the lotus-bench / curio wrapper. Expected for bad input: format_error. Properties of an accepted
// input: validate_c1 agrees, and the writer gives text the reader reads back to the same text
// (write ∘ read is a fixed point: the first write normalises whitespace and key order to
// serde_json's layout, the second must equal it), in the form that was read.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/api/c1.hpp"

namespace {

using namespace zk::filecoin;

std::string write_like(const c1_read_t& r) {
  return r.wrapper ? write_c1_wrapper_json(r.c1, r.wrapper->sector_num) : write_c1_json(r.c1);
}

void check_accepted(const c1_read_t& r) {
  try {
    validate_c1(r.c1);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "fuzz: validate_c1 refused a C1 the reader accepted: %s\n", e.what());
    std::abort();
  }
  const std::string once = write_like(r);
  try {
    const c1_read_t back = parse_c1(once, "rewritten.json");
    ZK_FUZZ_CHECK(back.wrapper.has_value() == r.wrapper.has_value());
    ZK_FUZZ_CHECK(write_like(back) == once);
    ZK_FUZZ_CHECK(back.c1.registered_proof == r.c1.registered_proof);
    ZK_FUZZ_CHECK(back.c1.comm_r == r.c1.comm_r && back.c1.comm_d == r.c1.comm_d);
  } catch (const zk::format_error& e) {
    std::fprintf(stderr, "fuzz: the reader refused what the writer wrote: %s\n", e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_accepted(parse_c1(text, "fuzz.json"));
  } catch (const zk::format_error&) {
  }
  return 0;
}
