#pragma once
// The live dashboard's files (dashboard/: index.html, the script and the style sheet), compiled
// into the binary by CMake (cmake/embed.cmake writes the table behind find() at build time), so
// the scheduler serves them with no file on disk and no network: GET / (docs/api.md "The
// dashboard").
#include <cstddef>
#include <string_view>

namespace zk::dashboard {

struct asset_t {
  std::string_view path;          // "/index.html", "/app.js", "/style.css"
  std::string_view content_type;  // "text/html; charset=utf-8", …
  std::string_view bytes;
};

// The asset served at `path` ("/" is "/index.html"); nullptr when there is none.
const asset_t* find(std::string_view path);

}  // namespace zk::dashboard
