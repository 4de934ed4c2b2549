// CTest registers each doctest TEST_CASE by name (doctest_discover_tests), and a ';' in a name is a
// CMake list separator: the test is registered under the name cut at the ';', runs no test case
// and passes. Nineteen tests went unrun that way until this check: every test name in tests/ must
// be free of ';'.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// The name of each TEST_CASE / TEST_CASE_TEMPLATE in `text`: its string literals joined.
std::vector<std::string> test_names(const std::string& text) {
  std::vector<std::string> names;
  for (size_t at = text.find("TEST_CASE"); at != std::string::npos;
       at = text.find("TEST_CASE", at + 9)) {
    size_t i = text.find('(', at);
    if (i == std::string::npos || i > at + 20) continue;
    std::string name;
    for (++i; i < text.size();) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i >= text.size() || text[i] != '"') break;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        name += text[i];
      }
      ++i;
    }
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

TEST_CASE("no test name holds a semicolon (CTest would register it cut short and never run it)") {
  const std::filesystem::path tests = std::filesystem::path(ZK_SOURCE_DIR) / "tests";
  size_t seen = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(tests)) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    const std::string text(std::istreambuf_iterator<char>(in), {});
    for (const auto& name : test_names(text)) {
      ++seen;
      CHECK_MESSAGE(name.find(';') == std::string::npos, e.path().string() << ": " << name);
    }
  }
  CHECK(seen > 200);  // the scan found the suite's tests
}
