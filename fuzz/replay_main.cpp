// A main for the harnesses without libFuzzer (the gcc build, CTest's fuzz/<name> tests): runs
// every file named on the command line, or found (recursively, in name order) under a directory
// named there, through LLVMFuzzerTestOneInput once. Arguments starting with '-' are ignored, as
// libFuzzer flags. Exit status 0 when every input ran (a crash or failed invariant aborts); 1 when
// an argument cannot be read or no input was found (an empty or missing corpus is an error).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(arg, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) found.push_back(it->path());
      }
      if (ec) {
        std::fprintf(stderr, "replay: %s: %s\n", arg.c_str(), ec.message().c_str());
        return 1;
      }
      std::sort(found.begin(), found.end());
      inputs.insert(inputs.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.emplace_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", arg.c_str());
      return 1;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs (usage: %s FILE|DIR...)\n", argc > 0 ? argv[0] : "");
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t bytes = 0;
  for (const fs::path& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: %s: cannot open\n", p.c_str());
      return 1;
    }
    const std::vector<char> buf((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", p.c_str(), buf.size());
    // A copy of exactly the input's size, so a read past its end is a read past an allocation.
    std::vector<uint8_t> data(buf.begin(), buf.end());
    LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
    bytes += data.size();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("replay: %zu inputs, %llu bytes, all passed in %.3f s\n", inputs.size(),
              static_cast<unsigned long long>(bytes), s);
  return 0;
}
