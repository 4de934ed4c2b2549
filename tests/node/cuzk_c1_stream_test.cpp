// The C1 of a SubmitProofRequest read as it streams in (node/cuzk/c1_stream.hpp): Go's wrapper
// decoded a piece at a time into the C1 JSON whatever the pieces, a C1's JSON passed as it came,
// every malformed wrapper refused naming what; the streaming base64 decoder it uses
// (zk/base/base64.hpp) against the whole-text one.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "node/cuzk/c1_stream.hpp"
#include "tests/test_util.hpp"
#include "zk/base/base64.hpp"

namespace cz = zk::node::cuzk;
using zk::test::contains;

namespace {

// Feeds `in` in pieces of `step` bytes; what reached the sink, and the refusal.
std::string stream(const std::string& in, size_t step, std::string* error = nullptr,
                   std::optional<uint64_t>* num = nullptr,
                   std::optional<uint64_t>* size = nullptr) {
  std::string out;
  cz::c1_stream_t s([&](std::string_view p) -> zk::check_t {
    out.append(p);
    return {};
  });
  zk::check_t c;
  for (size_t i = 0; i < in.size() && c; i += step)
    c = s.feed(std::string_view(in).substr(i, step));
  if (c) c = s.finish();
  if (error) *error = c ? "" : c.reason();
  if (num) *num = s.sector_num;
  if (size) *size = s.sector_size;
  return out;
}

std::string wrap(const std::string& c1, const std::string& extra = "") {
  const std::string b64 = zk::base64_encode(reinterpret_cast<const uint8_t*>(c1.data()), c1.size());
  return "{\"SectorNum\":7,\"Phase1Out\":\"" + b64 + "\",\"SectorSize\":2048" + extra + "}";
}

}  // namespace

TEST_CASE("c1_stream: Go's wrapper decoded into the C1 whatever the pieces") {
  std::mt19937 rng(5);
  std::string c1 = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"x\":\"";
  for (int i = 0; i < 5000; ++i) c1 += char('a' + rng() % 26);
  c1 += "\"}";
  for (size_t extra : {0, 1, 2}) {  // the three paddings
    const std::string in = c1.substr(0, c1.size() - extra);
    const std::string w = wrap(in);
    for (size_t step : {size_t(1), size_t(3), size_t(4), size_t(1000), w.size()}) {
      std::string error;
      std::optional<uint64_t> num, size;
      CHECK(stream(w, step, &error, &num, &size) == in);
      CHECK(error == "");
      CHECK(num == 7u);
      CHECK(size == 2048u);
    }
  }
  // Whitespace, another order, "\/" as some writers put '/'.
  std::string spaced = " {\n \"SectorSize\" : 2048 , \"Phase1Out\" : \"" +
                       zk::base64_encode(reinterpret_cast<const uint8_t*>("\xff\xff"), 2) +
                       "\" }\n";
  CHECK(stream(spaced, 2) == "\xff\xff");
  CHECK(stream("{\"Phase1Out\":\"\\/w==\"}", 1) == "\xff");
}

TEST_CASE("c1_stream: a C1's JSON itself goes on as it came") {
  const std::string c1 = "{ \"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{}}";
  for (size_t step : {size_t(1), size_t(7), c1.size()}) {
    std::string error;
    CHECK(stream(c1, step, &error) == c1);
    CHECK(error == "");
  }
}

TEST_CASE("c1_stream: a malformed wrapper is refused naming what") {
  auto refusal = [](const std::string& in) {
    std::string error;
    stream(in, 3, &error);
    return error;
  };
  CHECK(contains(refusal("[1]"), "vanilla_proof: byte 0: not a JSON object"));
  CHECK(contains(refusal(""), "empty"));
  CHECK(contains(refusal("{\"SectorNum\":1,\"Phase1Out\":\"AAA$\"}"),
                 "Phase1Out: not standard padded base64"));
  CHECK(contains(refusal("{\"Phase1Out\":\"AAA\"}"), "ends inside a group of four"));
  CHECK(contains(refusal("{\"Phase1Out\":\"AA==AAAA\"}"), "not standard padded base64"));
  CHECK(contains(refusal("{\"SectorNum\":1,\"Other\":2}"), "field \"Other\" is not one of"));
  CHECK(contains(refusal("{\"SectorNum\":1,\"SectorNum\":2}"), "SectorNum is given twice"));
  CHECK(contains(refusal("{\"SectorNum\":-1}"), "SectorNum: expected an unsigned integer"));
  CHECK(contains(refusal("{\"SectorNum\":99999999999999999999}"), "not an unsigned 64-bit"));
  CHECK(contains(refusal("{\"SectorNum\":1}"), "without Phase1Out"));
  CHECK(contains(refusal("{\"Phase1Out\":\"AA==\"} x"), "bytes after the wrapper's closing }"));
  CHECK(contains(refusal("{\"Phase1Out\":\"AA==\""), "the JSON object ends early"));
  CHECK(contains(refusal("{\"Phase1Out\":\"\\nAA==\"}"), "an escape other than"));
}

TEST_CASE(
    "base64_decoder_t: pieces decode as the whole text, and what is not canonical is refused") {
  std::mt19937 rng(9);
  for (size_t n = 0; n < 40; ++n) {
    std::vector<uint8_t> bytes(n);
    for (auto& b : bytes) b = uint8_t(rng());
    const std::string text = zk::base64_encode(bytes.data(), n);
    for (size_t step : {size_t(1), size_t(2), size_t(5), text.size() + 1}) {
      zk::base64_decoder_t d;
      std::string out;
      for (size_t i = 0; i < text.size(); i += step)
        REQUIRE(d.feed(std::string_view(text).substr(i, step), out));
      CHECK(d.finish());
      CHECK(out == std::string(bytes.begin(), bytes.end()));
    }
  }
  for (const char* bad : {"A", "AA", "AAA", "A===", "AB==", "AAB=", "AA=A", "AA==AAAA", "AA*A"}) {
    CAPTURE(bad);
    CHECK_FALSE(zk::base64_decode(bad));
  }
  CHECK(zk::base64_decode("AA==") == std::string(1, '\0'));
  CHECK(zk::base64_decode("") == std::string());
}
