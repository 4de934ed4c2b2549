# Shared by the tests/filecoin/*.sh tests that ask Filecoin's own code (tests/filecoin-ref) the
# same questions as zkfleet. Source it with the zkfleet binary as $1:
#
#   . "$(dirname "$0")/ref_lib.sh" "$1"
#
# Sets ZK (zkfleet), REF (the reference binary, built or taken from its cache by
# tests/filecoin-ref/build.sh), T (a temporary directory removed at exit), ROOT (the repository);
# defines ok/bad and finish (prints "N passed, M failed", exits 1 if any failed). Exits 77 (CTest:
# skipped) with the reason when cargo is absent.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
if ! command -v cargo >/dev/null 2>&1; then
  echo "SKIP: cargo is not installed: the Rust reference (tests/filecoin-ref) cannot be built"
  exit 77
fi
if ! REF="$("$ROOT/tests/filecoin-ref/build.sh" 2>"${TMPDIR:-/tmp}/filecoin-ref-build.$$.log" | tail -n 1)" ||
  [ ! -x "$REF" ]; then
  echo "FAIL: tests/filecoin-ref/build.sh did not build the reference:"
  tail -n 30 "${TMPDIR:-/tmp}/filecoin-ref-build.$$.log" || true
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/filecoin-ref-build.$$.log"
T="$(mktemp -d "${TMPDIR:-/tmp}/zk_filecoin_XXXXXX")"
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
