# tests/filecoin/tamper_c1.py C1 OUTDIR: copies of a C1 as the C1 writer writes it (compact JSON,
# serde's field order) with one value of partition 0, challenge 0 (the first vanilla proof in the
# file) changed — one bit of byte 3, so the value stays a field element — for the sparse seal's
# rejects (tests/filecoin/sparse_seal.sh):
#   label.json   the challenged node's layer-1 label (c_x's column; the circuit does not read it:
#                it computes the labels and opens their column hash in tree C)
#   plabel.json  its first DRG parent's layer-1 label (that parent's column)
#   cpath.json   a sibling on c_x's tree_c path (comm_c)
#   rpath.json   a sibling on the comm_r_last path (Filecoin's vanilla check only checks that path's
#                index, params.rs verify_final_replica_layer; zkfleet's check-c1 and the circuit do)
#   leaf.json    the data leaf of the comm_d proof
# Edited as text (a 32 GiB C1 is 38 MB: parsed and written back four times it took a minute on a
# loaded machine); exits 1 naming the edit whose place is not found.
import os
import re
import sys

src, out = sys.argv[1], sys.argv[2]
text = open(src).read()
HASHES = r'"path":\[\{"hashes":\[\['
EDITS = {
    "label.json": r'"c_x":\{"column":\{"index":\d+,"rows":\[\[',
    "plabel.json": r'"drg_parents":\[\{"column":\{"index":\d+,"rows":\[\[',
    "cpath.json": r'"c_x":\{"column":.*?"inclusion_proof":\{"data":\{"\w+":\{.*?' + HASHES,
    "rpath.json": r'"comm_r_last_proof":\{"data":\{"\w+":\{.*?' + HASHES,
    "leaf.json": r'"comm_d_proofs":\{"data":\{"Single":\{"root":\[[0-9,]+\],"leaf":\[',
}
for name, where in EDITS.items():
    m = re.compile("(" + where + r")(\d+),(\d+),(\d+),(\d+)", re.S).search(text)
    if not m:
        sys.exit(f"tamper_c1.py: {src}: no place for {name} ({where})")
    byte3 = int(m.group(5)) ^ 1
    edited = text[: m.start(5)] + str(byte3) + text[m.end(5) :]
    with open(os.path.join(out, name), "w") as f:
        f.write(edited)
