#pragma once
// A circom job's input.json turned into a .wtns by its circuit's witness generator: the
// operator's command from the config (never a job's), run without a shell, "{input}" and
// "{output}" replaced, bounded in time, killed when the job is cancelled.
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "node/circuit.hpp"

namespace zk::node {

// How long a witness generator may run for one partition before it is killed.
constexpr std::chrono::seconds witness_generator_timeout{600};

// "circuit 'x' has no witness_generator in its config: give a .wtns".
std::string no_witness_generator(const circuit_def_t& c);

// The generator's argv with every "{input}" and "{output}" replaced, in one pass (a path that
// itself contains "{output}" is not substituted again).
std::vector<std::string> generator_argv(const std::vector<std::string>& tmpl,
                                        const std::string& input, const std::string& output);

// Runs c's witness generator on `input` (an input.json), writing `output` (a .wtns), for at most
// witness_generator_timeout. `stop` (polled while it runs) kills it: the job was cancelled.
// Throws std::runtime_error naming the circuit, the generator, how it ended and the tail of its
// output.
void generate_witness(const circuit_def_t& c, const std::string& input, const std::string& output,
                      const std::function<bool()>& stop);

// A fresh directory under the temp dir for one generated witness, removed with its contents.
struct scratch_dir_t {
  std::filesystem::path path;
  scratch_dir_t();
  ~scratch_dir_t();
  scratch_dir_t(const scratch_dir_t&) = delete;
  scratch_dir_t& operator=(const scratch_dir_t&) = delete;
};

}  // namespace zk::node
