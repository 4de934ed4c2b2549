#pragma once
// The process's log (spdlog): one line per event on stderr,
//
//   2026-12-03 14:06:20.123 warn  [synth-1] job 3 partition 1: synthesis failed: <reason>
//
// with the time, the level, the node's name and, for work, the job and partition. A node logs
// each failure it sees (a synthesis or proof that failed, a buffer refused, a peer lost) once,
// where it is seen, with the reason; `zkfleet node|up --log-level` sets the threshold.
#include <spdlog/spdlog.h>

#include <cstdint>
#include <string>

namespace zk::log {

using level_t = spdlog::level::level_enum;

// "trace", "debug", "info", "warn", "error", "off"; throws std::invalid_argument naming them.
level_t parse_level(const std::string& name);

// Names the process's lines after `node` (before: "zkfleet") and sets the threshold. Call once
// at start-up, before other threads log.
void init(const std::string& node, level_t level = level_t::info);

void write(level_t level, const std::string& message);
// "job J partition K: <message>".
void write(level_t level, uint64_t job, uint32_t partition, const std::string& message);

inline void info(const std::string& m) { write(level_t::info, m); }
inline void warn(const std::string& m) { write(level_t::warn, m); }
inline void error(const std::string& m) { write(level_t::err, m); }
inline void debug(const std::string& m) { write(level_t::debug, m); }
inline void info(uint64_t job, uint32_t part, const std::string& m) {
  write(level_t::info, job, part, m);
}
inline void warn(uint64_t job, uint32_t part, const std::string& m) {
  write(level_t::warn, job, part, m);
}
inline void error(uint64_t job, uint32_t part, const std::string& m) {
  write(level_t::err, job, part, m);
}
inline void debug(uint64_t job, uint32_t part, const std::string& m) {
  write(level_t::debug, job, part, m);
}

}  // namespace zk::log
