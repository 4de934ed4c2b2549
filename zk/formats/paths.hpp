#pragma once
// A command's files by role, checked before anything is written: an output that would replace one
// of the command's inputs (or another of its outputs) is refused, so a slip in the argument order
// (`setup circuit.r1cs circuit.r1cs vk.json`) cannot destroy what the user gave.

#include <initializer_list>
#include <string>

namespace zk::formats {

struct file_role_t {
  const char* role;  // "the circuit (.r1cs)", "the proof output", ...
  const std::string& path;
};

// Throws format_error naming both roles and the path when an output is the same file as an input
// (by name or by identity: a hard link, a symlink, another spelling of the path) or as an earlier
// output. Outputs that do not exist yet are compared by their normalised absolute paths; devices
// and pipes (/dev/null, /dev/stdout) never clash. Also refuses an output that names a directory,
// or whose folder does not exist.
void check_outputs(std::initializer_list<file_role_t> inputs,
                   std::initializer_list<file_role_t> outputs);

}  // namespace zk::formats
