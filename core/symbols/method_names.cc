#include "symbols/method_names.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

bool MethodNamePool::Read(ByteCursor* c, MethodNamesRef* out, bool readPastSignature) {
  std::span<const uint8_t> nameSpace, name, signature;
  ByteCursor at = *c;  // unmoved on failure
  if (!at.ReadNullTerminatedUtf16Bytes(&nameSpace) || !at.ReadNullTerminatedUtf16Bytes(&name)) return false;
  // Both ways accept exactly the payloads with a terminator somewhere after the name.
  if (readPastSignature ? !at.ReadNullTerminatedUtf16Bytes(&signature) : !at.HasNullTerminatedUtf16()) return false;
  *c = at;
  *out = MethodNamesRef{};
  if (nameSpace.empty() && name.empty()) return true;
  // Kept back to back, without the namespace's terminator (a rundown's worth of 2-byte
  // terminators would be resident for nothing). Payloads are far below 4 GB, so counts fit.
  const size_t n = nameSpace.size() + name.size();
  if (blocks_.empty() || blocks_.back().capacity - blocks_.back().size < n) {
    Block& b = blocks_.emplace_back();
    b.capacity = std::max(kBlockBytes, n);
    b.bytes.reset(new uint8_t[b.capacity]);  // left uninitialised: filled as names come
  }
  Block& block = blocks_.back();
  out->block = static_cast<uint32_t>(blocks_.size() - 1);
  out->offset = static_cast<uint32_t>(block.size);
  out->nameSpaceBytes = static_cast<uint32_t>(nameSpace.size());
  out->nameBytes = static_cast<uint32_t>(name.size());
  uint8_t* to = block.bytes.get() + block.size;
  if (!nameSpace.empty()) std::memcpy(to, nameSpace.data(), nameSpace.size());
  if (!name.empty()) std::memcpy(to + nameSpace.size(), name.data(), name.size());
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
