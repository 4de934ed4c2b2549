// node/job_spec: each kind's spec through its JSON (the journal's form) and back, field for field;
// the refusal of a spec of the wrong kind, version, field or type; the cheap checks of a request
// (kind against circuit, counts, names, no partition inputs from a client); what a partition gets
// and which stored objects a spec needs; and the schema-v1 strings read into specs (the fixture
// tests/fixtures/journal/v1.sql holds each of them in a journal; journal_test migrates it).
#include "node/job_spec.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"

using namespace zk::node;
using zk::test::contains;

namespace {

const std::string hex_a(64, 'a'), hex_b(64, 'b'), hex_c(64, 'c');

stored_object_t object(const std::string& hex, object_type_t t) { return {hex, t}; }

job_spec_t circom_example() {
  circom_spec_t s;
  s.inputs.push_back({circom_input_t::form_t::wtns, input_file_t::at("/srv/in/p0.wtns")});
  s.inputs.push_back(
      {circom_input_t::form_t::input_json, input_file_t::of(object(hex_b, object_type_t::json))});
  s.inputs.push_back(
      {circom_input_t::form_t::wtns, input_file_t::of(object(hex_a, object_type_t::wtns))});
  s.inputs.push_back({circom_input_t::form_t::input_json, input_file_t::at("/srv/in/i.json")});
  return {s};
}

job_spec_t filecoin_example(bool taken_in) {
  filecoin_porep_spec_t s;
  s.prover_id.fill(0x11);
  s.prover_id[31] = 0x7f;
  s.sector = 18446744073709551615ull;
  s.c1 = input_file_t::of(object(hex_c, object_type_t::json));
  if (taken_in)
    for (int k = 0; k < 2; ++k)
      s.partitions.push_back(
          {input_file_t::of(object(std::string(64, char('0' + k)), object_type_t::partition)),
           std::string(32, char(0xf0 + k))});
  return {s};
}

void check_same(const input_file_t& a, const input_file_t& b) {
  CHECK(a.path == b.path);
  CHECK(a.object == b.object);
}

void check_same(const job_spec_t& a, const job_spec_t& b) {
  REQUIRE(a.v.index() == b.v.index());
  if (const auto* x = std::get_if<circom_spec_t>(&a.v)) {
    const auto& y = std::get<circom_spec_t>(b.v);
    REQUIRE(x->inputs.size() == y.inputs.size());
    for (size_t i = 0; i < x->inputs.size(); ++i) {
      CHECK(x->inputs[i].form == y.inputs[i].form);
      check_same(x->inputs[i].file, y.inputs[i].file);
    }
  } else if (const auto* x = std::get_if<porep_lite_spec_t>(&a.v)) {
    CHECK(x->seed == std::get<porep_lite_spec_t>(b.v).seed);
  } else {
    const auto& f = std::get<filecoin_porep_spec_t>(a.v);
    const auto& g = std::get<filecoin_porep_spec_t>(b.v);
    CHECK(f.prover_id == g.prover_id);
    CHECK(f.sector == g.sector);
    check_same(f.c1, g.c1);
    REQUIRE(f.partitions.size() == g.partitions.size());
    for (size_t k = 0; k < f.partitions.size(); ++k) {
      check_same(f.partitions[k].input, g.partitions[k].input);
      CHECK(f.partitions[k].public_digest == g.partitions[k].public_digest);
    }
  }
}

std::string refused(const std::string& text) {
  return zk::test::thrown<std::invalid_argument>([&] { job_spec_from_json(text); });
}

circuit_def_t circuit(const std::string& id, circuit_kind_t kind) {
  circuit_def_t c;
  c.id = id;
  c.kind = kind;
  return c;
}

}  // namespace

