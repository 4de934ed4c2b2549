// The command line's shared pieces (apps/cli.hpp).
#include "apps/cli.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <string>

namespace zk::apps {

uint64_t parse_uint_arg(const std::string& what, const std::string& text, uint64_t lo,
                        uint64_t hi) {
  uint64_t x = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (char c : text) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    const uint64_t digit = uint64_t(c - '0');
    if (x > (UINT64_MAX - digit) / 10) {  // past 2^64 - 1
      ok = false;
      break;
    }
    x = x * 10 + digit;
  }
  if (!ok || x < lo || x > hi) {
    std::string range =
        hi == UINT64_MAX
            ? (lo == 0 ? "a non-negative integer" : "an integer ≥ " + std::to_string(lo))
            : "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    throw usage_error(what + " needs " + range + ", got '" + text + "'");
  }
  return x;
}

unsigned terminal_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    int v = std::atoi(c);
    if (v >= 40) return unsigned(v);
  }
  winsize ws{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
    return ws.ws_col;
  return 100;
}

// --- options -------------------------------------------------------------------------------------

void require_options(std::initializer_list<std::pair<const opt_t*, const char*>> required) {
  std::string missing;
  for (const auto& [o, what] : required)
    if (!o->given()) missing += (missing.empty() ? "" : ", ") + std::string(what);
  if (!missing.empty())
    throw usage_error(missing + (missing.find(',') == std::string::npos ? " is" : " are") +
                      " required");
}

std::string opt_t::one(const std::string& def) const {
  if (!given()) return def;
  const auto& r = o_->results();
  if (r.size() > 1)
    throw usage_error(o_->get_name() + " is given " + std::to_string(r.size()) +
                      " times; it takes one value");
  return r.front();
}

opt_t add_value(CLI::App* app, const std::string& name, const std::string& type,
                const std::string& help) {
  // Every occurrence is kept (TakeAll) so that one() can refuse a repeat in zkfleet's words.
  return opt_t(app->add_option(name, CLI::callback_t{}, help)
                   ->type_name(type)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll));
}

opt_t add_values(CLI::App* app, const std::string& name, const std::string& type,
                 const std::string& help) {
  // One value per occurrence: `--input a b` leaves b a stray word (an error), never a second input.
  return opt_t(app->add_option(name, CLI::callback_t{}, help)
                   ->type_name(type)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                   ->allow_extra_args(false));
}

opt_t add_flag(CLI::App* app, const std::string& name, const std::string& help) {
  return opt_t(app->add_flag(name, help));
}

opt_t add_positional(CLI::App* app, const std::string& name, const std::string& help,
                     bool required) {
  CLI::Option* o = app->add_option(name, CLI::callback_t{}, help)->type_name("");
  if (required) o->required();
  return opt_t(o);
}

// --- apps ----------------------------------------------------------------------------------------

std::shared_ptr<CLI::Formatter> formatter() {
  static const std::shared_ptr<CLI::Formatter> f = [] {
    auto x = std::make_shared<CLI::Formatter>();
    x->label("Usage", "usage");
    x->label("OPTIONS", "OPTIONS");
    x->label("REQUIRED", "(required)");
    x->label("SUBCOMMAND", "COMMAND");
    x->column_width(30);
    return x;
  }();
  return f;
}

namespace {

void conventions(CLI::App* app) {
  app->formatter(formatter());
  app->allow_extras();  // collected, then refused by finish_parse with a message naming them
}

bool is_option_like(const std::string& a) {
  // "-5" is a (negative) number, a positional for the command to refuse; "-" alone is a word.
  return a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9');
}

}  // namespace

CLI::App* add_command(CLI::App& root, const std::string& name, const std::string& description) {
  CLI::App* app = root.add_subcommand(name, description);
  app->group("Commands");
  conventions(app);
  return app;
}

std::unique_ptr<CLI::App> make_command_app(const std::string& name,
                                           const std::string& description) {
  auto app = std::make_unique<CLI::App>(description, "zkfleet " + name);
  conventions(app.get());
  return app;
}

void finish_parse(const command_t& cmd) {
  for (const std::string& a : cmd.app->remaining()) {
    if (!is_option_like(a)) continue;
    const std::string name = a.substr(0, a.find('='));
    if (a.rfind("--", 0) != 0)
      throw usage_error("unknown option " + name + " (options are spelt --name)");
    throw usage_error("unknown option " + name);
  }
  for (const std::string& a : cmd.app->remaining())
    throw usage_error(!cmd.takes.empty() ? cmd.takes + " (unexpected argument '" + a + "')"
                                         : "unexpected argument '" + a + "'" +
                                               (cmd.stray_hint ? cmd.stray_hint() : ""));
}

std::string describe_parse_error(const command_t& cmd, const CLI::ParseError& e) {
  const std::string what = e.what();
  // A missing positional: say what the command takes.
  for (const CLI::Option* o :
       cmd.app->get_options([](const CLI::Option* o) { return o->get_positional(); }))
    if (what == o->get_name() + " is required" && !cmd.takes.empty()) return cmd.takes;
  // "--out: 1 required DIR missing" (the option was last, its value absent).
  static const std::regex missing_value(R"(^(-[-\w]+): 1 required (\S*) ?missing$)");
  std::smatch m;
  if (std::regex_match(what, m, missing_value))
    return m[1].str() + " needs a value (" + m[2].str() + ")";
  return what;
}

std::string usage_line(const command_t& cmd) {
  const std::string name = cmd.own ? cmd.app->get_name() : "zkfleet " + cmd.app->get_name();
  return formatter()->make_usage(cmd.app, name);
}

std::string command_help(const command_t& cmd) {
  return cmd.own ? cmd.app->help() : cmd.app->help("zkfleet");
}

}  // namespace zk::apps
