#!/usr/bin/env bash
# The layering of docs/design.md ("Layers"), checked two ways:
#  1. by the build: each probe target includes a header of a layer its library may not see and
#     must fail with "No such file" for exactly that header; the control probes, which include
#     only what the actors' layer and the gRPC face may, must build;
#  2. by the sources: no library includes a third-party header its layer does not allow
#     (the include roots cannot hide /usr/include);
#  3. inside zk/: no folder includes a folder below it (tests/layering/zk_folders.py).
# Usage: layering.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
BUILD=$1
SRC=$2
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

refused() {  # target header
  local out
  if out=$(cmake --build "$BUILD" --target "layering_$1" 2>&1); then
    bad "$1 compiled: the layering lets it include $2"
  elif grep -q "$2: No such file" <<<"$out"; then
    ok "$1 refused ($2: No such file)"
  else
    bad "$1 failed for another reason:"; echo "$out" | tail -20
  fi
}
refused zk_includes_common common/util/log.hpp
refused common_includes_node node/circuit.hpp
refused node_includes_actors actors/messages.hpp
refused cuda_includes_common common/util/log.hpp
refused node_includes_grpc grpcapi/server.hpp
refused grpc_includes_actors actors/messages.hpp
for control in allowed grpc_allowed; do
  if out=$(cmake --build "$BUILD" --target layering_$control 2>&1); then
    ok "the control probe $control (every layer its library may see) compiles"
  else
    bad "the control probe $control does not compile:"; echo "$out" | tail -20
  fi
done

# third-party headers per layer: folder, forbidden pattern
forbid() {
  local hits
  hits=$(cd "$SRC" && grep -rnE "#include <($2)" $1 --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' || true)
  if [ -n "$hits" ]; then bad "$1 includes what its layer may not:"; echo "$hits"; else ok "$1: no <${2//|/, }> includes"; fi
}
forbid zk 'boost|openssl|yaml-cpp|spdlog|caf/|sqlite3|CLI/|cuda|grpc|google/protobuf'
forbid common 'caf/|cuda|sqlite3|CLI/|grpc|google/protobuf'
forbid node 'caf/|cuda|CLI/|grpc|google/protobuf'
forbid actors 'cuda|CLI/|grpc|google/protobuf'
forbid grpcapi 'caf/|cuda|CLI/|sqlite3'
forbid cuda 'boost|openssl|yaml-cpp|spdlog|caf/|sqlite3|CLI/|grpc|google/protobuf'

# inside zk/: each folder sees only the folders above it (tests/layering/zk_folders.py ORDER)
if ! python3 "$SRC/tests/layering/zk_folders.py" "$SRC"; then fails=$((fails + 1)); fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
cp -r "$SRC/zk" "$probe/zk"
echo '#include "zk/filecoin/api/c1.hpp"' >>"$probe/zk/bellperson/cs.hpp"  # a folder cycle
if out=$(python3 "$SRC/tests/layering/zk_folders.py" "$probe" 2>&1); then
  bad "zk_folders.py accepted zk/bellperson including zk/filecoin/api"
elif grep -q "zk/bellperson may not see zk/filecoin/api" <<<"$out"; then
  ok "zk_folders.py refuses an include below the folder"
else
  bad "zk_folders.py failed for another reason:"; echo "$out" | tail -5
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
