#pragma once
// neptune's Poseidon over the BLS12-381 scalar field, as Filecoin uses it (neptune 11.0.0,
// Strength::Standard, x^5, HashType::MerkleTree; filecoin-hashers 14.1.0 src/poseidon.rs and
// src/poseidon_types.rs, storage-proofs-porep stacked/vanilla/hash.rs for the column hash).
//
// The permutation on width t = arity + 1 elements (neptune src/poseidon_alt.rs hash_correct):
//   state = [domain tag, in_1, …, in_arity], domain tag = 2^arity − 1 (src/hash_type.rs)
//   R_F/2 full rounds, R_P partial rounds, R_F/2 full rounds; each round: add the round's t
//   constants, S-box x ↦ x⁵ on every element (full) or on state[0] alone (partial), then the MDS
//   mix state'[j] = Σ_i M[i][j]·state[i]; the output is state[1].
// Parameters, all derived here at first use (cheap: milliseconds) rather than tabled:
//   * rounds (src/round_numbers.rs calc_round_numbers, the hadeshash calc_round_numbers.py port
//     with its security margin, ported with its f32 arithmetic): R_F = 8; R_P = 55 (arity 2),
//     56 (4), 57 (8, 11), as neptune's test_round_numbers_against_known_values lists.
//   * round constants (src/round_constants.rs): the Grain LFSR of the Poseidon paper (eprint
//     2019/458 appendix F) seeded with field = 1 (prime), S-box = 1 (x^5), 255 field bits, t, R_F,
//     R_P and thirty ones; constants are 255-bit big-endian draws, rejected when ≥ r.
//   * MDS (src/mds.rs generate_mds): the Cauchy matrix M[i][j] = 1/(i + (t + j)), symmetric.
// The optimised form neptune hashes with, and that its legacy circuit (src/circuit.rs
// poseidon_hash, which Filecoin's circuits call) allocates constraint by constraint, uses derived
// tables, all here for the circuit to reuse:
//   * compressed_round_constants (src/preprocessing.rs compress_round_constants with every partial
//     round preprocessed): t·R_F + R_P constants — t added before the first S-box layer, then one
//     "post" constant per S-box.
//   * pre_sparse_matrix and sparse_matrixes (src/mds.rs factor_to_sparse_matrixes): the MDS of the
//     last initial full round becomes pre_sparse; each partial round's mix is a sparse matrix M''
//     given by its first column w_hat (t values) and the rest of its first row v_rest (t − 1),
//     with identity elsewhere: state'[0] = Σ_i w_hat[i]·state[i], state'[j] = state[j] +
//     v_rest[j−1]·state[0].
//   Round r's mix (src/poseidon.rs round_product_mds): pre_sparse when r = R_F/2 − 1, sparse[r −
//   R_F/2] when R_F/2 ≤ r < R_F/2 + R_P, M otherwise; every matrix is applied as a row vector times
//   the matrix (state'[j] = Σ_i A[i][j]·state[i]).
#include <cstddef>
#include <vector>

#include "zk/ff/bls12_381.hpp"

namespace zk::neptune {

using fr_t = bls12_381::fr_t;

struct poseidon_sparse_matrix_t {
  std::vector<fr_t> w_hat;   // first column of M'' (t values)
  std::vector<fr_t> v_rest;  // first row of M'' without its first entry (t − 1 values)
};

struct poseidon_constants_t {
  unsigned arity = 0, width = 0;  // width t = arity + 1
  unsigned full_rounds = 0, half_full_rounds = 0, partial_rounds = 0;
  fr_t domain_tag;                               // 2^arity − 1 (HashType::MerkleTree)
  std::vector<fr_t> round_constants;             // t·(R_F + R_P), round by round (Grain)
  std::vector<fr_t> compressed_round_constants;  // t·R_F + R_P
  std::vector<fr_t> mds;                         // M, t×t row-major: mds[i·t + j] = M[i][j]
  std::vector<fr_t> mds_inv;                     // M⁻¹, t×t row-major
  std::vector<fr_t> pre_sparse_matrix;           // t×t row-major
  std::vector<poseidon_sparse_matrix_t> sparse_matrixes;  // R_P of them, in round order

  const fr_t& m(unsigned i, unsigned j) const { return mds[i * width + j]; }
};

// neptune's (R_F, R_P) for an arity under Strength::Standard (calc_round_numbers(t, true)).
struct poseidon_rounds_t {
  unsigned full, partial;
};
poseidon_rounds_t poseidon_round_numbers(unsigned arity);

// The round constants of the Grain LFSR for width t with R_F, R_P (generate_constants(1, 1, 255,
// t, R_F, R_P)).
std::vector<fr_t> poseidon_grain_constants(unsigned t, unsigned rounds_f, unsigned rounds_p);

// The constants for an arity (1 ≤ arity ≤ 36, as neptune's Arity types), computed once per arity
// (thread-safe) and kept for the process. Throws std::invalid_argument for another arity.
const poseidon_constants_t& poseidon_constants(unsigned arity);

// Poseidon of exactly c.arity inputs with the Merkle-tree domain tag (neptune
// Poseidon::new_with_preimage + hash(), the OptimizedStatic mode).
fr_t poseidon_hash(const poseidon_constants_t& c, const fr_t* in);
// The same function computed the plain way (neptune hash_correct): the reference for tests.
fr_t poseidon_hash_reference(const poseidon_constants_t& c, const fr_t* in);

// Eight independent hashes at once: out[k] = poseidon_hash(c, in + k·c.arity) for k < 8. With
// AVX-512 IFMA (zk/ff/ifma.hpp, chosen at run time; ZK_NO_IFMA=1 turns it off) the eight run in
// the vector lanes, else one after the other; the results are the same.
void poseidon_hash_x8(const poseidon_constants_t& c, const fr_t* in, fr_t* out);
// Whether poseidon_hash_x8 runs in IFMA lanes.
bool poseidon_uses_ifma();

inline fr_t poseidon_hash(unsigned arity, const fr_t* in) {
  return poseidon_hash(poseidon_constants(arity), in);
}
// Poseidon of two elements (filecoin-hashers PoseidonFunction::hash2: comm_r = H(comm_c,
// comm_r_last), the binary tree nodes).
inline fr_t poseidon2(const fr_t& a, const fr_t& b) {
  const fr_t in[2] = {a, b};
  return poseidon_hash(2, in);
}

}  // namespace zk::neptune
