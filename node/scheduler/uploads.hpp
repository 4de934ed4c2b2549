#pragma once
// The scheduler's store of job inputs (docs/api.md "Uploads"): the inputs clients upload through
// the HTTP API, so that they share no filesystem with the cluster, and the per-partition inputs
// the scheduler itself writes at a job's intake (a Filecoin C2's, zk/filecoin/api/
// partition_input.hpp). Content-addressed files in one folder (scheduler.uploads, beside the
// journal): <sha256 hex>.wtns, .json or .fcp, written to a temporary name, fsynced, renamed and
// the folder fsynced, so a file under its final name is always whole and survives a power loss
// once its job is journaled. An upload streams in (receive(): appended to its temporary file and
// hashed as it arrives, so memory does not grow with it; a cut-off one leaves nothing behind).
// A job's typed spec (node/job_spec.hpp) names an object by its digest and type
// (stored_object_t); its reference "upload:sha256:<hex>.<ext>" is the object's one text form
// (the API's answer to an upload, the fetch route and ticket). The journal keeps the jobs and the
// files stay, so objects survive a restart with the jobs that name them. Synthesis nodes fetch
// them from the scheduler's HTTP endpoint with a ticket the scheduler gives each dispatch
// (upload_ticket()), and keep a verified copy (fetch_cache_t); in the scheduler's own process
// they read the store's file directly.
// Plain C++, thread-safe: the HTTP handlers store, the scheduler's checker reads, its tick
// collects.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/security/digest.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

inline constexpr std::string_view upload_prefix = "upload:sha256:";

// What an object of the store holds (its file's extension).
enum class object_type_t : uint8_t {
  wtns = 0,              // .wtns: a circom witness
  json = 1,              // .json: a JSON object (an input.json, a C1)
  partition = 2,         // .fcp: a Filecoin C2 partition's input, written at intake
  update_partition = 3,  // .fup: a SnapDeals update partition's input, written at intake
};
const char* object_ext(object_type_t t);  // "wtns", "json", "fcp", "fup"

// An object of the store, by its content.
struct stored_object_t {
  std::string sha256;  // 64 lowercase hex digits
  object_type_t type = object_type_t::wtns;
  std::string ref() const;   // "upload:sha256:<hex>.<ext>"
  std::string name() const;  // "sha256:<hex>.<ext>" (what messages and the fetch route name)
  friend bool operator==(const stored_object_t& a, const stored_object_t& b) {
    return a.sha256 == b.sha256 && a.type == b.type;
  }
};
// An object's reference read back: "upload:sha256:<64 lowercase hex>.<wtns|json|fcp>", nothing
// else.
std::optional<stored_object_t> parse_upload(std::string_view ref);

// The ticket a synthesis node shows to fetch an object for (job, partition, attempt):
// HMAC-SHA256(key, "zkfleet upload v1|<ref>|job|partition|attempt"), hex.
std::string upload_ticket(std::string_view key, std::string_view ref, uint64_t job,
                          uint32_t partition, uint32_t attempt);

// Why an upload was not taken: over the bound (HTTP 413), not an input (400), or the store could
// not keep it (I/O: the scheduler's fault, 500).
struct upload_error_t {
  enum class kind_t { too_large, bad_input, io };
  kind_t kind = kind_t::bad_input;
  std::string why;
};

// One upload as it arrives (upload_store_t::receive): each piece appended to a temporary file of
// the store and hashed; commit() checks what it is and gives it its content name. Destroyed
// without a commit (the client left, a refusal, a deadline), its temporary file goes. A .wtns
// whose first four bytes are not "wtns" is refused as soon as they arrive; a JSON input is checked
// at commit (parsed as it is read back, nothing held). One thread at a time.
class upload_receiver_t {
 public:
  ~upload_receiver_t();
  upload_receiver_t(const upload_receiver_t&) = delete;
  upload_receiver_t& operator=(const upload_receiver_t&) = delete;

