#pragma once
// Job inputs uploaded through the HTTP API (docs/api.md "Uploads"), kept by the scheduler node so
// that clients share no filesystem with the cluster. Content-addressed files in one folder
// (scheduler.uploads, beside the journal): <sha256 hex>.wtns or .json, written to a temporary
// name and renamed, so a file under its final name is always whole. A job names an upload by its
// reference, "upload:sha256:<hex>.<ext>" (an input string like a path or "seed=N"); the journal
// keeps the job's inputs and the files stay, so uploads survive a restart with the jobs that use
// them. Synthesis nodes fetch them from the scheduler's HTTP endpoint with a ticket the scheduler
// gives each dispatch (ticket()), and keep a verified copy (fetch_cache_t).
// Plain C++, thread-safe: the HTTP handlers store, the scheduler's checker reads, its tick
// collects.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace zk::node {

inline constexpr std::string_view upload_prefix = "upload:sha256:";

// Whether an input names an upload; its content digest (hex) and extension ("wtns" | "json").
bool is_upload(std::string_view input);
struct upload_ref_t {
  std::string hex, ext;
};
std::optional<upload_ref_t> parse_upload(std::string_view input);

// The ticket a synthesis node shows to fetch `input` for (job, partition, attempt):
// HMAC-SHA256(key, "zkfleet upload v1|input|job|partition|attempt"), hex.
std::string upload_ticket(std::string_view key, std::string_view input, uint64_t job,
                          uint32_t partition, uint32_t attempt);

class upload_store_t {
 public:
  // `dir` is made (owner-only) when missing. Throws naming it when it cannot be.
  upload_store_t(std::string dir, uint64_t max_bytes);

  // Stores `bytes` and returns its reference. A JSON input (`json`) must parse as a JSON object;
  // a .wtns must start with the wtns magic. Throws std::invalid_argument naming what is wrong
  // (over max_bytes, empty, not the kind it claims) and std::runtime_error on I/O errors.
  std::string put(std::string_view bytes, bool json);
  // The file of an upload reference; nullopt when it is not one or is not stored.
  std::optional<std::string> path_of(std::string_view input) const;
  // Deletes every stored upload that `in_use` does not name and that is older than `grace`
  // (an upload made for a job not yet submitted). Returns how many went.
  size_t collect(const std::set<std::string>& in_use, std::chrono::seconds grace);

  const std::string& dir() const { return dir_; }
  uint64_t max_bytes() const { return max_; }

 private:
  std::string dir_;
  uint64_t max_;
};

// A synthesis node's copies of the uploads it was sent: fetch(input) gives a local file, fetched
// once (by `get`, which writes the bytes the scheduler answers into the file it is given and says
// why not otherwise) and verified against the reference's digest. Files are dropped once unused
// for `keep`. Thread-safe: a node's workers share one.
class fetch_cache_t {
 public:
  // get(input, into_path): nullopt when the file is there, else why not.
  using getter_t =
      std::function<std::optional<std::string>(const std::string& input, const std::string& path)>;
  fetch_cache_t(std::string dir, std::chrono::seconds keep = std::chrono::hours(1));
  // The local file of `input`; throws std::runtime_error naming the reference and why.
  std::string fetch(const std::string& input, const getter_t& get);

 private:
  std::string dir_;
  std::chrono::seconds keep_;
};

}  // namespace zk::node
