// Uploaded job inputs (node/scheduler/uploads.hpp): the reference format and each way a string
// fails to be one; the fetch ticket (the documented HMAC, changed by every field); the store's
// refusals (empty, over max_upload — the bound itself taken —, not JSON, not a JSON object, not a
// .wtns; a folder it cannot make or write) and what it keeps (content-addressed, owner-only,
// the same bytes once); path_of for unknown references; collect's grace and in-use set; the
// synthesis node's fetch cache: not a reference, the scheduler's refusal, bytes other than the
// digest names (each leaving no file behind), a hit without a second fetch, unused copies aged
// out. The HTTP side (413, 403 without a ticket) is tests/cli/http_api.sh.
#include "node/scheduler/uploads.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "common/security/tokens.hpp"
#include "tests/test_util.hpp"

using namespace zk::node;
using namespace std::chrono_literals;
using zk::check_t;
using zk::security::hmac_sha256_hex;
using zk::security::sha256_hex;
using zk::test::contains;
using zk::test::read_text;
using zk::test::temp_dir_t;
using zk::test::thrown;
using zk::test::write_text;
namespace fs = std::filesystem;

namespace {

const std::string hex64 = sha256_hex("x");  // 64 lowercase hex digits

size_t files_in(const fs::path& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

void age(const std::string& path, std::chrono::seconds by) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - by);
}

// What put throws as std::invalid_argument ("" when it takes the bytes).
std::string refused(upload_store_t& s, const std::string& bytes, bool json) {
  return thrown<std::invalid_argument>([&] { s.put(bytes, json); });
}

}  // namespace

TEST_CASE("upload references: upload:sha256:<64 lowercase hex>.<wtns|json|fcp>, nothing else") {
  auto r = parse_upload("upload:sha256:" + hex64 + ".wtns");
  REQUIRE(r);
  CHECK(r->sha256 == hex64);
  CHECK(r->type == object_type_t::wtns);
  CHECK(r->ref() == "upload:sha256:" + hex64 + ".wtns");
  CHECK(r->name() == "sha256:" + hex64 + ".wtns");
  CHECK(parse_upload("upload:sha256:" + hex64 + ".json")->type == object_type_t::json);
  CHECK(parse_upload("upload:sha256:" + hex64 + ".fcp")->type == object_type_t::partition);
  CHECK_FALSE(parse_upload("upload:sha256:whatever"));
  CHECK_FALSE(parse_upload("/data/w.wtns"));
  CHECK_FALSE(parse_upload("seed=3"));
  CHECK_FALSE(parse_upload("upload:sha25"));
  for (const std::string& bad :
       {std::string("/data/" + hex64 + ".wtns"),                          // no prefix
        std::string("upload:sha256:" + hex64.substr(1) + ".wtns"),        // 63 digits
        std::string("upload:sha256:" + hex64 + "0.wtns"),                 // 65 digits
        std::string("upload:sha256:" + std::string(64, 'A') + ".wtns"),   // upper case
        std::string("upload:sha256:" + std::string(63, 'a') + "g.wtns"),  // not hex
        std::string("upload:sha256:" + hex64),                            // no extension
        std::string("upload:sha256:" + hex64 + "."),                      // an empty one
        std::string("upload:sha256:" + hex64 + ".txt"),                   // another one
        std::string("upload:sha256:" + hex64 + ".wtns.json"),             // two
        std::string("upload:sha256:../../" + hex64.substr(6) + ".wtns"),  // a path
        std::string("upload:sha256:")}) {
    CHECK_MESSAGE(!parse_upload(bad), bad);
  }
}

