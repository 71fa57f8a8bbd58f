#include "symbols/method_names.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

// Where a record's namespace and name end, and how far its strings go (the signature's
// terminator included when readPastSignature). Kept in source, a record without anything
// after its signature is not split while reading (Read): scanning and copying its names cost
// 211 instructions a record (HeartRateMonitor, callgrind).
bool MethodNamePool::Split(const uint8_t* p, size_t units, bool readPastSignature, Parts* out) {
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
  *out = {nameSpace, name, consumed};
  return true;
}

bool MethodNamePool::ReadNames(ByteCursor* c, MethodNamesRef* out, bool readPastSignature) {
  // On the payload's bytes directly, the cursor moved once at the end (unmoved on failure):
  // a rundown is a hundred thousand of these, and a cursor copy and call per string cost
  // 27 instructions a record more (HeartRateMonitor, callgrind).
  const uint8_t* const p = c->current();
  const uint64_t at = c->fileOffset();
  const size_t remaining = c->remaining();
  Parts parts;
  if (!Split(p, remaining / 2, readPastSignature, &parts)) return false;
  const size_t nameSpace = parts.nameSpace, name = parts.name, consumed = parts.consumed;
  c->Skip(2 * consumed);  // without the signature: at its start
  if (inSource_) {
    // Scanned only to read what follows the signature: the names stay in the file.
    *out = InSource(at, remaining);
    return true;
  }
  *out = Copy(p, 2 * nameSpace, p + 2 * nameSpace + 2, 2 * name);
  return true;
}

MethodNamesRef MethodNamePool::Copy(const uint8_t* nameSpace, size_t nameSpaceBytes, const uint8_t* name,
                                    size_t nameBytes) {
  // Kept back to back, without the namespace's terminator (a rundown's worth of 2-byte
  // terminators would be resident for nothing). Payloads are far below 4 GB, so counts fit.
  const size_t n = nameSpaceBytes + nameBytes;
  if (n == 0) return MethodNamesRef{};
  if (blocks_.empty() || blocks_.back().capacity - blocks_.back().size < n) {
    Block& b = blocks_.emplace_back();
    b.capacity = std::max(kBlockBytes, n);
    b.bytes.reset(new uint8_t[b.capacity]);  // left uninitialised: filled as names come
  }
  Block& block = blocks_.back();
  MethodNamesRef out;
  out.at = (uint64_t{blocks_.size() - 1} << 32) | block.size;
  out.nameSpaceBytes = static_cast<uint32_t>(nameSpaceBytes);
  out.nameBytes = static_cast<uint32_t>(nameBytes);
  uint8_t* to = block.bytes.get() + block.size;
  std::memcpy(to, nameSpace, nameSpaceBytes);
  std::memcpy(to + nameSpaceBytes, name, nameBytes);
  block.size += n;
  return out;
}

std::vector<ByteRange> MethodNamePool::InSourceRanges(std::vector<MethodNamesRef> refs) {
  std::erase_if(refs, [](const MethodNamesRef& r) { return !r.inSource(); });
  std::sort(refs.begin(), refs.end(), [](const MethodNamesRef& a, const MethodNamesRef& b) { return a.at < b.at; });
  std::vector<ByteRange> out;
  for (const MethodNamesRef& r : refs) {
    const uint64_t end = r.at + r.nameBytes;
    if (!out.empty()) {
      ByteRange& last = out.back();
      const uint64_t lastEnd = last.offset + last.size;
      if (end <= lastEnd) continue;  // within it (the same record, announced twice)
      if (r.at < lastEnd + kGap && end - last.offset <= kMaxRange) {
        last.size = end - last.offset;
        continue;
      }
    }
    out.push_back({r.at, r.nameBytes});
  }
  return out;
}

void MethodNamePool::Load(uint64_t offset, std::span<const uint8_t> bytes, const std::vector<MethodNamesRef>& wanted) {
  for (const MethodNamesRef& r : wanted) {
    if (!r.inSource() || r.at < offset || r.at + r.nameBytes > offset + bytes.size() || loaded_.count(r.at)) continue;
    // The same checks, on the same bytes, as a copied read without the signature.
    const uint8_t* p = bytes.data() + (r.at - offset);
    Loaded& l = loaded_[r.at];
    Parts parts;
    if (!Split(p, r.nameBytes / 2, false, &parts)) continue;
    const size_t nameSpace = parts.nameSpace, name = parts.name;
    l.copy = Copy(p, 2 * nameSpace, p + 2 * nameSpace + 2, 2 * name);
    l.terminated = true;
  }
}

MethodNamesRef MethodNamePool::Resolve(const MethodNamesRef& r) const {
  if (!r.inSource()) return r;
  auto it = loaded_.find(r.at);
  return it == loaded_.end() ? MethodNamesRef{} : it->second.copy;
}

bool MethodNamePool::Unterminated(const MethodNamesRef& r) const {
  if (!r.inSource()) return false;
  auto it = loaded_.find(r.at);
  return it != loaded_.end() && !it->second.terminated;
}

bool MethodNamePool::Same(const MethodNamesRef& a, const MethodNamesRef& b) const {
  if (a.nameSpaceBytes != b.nameSpaceBytes || a.nameBytes != b.nameBytes) return false;
  const std::span<const uint8_t> x = Bytes(a), y = Bytes(b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

size_t MethodNamePool::residentBytes() const {
  size_t n = blocks_.capacity() * sizeof(Block) + loaded_.size() * (sizeof(uint64_t) + sizeof(Loaded) + 16);
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
