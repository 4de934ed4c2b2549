#include "node/scheduler/uploads.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/security/tokens.hpp"

namespace zk::node {

namespace fs = std::filesystem;

const char* object_ext(object_type_t t) {
  switch (t) {
    case object_type_t::wtns:
      return "wtns";
    case object_type_t::json:
      return "json";
    case object_type_t::partition:
      return "fcp";
    case object_type_t::update_partition:
      return "fup";
  }
  return "?";
}

std::string stored_object_t::name() const { return "sha256:" + sha256 + "." + object_ext(type); }
std::string stored_object_t::ref() const { return "upload:" + name(); }

std::optional<stored_object_t> parse_upload(std::string_view input) {
  if (input.substr(0, upload_prefix.size()) != upload_prefix) return std::nullopt;
  const std::string_view rest = input.substr(upload_prefix.size());
  const size_t dot = rest.find('.');
  if (dot != 64 || rest.find_first_not_of("0123456789abcdef") < 64) return std::nullopt;
  const std::string_view ext = rest.substr(65);
  for (object_type_t t : {object_type_t::wtns, object_type_t::json, object_type_t::partition,
                          object_type_t::update_partition})
    if (ext == object_ext(t)) return stored_object_t{std::string(rest.substr(0, 64)), t};
  return std::nullopt;
}

std::string upload_ticket(std::string_view key, std::string_view input, uint64_t job,
                          uint32_t partition, uint32_t attempt) {
  return security::hmac_sha256_hex(key, "zkfleet upload v1|" + std::string(input) + "|" +
                                            std::to_string(job) + "|" + std::to_string(partition) +
                                            "|" + std::to_string(attempt));
}

namespace {

void make_private_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) return;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot make the folder: " + ec.message());
  fs::permissions(dir, fs::perms::owner_all, ec);
}

// Makes what was written to `path` (a file, or a folder's entries) durable: fsync. Refused with
// the reason when it failed.
check_t sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return path + ": cannot open it to sync (" + std::strerror(errno) + ")";
  const int rc = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (rc != 0) return path + ": fsync failed (" + std::strerror(e) + ")";
  return {};
}

// A name no other writer in this process or another uses.
std::string temp_name(const std::string& dir) {
  static std::atomic<uint64_t> n{0};
  return (fs::path(dir) / (".tmp." + std::to_string(::getpid()) + "." + std::to_string(++n)))
      .string();
}

// That the file holds one JSON object (an input.json, a C1) or list (a SnapDeals update's
// snap-vproof.json): parsed as it is read back (SAX: nothing kept). What each holds is its
// reader's to check, at intake.
check_t check_json_object(const std::string& path) {
  struct sax_t : nlohmann::json_sax<nlohmann::json> {
    int events = 0;
    bool object = false;
    std::string error;
    bool first(bool is_object) {
      if (events++ == 0) object = is_object;
      return true;
    }
    bool null() override { return first(false); }
    bool boolean(bool) override { return first(false); }
    bool number_integer(number_integer_t) override { return first(false); }
    bool number_unsigned(number_unsigned_t) override { return first(false); }
    bool number_float(number_float_t, const string_t&) override { return first(false); }
    bool string(string_t&) override { return first(false); }
    bool binary(binary_t&) override { return first(false); }
    bool start_object(std::size_t) override { return first(true); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return first(true); }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&,
                     const nlohmann::detail::exception& e) override {
      error = e.what();
      return false;
    }
  } sax;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("the stored input cannot be read back");
  if (!nlohmann::json::sax_parse(in, &sax) || !sax.error.empty())
    return "the input is not JSON: " + sax.error;
  if (!sax.object)
    return std::string(
        "a JSON input must be an object (an input.json, a C1) or a list (a snap-vproof.json)");
  return {};
}

}  // namespace

