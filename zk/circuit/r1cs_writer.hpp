#pragma once
// A recorded shape as a circom .r1cs, version 1 (docs/formats.md §1.2; iden3/r1csfile
// doc/r1cs_bin_format.md), the file `snarkjs r1cs info` reads and `zkfleet setup` keys:
//
//   "r1cs" u32 version=1 u32 nSections=3
//   section 1 header: u32 fs=32, prime r (fs bytes LE), u32 nWires, u32 nPubOut=0,
//                     u32 nPubIn=nPublic, u32 nPrvIn=0, u64 nLabels=nWires, u32 nConstraints
//   section 2 constraints: per constraint the LCs A, B, C, each u32 nTerms then
//                     nTerms × {u32 wire, fs-byte coefficient, canonical LE}
//   section 3 wire→label map: nWires × u64, label i for wire i
//
// Sections are written in id order (readers index them by id, so any order is valid). Terms
// are in ascending wire order. All public wires are declared inputs (nPubOut = 0): snarkjs's
// nPublic = nPubOut + nPubIn is the same either way; private wires are all "internal" (nPrvIn = 0).
#include <cstdint>
#include <string>
#include <vector>

#include "zk/circuit/cs.hpp"

namespace zk::circuit {

template <class Fr>
std::vector<uint8_t> r1cs_bytes(const r1cs_shape_t<Fr>& shape);

// Writes bytes to path (via path.tmp and a rename); throws std::runtime_error naming the file.
void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace zk::circuit
