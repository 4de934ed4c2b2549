// Bearer tokens (common/security/tokens.hpp): the digests against published vectors (FIPS 180-2,
// RFC 4231); create_token makes a "zkf_<64 hex>" token, keeps only its SHA-256 (mode 0600, one
// line per name, a new token replacing the name's old one), and refuses a bad name or a folder it
// cannot write; token_store_t names the client of a good token and refuses every other: wrong
// length, wrong prefix, unknown, altered, revoked, of a malformed line; it sees the file change
// (looked at on every request: a replaced token fails and its successor works on the very next
// request); list_tokens and revoke_token. The HTTP side (401 for a bad token, a token sees its own
// jobs) is tests/cli/http_api.sh.
#include "common/security/tokens.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/security/certs.hpp"
#include "tests/test_util.hpp"

using namespace zk::security;
using namespace std::chrono_literals;
using zk::test::contains;
using zk::test::read_text;
using zk::test::temp_dir_t;
using zk::test::thrown;
using zk::test::write_text;

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

}  // namespace

TEST_CASE("sha256_hex and hmac_sha256_hex: the published vectors") {
  // FIPS 180-2, appendix B.1, and the empty message.
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // RFC 4231, test case 2.
  CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing!") !=
        hmac_sha256_hex("Jefe", "what do ya want for nothing?"));
}

TEST_CASE("create_token: zkf_ and 64 hex digits shown once, only its SHA-256 kept, mode 0600") {
  temp_dir_t d("zk_tokens");
  const std::string t = create_token(d.path().string(), "alice");
  CHECK(std::regex_match(t, std::regex("zkf_[0-9a-f]{64}")));
  const std::string file = d.file("tokens");
  CHECK(mode_of(file) == 0600);
  const std::string text = read_text(file);
  CHECK_FALSE(contains(text, t.substr(4)));  // the secret never reaches the disk
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 1);
  CHECK(std::regex_match(lines[0],
                         std::regex("alice " + sha256_hex(t) +
                                    " [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")));
  CHECK_FALSE(std::filesystem::exists(file + ".new"));
  // Two tokens are never the same.
  CHECK(create_token(d.path().string(), "bob") != t);
}

TEST_CASE("create_token: a new token for a name replaces its line, the other names stay") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  const std::string a1 = create_token(dir, "alice");
  const std::string b = create_token(dir, "bob");
  const std::string a2 = create_token(dir, "alice");
  const auto lines = lines_of(d.file("tokens"));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("bob " + sha256_hex(b) + " ", 0) == 0);
  CHECK(lines[1].rfind("alice " + sha256_hex(a2) + " ", 0) == 0);
  token_store_t store(dir);
  CHECK(store.identify(a2) == std::optional<std::string>("alice"));
  CHECK(store.identify(b) == std::optional<std::string>("bob"));
  CHECK_FALSE(store.identify(a1));  // replaced: refused
}

TEST_CASE("create_token refuses a name that is not one, and a folder it cannot write") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  for (const std::string& bad : {std::string(""), std::string("a b"), std::string("../x"),
                                 std::string(".hidden"), std::string("-dash"), std::string(65, 'a'),
                                 std::string("tab\there"), std::string("new\nline")}) {
    const std::string e = thrown([&] { create_token(dir, bad); });
    CHECK_MESSAGE(e == "'" + bad + "' is not a valid name (" + name_rule + ")", e);
  }
  CHECK_FALSE(std::filesystem::exists(d.file("tokens")));       // nothing written by a refusal
  CHECK(create_token(dir, std::string(64, 'a')).size() == 68);  // 64 characters: the limit
  // A folder that does not exist: the file it could not write is named.
  const std::string missing = d.file("absent");
  const std::string e = thrown([&] { create_token(missing, "alice"); });
  CHECK_MESSAGE(e == missing + "/tokens.new: cannot write", e);
  CHECK_FALSE(std::filesystem::exists(missing));
}