  // Appends a piece; the refusal once the upload cannot be taken (it then takes nothing more).
  std::optional<upload_error_t> write(std::string_view bytes);
  // The stored upload's reference ("upload:sha256:<hex>.<ext>"), or why it is not taken.
  result_t<std::string, upload_error_t> commit();
  uint64_t bytes() const { return bytes_; }
  // Whether a CR or LF byte came (a .wtns of any size has some; curl -d strips them all).
  bool any_newline() const { return newline_; }
  bool json() const { return json_; }

 private:
  friend class upload_store_t;
  upload_receiver_t(std::string dir, std::string tmp, uint64_t max_bytes, bool json,
                    bool check_json);
  void drop();
  std::string dir_, tmp_;
  uint64_t max_, bytes_ = 0;
  bool json_, check_json_;
  std::FILE* file_ = nullptr;
  security::sha256_stream_t hash_;
  std::string head_;  // the first bytes, for the .wtns magic
  bool newline_ = false;
  std::optional<upload_error_t> failed_;
};

class upload_store_t {
 public:
  // `dir` is made (owner-only) when missing. Throws naming it when it cannot be.
  upload_store_t(std::string dir, uint64_t max_bytes);

  // Stores `bytes` and returns its reference. A JSON input (`json`) must parse as a JSON object;
  // a .wtns must start with the wtns magic. Throws std::invalid_argument naming what is wrong
  // (over max_bytes, empty, not the kind it claims) and std::runtime_error on I/O errors.
  std::string put(std::string_view bytes, bool json);
  // Stores an object the scheduler made (a partition input: its "ZKFP" magic is checked),
  // durably: when it returns, the file and its name in the folder are on disk. Throws
  // std::invalid_argument for bytes that are not of `type`, std::runtime_error on I/O errors.
  stored_object_t put_object(std::string_view bytes, object_type_t type);
  // An upload that streams in (a JSON input when `json`, else a .wtns). Throws std::runtime_error
  // when the store cannot make its temporary file. `check_json` false: a JSON input whose reader
  // checks it at intake, with its own messages (a C1: its JSON path and byte), is not parsed here.
  std::unique_ptr<upload_receiver_t> receive(bool json, bool check_json = true);
  // The file of an upload reference; nullopt when it is not one or is not stored.
  std::optional<std::string> path_of(std::string_view input) const;
  std::optional<std::string> path_of(const stored_object_t& o) const { return path_of(o.ref()); }
  // Deletes every stored object that `in_use` (references) does not name and that is older than
  // `grace` (an upload made for a job not yet submitted). Returns how many went.
  size_t collect(const std::set<std::string>& in_use, std::chrono::seconds grace);
  // Deletes the objects of a submission whose inputs were refused, each unless it was written
  // (uploaded again: the same bytes renew its age) at or after `since`, the time the submission
  // came: what another upload brought meanwhile stays. The caller leaves out what a job or
  // another intake names. Returns how many went.
  size_t drop(const std::vector<stored_object_t>& objects, std::filesystem::file_time_type since);

  const std::string& dir() const { return dir_; }
  uint64_t max_bytes() const { return max_; }

 private:
  std::string dir_;
  uint64_t max_;
};

// A synthesis node's copies of the uploads it was sent: fetch(input) gives a local file, fetched
// once (by `get`, which writes the bytes the scheduler answers into the file it is given and says
// why not otherwise) and verified against the reference's digest (the file hashed a piece at a
// time: an input of any size, in bounded memory). Files are dropped once unused
// for `keep`. Thread-safe: a node's workers share one.
class fetch_cache_t {
 public:
  // get(input, into_path): passes when the file is there, else refuses with why not.
  using getter_t = std::function<check_t(const std::string& input, const std::string& path)>;
  fetch_cache_t(std::string dir, std::chrono::seconds keep = std::chrono::hours(1));
  // The local file of `input`; throws std::runtime_error naming the reference and why.
  std::string fetch(const std::string& input, const getter_t& get);

 private:
  std::string dir_;
  std::chrono::seconds keep_;
};

}  // namespace zk::node
