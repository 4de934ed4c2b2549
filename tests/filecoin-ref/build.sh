#!/usr/bin/env bash
# Builds the filecoin-ref test oracle (release mode) with its target folder OUTSIDE the repository,
# in a cache keyed by the lock file and the sources:
#
#   ${ZK_CACHE_DIR:-$HOME/.cache/zkfleet}/filecoin-ref/<key>/target
#   key = first 16 hex digits of sha256(Cargo.lock ‖ Cargo.toml ‖ src/* in C-locale path order)
#
# so the tool is rebuilt only when Cargo.lock, Cargo.toml or a source file changes. The last line
# on stdout is the absolute path of the built binary (all cargo output goes to stderr).
#
# Environment:
#   ZK_CACHE_DIR            cache root (default $HOME/.cache/zkfleet)
#   FILECOIN_REF_REBUILD=1  run cargo even when the cached binary exists
#   FILECOIN_REF_NICE       nice level for cargo (default 10; empty = no nice)
#   CARGO_HOME is left alone (the default ~/.cargo holds the crates.io cache).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v cargo >/dev/null 2>&1; then
    echo "filecoin-ref/build.sh: 'cargo' not found on PATH." >&2
    echo "  Install a Rust toolchain (https://rustup.rs, e.g. 'curl -sSf https://sh.rustup.rs | sh -s -- -y')" >&2
    echo "  and make sure \$HOME/.cargo/bin is on PATH, then re-run this script." >&2
    exit 1
fi
if ! command -v sha256sum >/dev/null 2>&1; then
    echo "filecoin-ref/build.sh: 'sha256sum' (coreutils) not found." >&2
    exit 1
fi

cd "$here"
if [ ! -f Cargo.lock ]; then
    echo "filecoin-ref/build.sh: Cargo.lock is missing; the build must be --locked." >&2
    exit 1
fi

mapfile -t srcs < <(find src -type f | LC_ALL=C sort)
key="$(cat Cargo.lock Cargo.toml "${srcs[@]}" | sha256sum | cut -c1-16)"
cache_root="${ZK_CACHE_DIR:-$HOME/.cache/zkfleet}/filecoin-ref"
build_dir="$cache_root/$key"
target="$build_dir/target"
bin="$target/release/filecoin-ref"
stamp="$build_dir/built.ok"

if [ -x "$bin" ] && [ -f "$stamp" ] && [ "${FILECOIN_REF_REBUILD:-0}" != "1" ]; then
    echo "filecoin-ref/build.sh: cached build $key is up to date" >&2
    echo "$bin"
    exit 0
fi

mkdir -p "$build_dir"
nice_cmd=()
nice_level="${FILECOIN_REF_NICE-10}"
if [ -n "$nice_level" ] && command -v nice >/dev/null 2>&1; then
    nice_cmd=(nice -n "$nice_level")
fi

# Use the network when crates.io is reachable; otherwise build from the local crate cache.
offline=()
if ! cargo fetch --locked >&2 2>/dev/null; then
    echo "filecoin-ref/build.sh: crates.io unreachable or fetch failed; trying --offline" >&2
    offline=(--offline)
fi

echo "filecoin-ref/build.sh: building $key in $target (this takes a few minutes from scratch)" >&2
start=$(date +%s)
if ! "${nice_cmd[@]}" cargo build --release --locked "${offline[@]}" --target-dir "$target" 1>&2; then
    echo "filecoin-ref/build.sh: cargo build failed" >&2
    exit 1
fi
end=$(date +%s)
if [ ! -x "$bin" ]; then
    echo "filecoin-ref/build.sh: build finished but $bin is missing" >&2
    exit 1
fi
{
    echo "key=$key"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "seconds=$((end - start))"
    echo "rustc=$(rustc -V 2>/dev/null || echo unknown)"
} >"$stamp"
echo "filecoin-ref/build.sh: built in $((end - start)) s" >&2
echo "$bin"
