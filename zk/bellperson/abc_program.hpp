#pragma once
// a, b, c of a circuit made of a shared prefix and identical repeated parts (the Filecoin PoRep
// partition: its shared values, then 18 challenges of one structure), rebuilt from the witness and
// the circuit's structure alone — bit for bit what prove-mode synthesis (cs.hpp prove_cs_t)
// writes. This is what lets the data plane ship a partition's witness packed (86.7 MB at 32 GiB,
// zk/formats/packed_witness.hpp) instead of its a, b, c and witness in full (16.7 GB): the prover
// host evaluates ⟨A_i, w⟩, ⟨B_i, w⟩, ⟨C_i, w⟩ itself.
//
// The structure is kept once per circuit, and small: the prefix's rows and one part's (at 32 GiB:
// 7.2 M of the 130 M constraints), each term one 8-byte word (its variable, and its coefficient
// inline as m·2^e or an escape to the circuit's coefficients); part k's rows are part 0's with the
// part's own variables moved by k parts (as shape_cs_t::repeat_part moves them), evaluated block by
// block for every part while the block is in cache. The 0 and 1 values that are almost all of a
// Filecoin witness cost a bit test and an integer addition, never a multiplication; coefficients
// of at most 2^40 in magnitude (the units and powers of two of the bit gadgets) add as integers.
// The witness is read packed, as bit sets (2 bits a value: a challenge's 7.2 M values in 1.8 MB,
// in cache), never as 32-byte values.
#include <cstdint>
#include <vector>

#include "zk/base/stop.hpp"
#include "zk/bellperson/cs.hpp"
#include "zk/formats/packed_witness.hpp"

namespace zk::bellperson {

class abc_program_t {
 public:
  // From the shape of the prefix followed by exactly one part (synthesized into a shape_cs_t with
  // matrices), where the part starts (`prefix`, ONE included) and how many parts the circuit has.
  // Throws std::invalid_argument when the shape does not end where prefix + one part ends or has
  // no matrices.
  abc_program_t(const r1cs_shape_t& prefix_and_part, counts_t prefix, uint32_t parts);

  counts_t prefix() const { return prefix_; }
  counts_t part() const { return part_; }
  uint32_t parts() const { return parts_; }
  counts_t total() const;  // the whole circuit (the input constraints not included)
  uint64_t terms_kept() const { return term_.size(); }
  uint64_t bytes_kept() const;

  // The whole circuit's a, b, c from a packed witness's bit sets (which values are 0, 1 or other;
  // the others read into Montgomery form once) into out.a/b/c (total().constraints + total().inputs
  // rows: the input constraints A = Input(i), B = C = 0 appended); out.inputs/out.aux are not used.
  // Tasks on the compute pool, each a block of the stored rows evaluated for the prefix or for
  // every part in turn (the block's structure read from memory once, reused from cache by the
  // parts); rows written with streaming stores. `stop` is polled between tasks and every few parts:
  // once it answers true, zk::cancelled_error is thrown.
  void eval(const formats::witness_bits_t& bits, const assignment_view_t& out,
            const stop_t& stop = {}) const;

 private:
  // The witness as the hot loop reads it: the bit sets, and the other values in Montgomery form,
  // in order.
  struct witness_t {
    const formats::witness_bits_t* bits = nullptr;
    const fr_t* others = nullptr;
  };
  struct coeff_t {
    fr_t k;
    int64_t small = 0;  // k as an integer when is_small
    bool is_small = false;
  };
  void eval_rows(uint64_t first, uint64_t end, const uint64_t bases[4], const witness_t& w, fr_t* a,
                 fr_t* b, fr_t* c) const;
  void add_exceptional(uint64_t term, uint64_t i, const witness_t& w, int64_t& small,
                       fr_t& big) const;

  counts_t prefix_, part_;
  uint32_t parts_ = 0;
  // Rows of the prefix then of part 0: row r's A terms are [row_[3r], row_[3r+1]), B's up to
  // row_[3r+2], C's up to row_[3r+3].
  std::vector<uint64_t> row_;
  // A term: its variable in the low 32 bits (bit 31 aux, bit 30 the part's own — moved by k
  // parts —, the index below), its coefficient in the high 32 (abc_program.cpp: inline when a
  // small integer, else an escape to coeffs_).
  std::vector<uint64_t> term_;
  std::vector<coeff_t> coeffs_;
};

}  // namespace zk::bellperson