TEST_CASE("token_store_t: the name of a good token, every other token refused") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  const std::string t = create_token(dir, "alice");
  token_store_t store(dir);
  CHECK(store.path() == d.file("tokens"));
  CHECK(store.identify(t) == std::optional<std::string>("alice"));
  CHECK_FALSE(store.identify(""));
  CHECK_FALSE(store.identify("zkf_"));
  CHECK_FALSE(store.identify(t.substr(0, t.size() - 1)));  // one digit short
  CHECK_FALSE(store.identify(t + "0"));                    // one digit over
  CHECK_FALSE(store.identify("zkg_" + t.substr(4)));       // another prefix
  CHECK_FALSE(store.identify("ZKF_" + t.substr(4)));
  CHECK_FALSE(store.identify(t.substr(4) + "abcd"));  // no prefix, the right length
  std::string upper = t;
  for (size_t i = 4; i < upper.size(); ++i) upper[i] = char(std::toupper(upper[i]));
  if (upper != t) CHECK_FALSE(store.identify(upper));  // the same digits, other case
  std::string altered = t;
  altered.back() = altered.back() == '0' ? '1' : '0';
  CHECK_FALSE(store.identify(altered));
  CHECK_FALSE(store.identify("zkf_" + std::string(64, '0')));  // well formed, unknown
  // The hash itself is not a token (the file's contents give nothing away).
  CHECK_FALSE(store.identify("zkf_" + sha256_hex(t)));
}

TEST_CASE("token_store_t: no file, and the file's malformed lines, identify nobody") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  token_store_t none(dir);
  CHECK_FALSE(none.identify("zkf_" + std::string(64, '1')));  // no tokens file at all
  // Lines written by hand: a bad name, a short hash, a lone name; only the good line counts.
  const std::string good = "zkf_" + std::string(64, 'a');
  const std::string bad_name = "zkf_" + std::string(64, 'b');
  const std::string short_hash = "zkf_" + std::string(64, 'c');
  write_text(d.file("tokens"), "../evil " + sha256_hex(bad_name) + " 2026-01-01T00:00:00Z\n" +
                                   "carol " + sha256_hex(short_hash).substr(0, 63) + "\n" +
                                   "dave\n\n" + "erin " + sha256_hex(good) + "\n");
  token_store_t store(dir);
  CHECK(store.identify(good) == std::optional<std::string>("erin"));
  CHECK_FALSE(store.identify(bad_name));
  CHECK_FALSE(store.identify(short_hash));
}

TEST_CASE("token_store_t reads the file again when it changes: new tokens, revocation") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  const std::string a = create_token(dir, "alice");
  token_store_t store(dir);
  REQUIRE(store.identify(a) == std::optional<std::string>("alice"));
  // A token made while the store runs is known at the very next request (issue 27 item 9: there
  // was a second's cache in which the new token failed and the old one still worked).
  const std::string b = create_token(dir, "bob");
  CHECK(store.identify(b) == std::optional<std::string>("bob"));
  CHECK(store.identify(a) == std::optional<std::string>("alice"));
  // A replaced token is refused at once, its successor accepted at once.
  const std::string a2 = create_token(dir, "alice");
  CHECK_FALSE(store.identify(a).has_value());
  CHECK(store.identify(a2) == std::optional<std::string>("alice"));
  // Replaced again within the same second (same size, perhaps the same mtime): still seen.
  const std::string a3 = create_token(dir, "alice");
  CHECK_FALSE(store.identify(a2).has_value());
  CHECK(store.identify(a3) == std::optional<std::string>("alice"));
  // The file removed: every token refused.
  std::filesystem::remove(d.file("tokens"));
  CHECK_FALSE(store.identify(a3).has_value());
  CHECK_FALSE(store.identify(b).has_value());
}

TEST_CASE("list_tokens and revoke_token: names and dates, a revoked token refused at once") {
  temp_dir_t d("zk_tokens");
  const std::string dir = d.path().string();
  CHECK(list_tokens(dir).empty());  // no tokens file: none
  const std::string a = create_token(dir, "alice");
  const std::string b = create_token(dir, "bob");
  const auto listed = list_tokens(dir);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].name == "alice");
  CHECK(listed[1].name == "bob");
  CHECK(std::regex_match(listed[0].created,
                         std::regex("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")));
  token_store_t store(dir);
  REQUIRE(store.identify(a) == std::optional<std::string>("alice"));
  revoke_token(dir, "alice");
  CHECK_FALSE(store.identify(a).has_value());
  CHECK(store.identify(b) == std::optional<std::string>("bob"));
  CHECK(list_tokens(dir).size() == 1);
  CHECK(mode_of(d.file("tokens")) == 0600);
  // Revoking a name without a token names the file; a malformed line is named with its number.
  CHECK(contains(thrown([&] { revoke_token(dir, "alice"); }), "client alice has no token in"));
  write_text(d.file("tokens"), "bob " + sha256_hex(b) + " 2026-01-01T00:00:00Z\ncarol short\n");
  CHECK(contains(thrown([&] { list_tokens(dir); }), "tokens:2: not a token line"));
}
