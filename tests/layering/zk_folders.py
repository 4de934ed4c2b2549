#!/usr/bin/env python3
"""The folders of zk/ (library zkmath) in the order they may depend on each other
(docs/design.md "Layout"): a folder includes headers of its own folder and of the folders above it
in ORDER, never below. A folder missing from ORDER fails, so a new folder is placed on purpose.
Usage: zk_folders.py SOURCE_DIR. Prints ok:/FAIL: lines and exits 1 on any failure."""
import pathlib
import re
import sys

ORDER = [
    "zk/base",                    # curve ids, errors, the compute pool, bytes, hex, files, SHA-256, BLAKE2b, ChaCha
    "zk/ff",                      # prime fields
    "zk/ec",                      # curve points
    "zk/pairing",                 # the optimal ate pairing
    "zk/ntt",                     # NTTs
    "zk/msm",                     # multi-scalar multiplication
    "zk/formats",                 # snarkjs files: r1cs, wtns, zkey, JSON
    "zk/groth16",                 # the one Groth16 prover, verifier, setup
    "zk/circuit",                 # native circuits numbered as circom does
    "zk/bellperson",              # bellpepper's constraint systems
    "zk/bellperson/gadgets",      # bellperson's gadgets
    "zk/bellperson/groth16",      # bellperson's Groth16 files, key view, verifier, generator
    "zk/neptune",                 # neptune's Poseidon, native and as a circuit
    "zk/filecoin/core",           # storage-proofs-core, filecoin-hashers, fr32
    "zk/filecoin/porep",          # the PoRep configuration
    "zk/filecoin/porep/vanilla",  # storage-proofs-porep stacked/vanilla
    "zk/filecoin/porep/circuit",  # storage-proofs-porep stacked/circuit
    "zk/filecoin/update",         # storage-proofs-update (SnapDeals)
    "zk/filecoin/api",            # filecoin-proofs and filecoin-proofs-api
]


def main() -> int:
    src = pathlib.Path(sys.argv[1])
    rank = {f: i for i, f in enumerate(ORDER)}
    fails = 0
    seen = set()
    for path in sorted((src / "zk").rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".cuh"):
            continue
        rel = path.relative_to(src).as_posix()
        folder = rel.rsplit("/", 1)[0]
        seen.add(folder)
        if folder not in rank:
            print(f"FAIL: {folder} is not in tests/layering/zk_folders.py ORDER: place it")
            fails += 1
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(r'\s*#include "(zk/[^"]+)"', line)
            if not m:
                continue
            target = m.group(1).rsplit("/", 1)[0]
            if target == folder:
                continue
            if target not in rank or rank[target] > rank[folder]:
                print(f"FAIL: {rel}:{n} includes {m.group(1)}: {folder} may not see {target}")
                fails += 1
    for f in ORDER:
        if f not in seen:
            print(f"FAIL: {f} is in ORDER but holds no source")
            fails += 1
    if fails == 0:
        print(f"ok: the {len(ORDER)} folders of zk/ include only folders above them")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
