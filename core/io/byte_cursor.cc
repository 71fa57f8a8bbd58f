#include "io/byte_cursor.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nettrace {

namespace {

void AppendCodePoint(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

void AppendUtf16AsUtf8(const uint8_t* units, size_t count, std::string* out) {
  // The ASCII prefix (most type and method names are ASCII throughout) is written in place,
  // one byte per code unit, without the code point logic below.
  const size_t start = out->size();
  out->resize(start + count);
  char* to = out->data() + start;
  size_t i = 0;
  for (; i < count && units[2 * i + 1] == 0 && units[2 * i] < 0x80; ++i) to[i] = static_cast<char>(units[2 * i]);
  out->resize(start + i);
  for (; i < count; ++i) {
    uint32_t u = units[2 * i] | (uint32_t{units[2 * i + 1]} << 8);
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < count) {
      uint32_t lo = units[2 * i + 2] | (uint32_t{units[2 * i + 3]} << 8);
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        AppendCodePoint(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), out);
        ++i;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) u = 0xFFFD;
    AppendCodePoint(u, out);
  }
}

size_t FindUtf16Terminator(const uint8_t* p, size_t units) {
  size_t i = 0;
  // Rundown method names and signatures are most of a trace's string bytes: test many code
  // units at a time; the lowest flagged lane is the first terminator (little-endian hosts
  // only, as everywhere here).
#if defined(__SSE2__)
  // Sixteen code units per step (x86-64 always has SSE2; wasm builds take the portable path):
  // the two halves' unit masks packed to bytes (signed saturation keeps 0xFFFF and 0 apart)
  // give one bit per unit, the lowest first. Rundown names average ~35 units: two steps
  // instead of four or five.
  const __m128i zeros = _mm_setzero_si128();
  for (; i + 16 <= units; i += 16) {
    const __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i)), zeros);
    const __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i + 16)), zeros);
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(a, b)));
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
  }
  // Then eight: the byte mask of the lanes equal to 0 has two bits per zero unit.
  for (; i + 8 <= units; i += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi16(v, zeros)));
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask)) / 2;
  }
#endif
  // Four code units per step: (x - 0x0001...) & ~x & 0x8000... flags each 16-bit lane that is
  // 0 (a borrow can flag a lane above a zero one, never one below it).
  constexpr uint64_t kOnes = 0x0001000100010001ull, kHighs = 0x8000800080008000ull;
  for (; i + 4 <= units; i += 4) {
    uint64_t x;
    std::memcpy(&x, p + 2 * i, 8);
    const uint64_t zero = (x - kOnes) & ~x & kHighs;
    if (zero != 0) return i + static_cast<size_t>(__builtin_ctzll(zero)) / 16;
  }
  for (; i < units; ++i) {
    if (p[2 * i] == 0 && p[2 * i + 1] == 0) return i;
  }
  return units;
}

bool HasUtf16Terminator(const uint8_t* p, size_t units) {
  for (size_t i = units; i-- > 0;)
    if (p[2 * i] == 0 && p[2 * i + 1] == 0) return true;
  return false;
}

bool ByteCursor::ReadNullTerminatedUtf16(std::string* out) {
  std::span<const uint8_t> units;
  if (!ReadNullTerminatedUtf16Bytes(&units)) return false;
  out->clear();
  AppendUtf16AsUtf8(units.data(), units.size() / 2, out);
  return true;
}

}  // namespace nettrace