TEST_CASE("job spec: each kind's JSON reads back to the same spec, field for field") {
  for (const job_spec_t& s : {circom_example(), job_spec_t{porep_lite_spec_t{0}},
                              job_spec_t{porep_lite_spec_t{18446744073709551615ull}},
                              filecoin_example(false), filecoin_example(true)}) {
    const std::string text = to_json(s);
    CAPTURE(text);
    const job_spec_t back = job_spec_from_json(text);
    check_same(back, s);
    CHECK(to_json(back) == text);
    CHECK(kind_of(back) == kind_of(s));
  }
  // The form written: readable with sqlite3.
  const auto j = nlohmann::json::parse(to_json(filecoin_example(true)));
  CHECK(j["v"] == 1);
  CHECK(j["kind"] == "filecoin-porep");
  CHECK(j["prover_id"] == std::string(62, '1') + "7f");
  CHECK(j["sector"] == 18446744073709551615ull);
  CHECK(j["c1"]["stored"] == "sha256:" + hex_c + ".json");
  CHECK(j["partitions"][1]["stored"] == "sha256:" + std::string(64, '1') + ".fcp");
  CHECK(j["partitions"][1]["public_digest"] ==
        zk::to_hex(std::vector<uint8_t>(32, 0xf1).data(), 32));
  const auto c = nlohmann::json::parse(to_json(circom_example()));
  CHECK(c["kind"] == "circom");
  CHECK(c["files"][0] == nlohmann::json{{"form", "wtns"}, {"path", "/srv/in/p0.wtns"}});
  CHECK(c["files"][1] ==
        nlohmann::json{{"form", "input_json"}, {"stored", "sha256:" + hex_b + ".json"}});
  CHECK(nlohmann::json::parse(to_json({porep_lite_spec_t{5}})) ==
        nlohmann::json{{"v", 1}, {"kind", "porep-lite"}, {"seed", 5}});
}

TEST_CASE(
    "job spec: a spec of an unknown version or kind, a missing or mistyped field is refused") {
  CHECK(contains(refused("not json"), "the spec is not JSON"));
  CHECK(contains(refused("[1]"), "not a JSON object"));
  CHECK(contains(refused(R"({"kind": "porep-lite", "seed": 1})"), "\"v\" is not 1"));
  CHECK(contains(refused(R"({"v": 2, "kind": "porep-lite", "seed": 1})"), "\"v\" is not 1"));
  CHECK(contains(refused(R"({"v": 1, "seed": 1})"), "no \"kind\""));
  CHECK(contains(refused(R"({"v": 1, "kind": "snap-deals"})"),
                 "kind 'snap-deals' is none of circom, porep-lite, filecoin-porep"));
  CHECK(contains(refused(R"({"v": 1, "kind": "porep-lite"})"), "\"seed\""));
  CHECK(contains(refused(R"({"v": 1, "kind": "porep-lite", "seed": -1})"), "\"seed\""));
  CHECK(contains(refused(R"({"v": 1, "kind": "porep-lite", "seed": "5"})"), "\"seed\""));
  CHECK(contains(refused(R"({"v": 1, "kind": "circom"})"), "\"files\""));
  CHECK(
      contains(refused(R"({"v": 1, "kind": "circom", "files": [{"form": "zkey", "path": "/a"}]})"),
               "files[0].form 'zkey'"));
  CHECK(contains(refused(R"({"v": 1, "kind": "circom", "files": [{"form": "wtns"}]})"),
                 "files[0] needs one of \"path\" and \"stored\""));
  CHECK(contains(
      refused(
          R"({"v": 1, "kind": "circom", "files": [{"form": "wtns", "path": "/a", "stored": "x"}]})"),
      "needs one of"));
  CHECK(contains(
      refused(
          R"({"v": 1, "kind": "circom", "files": [{"form": "wtns", "stored": "sha256:abc.wtns"}]})"),
      "files[0].stored is not sha256:<hex>"));
  CHECK(contains(refused(R"({"v": 1, "kind": "circom", "files": [{"form": "wtns", "path": 7}]})"),
                 "files[0].path is not a string"));
  // Filecoin: every field, each partition a stored .fcp with a 32-byte digest.
  nlohmann::json f = nlohmann::json::parse(to_json(filecoin_example(true)));
  for (const char* key : {"prover_id", "sector", "c1", "partitions"}) {
    nlohmann::json g = f;
    g.erase(key);
    CHECK_MESSAGE(contains(refused(g.dump()), std::string("\"") + key + "\""), key);
  }
  nlohmann::json g = f;
  g["prover_id"] = "12";
  CHECK(contains(refused(g.dump()), "prover_id"));
  g = f;
  g["sector"] = -3;
  CHECK(contains(refused(g.dump()), "\"sector\""));
  g = f;
  g["partitions"][0]["stored"] = "sha256:" + hex_a + ".json";
  CHECK(contains(refused(g.dump()), "partitions[0] is not a stored partition input"));
  g = f;
  g["partitions"][1] = {{"path", "/srv/p1.fcp"}, {"public_digest", hex_a}};
  CHECK(contains(refused(g.dump()), "partitions[1] is not a stored partition input"));
  g = f;
  g["partitions"][1].erase("public_digest");
  CHECK(contains(refused(g.dump()), "partitions[1].public_digest"));
  g = f;
  g["partitions"][0]["public_digest"] = "xyz";
  CHECK(contains(refused(g.dump()), "partitions[0].public_digest"));
}

