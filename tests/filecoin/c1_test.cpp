// zk/filecoin/api/c1: the C1 output's reader and writer on C1s built here in every tree shape (the
// reader and writer must agree byte for byte), and the reader's refusals, each naming the JSON
// path: the schema's, nlohmann's syntax errors said in the reader's words, numbers of every kind
// nlohmann reads, and its bounds (nesting, array lengths). Real C1s made by Filecoin's own sealer
// are read and written back byte for byte by tests/filecoin/c1_vs_ref.sh.
#include "zk/filecoin/api/c1.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/filecoin/shaped_c1.hpp"
#include "tests/test_util.hpp"
#include "zk/base/base64.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/api/registry.hpp"

using namespace zk::filecoin;
using zk::base64_decode;
using zk::base64_encode;
using ojson_t = nlohmann::ordered_json;

namespace {

// A C1 of the proof's exact shape with distinct small values (not a valid proof: only the shape).
c1_output_t make_c1(const registered_proof_t& p) {
  uint64_t counter = 1;
  auto dom = [&] {
    domain_t d{};
    const uint64_t v = counter++;
    for (int i = 0; i < 8; ++i) d[size_t(i)] = uint8_t(v >> (8 * i));
    return d;
  };
  return testing::shaped_c1(p, dom, [&](uint64_t bound) { return counter++ % bound; });
}

std::string error_of(const std::string& text) {
  try {
    parse_c1(text, "c1.json");
  } catch (const zk::format_error& e) {
    return e.what();
  }
  return "(no error)";
}

// The error for the valid 2 KiB C1's text with its first `from` replaced by `to`.
std::string error_with(const std::string& from, const std::string& to) {
  std::string text = write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")));
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return error_of(text.replace(at, from.size(), to));
}

// The error for the valid 2 KiB C1 with one change made to its JSON tree.
std::string error_after(const std::function<void(ojson_t&)>& change) {
  static const std::string good = write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")));
  ojson_t j = ojson_t::parse(good);
  change(j);
  return error_of(j.dump());
}

ojson_t& proof0(ojson_t& j, size_t i = 1) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][0][i]; }

const std::string r_bytes =  // r, little-endian, as JSON numbers
    "[1,0,0,0,255,255,255,255,254,91,254,255,2,164,189,83,5,216,161,9,8,216,57,51,72,125,157,41,"
    "83,167,237,115]";

}  // namespace

