#include "symbols/method_names.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

bool MethodNamePool::Read(ByteCursor* c, MethodNamesRef* out, bool readPastSignature) {
  // On the payload's bytes directly, the cursor moved once at the end (unmoved on failure):
  // a rundown is a hundred thousand of these, and a cursor copy and call per string cost
  // 27 instructions a record more (HeartRateMonitor, callgrind).
  const uint8_t* const p = c->current();
  const size_t units = c->remaining() / 2;
  const size_t nameSpace = FindUtf16Terminator(p, units);
  if (nameSpace == units) return false;
  const size_t afterNameSpace = units - nameSpace - 1;
  const size_t name = FindUtf16Terminator(p + 2 * (nameSpace + 1), afterNameSpace);
  if (name == afterNameSpace) return false;
  size_t consumed = nameSpace + 1 + name + 1;  // code units
  // Both ways accept exactly the payloads with a terminator somewhere after the name.
  if (readPastSignature) {
    const size_t signature = FindUtf16Terminator(p + 2 * consumed, units - consumed);
    if (signature == units - consumed) return false;
    consumed += signature + 1;
  } else if (!HasUtf16Terminator(p + 2 * consumed, units - consumed)) {
    return false;
  }
  c->Skip(2 * consumed);  // without the signature: at its start
  if (nameSpace == 0 && name == 0) {
    *out = MethodNamesRef{};
    return true;
  }
  // Kept back to back, without the namespace's terminator (a rundown's worth of 2-byte
  // terminators would be resident for nothing). Payloads are far below 4 GB, so counts fit.
  const size_t nameSpaceBytes = 2 * nameSpace, nameBytes = 2 * name, n = nameSpaceBytes + nameBytes;
  if (blocks_.empty() || blocks_.back().capacity - blocks_.back().size < n) {
    Block& b = blocks_.emplace_back();
    b.capacity = std::max(kBlockBytes, n);
    b.bytes.reset(new uint8_t[b.capacity]);  // left uninitialised: filled as names come
  }
  Block& block = blocks_.back();
  out->block = static_cast<uint32_t>(blocks_.size() - 1);
  out->offset = static_cast<uint32_t>(block.size);
  out->nameSpaceBytes = static_cast<uint32_t>(nameSpaceBytes);
  out->nameBytes = static_cast<uint32_t>(nameBytes);
  uint8_t* to = block.bytes.get() + block.size;
  std::memcpy(to, p, nameSpaceBytes);
  std::memcpy(to + nameSpaceBytes, p + nameSpaceBytes + 2, nameBytes);
  block.size += n;
  return true;
}

bool MethodNamePool::Same(const MethodNamesRef& a, const MethodNamesRef& b) const {
  if (a.nameSpaceBytes != b.nameSpaceBytes || a.nameBytes != b.nameBytes) return false;
  const std::span<const uint8_t> x = Bytes(a), y = Bytes(b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

size_t MethodNamePool::residentBytes() const {
  size_t n = blocks_.capacity() * sizeof(Block);
  for (const Block& b : blocks_) n += b.capacity;
  return n;
}

std::string MethodNamePool::Utf8(std::span<const uint8_t> units) {
  std::string out;
  out.reserve(units.size() / 2);
  AppendUtf16AsUtf8(units.data(), units.size() / 2, &out);
  return out;
}

}  // namespace nettrace