TEST_CASE("upload_ticket: HMAC-SHA256 of 'zkfleet upload v1|input|job|partition|attempt'") {
  const std::string key = "0123456789abcdef0123456789abcdef",
                    in = "upload:sha256:" + hex64 + ".wtns";
  const std::string t = upload_ticket(key, in, 7, 2, 1);
  CHECK(t == hmac_sha256_hex(key, "zkfleet upload v1|" + in + "|7|2|1"));
  CHECK(t.size() == 64);
  // Each field is in it: a ticket for one dispatch opens no other.
  CHECK(upload_ticket("another key, 32 bytes long......", in, 7, 2, 1) != t);
  CHECK(upload_ticket(key, "upload:sha256:" + sha256_hex("y") + ".wtns", 7, 2, 1) != t);
  CHECK(upload_ticket(key, in, 8, 2, 1) != t);
  CHECK(upload_ticket(key, in, 7, 3, 1) != t);
  CHECK(upload_ticket(key, in, 7, 2, 2) != t);
  // The separators keep fields apart: job 71, partition 2 is not job 7, partition 12.
  CHECK(upload_ticket(key, in, 71, 2, 1) != upload_ticket(key, in, 7, 12, 1));
}

TEST_CASE("upload_store_t: content-addressed files in an owner-only folder, the same bytes once") {
  temp_dir_t d("zk_uploads");
  const std::string dir = (d.path() / "uploads").string();
  upload_store_t s(dir, 1024);
  CHECK(s.dir() == dir);
  CHECK(s.max_bytes() == 1024);
  struct stat st {};
  REQUIRE(::stat(dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  const std::string wtns = "wtns" + std::string(100, '\1');
  const std::string ref = s.put(wtns, false);
  CHECK(ref == "upload:sha256:" + sha256_hex(wtns) + ".wtns");
  auto p = s.path_of(ref);
  REQUIRE(p);
  CHECK(*p == dir + "/" + sha256_hex(wtns) + ".wtns");
  CHECK(read_text(*p) == wtns);
  const std::string json = R"({"a": "1", "b": ["2", "3"]})";
  const std::string jref = s.put(json, true);
  CHECK(jref == "upload:sha256:" + sha256_hex(json) + ".json");
  CHECK(read_text(*s.path_of(jref)) == json);
  // The same bytes again: the same reference, one file, its age renewed (collect keeps it).
  age(*p, 7200s);
  CHECK(s.put(wtns, false) == ref);
  CHECK(files_in(dir) == 2);
  CHECK(fs::file_time_type::clock::now() - fs::last_write_time(*p) < 600s);
  // An existing folder is taken as it is.
  upload_store_t again(dir, 1024);
  CHECK(again.path_of(ref) == p);
}

TEST_CASE("upload_store_t::put refuses empty, oversized, non-JSON and non-wtns inputs") {
  temp_dir_t d("zk_uploads");
  upload_store_t s(d.path().string(), 64);
  CHECK(refused(s, "", false) == "the input is empty");
  CHECK(refused(s, "", true) == "the input is empty");
  // max_upload: 64 bytes taken, 65 refused, naming both.
  CHECK(refused(s, "wtns" + std::string(60, 'x'), false).empty());
  CHECK(refused(s, "wtns" + std::string(61, 'x'), false) ==
        "the input (65 bytes) is over scheduler.max_upload (64 bytes)");
  const std::string big_json = "{\"a\": \"" + std::string(60, 'x') + "\"}";
  CHECK(refused(s, big_json, true) == "the input (" + std::to_string(big_json.size()) +
                                          " bytes) is over scheduler.max_upload (64 bytes)");
  CHECK(contains(refused(s, "{\"a\": ", true), "the input is not JSON: "));
  CHECK(contains(refused(s, "wtns....", true), "the input is not JSON: "));
  const std::string not_object =
      "a JSON input must be an object (an input.json, a C1) or a list (a snap-vproof.json)";
  for (const char* text : {"\"text\"", "42", "null"}) CHECK(refused(s, text, true) == not_object);
  CHECK(refused(s, "[\"AAAA\"]", true).empty());  // a snap-vproof.json: its reader checks the rest
  const std::string not_wtns =
      "the input is not a .wtns (it does not start with \"wtns\"); an input.json goes with "
      "Content-Type: application/json";
  CHECK(refused(s, "{\"a\": 1}", false) == not_wtns);
  CHECK(refused(s, "wtn", false) == not_wtns);
  CHECK(refused(s, "WTNS....", false) == not_wtns);
  CHECK(files_in(d.path()) == 2);  // only the two taken; no temporary file left by a refusal
}

TEST_CASE("upload_store_t: a folder it cannot make or write is named") {
  temp_dir_t d("zk_uploads");
  write_text(d.file("file"), "not a folder");
  const std::string under_file = d.file("file") + "/uploads";
  const std::string e = thrown([&] { upload_store_t s(under_file, 64); });
  CHECK_MESSAGE(contains(e, under_file + ": cannot make the folder: "), e);
  // The folder gone after start-up: an I/O error (std::runtime_error), not a refusal of the input.
  const std::string dir = d.file("gone");
  upload_store_t s(dir, 64);
  fs::remove(dir);
  bool io_error = false;
  try {
    s.put("wtns1234", false);
  } catch (const std::invalid_argument&) {
  } catch (const std::runtime_error& x) {
    io_error = contains(x.what(), dir + "/.tmp.") && contains(x.what(), ": cannot write");
    CHECK_MESSAGE(io_error, x.what());
  }
  CHECK(io_error);
}

TEST_CASE("upload_store_t::put_object: a partition input, durable, by its content") {
  temp_dir_t d("zk_uploads");
  upload_store_t s(d.path().string(), 64);  // max_upload bounds uploads, not the store's own
  const std::string blob = "ZKFP" + std::string(200, '\3');
  const stored_object_t o = s.put_object(blob, object_type_t::partition);
  CHECK(o.sha256 == sha256_hex(blob));
  CHECK(o.type == object_type_t::partition);
  auto p = s.path_of(o);
  REQUIRE(p);
  CHECK(*p == d.path().string() + "/" + sha256_hex(blob) + ".fcp");
  CHECK(read_text(*p) == blob);
  // The same bytes again (the same C1 taken in twice): one file, its age renewed.
  age(*p, 7200s);
  CHECK(s.put_object(blob, object_type_t::partition) == o);
  CHECK(files_in(d.path()) == 1);
  CHECK(fs::file_time_type::clock::now() - fs::last_write_time(*p) < 600s);
  // Bytes that are not a partition input, or another type: refused, nothing left behind.
  CHECK(contains(thrown<std::invalid_argument>([&] {
                   s.put_object("wtns" + std::string(10, '\1'), object_type_t::partition);
                 }),
                 "not a partition input"));
  CHECK(contains(thrown<std::invalid_argument>([&] { s.put_object(blob, object_type_t::wtns); }),
                 "not a partition input"));
  CHECK(files_in(d.path()) == 1);
  // collect keeps it while a job names it.
  CHECK(s.collect({o.ref()}, 0s) == 0);
  CHECK(s.collect({}, 0s) == 1);
}

TEST_CASE("upload_store_t::path_of: nothing for what is not a stored upload") {
  temp_dir_t d("zk_uploads");
  upload_store_t s(d.path().string(), 64);
  const std::string ref = s.put("wtns1234", false);
  CHECK(s.path_of(ref));
  CHECK_FALSE(s.path_of("upload:sha256:" + hex64 + ".wtns"));        // well formed, unknown
  CHECK_FALSE(s.path_of(ref.substr(0, ref.size() - 4) + "json"));    // stored as .wtns
  CHECK_FALSE(s.path_of(d.path().string() + "/" + ref.substr(14)));  // a path, not a reference
  CHECK_FALSE(s.path_of("upload:sha256:../" + ref.substr(17)));
}

TEST_CASE("upload_store_t::collect: unused uploads past the grace go, in use or young ones stay") {
  temp_dir_t d("zk_uploads");
  upload_store_t s(d.path().string(), 64);
  const std::string used = s.put("wtns-used", false), old = s.put("wtns-old", false),
                    young = s.put("wtns-young", false), json = s.put("{}", true);
  for (const auto& r : {used, old, json}) age(*s.path_of(r), 7200s);
  CHECK(s.collect({used, "seed=3", "/a/path.wtns"}, 3600s) == 2);  // old and json
  CHECK(s.path_of(used));
  CHECK(s.path_of(young));
  CHECK_FALSE(s.path_of(old));
  CHECK_FALSE(s.path_of(json));
  CHECK(s.collect({}, 3600s) == 1);  // `used`, no longer named; young is within the grace
  CHECK_FALSE(s.path_of(used));
  CHECK(s.path_of(young));
  CHECK(s.collect({}, 0s) == 1);
  CHECK(files_in(d.path()) == 0);
}

TEST_CASE("fetch_cache_t: verified copies, fetched once, each failure named and no file left") {
  temp_dir_t d("zk_fetch");
  const std::string dir = (d.path() / "cache").string();
  fetch_cache_t cache(dir, 3600s);
  const std::string bytes = "wtns-the-input";
  const std::string ref = "upload:sha256:" + sha256_hex(bytes) + ".wtns";
  int calls = 0;
  auto serve = [&](const std::string& what) {
    return [&, what](const std::string& input, const std::string& path) {
      ++calls;
      CHECK(input == ref);
      write_text(path, what);
      return check_t();
    };
  };
  // Not a reference: refused before any fetch.
  const std::string long_input = std::string(300, 'z');
  std::string e = thrown([&] { cache.fetch(long_input, serve(bytes)); });
  CHECK(e == "'" + std::string(100, 'z') + "' is not an upload reference");
  CHECK(calls == 0);
  // The scheduler refuses: its reason, and the partial file removed.
  e = thrown([&] {
    cache.fetch(ref, [&](const std::string&, const std::string& path) {
      write_text(path, "wtns-partial");
      return check_t("403 no valid ticket");
    });
  });
  CHECK(e == "fetching " + ref + " from the scheduler failed: 403 no valid ticket");
  CHECK(files_in(dir) == 0);
  // Other bytes than the reference's digest: refused, nothing kept.
  e = thrown([&] { cache.fetch(ref, serve("wtns-other-bytes")); });
  CHECK(e == "fetching " + ref + " from the scheduler gave other bytes than its digest names");
  CHECK(files_in(dir) == 0);
  // The right bytes: kept under the digest, and a second fetch is served from the copy.
  calls = 0;
  const std::string p = cache.fetch(ref, serve(bytes));
  CHECK(p == dir + "/" + sha256_hex(bytes) + ".wtns");
  CHECK(read_text(p) == bytes);
  CHECK(cache.fetch(ref, serve("never asked")) == p);
  CHECK(calls == 1);
  CHECK(files_in(dir) == 1);
}

TEST_CASE("fetch_cache_t: copies unused for `keep` go when another input is fetched") {
  temp_dir_t d("zk_fetch");
  const std::string dir = (d.path() / "cache").string();
  fetch_cache_t cache(dir, 3600s);
  auto put = [&](const std::string& bytes) {
    const std::string ref = "upload:sha256:" + sha256_hex(bytes) + ".wtns";
    return cache.fetch(ref, [&](const std::string&, const std::string& path) {
      write_text(path, bytes);
      return check_t();
    });
  };
  const std::string stale = put("wtns-stale"), used = put("wtns-used");
  age(stale, 7200s);
  age(used, 7200s);
  // Using a copy renews it: it is not unused.
  CHECK(put("wtns-used") == used);
  const std::string fresh = put("wtns-fresh");
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(used));
  CHECK(fs::exists(fresh));
}

TEST_CASE(
    "upload_receiver_t: pieces streamed in give put's reference, every refusal leaves nothing") {
  temp_dir_t d("zk_uploads");
  const uint64_t bound = 1 << 20;
  upload_store_t s(d.path().string(), bound);
  // Exactly the bound, in uneven pieces, the magic itself split: the reference of the bytes.
  std::string bytes = "wtns" + std::string(bound - 4, '\7');
  for (size_t i = 0; i < bytes.size(); i += 65537) bytes[i + 3 < bytes.size() ? i + 3 : i] ^= 1;
  bytes.replace(0, 4, "wtns");
  {
    auto r = s.receive(false);
    CHECK_FALSE(r->write(bytes.substr(0, 2)));
    for (size_t at = 2; at < bytes.size(); at += 100003)
      CHECK_FALSE(r->write(std::string_view(bytes).substr(at, 100003)));
    CHECK(r->bytes() == bound);
    auto ref = r->commit();
    REQUIRE_MESSAGE(ref, ref.error().why);
    CHECK(ref.value() == "upload:sha256:" + sha256_hex(bytes) + ".wtns");
    CHECK(read_text(*s.path_of(ref.value())) == bytes);
  }
  CHECK(files_in(d.path()) == 1);
  // One byte over, in pieces: too_large once the byte comes; the partial file is gone at once.
  {
    auto r = s.receive(false);
    CHECK_FALSE(r->write(bytes));
    CHECK(files_in(d.path()) == 2);  // the upload's temporary file
    auto e = r->write("x");
    REQUIRE(e);
    CHECK(e->kind == upload_error_t::kind_t::too_large);
    CHECK(e->why == "the input (" + std::to_string(bound + 1) +
                        " bytes) is over scheduler.max_upload (1048576 bytes)");
    CHECK(files_in(d.path()) == 1);
    CHECK(r->write("more"));  // it takes nothing more
    CHECK_FALSE(r->commit().ok());
  }
  // Not a .wtns: refused as the fourth byte arrives.
  {
    auto r = s.receive(false);
    CHECK_FALSE(r->write("wt"));
    auto e = r->write("nx and the rest");
    REQUIRE(e);
    CHECK(e->kind == upload_error_t::kind_t::bad_input);
    CHECK(contains(e->why, "is not a .wtns"));
  }
  // Cut off: dropped without a commit, nothing left.
  {
    auto r = s.receive(false);
    CHECK_FALSE(r->write(bytes.substr(0, 1000)));
    CHECK(files_in(d.path()) == 2);
  }
  CHECK(files_in(d.path()) == 1);
  // Empty; too short for the magic.
  CHECK(s.receive(false)->commit().error().why == "the input is empty");
  {
    auto r = s.receive(false);
    CHECK_FALSE(r->write("wt"));
    CHECK(contains(r->commit().error().why, "is not a .wtns"));
  }
  CHECK(files_in(d.path()) == 1);
}

TEST_CASE("upload_receiver_t: a JSON input is checked at commit as it is read back") {
  temp_dir_t d("zk_uploads");
  upload_store_t s(d.path().string(), 8 << 20);
  // A large object (about 5 MiB): taken, its digest that of the bytes.
  std::string big = "{\"bits\": [";
  for (int i = 0; i < 1000000; ++i) big += i ? ",\"1\"" : "\"0\"";
  big += "]}";
  auto r = s.receive(true);
  for (size_t at = 0; at < big.size(); at += 65536)
    CHECK_FALSE(r->write(std::string_view(big).substr(at, 65536)));
  auto ref = r->commit();
  REQUIRE_MESSAGE(ref, ref.error().why);
  CHECK(ref.value() == "upload:sha256:" + sha256_hex(big) + ".json");
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"  42", "a JSON input must be an object (an input.json, a C1) or a list"},
           {"{\"a\": ", "the input is not JSON: "},
           {"{} x", "the input is not JSON: "}}) {
    auto bad = s.receive(true);
    CHECK_FALSE(bad->write(text));
    auto e = bad->commit();
    REQUIRE_FALSE(e);
    CHECK_MESSAGE(contains(e.error().why, why), text);
    CHECK(e.error().kind == upload_error_t::kind_t::bad_input);
  }
  CHECK(files_in(d.path()) == 1);
}

TEST_CASE("fetch_cache_t: a large input is verified by its digest, hashed a piece at a time") {
  temp_dir_t d("zk_fetch");
  fetch_cache_t cache((d.path() / "cache").string(), 3600s);
  std::string bytes = "wtns" + std::string((5 << 20) + 123, 'q');
  bytes[3 << 20] = 'r';
  const std::string ref = "upload:sha256:" + sha256_hex(bytes) + ".wtns";
  auto serve = [](std::string what) {
    return [what](const std::string&, const std::string& path) {
      write_text(path, what);
      return check_t();
    };
  };
  std::string other = bytes;
  other[(5 << 20) + 100] = 'x';  // one byte past the first pieces
  CHECK(thrown([&] { cache.fetch(ref, serve(other)); }) ==
        "fetching " + ref + " from the scheduler gave other bytes than its digest names");
  CHECK(read_text(cache.fetch(ref, serve(bytes))) == bytes);
}
