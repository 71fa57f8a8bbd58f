// tests/fuzz — decoder_fuzzer's targets for core/io, each checked against a plain
// reference model: ByteCursor (style.md §4: bounds-checked reads, LEB128 varints) and
// ChunkQueue (style.md §2: contiguous views at absolute offsets across chunk boundaries).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "io/byte_cursor.h"
#include "io/chunk_queue.h"
#include "fuzz_check.h"

namespace nettrace::fuzz {

// NetTraceFormat.md §Primitives "varuint", the slow obvious way: at most 10 bytes, the
// 10th may only carry bit 63.
inline bool ReferenceVarUInt64(std::span<const uint8_t> b, uint64_t* value, size_t* length) {
  uint64_t v = 0;
  for (size_t i = 0; i < 10 && i < b.size(); ++i) {
    if (i == 9 && b[i] > 1) return false;
    v |= uint64_t{b[i] & 0x7Fu} << (7 * i);
    if (!(b[i] & 0x80)) {
      *value = v;
      *length = i + 1;
      return true;
    }
  }
  return false;
}

// The input is both the cursor's bytes and, from the other end, the op stream.
inline void CursorOps(std::span<const uint8_t> in) {
  ByteCursor c(in, 4096);
  for (size_t i = in.size(); i-- > 0;) {
    const size_t before = c.position();
    bool ok = false;
    uint64_t u64 = 0;
    std::string str;
    std::span<const uint8_t> bytes;
    switch (in[i] % 10) {
      case 0: { uint8_t v; ok = c.ReadU8(&v); break; }
      case 1: { uint16_t v; ok = c.ReadU16(&v); break; }
      case 2: { uint32_t v; ok = c.ReadU32(&v); break; }
      case 3: ok = c.ReadU64(&u64); break;
      case 4: {
        uint64_t want = 0;
        size_t len = 0;
        const bool refOk = ReferenceVarUInt64(in.subspan(before), &want, &len);
        ok = c.ReadVarUInt64(&u64);
        FUZZ_CHECK(ok == refOk, "ReadVarUInt64 accepts what LEB128 does not, or the reverse");
        FUZZ_CHECK(!ok || (u64 == want && c.position() == before + len), "ReadVarUInt64 value or length differs");
        break;
      }
      case 5: {
        uint32_t v = 0;
        uint64_t want = 0;
        size_t len = 0;
        const bool refOk = ReferenceVarUInt64(in.subspan(before), &want, &len) && want <= 0xFFFFFFFFu;
        ok = c.ReadVarUInt32(&v);
        FUZZ_CHECK(ok == refOk && (!ok || v == want), "ReadVarUInt32 differs from LEB128");
        break;
      }
      case 6: { int64_t v; ok = c.ReadVarInt64(&v); break; }
      case 7: ok = c.ReadUtf8String(&str); break;
      case 8: ok = c.ReadNullTerminatedUtf16(&str); break;
      default: ok = c.ReadBytes(in[i] % 17, &bytes); break;
    }
    FUZZ_CHECK(c.position() <= c.size(), "cursor past its end");
    FUZZ_CHECK(ok || c.position() == before, "a failed read moved the cursor");
    FUZZ_CHECK(c.fileOffset() == 4096 + c.position(), "fileOffset is not base + position");
  }
}

// Ops: 0 append (next byte = length, bytes from the stream), 1 peek (next byte = n),
// 2 consume (next byte = n). The queue must always show exactly the flat stream.
inline void ChunkQueueOps(std::span<const uint8_t> in) {
  ChunkQueue q;
  std::vector<uint8_t> flat;  // every byte appended
  size_t read = 0;            // the reference read position
  size_t i = 0;
  while (i + 1 < in.size()) {
    const uint8_t op = in[i] % 3;
    const size_t n = in[i + 1];
    i += 2;
    if (op == 0) {
      // Lent, not copied: the input outlives the queue. The previous loan is kept first.
      const size_t len = std::min(n, in.size() - i);
      q.KeepUnread();
      q.Lend(in.data() + i, len);
      flat.insert(flat.end(), in.begin() + static_cast<ptrdiff_t>(i), in.begin() + static_cast<ptrdiff_t>(i + len));
      i += len;
    } else if (op == 1) {
      std::span<const uint8_t> view;
      const bool ok = q.Peek(n, &view);
      FUZZ_CHECK(ok == (flat.size() - read >= n), "Peek answers wrongly whether n bytes are there");
      FUZZ_CHECK(!ok || (view.size() == n && (n == 0 || std::memcmp(view.data(), flat.data() + read, n) == 0)),
                 "Peek shows the wrong bytes");
    } else {
      const size_t m = std::min(n, flat.size() - read);
      q.Consume(m);
      read += m;
    }
    FUZZ_CHECK(q.position() == read && q.received() == flat.size() && q.available() == flat.size() - read,
               "ChunkQueue offsets differ from the stream's");
    // Bounded by the unconsumed bytes, whatever the stream's length: the kept buffer drops
    // its consumed prefix once it is as long as the rest (chunk_queue.cc), with vector
    // capacity slack.
    FUZZ_CHECK(q.residentBytes() <= 2 * (flat.size() - read) + (256 << 10),
               "ChunkQueue holds more than the unconsumed bytes");
  }
}

}  // namespace nettrace::fuzz
