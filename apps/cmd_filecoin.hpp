#pragma once
// The `zkfleet filecoin` group's subcommands (apps/cmd_filecoin.cpp holds the table of them);
// the proving ones live in apps/cmd_filecoin_prove.cpp.
#include <functional>
#include <string>

#include "apps/cli.hpp"

namespace zk::apps {

// One subcommand of `filecoin`: its app, what it runs once its line is parsed, and its usage
// sentence for a stray word.
struct filecoin_sub_t {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::string takes;
};

// zkfleet filecoin prove (apps/cmd_filecoin_prove.cpp).
filecoin_sub_t add_filecoin_prove(CLI::App* group);
// zkfleet filecoin setup (apps/cmd_filecoin_prove.cpp).
filecoin_sub_t add_filecoin_setup(CLI::App* group);

}  // namespace zk::apps