TEST_CASE("job spec: a request's cheap checks, per kind") {
  const circuit_def_t circom = circuit("mulchain", circuit_kind_t::circom),
                      lite = circuit("porep", circuit_kind_t::porep_lite),
                      fc = circuit("fc2k", circuit_kind_t::filecoin_porep);
  // Its kind is its circuit's.
  auto why = check_request(lite, circom_example(), 4);
  REQUIRE_FALSE(why);
  CHECK(contains(why.reason(),
                 "circuit 'porep' is porep-lite, the job a circom job (it takes a seed)"));
  why = check_request(circom, job_spec_t{porep_lite_spec_t{1}}, 1);
  REQUIRE_FALSE(why);
  CHECK(contains(why.reason(), "circuit 'mulchain' is circom, the job a porep-lite job"));
  CHECK_FALSE(check_request(fc, circom_example(), 1));
  // circom: one input for every partition or one per partition, each well formed.
  CHECK(check_request(circom, circom_example(), 4));
  CHECK(contains(check_request(circom, circom_example(), 3).reason(), "4 inputs for 3 partitions"));
  CHECK(contains(check_request(circom, circom_example(), 5).reason(),
                 "takes one .wtns for every partition or one per partition, got 4 inputs for 5"));
  CHECK(
      contains(check_request(circom, job_spec_t{circom_spec_t{}}, 1).reason(), "names no witness"));
  auto one = [](circom_input_t in) { return job_spec_t{circom_spec_t{{std::move(in)}}}; };
  CHECK(contains(
      check_request(
          circom, one({circom_input_t::form_t::wtns, input_file_t::at(std::string(5000, '/'))}), 1)
          .reason(),
      "longer than 4096"));
  CHECK(contains(
      check_request(circom, one({circom_input_t::form_t::wtns, input_file_t::at("w.wtns")}), 1)
          .reason(),
      "input w.wtns is not an absolute path"));
  CHECK(contains(
      check_request(circom, one({circom_input_t::form_t::wtns, input_file_t::at("")}), 1).reason(),
      "names no file"));
  CHECK(contains(check_request(circom,
                               one({circom_input_t::form_t::wtns,
                                    input_file_t::of(object("ABC", object_type_t::wtns))}),
                               1)
                     .reason(),
                 "not 64 lowercase hex digits"));
  CHECK(contains(check_request(circom,
                               one({circom_input_t::form_t::wtns,
                                    input_file_t::of(object(hex_a, object_type_t::json))}),
                               1)
                     .reason(),
                 "is not a .wtns"));
  // porep-lite: any seed; filecoin: a C1, and no partition inputs (only intake makes them).
  CHECK(check_request(lite, job_spec_t{porep_lite_spec_t{7}}, 10));
  CHECK(check_request(fc, filecoin_example(false), 1));
  CHECK(contains(check_request(fc, filecoin_example(true), 2).reason(),
                 "a job brings its C1, not its partitions' inputs"));
}

TEST_CASE("job spec: what each partition gets, the objects a spec needs, the expected digests") {
  const job_spec_t c = circom_example();
  CHECK(kind_of(partition_spec(c, 2)) == circuit_kind_t::circom);
  REQUIRE(file_of(partition_spec(c, 2)));
  CHECK(file_of(partition_spec(c, 2))->object == object(hex_a, object_type_t::wtns));
  CHECK(file_of(partition_spec(c, 0))->path == "/srv/in/p0.wtns");
  // One input for every partition: each gets it.
  const job_spec_t single{circom_spec_t{{{circom_input_t::form_t::wtns, input_file_t::at("/w")}}}};
  CHECK(file_of(partition_spec(single, 7))->path == "/w");
  auto objects = stored_objects(c);
  REQUIRE(objects.size() == 2);
  CHECK(objects[0] == object(hex_b, object_type_t::json));
  CHECK_FALSE(expected_public_digest(c, 0));

  const job_spec_t lite{porep_lite_spec_t{9}};
  CHECK(std::get<porep_lite_spec_t>(partition_spec(lite, 3).v).seed == 9);
  CHECK_FALSE(file_of(partition_spec(lite, 3)));
  CHECK(stored_objects(lite).empty());
  CHECK_FALSE(needs_intake(lite));

  // Filecoin before intake: it needs intake, and its C1 is the one object it needs; after: each
  // partition its own input (never the C1), and the digest intake derived.
  const job_spec_t before = filecoin_example(false), after = filecoin_example(true);
  CHECK(needs_intake(before));
  CHECK_FALSE(needs_intake(after));
  REQUIRE(stored_objects(before).size() == 1);
  CHECK(stored_objects(before)[0] == object(hex_c, object_type_t::json));
  const auto needed = stored_objects(after);
  REQUIRE(needed.size() == 2);
  CHECK(needed[1].type == object_type_t::partition);
  const partition_spec_t p1 = partition_spec(after, 1);
  CHECK(kind_of(p1) == circuit_kind_t::filecoin_porep);
  CHECK(file_of(p1)->object == needed[1]);
  CHECK(expected_public_digest(after, 1) == std::string(32, char(0xf1)));
  CHECK_FALSE(expected_public_digest(after, 2));
}

