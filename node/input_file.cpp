#include "node/input_file.hpp"

#include <filesystem>
#include <stdexcept>

namespace zk::node {

namespace fs = std::filesystem;

std::string input_file_t::name() const { return stored() ? "the upload " + object.name() : path; }

check_t check_input_file(const input_file_t& f) {
  if (f.stored()) {
    if (!f.path.empty()) return std::string("an input is both a path and a stored object");
    if (f.object.sha256.size() != 64 ||
        f.object.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
      return "an input's sha256 '" + f.object.sha256.substr(0, 80) +
             "' is not 64 lowercase hex digits";
    return {};
  }
  if (f.path.empty()) return std::string("an input names no file");
  if (f.path.size() > max_input_path)
    return "an input is longer than " + std::to_string(max_input_path) + " characters";
  if (f.path[0] != '/') return "input " + f.path.substr(0, 200) + " is not an absolute path";
  return {};
}

void add_json(nlohmann::json& into, const input_file_t& f) {
  if (f.stored())
    into["stored"] = f.object.name();
  else
    into["path"] = f.path;
}

input_file_t input_file_from_json(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object()) throw std::invalid_argument(what + " is not an object");
  const bool stored = j.contains("stored"), path = j.contains("path");
  if (stored == path) throw std::invalid_argument(what + " needs one of \"path\" and \"stored\"");
  const nlohmann::json& v = j[stored ? "stored" : "path"];
  if (!v.is_string())
    throw std::invalid_argument(what + (stored ? ".stored" : ".path") + " is not a string");
  if (path) return input_file_t::at(v.get<std::string>());
  auto o = parse_upload("upload:" + v.get<std::string>());
  if (!o) throw std::invalid_argument(what + ".stored is not sha256:<hex>.<wtns|json|fcp>");
  return input_file_t::of(*o);
}

std::string resolved_file_t::named(std::string why) const {
  if (path == name || path.empty()) return why;
  for (size_t at; (at = why.find(path)) != std::string::npos;) why.replace(at, path.size(), name);
  return why;
}

result_t<resolved_file_t> resolve_input(const input_file_t& f, const intake_env_t& env) {
  if (check_t why = check_input_file(f); !why) return why.reason();
  if (f.stored()) {
    auto p = env.store ? env.store->path_of(f.object) : std::nullopt;
    if (!p)
      return "input " + f.object.name() +
             " is not an upload this scheduler holds (PUT /v1/uploads first)";
    return resolved_file_t{*p, f.name()};
  }
  if (check_t why = check_input_root(f.path, env.input_roots); !why) return why.reason();
  return resolved_file_t{f.path, f.path};
}

namespace {

// `p` lies inside `root` (both canonical): root is a whole-component prefix of p.
bool inside(const fs::path& p, const fs::path& root) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (r->empty()) continue;  // a trailing separator
    if (q == p.end() || *q != *r) return false;
  }
  return true;
}

}  // namespace

check_t check_input_root(const std::string& path, const std::vector<std::string>& roots) {
  if (roots.empty())
    return "input " + path + ": this cluster takes no file inputs (scheduler.input_roots is empty)";
  // Symlinks followed as far as the path exists (a file that does not exist is the caller's to
  // report, by what it should have been).
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(path, ec);
  if (ec) return "input " + path + ": cannot be resolved (" + ec.message() + ")";
  for (const auto& root : roots) {
    std::error_code rec;
    const fs::path r = fs::canonical(root, rec);
    if (!rec && inside(real, r)) return {};
  }
  return "input " + path + ": not under any of scheduler.input_roots";
}

}  // namespace zk::node
