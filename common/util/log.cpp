#include "common/util/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <memory>
#include <mutex>
#include <stdexcept>

namespace zk::log {
namespace {

std::mutex mu;
std::shared_ptr<spdlog::logger> current;

std::shared_ptr<spdlog::logger> make(const std::string& name, level_t level) {
  auto l =
      std::make_shared<spdlog::logger>(name, std::make_shared<spdlog::sinks::stderr_sink_mt>());
  l->set_pattern("%Y-%m-%d %H:%M:%S.%e %-5l [%n] %v");
  l->set_level(level);
  l->flush_on(level_t::trace);  // every line at once: a node killed mid-run loses none
  return l;
}

std::shared_ptr<spdlog::logger> logger() {
  std::lock_guard<std::mutex> lock(mu);
  if (!current) current = make("zkfleet", level_t::info);
  return current;
}

}  // namespace

level_t parse_level(const std::string& name) {
  if (name == "trace") return level_t::trace;
  if (name == "debug") return level_t::debug;
  if (name == "info") return level_t::info;
  if (name == "warn" || name == "warning") return level_t::warn;
  if (name == "error") return level_t::err;
  if (name == "off") return level_t::off;
  throw std::invalid_argument("log level '" + name +
                              "' is not one of trace, debug, info, warn, error, off");
}

void init(const std::string& node, level_t level) {
  auto l = make(node, level);
  std::lock_guard<std::mutex> lock(mu);
  current = std::move(l);
}

void write(level_t level, const std::string& message) { logger()->log(level, "{}", message); }

void write(level_t level, uint64_t job, uint32_t partition, const std::string& message) {
  logger()->log(level, "job {} partition {}: {}", job, partition, message);
}

}  // namespace zk::log
