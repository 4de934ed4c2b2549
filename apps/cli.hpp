#pragma once
// The command line's shared pieces (CLI11). Each subcommand is a CLI::App: its options and
// positionals are declared with the helpers below and read, once the line is parsed, through
// opt_t, which keeps zkfleet's rules CLI11 does not have: a value option given twice is an error,
// integers are decimal digits checked against their range (parse_uint_arg), and anything the
// command does not take — an unknown option, a short option, a stray word — is a usage error
// naming it (finish_parse).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace zk::apps {

// A malformed command line: the message, the command's usage line, exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What CLI11 read for one option or positional. Values are kept as given (text) and converted by
// the command, so that every message is zkfleet's own.
class opt_t {
 public:
  opt_t() = default;
  explicit opt_t(CLI::Option* o) : o_(o) {}
  bool given() const { return o_ && o_->count() > 0; }
  // The value, or `def` when it was not given; usage_error when it was given more than once.
  std::string one(const std::string& def = "") const;
  // Every value given, in order (options that may repeat).
  std::vector<std::string> all() const { return o_ ? o_->results() : std::vector<std::string>{}; }

 private:
  CLI::Option* o_ = nullptr;
};

// Throws usage_error naming every option of `required` (option, "--name VALUE") not given, at
// once: "--sector N is required", "--ticket HEX, --seed HEX are required".
void require_options(std::initializer_list<std::pair<const opt_t*, const char*>> required);

// `--name VALUE`, at most once. `type` is what the help shows for VALUE (FILE, N, DIR, ...).
opt_t add_value(CLI::App* app, const std::string& name, const std::string& type,
                const std::string& help);
// `--name VALUE`, repeatable; each occurrence takes exactly one value (`--input a --input b`).
opt_t add_values(CLI::App* app, const std::string& name, const std::string& type,
                 const std::string& help);
// `--name`, no value.
opt_t add_flag(CLI::App* app, const std::string& name, const std::string& help);
// A positional argument, named as the help shows it (circuit.zkey, JOB).
opt_t add_positional(CLI::App* app, const std::string& name, const std::string& help,
                     bool required = true);

// One command of the binary: the CLI11 app that reads its line, what it runs once the line is
// read (the exit status), and, when a positional is missing or one too many, the sentence that
// says what it takes ("verify takes <verification_key.json> <public.json> <proof.json>").
struct command_t {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::string takes;
  // Appended to "unexpected argument 'w'" when the command has no `takes` (submit: "each input file
  // needs its own --input" when --input was given).
  std::function<std::string()> stray_hint;
  // The `--circuit` forms of setup and prove: an app of their own (not a subcommand of the root),
  // chosen when the line has --circuit, parsed from the word after `zkfleet`.
  std::unique_ptr<CLI::App> own;
  bool circuit_form = false;
};
using commands_t = std::vector<command_t>;

// The formatter every app shares: "usage:" lines, zkfleet's column widths.
std::shared_ptr<CLI::Formatter> formatter();
// A subcommand of the root with zkfleet's conventions (extras collected for finish_parse).
CLI::App* add_command(CLI::App& root, const std::string& name, const std::string& description);
// An app of its own for the --circuit forms, named "zkfleet <name>".
std::unique_ptr<CLI::App> make_command_app(const std::string& name, const std::string& description);

// After a successful parse: what the command did not take becomes a usage_error — "unknown option
// --x", "unknown option -v (options are spelt --name)", or the command's `takes` / "unexpected
// argument 'w'" (+ its stray_hint) for a stray word.
void finish_parse(const command_t& cmd);
// The message of a CLI11 parse error in zkfleet's words (a missing positional: `cmd.takes`).
std::string describe_parse_error(const command_t& cmd, const CLI::ParseError& e);
// "usage: zkfleet <cmd> [OPTIONS] <positionals>".
std::string usage_line(const command_t& cmd);
// The full help of the command, as `zkfleet <cmd> --help` prints it.
std::string command_help(const command_t& cmd);

// An unsigned integer argument in [lo, hi]: decimal digits only (no sign, no spaces, no
// overflow); else usage_error("<what> needs ..., got '<text>'").
uint64_t parse_uint_arg(const std::string& what, const std::string& text, uint64_t lo = 0,
                        uint64_t hi = UINT64_MAX);
// Columns for the waterfall: $COLUMNS, else the terminal's own (stdout a tty), else 100.
unsigned terminal_width();

}  // namespace zk::apps