TEST_CASE("c1: shapes of the registered proofs") {
  const auto s2 = c1_shape(registered_proof("StackedDrg2KiBV1"));
  CHECK(s2.partitions == 1);
  CHECK(s2.challenges == 2);
  CHECK(s2.comm_d_path == 6);
  CHECK(s2.base_path == 2);
  const auto s8 = c1_shape(registered_proof("StackedDrg8MiBV1_1"));
  CHECK(s8.comm_d_path == 18);
  CHECK(s8.base_path == 6);
  const auto s32 = c1_shape(registered_proof("StackedDrg32GiBV1"));
  CHECK(s32.partitions == 10);
  CHECK(s32.challenges == 18);
  CHECK(s32.layers == 11);
  CHECK(s32.comm_d_path == 30);
  CHECK(s32.base_path == 9);  // 8 sub-trees of 2^27 leaves
  const auto s64 = c1_shape(registered_proof("StackedDrg64GiBV1_1"));
  CHECK(s64.comm_d_path == 31);
  CHECK(s64.base_path == 9);  // 2 × 8 trees of 2^27 leaves
  CHECK(c1_shape(registered_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep")).partitions == 13);
}

TEST_CASE("c1: write then read gives the same bytes, every tree shape, both forms") {
  for (const char* name : {"StackedDrg2KiBV1_1", "StackedDrg8MiBV1", "StackedDrg32GiBV1_1",
                           "StackedDrg64GiBV1_1_Feat_SyntheticPoRep"}) {
    CAPTURE(name);
    const c1_output_t c1 = make_c1(registered_proof(name));
    const std::string text = write_c1_json(c1);
    const auto t0 = std::chrono::steady_clock::now();
    const c1_read_t back = parse_c1(text, "c1.json");
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE(std::string(name) << ": " << text.size() << " bytes read in " << secs << " s");
    CHECK(!back.wrapper);
    CHECK(write_c1_json(back.c1) == text);
    CHECK(back.c1.vanilla_proofs.size() == c1.vanilla_proofs.size());
    // nlohmann's compact dump of the same tree is the same text (serde_json's layout).
    if (text.size() < (8u << 20)) CHECK(ojson_t::parse(text).dump() == text);
    const std::string wrapped = write_c1_wrapper_json(c1, 1234);
    const c1_read_t w = parse_c1(wrapped, "w.json");
    REQUIRE(w.wrapper);
    CHECK(w.wrapper->sector_num == 1234);
    CHECK(w.wrapper->sector_size == registered_proof(name).sector_size);
    CHECK(write_c1_wrapper_json(w.c1, 1234) == wrapped);
  }
}

TEST_CASE("c1: refusals name the JSON path") {
  CHECK(error_after([](ojson_t& j) {
          proof0(j)["replica_column_proofs"]["drg_parents"][3]["column"]["rows"][1] =
              ojson_t::parse(r_bytes);
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs."
        "drg_parents[3].column.rows[1]: value not below the field modulus");
  CHECK(error_after([](ojson_t& j) {
          auto& p = proof0(j, 0)["comm_d_proofs"]["data"]["Single"]["path"]["path"];
          p.erase(p.size() - 1);
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path."
        "path: expected a path of 6 levels, got 5");
  CHECK(error_after([](ojson_t& j) {
          proof0(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][1]["hashes"].erase(0);
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path."
        "path[1].hashes: expected 7 sibling hashes, got 6");
  CHECK(error_after([](ojson_t& j) {
          proof0(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][2]["index"] = 2;
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path."
        "path[2].index: 2 is not a position among 2 siblings");
  CHECK(
      error_after([](ojson_t& j) { proof0(j)["replica_column_proofs"]["exp_parents"].erase(7); }) ==
      "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.exp_parents: "
      "expected 8 column proofs, got 7");
  CHECK(error_after([](ojson_t& j) { proof0(j)["labeling_proofs"][1]["layer_index"] = 1; }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[1].layer_index: layer 1 "
        "where 2 belongs");
  CHECK(error_after([](ojson_t& j) { proof0(j)["encoding_proof"]["parents"].erase(0); }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].encoding_proof.parents: expected 37 "
        "parent labels, got 36");
  CHECK(error_after([](ojson_t& j) {
          proof0(j)["replica_column_proofs"]["c_x"]["column"]["index"] = 64;
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.column.index: "
        "node 64 of a 64-node sector");
  CHECK(error_after([](ojson_t& j) {
          auto& v = j["vanilla_proofs"]["StackedDrg2KiBV1"];
          v.push_back(v[0]);
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1: StackedDrg2KiBV1_1 has 1 partition, got 2");
  CHECK(error_after([](ojson_t& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1); }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenge proofs, got 1");
  CHECK(error_after([](ojson_t& j) { j["comm_r"] = ojson_t::parse(r_bytes); }) ==
        "c1.json: comm_r: value not below the field modulus");
  CHECK(error_after([](ojson_t& j) { j["registered_proof"] = "StackedDrg8MiBV1"; }) ==
        "c1.json: vanilla_proofs: variant \"StackedDrg2KiBV1\" where StackedDrg8MiBV1 needs "
        "\"StackedDrg8MiBV1\"");
  CHECK(error_after([](ojson_t& j) {
          proof0(j)["labeling_proofs"][0]["node"] = ojson_t::parse("18446744073709551615");
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[0].node: node "
        "18446744073709551615 of a 64-node sector");
  // Wrong Merkle kind for the shape.
  CHECK(error_after([](ojson_t& j) {
          auto& d = proof0(j)["comm_r_last_proof"]["data"];
          d = ojson_t{{"Sub", ojson_t{{"base_proof", d["Single"]["path"]},
                                      {"sub_proof", d["Single"]["path"]},
                                      {"root", d["Single"]["root"]},
                                      {"leaf", d["Single"]["leaf"]}}}};
        }) ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data: a Sub proof "
        "where tree shape 8 needs Single");
}

TEST_CASE("c1: refusals of the syntax, with the byte") {
  auto starts = [](const std::string& e, const std::string& prefix) {
    CAPTURE(e);
    return e.rfind(prefix, 0) == 0 && e.find("(byte ") != std::string::npos;
  };
  CHECK(starts(
      error_after([](ojson_t& j) { proof0(j)["labeling_proofs"][0]["parents"][0][4] = 256; }),
      "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[0].parents[0][4]: "
      "256 is not a byte"));
  CHECK(
      starts(error_after([](ojson_t& j) { proof0(j)["labeling_proofs"][0]["parents"][0][4] = -1; }),
             "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[0].parents[0][4]: "
             "expected a byte"));
  CHECK(starts(error_after([](ojson_t& j) { proof0(j)["labeling_proofs"][0]["node"] = 1.5; }),
               "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[0].node: expected a "
               "non-negative integer, found a fraction"));
  CHECK(starts(error_after([](ojson_t& j) { j["seed"].erase(0); }),
               "c1.json: seed: expected 32 bytes, got 31"));
  CHECK(starts(error_after([](ojson_t& j) { j.erase("ticket"); }),
               "c1.json: missing key \"ticket\""));
  CHECK(starts(error_after([](ojson_t& j) { j["extra"] = 1; }),
               "c1.json: unknown key \"extra\" (expected registered_proof, vanilla_proofs"));
  CHECK(
      starts(error_after(
                 [](ojson_t& j) { proof0(j)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0; }),
             "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.column._h: "
             "expected null"));
  CHECK(
      starts(error_after([](ojson_t& j) { j["registered_proof"] = "StackedDrg4KiBV1"; }),
             "c1.json: registered_proof: unknown registered seal proof 'StackedDrg4KiBV1' (known: "
             "StackedDrg2KiBV1, "));
  CHECK(starts(error_after([](ojson_t& j) {
                 auto& d = proof0(j)["comm_d_proofs"]["data"];
                 d["Other"] = d["Single"];
               }),
               "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data: more than one "
               "key"));
  const std::string good = write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")));
  CHECK(starts(error_of(good + " x"), "c1.json: text after the end"));
  CHECK(starts(error_of("{\"registered_proof\":\"StackedDrg2KiBV1\",\"registered_proof\":1}"),
               "c1.json: key \"registered_proof\" given twice"));
  // Every cut is refused, none crashes.
  for (size_t n = 0; n < good.size(); n += 997)
    CHECK(error_of(good.substr(0, n)).rfind("c1.json: ", 0) == 0);
}

TEST_CASE("c1: the wrapper") {
  const c1_output_t c1 = make_c1(registered_proof("StackedDrg2KiBV1_1"));
  const std::string inner = write_c1_json(c1);
  const std::string b64 =
      base64_encode(reinterpret_cast<const uint8_t*>(inner.data()), inner.size());
  CHECK(base64_decode(b64) == inner);
  CHECK(base64_encode(reinterpret_cast<const uint8_t*>("ab"), 2) == "YWI=");
  CHECK(base64_encode(reinterpret_cast<const uint8_t*>("a"), 1) == "YQ==");
  CHECK(!base64_decode("YWJ=").has_value());  // a non-zero dropped bit: not canonical
  CHECK(!base64_decode("YW=I").has_value());
  CHECK(!base64_decode("YWI").has_value());
  CHECK(error_of("{\"SectorNum\":1,\"Phase1Out\":\"" + b64 + "\",\"SectorSize\":4096}") ==
        "c1.json: SectorSize: 4096 where StackedDrg2KiBV1_1 has 2048");
  CHECK(error_of("{\"SectorNum\":1,\"Phase1Out\":\"!!!!\",\"SectorSize\":2048}")
            .rfind("c1.json: Phase1Out: not standard padded base64", 0) == 0);
  // An error inside Phase1Out names it.
  ojson_t j = ojson_t::parse(inner);
  j["comm_d"] = ojson_t::parse(r_bytes);
  const std::string bad = j.dump();
  CHECK(error_of("{\"SectorNum\":1,\"Phase1Out\":\"" +
                 base64_encode(reinterpret_cast<const uint8_t*>(bad.data()), bad.size()) +
                 "\",\"SectorSize\":2048}") ==
        "c1.json (Phase1Out): comm_d: value not below the field modulus");
  CHECK(error_of("{\"SectorNum\":-5,\"Phase1Out\":\"" + b64 + "\",\"SectorSize\":2048}") ==
        "(no error)");
}

TEST_CASE("c1: validate_c1 on a C1 in memory") {
  c1_output_t c1 = make_c1(registered_proof("StackedDrg2KiBV1"));
  validate_c1(c1);
  c1.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows.pop_back();
  CHECK_THROWS_WITH_AS(validate_c1(c1),
                       "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column."
                       "rows: expected 2 rows (one a layer), got 1",
                       std::invalid_argument);
}

TEST_CASE("c1: nlohmann's refusals said as the reader's: file, path, byte") {
  const std::string good = write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")));
  // Every cut and every corrupted byte: the file, a message of the reader's with the byte,
  // never nlohmann's own text ("[json.exception.parse_error.101] parse error at line 1, …").
  for (size_t n = 0; n < good.size(); n += 331) {
    CAPTURE(n);
    for (const std::string& bad :
         {good.substr(0, n), good.substr(0, n) + "}" + good.substr(n),
          good.substr(0, n) + "\"" + good.substr(n), good.substr(0, n) + "x" + good.substr(n)}) {
      const std::string e = error_of(bad);
      CAPTURE(e);
      CHECK(e.rfind("c1.json: ", 0) == 0);
      CHECK(zk::test::contains(e, " (byte "));
      CHECK(!zk::test::contains(e, "json.exception"));
      CHECK(!zk::test::contains(e, "syntax error"));
    }
  }
  CHECK(error_of("") ==
        "c1.json: unexpected end of input; expected '[', '{', or a literal (byte 0)");
  // The byte: how far the parser had read (here the end of the text, and the '}' after "nul").
  const size_t ticket = good.find("\"ticket\":[") + 10;
  CHECK(error_of(good.substr(0, ticket)) ==
        "c1.json: ticket: unexpected end of input; expected '[', '{', or a literal (byte " +
            std::to_string(ticket) + ")");
  CHECK(error_of(good.substr(0, ticket + 2)) ==
        "c1.json: ticket: unexpected end of input; expected ']' (byte " +
            std::to_string(ticket + 2) + ")");
  CHECK(error_with("\"_h\":null", "\"_h\":nul") ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column._h: "
        "invalid literal; last read: '\"_h\":nul}' (byte " +
            std::to_string(good.find("\"_h\":null") + 9) + ")");
  // The offending token in a message is cut short: here an unterminated string of 1 MB.
  const std::string e = error_of("{\"registered_proof\":\"" + std::string(1 << 20, 'a'));
  CAPTURE(e);
  CHECK(e.size() < 200);
  CHECK(e.rfind("c1.json: registered_proof: invalid string: missing closing quote; last read: "
                "'\"aaaa",
                0) == 0);
}

TEST_CASE("c1: numbers, strings and literals where the schema has something else") {
  // Numbers nlohmann reads as floats: fractions, exponents, integers beyond 64 bits, overflow.
  // (byte: after the number and the ',' the parser looked at to end it)
  const std::string good = write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")));
  CHECK(error_with("\"node\":", "\"node\":18446744073709551616,\"x\":") ==
        "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node: a non-negative "
        "integer above 2^64 - 1 (byte " +
            std::to_string(good.find("\"node\":") + 7 + 21) + ")");
  CHECK(zk::test::contains(error_with("\"node\":", "\"node\":1e400,\"x\":"),
                           "labeling_proofs[0].node: a number out of range (1e400) (byte "));
  CHECK(zk::test::contains(error_with("\"node\":", "\"node\":-1,\"x\":"),
                           "labeling_proofs[0].node: expected a non-negative integer, found -1"));
  CHECK(zk::test::contains(
      error_with("\"column\":{\"index\":", "\"column\":{\"index\":4294967296,\"x\":"),
      "c_x.column.index: 4294967296 does not fit 32 bits (byte "));
  CHECK(zk::test::contains(error_with("\"seed\":[", "\"seed\":[1e2,"),
                           "c1.json: seed[0]: expected a byte (0 to 255), found a fraction or an "
                           "exponent (1e2) (byte "));
  CHECK(zk::test::contains(error_with("\"seed\":[", "\"seed\":[99999999999999999999999,"),
                           "c1.json: seed[0]: 99999999999999999999999 is not a byte (0 to 255)"));
  CHECK(zk::test::contains(error_with("\"seed\":[", "\"seed\":[\"1\","),
                           "c1.json: seed[0]: expected a byte (0 to 255), found a string"));
  CHECK(zk::test::contains(error_with("\"seed\":[", "\"seed\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
                           "c1.json: seed: expected 32 bytes, got more (byte "));
  CHECK(zk::test::contains(error_with("\"seed\":[", "\"seed\":{\"a\":["),
                           "c1.json: seed: expected an array of 32 bytes, found an object"));
  CHECK(zk::test::contains(error_with("\"_h\":null", "\"_h\":false"),
                           "c_x.column._h: expected null, found false (byte "));
  CHECK(zk::test::contains(
      error_with("\"registered_proof\":\"StackedDrg2KiBV1_1\"", "\"registered_proof\":2"),
      "c1.json: registered_proof: expected a string (a registered proof's "
      "name), found a number (byte "));
  CHECK(zk::test::contains(error_with("{\"data\":{\"Single\"", "{\"data\":{\"Double\""),
                           "comm_d_proofs.data: unknown proof kind \"Double\" (expected Single, "
                           "Sub or Top) (byte "));
  CHECK(zk::test::contains(error_with("{\"data\":{\"Single\"", "{\"data\":{}, \"x\":{\"Single\""),
                           "comm_d_proofs.data: expected one key: Single, Sub or Top (byte "));
  // A key of any length is cut short in the message.
  const std::string e = error_with("\"ticket\"", "\"" + std::string(100000, 'k') + "\"");
  CAPTURE(e);
  CHECK(e.size() < 300);
  CHECK(zk::test::contains(e, "c1.json: unknown key \"kkkk"));
  // A byte order mark: serde_json and Go refuse it, so does the reader (nlohmann would skip it).
  CHECK(error_of("\xef\xbb\xbf" + write_c1_json(make_c1(registered_proof("StackedDrg2KiBV1_1")))) ==
        "c1.json: a byte order mark (not JSON) (byte 0)");
}

TEST_CASE("c1: bounded: nesting stops at the schema's depth, arrays at the registry's counts") {
  // A bracket the schema does not have is refused at once: 1 M brackets are not read.
  CHECK(error_of(std::string(1 << 20, '[')) ==
        "c1.json: expected an object, found an array (byte 1)");
  const std::string head =
      "{\"registered_proof\":\"StackedDrg2KiBV1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":";
  CHECK(
      error_of(head + std::string(1 << 20, '[')) ==
      "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0]: expected an object, found an array (byte " +
          std::to_string(head.size() + 3) + ")");
  CHECK(
      error_of(head +
               "[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"path\":{\"path\":[{\"hashes\":[[" +
               std::string(1 << 20, '[')) ==
      error_of(head +
               "[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"path\":{\"path\":[{\"hashes\":[[["));
  // More partitions than any registered proof has (126): refused at the 127th of a million.
  std::string many = head + "[";
  for (int i = 0; i < 1000000; ++i) many += "[],";
  const std::string e = error_of(many);
  CHECK(e.rfind("c1.json: vanilla_proofs.StackedDrg2KiBV1: more than 126 elements: no registered "
                "proof has more (byte ",
                0) == 0);
  // The other arrays likewise, each at the most any registered proof has.
  auto more = [](const std::string& e, const std::string& path, int n) {
    CAPTURE(e);
    return e.rfind("c1.json: " + path + ": more than " + std::to_string(n) +
                       " elements: no registered proof has more (byte ",
                   0) == 0;
  };
  auto grow = [](ojson_t& a, size_t n) {
    while (a.size() < n) a.push_back(a[0]);
  };
  CHECK(more(error_after([&](ojson_t& j) { grow(j["vanilla_proofs"]["StackedDrg2KiBV1"][0], 19); }),
             "vanilla_proofs.StackedDrg2KiBV1[0]", 18));
  CHECK(more(error_after([&](ojson_t& j) { grow(proof0(j)["labeling_proofs"], 12); }),
             "vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs", 11));
  CHECK(more(error_after([&](ojson_t& j) { grow(proof0(j)["encoding_proof"]["parents"], 38); }),
             "vanilla_proofs.StackedDrg2KiBV1[0][1].encoding_proof.parents", 37));
  CHECK(more(
      error_after([&](ojson_t& j) { grow(proof0(j)["replica_column_proofs"]["drg_parents"], 9); }),
      "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents", 8));
  CHECK(more(error_after([&](ojson_t& j) {
               grow(proof0(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"], 32);
             }),
             "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path", 31));
}
