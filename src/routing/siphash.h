// SipHash-2-4 (Aumasson & Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012): a keyed
// 64-bit pseudo-random function. The 128-bit key is two little-endian 64-bit words (k0 = key bytes
// 0..7, k1 = bytes 8..15); the message is read in little-endian 64-bit words, the last word
// holding the remaining bytes and the message length mod 256 in its top byte. Two compression
// rounds per word, four finalisation rounds. The Linux kernel's siphash() (lib/siphash.c) is this
// function; its flow dissector keys ECMP hashing with it (linux_multipath.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ct {

std::uint64_t siphash_2_4(std::uint64_t k0, std::uint64_t k1, const std::uint8_t* data, std::size_t length);

}  // namespace ct
