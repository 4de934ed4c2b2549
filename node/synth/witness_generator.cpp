#include "node/synth/witness_generator.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/util/subprocess.hpp"
#include "zk/base/stop.hpp"

namespace zk::node {
namespace {

// "; its output:\n<the tail>" (terminal colour codes and trailing blanks dropped), or
// " (no output)".
std::string output_tail(const util::subprocess_result_t& r) {
  std::string t;
  for (size_t i = 0; i < r.output.size(); ++i) {
    if (r.output[i] == '\x1b' && i + 1 < r.output.size() &&
        r.output[i + 1] == '[') {  // ESC [ params final
      size_t j = i + 2;
      while (j < r.output.size() && !(r.output[j] >= 0x40 && r.output[j] <= 0x7e)) ++j;
      i = j;
      continue;
    }
    t += r.output[i];
  }
  while (!t.empty() &&
         (t.back() == '\n' || t.back() == '\r' || t.back() == ' ' || t.back() == '\t'))
    t.pop_back();
  if (t.empty()) return " (no output)";
  return std::string(r.output_truncated ? "; its output ends:\n..." : "; its output:\n") + t;
}

}  // namespace

std::string no_witness_generator(const circuit_def_t& c) {
  return "circuit '" + c.id + "' has no witness_generator in its config: give a .wtns";
}

std::vector<std::string> generator_argv(const std::vector<std::string>& tmpl,
                                        const std::string& input, const std::string& output) {
  static const std::string in_tag = "{input}", out_tag = "{output}";
  std::vector<std::string> argv;
  argv.reserve(tmpl.size());
  for (const auto& arg : tmpl) {
    std::string a;
    for (size_t i = 0; i < arg.size();) {
      if (arg.compare(i, in_tag.size(), in_tag) == 0) {
        a += input;
        i += in_tag.size();
      } else if (arg.compare(i, out_tag.size(), out_tag) == 0) {
        a += output;
        i += out_tag.size();
      } else {
        a += arg[i++];
      }
    }
    argv.push_back(std::move(a));
  }
  return argv;
}

void generate_witness(const circuit_def_t& c, const std::string& input, const std::string& output,
                      const std::function<bool()>& stop) {
  if (c.witness_generator.empty())
    throw std::runtime_error(no_witness_generator(c) + " (got " + input + ")");
  util::subprocess_options_t o;
  o.timeout = witness_generator_timeout;
  o.output_limit = 4096;
  o.stop = stop;
  const auto r = util::run_subprocess(generator_argv(c.witness_generator, input, output), o);
  const std::string what =
      "circuit '" + c.id + "': witness generator " + c.witness_generator[0] + " on " + input;
  if (r.stopped) throw cancelled_error(what + ": " + r.describe() + ": the job was cancelled");
  if (!r.ok()) throw std::runtime_error(what + " failed: " + r.describe() + output_tail(r));
  std::error_code ec;
  const auto size = std::filesystem::file_size(output, ec);
  if (ec || size == 0)
    throw std::runtime_error(what + ": exit status 0 but it wrote no witness to \"{output}\" (" +
                             output + ")" + output_tail(r));
}

scratch_dir_t::scratch_dir_t() {
  std::string t = (std::filesystem::temp_directory_path() / "zkfleet-wtns-XXXXXX").string();
  if (::mkdtemp(t.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary directory for a witness (" + t +
                             "): " + std::strerror(errno));
  path = t;
}

scratch_dir_t::~scratch_dir_t() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

}  // namespace zk::node
