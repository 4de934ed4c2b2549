#include "zk/formats/paths.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

#include "zk/base/error.hpp"

namespace zk::formats {
namespace {

namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const bool xa = fs::exists(a, ea), xb = fs::exists(b, eb);
  if (xa && xb) {
    // Devices and pipes (/dev/null, /dev/stdout and /dev/stderr on one terminal) are written, never
    // replaced: only regular files can clobber each other.
    std::error_code e;
    if (!fs::is_regular_file(a, e) || !fs::is_regular_file(b, e)) return false;
    const bool same = fs::equivalent(a, b, e);
    if (!e) return same;
  }
  std::error_code e1, e2;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, e1), e1),
                 cb = fs::weakly_canonical(fs::absolute(b, e2), e2);
  return !e1 && !e2 ? ca == cb : a == b;
}

}  // namespace

void check_outputs(std::initializer_list<file_role_t> inputs,
                   std::initializer_list<file_role_t> outputs) {
  std::vector<const file_role_t*> seen;
  for (const auto& in : inputs) seen.push_back(&in);
  for (const auto& out : outputs) {
    // Its folder must be there before anything is written: a later output failing for a missing
    // folder would leave the earlier ones (a key without its verification key).
    std::error_code ec;
    const fs::path dir = fs::absolute(out.path, ec).parent_path();
    if (!ec && !fs::is_directory(dir, ec))
      throw format_error(out.path + ": " + out.role + ": " + dir.string() + " is not a directory");
    if (fs::is_directory(out.path, ec))
      throw format_error(out.path + ": " + out.role + " is a directory, not a file name");
    for (const file_role_t* other : seen)
      if (same_file(out.path, other->path))
        throw format_error(
            out.path + ": " + out.role + " would replace " + other->role +
            (other->path == out.path ? "" : " (" + other->path + ", the same file)") +
            ": give it another path");
    seen.push_back(&out);
  }
}

}  // namespace zk::formats
