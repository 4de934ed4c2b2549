# The layer on top of tests/lib/cluster.sh for the tests that ask Filecoin's own code
# (tests/filecoin-ref) the same questions as zkfleet. Source it after the harness, then:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
#   . "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
#   harness_init <name> <path-to-zkfleet>
#   need_ref
#
# need_ref: REF, the reference binary, built or taken from its cache by tests/filecoin-ref/build.sh
# (its output in $T/ref-build.log). Skips the test (exit 77, the reason said) when cargo is
# absent; ends it (die, the build's last lines) when the reference cannot be built.
need_ref() {
  command -v cargo >/dev/null 2>&1 ||
    skip "cargo is not installed: the Rust reference (tests/filecoin-ref) cannot be built"
  REF="$("$ROOT/tests/filecoin-ref/build.sh" 2>"$T/ref-build.log" | tail -n 1)" || true
  [ -n "$REF" ] && [ -x "$REF" ] ||
    die "tests/filecoin-ref/build.sh did not build the reference: $(tail -n 30 "$T/ref-build.log")"
}