TEST_CASE("job spec: schema v1's input strings, every kind, read into specs") {
  const std::string up_w = "upload:sha256:" + hex_a + ".wtns",
                    up_j = "upload:sha256:" + hex_b + ".json",
                    up_c1 = "upload:sha256:" + hex_c + ".json", prover = std::string(64, '1');
  // circom: a path for every partition, one per partition, uploads, input.json (by ".json").
  auto c = std::get<circom_spec_t>(job_spec_from_v1({"/srv/in/p0.wtns", "/srv/in/p1.wtns"}).v);
  REQUIRE(c.inputs.size() == 2);
  CHECK(c.inputs[1].file.path == "/srv/in/p1.wtns");
  CHECK(c.inputs[1].form == circom_input_t::form_t::wtns);
  c = std::get<circom_spec_t>(job_spec_from_v1({up_w}).v);
  CHECK(c.inputs[0].file.object == object(hex_a, object_type_t::wtns));
  CHECK(c.inputs[0].form == circom_input_t::form_t::wtns);
  c = std::get<circom_spec_t>(job_spec_from_v1({up_j}).v);
  CHECK(c.inputs[0].form == circom_input_t::form_t::input_json);
  c = std::get<circom_spec_t>(job_spec_from_v1({"/srv/in/input.json"}).v);
  CHECK(c.inputs[0].form == circom_input_t::form_t::input_json);
  CHECK(c.inputs[0].file.path == "/srv/in/input.json");
  // porep-lite: seed=N, nothing, one empty string.
  CHECK(std::get<porep_lite_spec_t>(job_spec_from_v1({"seed=5"}).v).seed == 5);
  CHECK(std::get<porep_lite_spec_t>(job_spec_from_v1({}).v).seed == 0);
  CHECK(std::get<porep_lite_spec_t>(job_spec_from_v1({""}).v).seed == 0);
  // filecoin: the C1 (an upload or a path) and its two arguments, in any order; no partitions yet.
  auto f = std::get<filecoin_porep_spec_t>(
      job_spec_from_v1({up_c1, "prover_id=" + prover, "sector=42"}).v);
  CHECK(f.c1.object == object(hex_c, object_type_t::json));
  CHECK(zk::to_hex(f.prover_id) == prover);
  CHECK(f.sector == 42);
  CHECK(f.partitions.empty());
  f = std::get<filecoin_porep_spec_t>(
      job_spec_from_v1({"sector=7", "/srv/c1/s7.json", "prover_id=" + prover}).v);
  CHECK(f.c1.path == "/srv/c1/s7.json");
  CHECK(f.sector == 7);
  // What v1 never wrote is refused, saying what.
  auto bad = [](std::vector<std::string> in) {
    return zk::test::thrown<std::invalid_argument>([&] { job_spec_from_v1(in); });
  };
  CHECK(contains(bad({"sector=1", "prover_id=" + prover}), "without its C1"));
  CHECK(contains(bad({"/c1.json", "sector=1"}), "without its C1, prover_id or sector"));
  CHECK(contains(bad({"/c1.json", "/c2.json", "sector=1", "prover_id=" + prover}), "a second C1"));
  CHECK(contains(bad({"/c1.json", "sector=1", "sector=2", "prover_id=" + prover}), "twice"));
  CHECK(
      contains(bad({"/c1.json", "sector=x", "prover_id=" + prover}), "sector 'x' is not a number"));
  CHECK(contains(bad({"/c1.json", "sector=1", "prover_id=12"}), "prover_id"));
  CHECK(contains(bad({"seed=x"}), "seed 'x' is not a number"));
  CHECK(contains(bad({"upload:sha256:zz.wtns"}), "is not an upload reference"));
  CHECK(contains(bad({"/a.wtns", ""}), "an empty input"));
}
