#pragma once
// Whole files in and out, the one way the math layer does it. Errors are format_error
// (zk/base/error.hpp) naming the file: "<path>: cannot open: No such file or directory".
#include <cstdint>
#include <string>
#include <string_view>

namespace zk {

// The file's bytes; refuses a directory, and a file of more than max_bytes before reading it.
std::string read_text(const std::string& path, uint64_t max_bytes = UINT64_MAX);

// Writes the bytes to a temporary file beside `path` and renames it over `path` once every byte
// is written: a reader sees the old file or the whole new one, never a part. The temporary is
// removed when anything fails. Not synced to the disk (an fsync costs tens of milliseconds a
// file here, a third of a small proof): what must survive a power loss is synced by its owner
// (the scheduler's store and journal, node/scheduler). A device or a pipe (/dev/null,
// /dev/stdout) is written in place. A `path` that is a device or a pipe (/dev/null) is
// written in place, never replaced.
void write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace zk
