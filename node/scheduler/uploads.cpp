#include "node/scheduler/uploads.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/security/tokens.hpp"

namespace zk::node {

namespace fs = std::filesystem;

bool is_upload(std::string_view input) {
  return input.substr(0, upload_prefix.size()) == upload_prefix;
}

std::optional<upload_ref_t> parse_upload(std::string_view input) {
  if (!is_upload(input)) return std::nullopt;
  const std::string_view rest = input.substr(upload_prefix.size());
  const size_t dot = rest.find('.');
  if (dot != 64 || rest.find_first_not_of("0123456789abcdef") < 64) return std::nullopt;
  const std::string_view ext = rest.substr(65);
  if (ext != "wtns" && ext != "json") return std::nullopt;
  return upload_ref_t{std::string(rest.substr(0, 64)), std::string(ext)};
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

// A name no other writer in this process or another uses.
std::string temp_name(const std::string& dir) {
  static std::atomic<uint64_t> n{0};
  return (fs::path(dir) / (".tmp." + std::to_string(::getpid()) + "." + std::to_string(++n)))
      .string();
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(path + ": cannot write");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

upload_store_t::upload_store_t(std::string dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_(max_bytes) {
  make_private_dir(dir_);
}

std::string upload_store_t::put(std::string_view bytes, bool json) {
  if (bytes.empty()) throw std::invalid_argument("the input is empty");
  if (bytes.size() > max_)
    throw std::invalid_argument("the input (" + std::to_string(bytes.size()) +
                                " bytes) is over scheduler.max_upload (" + std::to_string(max_) +
                                " bytes)");
  if (json) {
    try {
      if (!nlohmann::json::parse(bytes).is_object())
        throw std::invalid_argument("an input.json must be a JSON object");
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(std::string("the input is not JSON: ") + e.what());
    }
  } else if (bytes.size() < 4 || bytes.substr(0, 4) != "wtns") {
    throw std::invalid_argument(
        "the input is not a .wtns (it does not start with \"wtns\"); an input.json goes with "
        "Content-Type: application/json");
  }
  const std::string hex = security::sha256_hex(bytes), ext = json ? "json" : "wtns";
  const std::string ref = std::string(upload_prefix) + hex + "." + ext;
  const std::string final_path = (fs::path(dir_) / (hex + "." + ext)).string();
  std::error_code ec;
  if (fs::exists(final_path, ec)) {  // the same bytes again: keep the file, renew its age
    fs::last_write_time(final_path, fs::file_time_type::clock::now(), ec);
    return ref;
  }
  const std::string tmp = temp_name(dir_);
  write_file(tmp, bytes);
  fs::rename(tmp, final_path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(final_path + ": cannot store the upload");
  }
  return ref;
}

std::optional<std::string> upload_store_t::path_of(std::string_view input) const {
  auto r = parse_upload(input);
  if (!r) return std::nullopt;
  const std::string p = (fs::path(dir_) / (r->hex + "." + r->ext)).string();
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  return p;
}

size_t upload_store_t::collect(const std::set<std::string>& in_use, std::chrono::seconds grace) {
  std::set<std::string> keep;
  for (const auto& input : in_use)
    if (auto r = parse_upload(input)) keep.insert(r->hex + "." + r->ext);
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

fetch_cache_t::fetch_cache_t(std::string dir, std::chrono::seconds keep)
    : dir_(std::move(dir)), keep_(keep) {
  make_private_dir(dir_);
}

std::string fetch_cache_t::fetch(const std::string& input, const getter_t& get) {
  auto r = parse_upload(input);
  if (!r) throw std::runtime_error("'" + input.substr(0, 100) + "' is not an upload reference");
  const std::string path = (fs::path(dir_) / (r->hex + "." + r->ext)).string();
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
  if (const auto why = get(input, tmp)) {
    fs::remove(tmp, ec);
    throw std::runtime_error("fetching " + input + " from the scheduler failed: " + *why);
  }
  if (security::sha256_hex(read_file(tmp)) != r->hex) {
    fs::remove(tmp, ec);
    throw std::runtime_error("fetching " + input +
                             " from the scheduler gave other bytes than its digest names");
  }
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot keep the fetched input: " + ec.message());
  return path;
}

}  // namespace zk::node
