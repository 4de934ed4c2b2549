// The embedded dashboard (dashboard/assets.hpp, written by cmake/embed.cmake): every file is
// served byte for byte as it is in dashboard/, with its content type; "/" is the page; nothing
// else is found.
#include "dashboard/assets.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/test_util.hpp"

namespace {

std::string read_source(const std::string& name) {
  const std::string path = std::string(ZK_SOURCE_DIR) + "/dashboard/" + name;
  REQUIRE_MESSAGE(std::filesystem::is_regular_file(path), path);
  return zk::test::read_text(path);
}

}  // namespace

TEST_CASE("each dashboard file is embedded byte for byte with its content type") {
  struct want_t {
    const char* name;
    const char* type;
  };
  for (const want_t& w : {want_t{"index.html", "text/html; charset=utf-8"},
                          want_t{"app.js", "text/javascript; charset=utf-8"},
                          want_t{"style.css", "text/css; charset=utf-8"}}) {
    CAPTURE(w.name);
    const auto* a = zk::dashboard::find(std::string("/") + w.name);
    REQUIRE(a != nullptr);
    CHECK(a->path == std::string("/") + w.name);
    CHECK(a->content_type == w.type);
    CHECK(a->bytes == read_source(w.name));  // a stale build or a bad escape shows here
  }
}

TEST_CASE("the root path is the page, which names its script and style sheet") {
  const auto* root = zk::dashboard::find("/");
  REQUIRE(root != nullptr);
  CHECK(root == zk::dashboard::find("/index.html"));
  CHECK(root->bytes.find("src=\"app.js\"") != std::string_view::npos);
  CHECK(root->bytes.find("href=\"style.css\"") != std::string_view::npos);
}

TEST_CASE("anything else is not found") {
  for (const char* p : {"", "/x", "/index.htm", "index.html", "/app.js/", "/../CMakeLists.txt",
                        "/assets.hpp", "/v1/nodes", "/APP.JS"}) {
    CAPTURE(p);
    CHECK(zk::dashboard::find(p) == nullptr);
  }
}
