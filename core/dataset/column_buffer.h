// core/dataset — one column's values for the row group being built, held already encoded:
// dictionary indices while the column's distinct values fit the dictionary bound, PLAIN
// bytes once they do not (Encodings.md §Dictionary: "if the dictionary grows too big ... the
// encoding will fall back to the plain encoding"; here for the whole column chunk). Also
// the definition levels of an optional column and the chunk's statistics, kept as values
// arrive so the flush needs no second pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/parquet_schema.h"

namespace nettrace::parquet {

// Statistics of one column chunk (parquet.thrift Statistics): bounds in PLAIN encoding
// (byte arrays without their length prefix), set when at least one value is not null (and,
// for DOUBLE, not NaN).
struct ColumnStats {
  uint64_t nullCount = 0;
  uint64_t nanCount = 0;  // DOUBLE only
  bool hasBounds = false;
  std::string min, max;
};

class ColumnBuffer {
 public:
  ColumnBuffer(const ColumnSpec& spec, uint32_t maxDictionaryBytes);

  // Appends n values; `valid` (may be null: all present) says which rows hold a value. The
  // values array has an entry for every row; entries of null rows are ignored.
  void AppendInt32(const int32_t* values, const uint8_t* valid, size_t n);
  void AppendInt64(const int64_t* values, const uint8_t* valid, size_t n);
  void AppendDouble(const double* values, const uint8_t* valid, size_t n);
  void AppendBool(const uint8_t* values, const uint8_t* valid, size_t n);
  void AppendBytes(const std::string_view* values, const uint8_t* valid, size_t n);

  const ColumnSpec& spec() const { return spec_; }
  uint64_t rows() const { return rows_; }
  uint64_t valueCount() const { return values_; }  // non-null values
  // The chunk's size had every value been written PLAIN (the row-group size bound).
  uint64_t plainBytes() const { return plainBytes_; }
  uint64_t memoryBytes() const;

  const std::vector<uint8_t>& definitionLevels() const { return levels_; }  // per row; optional only
  bool dictionaryEncoded() const { return dictActive_; }
  const std::vector<uint32_t>& indices() const { return indices_; }  // per non-null value
  const std::vector<uint8_t>& dictionaryPage() const { return dict_; }  // entries, PLAIN
  uint32_t dictionaryEntries() const { return static_cast<uint32_t>(dictOffsets_.size()); }
  // Non-dictionary values: PLAIN bytes, except BOOLEAN (one byte per value, packed on write).
  const std::vector<uint8_t>& plain() const { return plain_; }
  ColumnStats Stats() const;

  // Before the chunk is written: a dictionary whose page and indices would not be smaller
  // than the PLAIN values (all values distinct, as timestamps are) is dropped.
  void DropDictionaryIfNoSmaller();
  void Clear();  // after the row group is written; keeps the buffers' capacity

 private:
  template <typename T, typename Note>
  void AppendFixed(const T* values, const uint8_t* valid, size_t n, Note note);
  void AddFixed(const uint8_t* bytes, size_t width);
  void AddBytes(std::string_view v);
  // Finds or inserts the entry whose PLAIN form is `entry`; returns its index, or -1 after
  // the dictionary outgrew its bound and was dropped (the values are then PLAIN).
  int64_t Intern(const uint8_t* entry, size_t size, uint64_t hash);
  void DropDictionary();
  void Grow();
  void Present(bool present);
  void NoteNumber(int64_t v);
  void NoteDouble(double v);
  void NoteBytes(std::string_view v);

  ColumnSpec spec_;
  uint32_t maxDictionaryBytes_;
  uint64_t rows_ = 0, values_ = 0, plainBytes_ = 0, nulls_ = 0, nans_ = 0;
  std::vector<uint8_t> levels_;
  bool dictActive_;
  std::vector<uint32_t> indices_;
  std::vector<uint8_t> dict_;
  std::vector<uint32_t> dictOffsets_;  // start of each entry in dict_
  std::vector<uint32_t> slots_;        // open addressing: entry index + 1, 0 = empty
  std::vector<uint8_t> plain_;
  // Bounds as values (numbers) or bytes (strings) until Stats() encodes them.
  bool hasBounds_ = false;
  int64_t minI_ = 0, maxI_ = 0;
  double minD_ = 0, maxD_ = 0;
  std::string minS_, maxS_;
};

}  // namespace nettrace::parquet
