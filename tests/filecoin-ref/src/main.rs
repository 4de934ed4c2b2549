//! filecoin-ref: a test-only oracle for zkfleet. Every subcommand drives Filecoin's own Rust code
//! (filecoin-proofs-api, filecoin-proofs, storage-proofs-core/-porep, bellperson, blstrs) on the
//! CPU and prints JSON. See README.md for the subcommands and what each one calls.
//!
//! Exit status: 0 ok / valid, 1 invalid proof or failed check, 2 usage, input or internal error.

mod c1;
mod cmd_count;
mod cmd_derive;
mod cmd_labels;
mod cmd_prove;
mod cmd_seal;
mod cmd_setup;
mod cmd_update;
mod cmd_verify;
mod common;
mod cs;
mod vk;

use common::{Status, UsageError};

const USAGE: &str = "\
filecoin-ref: Filecoin's own PoRep code as a test oracle (CPU only)

usage: filecoin-ref <command> [options]      (all output is JSON on stdout)

  seal     --registered-proof NAME --prover-id HEX --sector N --ticket HEX --seed HEX
           (--data FILE | --zeros | --random SEED) --out DIR
           [--api-version V] [--porep-id HEX] [--keep-cache]
  derive   --registered-proof NAME --prover-id HEX --sector N --ticket HEX --seed HEX
           --comm-d HEX --comm-r HEX [--api-version V] [--porep-id HEX] [--parents-all]
  derive   --parents-all --registered-proof NAME [--api-version V] [--porep-id HEX]
  labels   (--registered-proof NAME | --sector-size BYTES --api-version V --porep-id HEX)
           --replica-id HEX --out DIR [--layers N] [--api-version V] [--porep-id HEX]
  verify   --vk FILE --proof FILE --registered-proof NAME --prover-id HEX --sector N
           --ticket HEX --seed HEX --comm-r HEX --comm-d HEX [--api-version V] [--porep-id HEX]
  check-c1 --c1 FILE --prover-id HEX --sector N [--api-version V] [--porep-id HEX]
  setup    --registered-proof NAME --out DIR [--seed N] [--name NAME]
  prove    --c1 FILE --params FILE --prover-id HEX --sector N --out FILE
           [--api-version V] [--porep-id HEX]
  count    --registered-proof NAME [--api-version V] [--porep-id HEX] [--dump FILE]
  count    --test-config SHAPE   (SHAPE = 2 | 8 | 8-4 | 8-4-2)  [--dump FILE] [--witness FILE]
  count    --c1 FILE --prover-id HEX --sector N [--partition K] [--dump FILE] [--witness FILE]
           [--api-version V] [--porep-id HEX]
  update-verify --registered-update-proof NAME --vk FILE --proof FILE
           --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX
  update-check-vanilla --registered-update-proof NAME --vanilla FILE
           --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX
  update-prove --registered-update-proof NAME --vanilla FILE --comm-r-old HEX
           --comm-r-new HEX --comm-d-new HEX --params FILE --out FILE
  update-count --registered-update-proof NAME [--dump FILE]
  update-count --registered-update-proof NAME --vanilla FILE [--partition K]
           --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX [--dump FILE] [--witness FILE]

  V = V1_0_0 | V1_1_0 | V1_2_0 (default: the registered proof's own version)
  HEX = 32 bytes as 64 hex digits, byte order as in the C1 JSON
exit status: 0 ok/valid, 1 invalid proof or failed check, 2 usage/input/internal error
";

fn run(cmd: &str, rest: &[String]) -> anyhow::Result<Status> {
    match cmd {
        "seal" => cmd_seal::run(rest),
        "derive" => cmd_derive::run(rest),
        "labels" => cmd_labels::run(rest),
        "verify" => cmd_verify::run(rest),
        "check-c1" => cmd_verify::run_check_c1(rest),
        "setup" => cmd_setup::run(rest),
        "prove" => cmd_prove::run(rest),
        "count" => cmd_count::run(rest),
        "update-verify" => cmd_update::run_verify(rest),
        "update-check-vanilla" => cmd_update::run_check_vanilla(rest),
        "update-prove" => cmd_update::run_prove(rest),
        "update-count" => cmd_update::run_count(rest),
        "help" | "--help" | "-h" => {
            print!("{}", USAGE);
            Ok(0)
        }
        _ => Err(common::usage_err(format!("unknown command '{}'", cmd))),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.len() < 2 {
        eprint!("{}", USAGE);
        std::process::exit(2);
    }
    let cmd = argv[1].clone();
    let rest = argv[2..].to_vec();
    let result = std::panic::catch_unwind(|| run(&cmd, &rest));
    let code = match result {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            if let Some(u) = e.downcast_ref::<UsageError>() {
                eprintln!("filecoin-ref {}: {}", cmd, u);
                eprintln!("(run `filecoin-ref help` for usage)");
            } else {
                eprintln!("filecoin-ref {}: error: {:#}", cmd, e);
            }
            2
        }
        Err(_) => {
            eprintln!("filecoin-ref {}: internal error (panic, see above)", cmd);
            2
        }
    };
    std::process::exit(code);
}