upload_store_t::upload_store_t(std::string dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_(max_bytes) {
  make_private_dir(dir_);
}

std::string upload_store_t::put(std::string_view bytes, bool json) {
  auto r = receive(json);
  auto fail = [](const upload_error_t& e) -> std::string {
    if (e.kind == upload_error_t::kind_t::io) throw std::runtime_error(e.why);
    throw std::invalid_argument(e.why);
  };
  if (auto e = r->write(bytes)) return fail(*e);
  auto ref = r->commit();
  if (!ref) return fail(ref.error());
  return ref.value();
}

stored_object_t upload_store_t::put_object(std::string_view bytes, object_type_t type) {
  // What intake writes: the partition inputs of zk/filecoin/api/partition_input.hpp and
  // update_input.hpp, each by its magic.
  const char* magic = type == object_type_t::partition          ? "ZKFP"
                      : type == object_type_t::update_partition ? "ZKUP"
                                                                : nullptr;
  if (!magic || bytes.size() < 4 || bytes.substr(0, 4) != magic)
    throw std::invalid_argument(
        std::string("not a partition input (.") + object_ext(type) +
        (magic ? std::string(": its magic is not \"") + magic + "\")" : std::string(")")));
  security::sha256_stream_t hash;
  hash.update(bytes);
  const stored_object_t o{hash.hex(), type};
  const std::string final_path = (fs::path(dir_) / (o.sha256 + "." + object_ext(type))).string();
  std::error_code ec;
  if (fs::exists(final_path, ec)) {  // the same bytes again (the same C1 twice): renew its age
    fs::last_write_time(final_path, fs::file_time_type::clock::now(), ec);
    return o;
  }
  const std::string tmp = temp_name(dir_);
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (!f) throw std::runtime_error(tmp + ": cannot write (" + std::strerror(errno) + ")");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  auto fail = [&](const std::string& why) {
    fs::remove(tmp, ec);
    throw std::runtime_error(why);
  };
  if (!written || !closed) fail(tmp + ": cannot write (" + std::strerror(errno) + ")");
  if (check_t synced = sync_path(tmp, false); !synced) fail(synced.reason());
  fs::rename(tmp, final_path, ec);
  if (ec) fail(final_path + ": cannot store it (" + ec.message() + ")");
  if (check_t synced = sync_path(dir_, true); !synced) throw std::runtime_error(synced.reason());
  return o;
}

std::unique_ptr<upload_receiver_t> upload_store_t::receive(bool json, bool check_json) {
  return std::unique_ptr<upload_receiver_t>(
      new upload_receiver_t(dir_, temp_name(dir_), max_, json, check_json));
}

upload_receiver_t::upload_receiver_t(std::string dir, std::string tmp, uint64_t max_bytes,
                                     bool json, bool check_json)
    : dir_(std::move(dir)),
      tmp_(std::move(tmp)),
      max_(max_bytes),
      json_(json),
      check_json_(check_json) {
  file_ = std::fopen(tmp_.c_str(), "wbx");
  if (!file_)
    throw std::runtime_error(tmp_ + ": cannot write the upload's file (" + std::strerror(errno) +
                             ")");
}

upload_receiver_t::~upload_receiver_t() { drop(); }

void upload_receiver_t::drop() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!tmp_.empty()) {
    std::error_code ec;
    fs::remove(tmp_, ec);
    tmp_.clear();
  }
}

std::optional<upload_error_t> upload_receiver_t::write(std::string_view bytes) {
  if (failed_) return failed_;
  auto refuse = [&](upload_error_t::kind_t kind, std::string why) {
    failed_ = upload_error_t{kind, std::move(why)};
    drop();
    return failed_;
  };
  if (bytes.size() > max_ - bytes_)
    return refuse(upload_error_t::kind_t::too_large,
                  "the input (" + std::to_string(bytes_ + bytes.size()) +
                      " bytes) is over scheduler.max_upload (" + std::to_string(max_) + " bytes)");
  if (!json_ && head_.size() < 4) {
    head_.append(bytes.substr(0, 4 - head_.size()));
    if (head_.size() == 4 && head_ != "wtns")
      return refuse(upload_error_t::kind_t::bad_input,
                    "the input is not a .wtns (it does not start with \"wtns\"); an input.json "
                    "goes with Content-Type: application/json");
  }
  hash_.update(bytes);
  if (!newline_) newline_ = bytes.find_first_of("\r\n") != std::string_view::npos;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    return refuse(upload_error_t::kind_t::io,
                  tmp_ + ": cannot write the upload (" + std::strerror(errno) + ")");
  bytes_ += bytes.size();
  return std::nullopt;
}

