#include "symbols/method_names.h"

#include <algorithm>

namespace nettrace {

bool MethodNamePool::Read(ByteCursor* c, MethodNamesRef* out) {
  std::span<const uint8_t> nameSpace, name, signature;
  if (!c->ReadNullTerminatedUtf16Bytes(&nameSpace) || !c->ReadNullTerminatedUtf16Bytes(&name) ||
      !c->ReadNullTerminatedUtf16Bytes(&signature))
    return false;
  const size_t n = nameSpace.size() + name.size();
  *out = MethodNamesRef{};
  if (n == 0) return true;
  // Payloads are far below 4 GB, so the byte counts fit their fields.
  if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < n) {
    blocks_.emplace_back();
    blocks_.back().reserve(std::max(kBlockBytes, n));
  }
  std::vector<uint8_t>& block = blocks_.back();
  out->block = static_cast<uint32_t>(blocks_.size() - 1);
  out->offset = static_cast<uint32_t>(block.size());
  out->nameSpaceBytes = static_cast<uint32_t>(nameSpace.size());
  out->nameBytes = static_cast<uint32_t>(name.size());
  block.insert(block.end(), nameSpace.begin(), nameSpace.end());
  block.insert(block.end(), name.begin(), name.end());
  return true;
}

bool MethodNamePool::Same(const MethodNamesRef& a, const MethodNamesRef& b) const {
  if (a.nameSpaceBytes != b.nameSpaceBytes || a.nameBytes != b.nameBytes) return false;
  const std::span<const uint8_t> x = Bytes(a), y = Bytes(b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

size_t MethodNamePool::residentBytes() const {
  size_t n = blocks_.capacity() * sizeof(std::vector<uint8_t>);
  for (const std::vector<uint8_t>& b : blocks_) n += b.capacity();
  return n;
}

std::string MethodNamePool::Utf8(std::span<const uint8_t> units) {
  std::string out;
  out.reserve(units.size() / 2);
  AppendUtf16AsUtf8(units.data(), units.size() / 2, &out);
  return out;
}

}  // namespace nettrace
