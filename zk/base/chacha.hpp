#pragma once
// The ChaCha stream cipher (D. J. Bernstein, 2008) in the two forms Filecoin's PoRep uses:
//
//   chacha8_rng_t    rand_chacha 0.3's ChaCha8Rng::from_seed: key = the 32-byte seed, a 64-bit
//                    block counter in words 12–13 starting at 0, the 64-bit stream id (0) in
//                    words 14–15, 4 double rounds; output words little-endian in stream order,
//                    buffered 64 words (4 blocks) at a time; next_u64 = low word then high word
//                    (rand_core BlockRng). The bucket DRG samples its parents from it
//                    (storage-proofs-core drgraph.rs).
//   chacha20_ietf_t  RFC 8439 ChaCha20 (the chacha20 0.9 crate): a 32-bit block counter in word
//                    12, a 96-bit nonce in words 13–15, 10 double rounds, seekable by byte. The
//                    synthetic-PoRep challenges are drawn from it (storage-proofs-porep
//                    stacked/vanilla/challenges.rs).
#include <cstddef>
#include <cstdint>

namespace zk {

// One 64-byte block: state = "expand 32-byte k" ‖ key[8] ‖ tail[4], double_rounds column and
// diagonal round pairs, then the input state added word by word, serialised little-endian.
void chacha_block(const uint32_t key[8], const uint32_t tail[4], int double_rounds,
                  uint8_t out[64]);

class chacha8_rng_t {
 public:
  explicit chacha8_rng_t(const uint8_t seed[32]);
  uint32_t next_u32();
  uint64_t next_u64();

 private:
  void refill();
  uint32_t key_[8];
  uint64_t block_ = 0;  // the next block's counter
  uint32_t buf_[64];
  size_t index_ = 64;  // next unread word of buf_
};

class chacha20_ietf_t {
 public:
  chacha20_ietf_t(const uint8_t key[32], const uint8_t nonce[12]);
  // Positions the keystream at byte `pos` (chacha20's try_seek); pos < 2^38.
  void seek(uint64_t pos);
  // The next n keystream bytes (apply_keystream on zeros).
  void keystream(uint8_t* out, size_t n);

 private:
  uint32_t key_[8];
  uint32_t nonce_[3];
  uint64_t pos_ = 0;
};

}  // namespace zk
