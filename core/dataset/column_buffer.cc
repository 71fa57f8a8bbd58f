// core/dataset — a column's buffered values (see column_buffer.h). Values are stored little
// endian as Parquet's PLAIN encoding wants them (the engines this builds for, x86-64 and
// wasm32, are little endian; plain_little_endian in parquet_file_writer.cc checks it).
#include "dataset/column_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "dataset/rle_hybrid.h"
#include "write/wire.h"

namespace nettrace::parquet {
namespace {

// Bounds of byte-array columns longer than this are not written: a footer holding a
// multi-kilobyte JSON payload twice per row group helps no engine prune anything.
constexpr size_t kMaxBoundBytes = 512;

uint64_t MixFixed(uint64_t v) {
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdULL;
  v ^= v >> 33;
  v *= 0xc4ceb9fe1a85ec53ULL;
  return v ^ (v >> 33);
}

uint64_t HashBytes(const uint8_t* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed: the table is indexed by low bits
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return MixFixed(h ^ n);
}

void PutLe(std::string* out, uint64_t v, size_t width) {
  for (size_t i = 0; i < width; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

}  // namespace

ColumnBuffer::ColumnBuffer(const ColumnSpec& spec, uint32_t maxDictionaryBytes)
    : spec_(spec),
      maxDictionaryBytes_(maxDictionaryBytes),
      dictActive_(spec.dictionary && spec.type != PhysicalType::kBoolean) {}

uint64_t ColumnBuffer::memoryBytes() const {
  return levels_.capacity() + indices_.capacity() * 4 + dict_.capacity() + dictOffsets_.capacity() * 4 +
         slots_.capacity() * 4 + plain_.capacity();
}

void ColumnBuffer::Present(bool present) {
  ++rows_;
  if (spec_.optional) levels_.push_back(present ? 1 : 0);
  if (!present) ++nulls_;
}

void ColumnBuffer::NoteNumber(int64_t v) {
  if (!hasBounds_) {
    minI_ = maxI_ = v;
    hasBounds_ = true;
  } else {
    minI_ = std::min(minI_, v);
    maxI_ = std::max(maxI_, v);
  }
}

// NaN takes no part in the bounds and is counted (parquet.thrift ColumnOrder: with
// nan_count set, min and max are computed from non-NaN values only).
void ColumnBuffer::NoteDouble(double v) {
  if (std::isnan(v)) {
    ++nans_;
    return;
  }
  if (!hasBounds_) {
    minD_ = maxD_ = v;
    hasBounds_ = true;
  } else {
    minD_ = std::min(minD_, v);
    maxD_ = std::max(maxD_, v);
  }
}

// std::string_view compares as unsigned bytes (char_traits<char>), the order Parquet
// defines for UTF8 and BYTE_ARRAY.
void ColumnBuffer::NoteBytes(std::string_view v) {
  if (!hasBounds_) {
    minS_.assign(v);
    maxS_.assign(v);
    hasBounds_ = true;
  } else if (v < std::string_view(minS_)) {
    minS_.assign(v);
  } else if (v > std::string_view(maxS_)) {
    maxS_.assign(v);
  }
}

void ColumnBuffer::Grow() {
  const size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(size, 0);
  const size_t mask = size - 1;
  const bool bytes = spec_.type == PhysicalType::kByteArray;
  for (uint32_t e = 0; e < dictOffsets_.size(); ++e) {
    const uint32_t begin = dictOffsets_[e];
    const uint32_t end = e + 1 < dictOffsets_.size() ? dictOffsets_[e + 1] : static_cast<uint32_t>(dict_.size());
    uint64_t h = 0;
    if (bytes) {
      h = HashBytes(dict_.data() + begin + 4, end - begin - 4);
    } else {
      uint64_t v = 0;
      std::memcpy(&v, dict_.data() + begin, end - begin);
      h = MixFixed(v);
    }
    size_t pos = h & mask;
    while (slots_[pos]) pos = (pos + 1) & mask;
    slots_[pos] = e + 1;
  }
}

int64_t ColumnBuffer::Intern(const uint8_t* data, size_t size, uint64_t hash) {
  if (slots_.empty()) Grow();
  const bool bytes = spec_.type == PhysicalType::kByteArray;
  const size_t prefix = bytes ? 4 : 0;
  const size_t mask = slots_.size() - 1;
  size_t pos = hash & mask;
  for (uint32_t slot; (slot = slots_[pos]) != 0; pos = (pos + 1) & mask) {
    const uint32_t begin = dictOffsets_[slot - 1];
    const uint32_t end = slot < dictOffsets_.size() ? dictOffsets_[slot] : static_cast<uint32_t>(dict_.size());
    if (end - begin == size + prefix && std::memcmp(dict_.data() + begin + prefix, data, size) == 0) return slot - 1;
  }
  if (dict_.size() + size + prefix > maxDictionaryBytes_) {
    DropDictionary();
    return -1;
  }
  dictOffsets_.push_back(static_cast<uint32_t>(dict_.size()));
  if (bytes) wire::PutU32(dict_, static_cast<uint32_t>(size));
  dict_.insert(dict_.end(), data, data + size);
  const uint32_t entries = static_cast<uint32_t>(dictOffsets_.size());
  slots_[pos] = entries;
  if (entries * 2 > slots_.size()) Grow();
  return entries - 1;
}

// The values so far become PLAIN (each index replaced by its entry's bytes) and the
// dictionary's memory is released; the rest of this chunk is written PLAIN.
void ColumnBuffer::DropDictionary() {
  plain_.clear();
  for (uint32_t index : indices_) {
    const uint32_t begin = dictOffsets_[index];
    const uint32_t end = index + 1 < dictOffsets_.size() ? dictOffsets_[index + 1] : static_cast<uint32_t>(dict_.size());
    plain_.insert(plain_.end(), dict_.begin() + begin, dict_.begin() + end);
  }
  dictActive_ = false;
  std::vector<uint32_t>().swap(indices_);
  std::vector<uint8_t>().swap(dict_);
  std::vector<uint32_t>().swap(dictOffsets_);
  std::vector<uint32_t>().swap(slots_);
}

// Indices are counted at their bit width, without the runs RLE would find: a dictionary
// kept here is smaller even in the worst case.
void ColumnBuffer::DropDictionaryIfNoSmaller() {
  if (!dictActive_ || dictOffsets_.empty()) return;
  const uint64_t width = std::max(1, BitWidth(dictOffsets_.size() - 1));
  if (dict_.size() + (values_ * width + 7) / 8 >= plainBytes_) DropDictionary();
}

void ColumnBuffer::AddFixed(const uint8_t* bytes, size_t width) {
  ++values_;
  plainBytes_ += width;
  if (dictActive_) {
    uint64_t v = 0;
    std::memcpy(&v, bytes, width);
    const int64_t index = Intern(bytes, width, MixFixed(v));
    if (index >= 0) {
      indices_.push_back(static_cast<uint32_t>(index));
      return;
    }
  }
  plain_.insert(plain_.end(), bytes, bytes + width);
}

void ColumnBuffer::AddBytes(std::string_view v) {
  ++values_;
  plainBytes_ += 4 + v.size();
  const auto* data = reinterpret_cast<const uint8_t*>(v.data());
  if (dictActive_) {
    const uint32_t before = dictionaryEntries();
    const int64_t index = Intern(data, v.size(), HashBytes(data, v.size()));
    if (index >= 0) {
      if (dictionaryEntries() != before) NoteBytes(v);  // only a new distinct value can move a bound
      indices_.push_back(static_cast<uint32_t>(index));
      return;
    }
  }
  NoteBytes(v);
  wire::PutU32(plain_, static_cast<uint32_t>(v.size()));
  plain_.insert(plain_.end(), data, data + v.size());
}

// Fixed-width values: each present one joins the bounds and the buffer (the dictionary or
// PLAIN bytes, by AddFixed).
template <typename T, typename Note>
void ColumnBuffer::AppendFixed(const T* values, const uint8_t* valid, size_t n, Note note) {
  for (size_t i = 0; i < n; ++i) {
    const bool present = !valid || valid[i];
    Present(present);
    if (!present) continue;
    (this->*note)(values[i]);
    AddFixed(reinterpret_cast<const uint8_t*>(&values[i]), sizeof(T));
  }
}

void ColumnBuffer::AppendInt32(const int32_t* values, const uint8_t* valid, size_t n) {
  AppendFixed(values, valid, n, &ColumnBuffer::NoteNumber);
}

void ColumnBuffer::AppendInt64(const int64_t* values, const uint8_t* valid, size_t n) {
  AppendFixed(values, valid, n, &ColumnBuffer::NoteNumber);
}

void ColumnBuffer::AppendDouble(const double* values, const uint8_t* valid, size_t n) {
  AppendFixed(values, valid, n, &ColumnBuffer::NoteDouble);
}

void ColumnBuffer::AppendBool(const uint8_t* values, const uint8_t* valid, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const bool present = !valid || valid[i];
    Present(present);
    if (!present) continue;
    const uint8_t v = values[i] ? 1 : 0;
    NoteNumber(v);
    ++values_;
    ++plainBytes_;  // an eighth of a byte in the page; a byte here bounds the buffer
    plain_.push_back(v);
  }
}

void ColumnBuffer::AppendBytes(const std::string_view* values, const uint8_t* valid, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const bool present = !valid || valid[i];
    Present(present);
    if (present) AddBytes(values[i]);
  }
}

ColumnStats ColumnBuffer::Stats() const {
  ColumnStats s;
  s.nullCount = nulls_;
  s.nanCount = nans_;
  if (!hasBounds_) return s;
  switch (spec_.type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64: {
      const size_t width = spec_.type == PhysicalType::kBoolean ? 1 : spec_.type == PhysicalType::kInt32 ? 4 : 8;
      PutLe(&s.min, static_cast<uint64_t>(minI_), width);
      PutLe(&s.max, static_cast<uint64_t>(maxI_), width);
      break;
    }
    case PhysicalType::kDouble: {
      // A zero bound is written as -0.0 (min) and +0.0 (max): the column may hold either.
      const double lo = minD_ == 0 ? -0.0 : minD_;
      const double hi = maxD_ == 0 ? 0.0 : maxD_;
      uint64_t bits = 0;
      std::memcpy(&bits, &lo, 8);
      PutLe(&s.min, bits, 8);
      std::memcpy(&bits, &hi, 8);
      PutLe(&s.max, bits, 8);
      break;
    }
    case PhysicalType::kByteArray:
      if (minS_.size() > kMaxBoundBytes || maxS_.size() > kMaxBoundBytes) return s;
      s.min = minS_;
      s.max = maxS_;
      break;
  }
  s.hasBounds = true;
  return s;
}

void ColumnBuffer::Clear() {
  rows_ = values_ = plainBytes_ = nulls_ = nans_ = 0;
  hasBounds_ = false;
  levels_.clear();
  indices_.clear();
  dict_.clear();
  dictOffsets_.clear();
  std::fill(slots_.begin(), slots_.end(), 0);
  plain_.clear();
  dictActive_ = spec_.dictionary && spec_.type != PhysicalType::kBoolean;
}

}  // namespace nettrace::parquet
