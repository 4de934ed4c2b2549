#pragma once
// Which entries of a scalar vector a query has a base for (bellperson's DensityTracker,
// src/multiexp.rs and src/groth16/prover: the generator drops the A and B query points that are at
// infinity, so the key holds a point for exactly the variables in the density, in variable order).
// An MSM whose bases follow a density reads the scalar at witness position i with base number
// rank(i) = the set positions below i: no scalar is copied into a compacted vector.
//
// Built by appending (push), or all set; rank() needs index() to have been called once after the
// last change (it builds the per-word prefix counts: 4 bytes per 64 positions).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zk::msm {

class density_t {
 public:
  density_t() = default;
  // n positions, all set (full density) or all clear.
  static density_t all(size_t n, bool set = true);

  void push(bool set = false);
  void set(size_t i);
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  size_t size() const { return size_; }
  size_t count() const { return count_; }
  const std::vector<uint64_t>& words() const { return words_; }
  // this ‖ other (the inputs' density, then the aux variables').
  void append(const density_t& other);

  // Builds the rank index (call after the last push/set/append).
  void index();
  // The number of set positions below i (i ≤ size()).
  size_t rank(size_t i) const {
    const size_t w = i / 64, b = i % 64;
    size_t r = before_[w];
    if (b) r += size_t(__builtin_popcountll(words_[w] & ((uint64_t(1) << b) - 1)));
    return r;
  }
  uint64_t bytes() const { return words_.size() * 8 + before_.size() * 8; }

  friend bool operator==(const density_t& x, const density_t& y) {
    return x.size_ == y.size_ && x.words_ == y.words_;
  }

 private:
  std::vector<uint64_t> words_;
  std::vector<uint64_t> before_;  // set positions in words_[0 .. w), one entry past the end
  size_t size_ = 0, count_ = 0;
};

}  // namespace zk::msm
