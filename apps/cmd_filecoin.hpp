#pragma once
// The `zkfleet filecoin` group's subcommands (apps/cmd_filecoin.cpp holds the table of them);
// the proving ones live in apps/cmd_filecoin_prove.cpp.
#include <cstdint>
#include <functional>
#include <string>

#include "apps/cli.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/public_inputs.hpp"

namespace zk::apps {

// One subcommand of `filecoin`: its app, what it runs once its line is parsed, and its usage
// sentence for a stray word.
struct filecoin_sub_t {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::string takes;
};

// --registered-update-proof NAME (filecoin-proofs-api's RegisteredUpdateProof), as the SnapDeals
// commands declare it (apps/cmd_filecoin.cpp).
opt_t add_update_proof_option(CLI::App* app);

// --registered-update-proof, --comm-r-old, --comm-r-new, --comm-d-new: what names a SnapDeals
// update (verify-update, prove-update). The caller requires them (require_options, with its own);
// bad values throw std::invalid_argument naming the option.
struct update_statement_opts_t {
  opt_t proof_name, comm_r_old, comm_r_new, comm_d_new;

  void declare(CLI::App* app);
  zk::filecoin::update_config_t config() const;
  zk::filecoin::update_commitments_t comms() const;
};

// zkfleet filecoin prove (apps/cmd_filecoin_prove.cpp).
filecoin_sub_t add_filecoin_prove(CLI::App* group);
// zkfleet filecoin prove-update (apps/cmd_filecoin_prove.cpp).
filecoin_sub_t add_filecoin_prove_update(CLI::App* group);
// zkfleet filecoin setup (apps/cmd_filecoin_prove.cpp).
filecoin_sub_t add_filecoin_setup(CLI::App* group);
// zkfleet filecoin synthesize (apps/cmd_filecoin_synth.cpp).
filecoin_sub_t add_filecoin_synthesize(CLI::App* group);
// zkfleet filecoin budget (apps/cmd_filecoin_budget.cpp).
filecoin_sub_t add_filecoin_budget(CLI::App* group);
// zkfleet filecoin update (apps/cmd_filecoin_update.cpp).
filecoin_sub_t add_filecoin_update(CLI::App* group);

// Development parameters (NOT a ceremony) of a registered proof's PoRep circuit for `seed` (setup
// makes the update circuit's the same way), made once
// into ${ZK_CACHE_DIR:-~/.cache/zkfleet}/filecoin-params/dev-<circuit hash>-seed<N>/ (2 KiB: 4–5
// minutes and 1.1 GB the first time; one process at a time, under a lock) and reused after:
// `zkfleet filecoin setup` and the demo share them. Returns the folder holding NAME.params and
// NAME.vk; says on stdout what it makes.
struct cached_params_t {
  std::string dir, params, vk;
  bool made = false;  // made now (false: from the cache)
  double seconds = 0;
};
cached_params_t cached_dev_params(const std::string& registered_proof, uint64_t seed);

}  // namespace zk::apps
