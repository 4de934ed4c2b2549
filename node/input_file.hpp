#pragma once
// A file a job names (node/job_spec.hpp), and how the scheduler's intake and a synthesis node find
// it: a path on the cluster's hosts, under scheduler.input_roots, or an object of the scheduler's
// store (node/scheduler/uploads.hpp: uploaded, or written at intake).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "node/scheduler/uploads.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

// The longest path a job may name.
inline constexpr size_t max_input_path = 4096;

struct input_file_t {
  std::string path;        // not stored: an absolute path read where the job runs
  stored_object_t object;  // stored: the store's object (its sha256 set)
  bool stored() const { return !object.sha256.empty(); }
  // What a message calls it: the path, or "the upload sha256:<hex>.<ext>" (never the file the
  // scheduler keeps it in).
  std::string name() const;
  static input_file_t at(std::string path) { return {std::move(path), {}}; }
  static input_file_t of(stored_object_t o) { return {"", std::move(o)}; }
};

// A path or an object, well formed: an object's digest 64 lowercase hex digits; a path absolute,
// at most max_input_path long. Refused with the reason when not.
check_t check_input_file(const input_file_t& f);

// In the journal's JSON: {"path": P} or {"stored": "sha256:<hex>.<ext>"} (merged into the object
// that holds it). from_json throws std::invalid_argument naming `what` and the field.
void add_json(nlohmann::json& into, const input_file_t& f);
input_file_t input_file_from_json(const nlohmann::json& j, const std::string& what);

// Where the scheduler's intake finds the files jobs name.
struct intake_env_t {
  std::vector<std::string> input_roots;  // scheduler.input_roots (absolute)
  upload_store_t* store = nullptr;       // the scheduler's store; null: it has none
};

// A file found on this host: its path here, and its name for the user (input_file_t::name).
struct resolved_file_t {
  std::string path, name;
  // `why` with this host's path of the file replaced by its name.
  std::string named(std::string why) const;
};
// The file of `f` at the scheduler: an object the store holds, or a path under the input roots.
// The reason (naming the file as the user named it) when it is neither. Does file-system calls.
result_t<resolved_file_t> resolve_input(const input_file_t& f, const intake_env_t& env);

// The reason when `path` does not resolve (symlinks followed) to a file under one of `roots`
// (already absolute), naming the path (never its content); passes when it does.
check_t check_input_root(const std::string& path, const std::vector<std::string>& roots);

}  // namespace zk::node
