#pragma once
// A value or an error, for checks whose failure is an expected outcome the caller acts on (a
// store over budget, a frame that fails its checks): the error travels as a value, never as an
// out-parameter. C++17 has no std::expected.
#include <string>
#include <utility>
#include <variant>

namespace zk {

template <class T, class E = std::string>
class result_t {
 public:
  result_t(T v) : v_(std::in_place_index<0>, std::move(v)) {}
  result_t(E e) : v_(std::in_place_index<1>, std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

}  // namespace zk
