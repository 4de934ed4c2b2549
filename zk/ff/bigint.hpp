#pragma once
// Fixed-width unsigned integers on 64-bit limbs, least significant limb first (the byte order of
// every iden3 file once read as little-endian words). constexpr so that field constants are
// derived at compile time from the modulus alone.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zk::ff {

template <int N>
struct bigint_t {
  uint64_t l[N];

  static constexpr int limbs = N;

  constexpr bool is_zero() const {
    for (int i = 0; i < N; ++i)
      if (l[i]) return false;
    return true;
  }
  constexpr bool bit(unsigned i) const { return (l[i / 64] >> (i % 64)) & 1; }
  constexpr unsigned num_bits() const {
    for (int i = N - 1; i >= 0; --i)
      if (l[i]) return 64 * i + 64 - __builtin_clzll(l[i]);
    return 0;
  }
  friend constexpr bool operator==(const bigint_t& a, const bigint_t& b) {
    for (int i = 0; i < N; ++i)
      if (a.l[i] != b.l[i]) return false;
    return true;
  }
  friend constexpr bool operator!=(const bigint_t& a, const bigint_t& b) { return !(a == b); }
};

// a < b
template <int N>
constexpr bool big_lt(const bigint_t<N>& a, const bigint_t<N>& b) {
  for (int i = N - 1; i >= 0; --i) {
    if (a.l[i] != b.l[i]) return a.l[i] < b.l[i];
  }
  return false;
}

// r = a + b, returns carry
template <int N>
constexpr uint64_t big_add(bigint_t<N>& r, const bigint_t<N>& a, const bigint_t<N>& b) {
  unsigned __int128 c = 0;
  for (int i = 0; i < N; ++i) {
    c += (unsigned __int128)a.l[i] + b.l[i];
    r.l[i] = (uint64_t)c;
    c >>= 64;
  }
  return (uint64_t)c;
}

// r = a - b, returns borrow
template <int N>
constexpr uint64_t big_sub(bigint_t<N>& r, const bigint_t<N>& a, const bigint_t<N>& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < N; ++i) {
    unsigned __int128 d = (unsigned __int128)a.l[i] - b.l[i] - borrow;
    r.l[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  return borrow;
}

// (a + b) mod m for a, b < m (constexpr helper for deriving constants).
template <int N>
constexpr bigint_t<N> big_add_mod(const bigint_t<N>& a, const bigint_t<N>& b,
                                  const bigint_t<N>& m) {
  bigint_t<N> r{};
  uint64_t carry = big_add(r, a, b);
  if (carry || !big_lt(r, m)) big_sub(r, r, m);
  return r;
}

// 2^k mod m by doubling (compile time only: k ≤ 2·64·N).
template <int N>
constexpr bigint_t<N> big_pow2_mod(unsigned k, const bigint_t<N>& m) {
  bigint_t<N> r{};
  r.l[0] = 1;
  for (unsigned i = 0; i < k; ++i) r = big_add_mod(r, r, m);
  return r;
}

// -m^{-1} mod 2^64 by Newton iteration (m odd).
constexpr uint64_t neg_inv64(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
  return ~x + 1;
}

// Division of a bigint by a small number, returns remainder (for decimal printing).
template <int N>
inline uint32_t big_divmod_small(bigint_t<N>& a, uint32_t d) {
  unsigned __int128 rem = 0;
  for (int i = N - 1; i >= 0; --i) {
    unsigned __int128 cur = (rem << 64) | a.l[i];
    a.l[i] = (uint64_t)(cur / d);
    rem = cur % d;
  }
  return (uint32_t)rem;
}

template <int N>
std::string to_decimal(bigint_t<N> a) {
  if (a.is_zero()) return "0";
  std::string s;
  while (!a.is_zero()) s.push_back(char('0' + big_divmod_small(a, 10)));
  return std::string(s.rbegin(), s.rend());
}

template <int N>
std::string to_hex(const bigint_t<N>& a) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  bool started = false;
  for (int i = N - 1; i >= 0; --i)
    for (int b = 60; b >= 0; b -= 4) {
      unsigned v = (a.l[i] >> b) & 15;
      if (v || started || (i == 0 && b == 0)) {
        s.push_back(digits[v]);
        started = true;
      }
    }
  return s;
}

// Parses a decimal string (or 0x-hex) into a bigint. Returns false on an empty string, a
// character that is not a digit, or a value that does not fit in N limbs.
template <int N>
constexpr bool parse_bigint(std::string_view s, bigint_t<N>& out) {
  out = bigint_t<N>{};
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  for (char ch : s) {
    unsigned v = 0;
    if (ch >= '0' && ch <= '9')
      v = ch - '0';
    else if (base == 16 && ch >= 'a' && ch <= 'f')
      v = ch - 'a' + 10;
    else if (base == 16 && ch >= 'A' && ch <= 'F')
      v = ch - 'A' + 10;
    else
      return false;
    unsigned __int128 carry = v;
    for (int i = 0; i < N; ++i) {
      unsigned __int128 cur = (unsigned __int128)out.l[i] * base + carry;
      out.l[i] = (uint64_t)cur;
      carry = cur >> 64;
    }
    if (carry) return false;
  }
  return true;
}

}  // namespace zk::ff