result_t<std::string, upload_error_t> upload_receiver_t::commit() {
  if (failed_) return *failed_;
  auto refuse = [&](upload_error_t::kind_t kind, std::string why) {
    failed_ = upload_error_t{kind, std::move(why)};
    drop();
    return *failed_;
  };
  if (bytes_ == 0) return refuse(upload_error_t::kind_t::bad_input, "the input is empty");
  if (!json_ && head_ != "wtns")
    return refuse(upload_error_t::kind_t::bad_input,
                  "the input is not a .wtns (it does not start with \"wtns\"); an input.json "
                  "goes with Content-Type: application/json");
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed)
    return refuse(upload_error_t::kind_t::io, tmp_ + ": cannot write the upload (close failed)");
  if (json_ && check_json_)
    if (check_t object = check_json_object(tmp_); !object)
      return refuse(upload_error_t::kind_t::bad_input, object.reason());
  const std::string hex = hash_.hex(), ext = json_ ? "json" : "wtns";
  const std::string ref = std::string(upload_prefix) + hex + "." + ext;
  const std::string final_path = (fs::path(dir_) / (hex + "." + ext)).string();
  std::error_code ec;
  if (fs::exists(final_path, ec)) {  // the same bytes again: keep the file, renew its age
    fs::last_write_time(final_path, fs::file_time_type::clock::now(), ec);
    drop();
    return ref;
  }
  // Durable before it is named: a job journaled with journal_sync full must not outlive its input.
  if (check_t synced = sync_path(tmp_, false); !synced)
    return refuse(upload_error_t::kind_t::io, synced.reason());
  fs::rename(tmp_, final_path, ec);
  if (ec)
    return refuse(upload_error_t::kind_t::io,
                  final_path + ": cannot store the upload (" + ec.message() + ")");
  tmp_.clear();  // it is the stored file now
  if (check_t synced = sync_path(dir_, true); !synced)
    return refuse(upload_error_t::kind_t::io, synced.reason());
  return ref;
}

std::optional<std::string> upload_store_t::path_of(std::string_view input) const {
  auto r = parse_upload(input);
  if (!r) return std::nullopt;
  const std::string p = (fs::path(dir_) / (r->sha256 + "." + object_ext(r->type))).string();
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  return p;
}

size_t upload_store_t::collect(const std::set<std::string>& in_use, std::chrono::seconds grace) {
  std::set<std::string> keep;
  for (const auto& input : in_use)
    if (auto r = parse_upload(input)) keep.insert(r->sha256 + "." + object_ext(r->type));
  size_t gone = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (keep.count(name)) continue;
    std::error_code e2;
    const auto age = now - fs::last_write_time(it->path(), e2);
    if (e2 || age < grace) continue;
    if (fs::remove(it->path(), e2)) ++gone;
  }
  return gone;
}

size_t upload_store_t::drop(const std::vector<stored_object_t>& objects, fs::file_time_type since) {
  size_t gone = 0;
  for (const auto& o : objects) {
    const fs::path p = fs::path(dir_) / (o.sha256 + "." + object_ext(o.type));
    std::error_code ec;
    const auto written = fs::last_write_time(p, ec);
    if (!ec && written < since && fs::remove(p, ec)) ++gone;
  }
  return gone;
}

fetch_cache_t::fetch_cache_t(std::string dir, std::chrono::seconds keep)
    : dir_(std::move(dir)), keep_(keep) {
  make_private_dir(dir_);
}

std::string fetch_cache_t::fetch(const std::string& input, const getter_t& get) {
  auto r = parse_upload(input);
  if (!r) throw std::runtime_error("'" + input.substr(0, 100) + "' is not an upload reference");
  const std::string path = (fs::path(dir_) / (r->sha256 + "." + object_ext(r->type))).string();
  std::error_code ec;
  if (fs::exists(path, ec)) {
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // in use
    return path;
  }
  // Unused copies go first (a node that runs for months keeps only what it uses).
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (now - fs::last_write_time(it->path(), e2) > keep_ && !e2) fs::remove(it->path(), e2);
  }
  const std::string tmp = temp_name(dir_);
  if (const check_t got = get(input, tmp); !got) {
    fs::remove(tmp, ec);
    throw std::runtime_error("fetching " + input + " from the scheduler failed: " + got.reason());
  }
  const auto digest = security::sha256_file_hex(tmp);
  if (!digest) {
    fs::remove(tmp, ec);
    throw std::runtime_error("fetching " + input + ": " + digest.error().why);
  }
  if (digest.value() != r->sha256) {
    fs::remove(tmp, ec);
    throw std::runtime_error("fetching " + input +
                             " from the scheduler gave other bytes than its digest names");
  }
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot keep the fetched input: " + ec.message());
  return path;
}

}  // namespace zk::node
