#pragma once
// The one way an expected refusal travels (docs/design.md "Errors"): a check whose failure is an
// outcome the caller acts on — a store over budget, a frame that fails its checks, a job's
// request, a C1's vanilla proofs, a proof that fails verification — returns its reason as a
// value, never as an out-parameter, an optional string or an exception. C++17 has no
// std::expected.
//   result_t<T>  the value, or the reason it cannot be had;
//   check_t      a check with nothing to return: it passes, or it refuses with its reason.
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

// `return {};` passes; `return "why";` (or a std::string) refuses with that reason:
//   if (const check_t c = check_c1(...); !c) return refuse(c.reason());
class check_t {
 public:
  check_t() = default;
  check_t(std::string reason) : refused_(true), reason_(std::move(reason)) {}
  check_t(const char* reason) : check_t(std::string(reason)) {}
  bool ok() const { return !refused_; }
  explicit operator bool() const { return ok(); }
  const std::string& reason() const { return reason_; }  // empty when it passed

 private:
  bool refused_ = false;
  std::string reason_;
};

}  // namespace zk
