#include "zk/msm/density.hpp"

namespace zk::msm {

density_t density_t::all(size_t n, bool set) {
  density_t d;
  d.words_.assign((n + 63) / 64, set ? ~uint64_t(0) : 0);
  d.size_ = n;
  if (set && n % 64) d.words_.back() = (uint64_t(1) << (n % 64)) - 1;
  d.count_ = set ? n : 0;
  return d;
}

void density_t::push(bool set) {
  if (size_ % 64 == 0) words_.push_back(0);
  ++size_;
  if (set) this->set(size_ - 1);
}

void density_t::set(size_t i) {
  uint64_t& w = words_[i / 64];
  const uint64_t m = uint64_t(1) << (i % 64);
  count_ += (w & m) == 0;
  w |= m;
}

void density_t::append(const density_t& other) {
  if (size_ % 64 == 0) {  // word-aligned: copy the words
    words_.insert(words_.end(), other.words_.begin(), other.words_.end());
    size_ += other.size_;
    count_ += other.count_;
    return;
  }
  for (size_t i = 0; i < other.size_; ++i) push(other.test(i));
}

void density_t::index() {
  before_.assign(words_.size() + 1, 0);
  for (size_t w = 0; w < words_.size(); ++w)
    before_[w + 1] = before_[w] + uint64_t(__builtin_popcountll(words_[w]));
}

}  // namespace zk::msm
