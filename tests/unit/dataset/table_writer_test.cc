// The table writer: the bytes of a whole small file's first page worked out by hand
// (parquet-format README "File format", parquet.thrift PageHeader), misuse as errors, row
// groups at the row and byte bounds, bounded buffers, identical bytes on a re-run.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/byte_literals.h"
#include "dataset/table_writer.h"

namespace nettrace::parquet {
namespace {

using test::Bytes;

std::vector<uint8_t> WriteInts(const std::vector<int32_t>& v, WriterOptions options, bool dictionary) {
  MemorySink sink;
  std::unique_ptr<TableWriter> w;
  REQUIRE(TableWriter::Open({{"n", PhysicalType::kInt32, LogicalKind::kNone, false, dictionary}}, options, &sink, &w).ok());
  REQUIRE(w->AppendInt32(0, v.data(), nullptr, v.size()).ok());
  REQUIRE(w->Finish().ok());
  return sink.Take();
}

uint32_t FooterLength(const std::vector<uint8_t>& file) {
  const size_t at = file.size() - 8;
  return file[at] | file[at + 1] << 8 | file[at + 2] << 16 | uint32_t(file[at + 3]) << 24;
}

TEST_CASE("table writer: a PLAIN INT32 page, byte for byte", "[dataset]") {
  const std::vector<uint8_t> file = WriteInts({1, 2}, {}, false);
  const std::vector<uint8_t> head(file.begin(), file.begin() + 4 + 17 + 8);
  CHECK(head == Bytes({'P', 'A', 'R', '1',
                       // PageHeader: type DATA_PAGE, sizes 8 and 8, DataPageHeader { 2 values,
                       // PLAIN, RLE, RLE }, stop, stop
                       0x15, 0x00, 0x15, 0x10, 0x15, 0x10, 0x2C, 0x15, 0x04, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00,
                       // the values, little endian
                       1, 0, 0, 0, 2, 0, 0, 0}));
  CHECK(std::vector<uint8_t>(file.end() - 4, file.end()) == Bytes({'P', 'A', 'R', '1'}));
  CHECK(FooterLength(file) + 8 + 29 == file.size());
}

TEST_CASE("table writer: a dictionary page then RLE_DICTIONARY indices", "[dataset]") {
  const std::vector<uint8_t> file = WriteInts({5, 5, 6}, {}, true);
  const std::vector<uint8_t> head(file.begin(), file.begin() + 4 + 13 + 8 + 17 + 3);
  CHECK(head == Bytes({'P', 'A', 'R', '1',
                       // PageHeader: DICTIONARY_PAGE (2), sizes 8, DictionaryPageHeader (field 7) { 2 entries, PLAIN }
                       0x15, 0x04, 0x15, 0x10, 0x15, 0x10, 0x4C, 0x15, 0x04, 0x15, 0x00, 0x00, 0x00,
                       5, 0, 0, 0, 6, 0, 0, 0,
                       // PageHeader: DATA_PAGE, sizes 3, { 3 values, RLE_DICTIONARY (8), RLE, RLE }
                       0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x2C, 0x15, 0x06, 0x15, 0x10, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00,
                       // bit width 1; one bit-packed group: 0, 0, 1 -> 0b100
                       0x01, 0x03, 0x04}));
}

TEST_CASE("table writer: misuse is an error, not a crash", "[dataset]") {
  MemorySink sink;
  std::unique_ptr<TableWriter> w;
  CHECK_FALSE(TableWriter::Open({{"a", PhysicalType::kInt32}, {"a", PhysicalType::kInt64}}, {}, &sink, &w).ok());
  CHECK_FALSE(TableWriter::Open({{"s", PhysicalType::kInt32, LogicalKind::kString}}, {}, &sink, &w).ok());
  REQUIRE(TableWriter::Open({{"a", PhysicalType::kInt32}, {"b", PhysicalType::kByteArray, LogicalKind::kString, true}},
                            {}, &sink, &w).ok());
  const int32_t one = 1;
  const int64_t wide = 1;
  const uint8_t null = 0;
  CHECK(w->AppendInt64(0, &wide, nullptr, 1).message() == "column 'a' holds INT32, not INT64");
  CHECK(w->AppendInt32(0, &one, &null, 1).message() == "column 'a' is required and row 0 is null");
  CHECK_FALSE(w->AppendInt32(2, &one, nullptr, 1).ok());
  REQUIRE(w->AppendInt32(0, &one, nullptr, 1).ok());
  CHECK(w->EndBatch().message() == "column 'b' has 0 rows, column 'a' 1");
  const std::string_view s;
  REQUIRE(w->AppendStrings(1, &s, &null, 1).ok());
  REQUIRE(w->Finish().ok());
  CHECK_FALSE(w->AppendInt32(0, &one, nullptr, 1).ok());
}

TEST_CASE("table writer: row groups at the row bound", "[dataset]") {
  MemorySink sink;
  std::unique_ptr<TableWriter> w;
  WriterOptions options;
  options.rowGroupRows = 3;
  REQUIRE(TableWriter::Open({{"n", PhysicalType::kInt64}}, options, &sink, &w).ok());
  for (int64_t i = 0; i < 7; ++i) {
    REQUIRE(w->AppendInt64(0, &i, nullptr, 1).ok());
    REQUIRE(w->EndBatch().ok());
  }
  REQUIRE(w->Finish().ok());
  CHECK(w->rowGroups() == 3);
  CHECK(w->rowsWritten() == 7);
}

TEST_CASE("table writer: an empty table is a file with a schema and no row group", "[dataset]") {
  MemorySink sink;
  std::unique_ptr<TableWriter> w;
  REQUIRE(TableWriter::Open({{"n", PhysicalType::kInt64}}, {}, &sink, &w).ok());
  REQUIRE(w->Finish().ok());
  CHECK(w->rowGroups() == 0);
  const std::vector<uint8_t>& file = sink.bytes();
  CHECK(FooterLength(file) + 12 == file.size());
}

TEST_CASE("table writer: buffers stay within the row-group bound", "[dataset]") {
  MemorySink sink;
  std::unique_ptr<TableWriter> w;
  WriterOptions options;
  options.rowGroupBytes = 1 << 20;
  REQUIRE(TableWriter::Open({{"t", PhysicalType::kInt64}, {"s", PhysicalType::kByteArray, LogicalKind::kString}},
                            options, &sink, &w).ok());
  std::vector<int64_t> t(10000);
  std::vector<std::string> text(t.size());
  std::vector<std::string_view> views(t.size());
  for (int batch = 0; batch < 200; ++batch) {  // 2 M rows, ~38 MB PLAIN
    for (size_t i = 0; i < t.size(); ++i) {
      t[i] = int64_t{batch} * 1000003 + int64_t(i) * 7;
      text[i] = "value " + std::to_string(t[i]);
      views[i] = text[i];
    }
    REQUIRE(w->AppendInt64(0, t.data(), nullptr, t.size()).ok());
    REQUIRE(w->AppendStrings(1, views.data(), nullptr, views.size()).ok());
    REQUIRE(w->EndBatch().ok());
  }
  REQUIRE(w->Finish().ok());
  CHECK(w->rowsWritten() == 2000000);
  CHECK(w->rowGroups() >= 30);
  // One row group's buffers (1 MiB PLAIN, at most twice that while a dictionary is being
  // dropped) plus one batch and vector growth: far below the 38 MB a whole-table writer holds.
  CHECK(w->peakBufferBytes() < (uint64_t{6} << 20));
}

TEST_CASE("table writer: the same rows give the same bytes", "[dataset]") {
  WriterOptions options;
  options.rowGroupRows = 2;
  options.createdBy = "test version 1";
  options.keyValues = {{"k", "v"}};
  const std::vector<int32_t> v = {3, 1, 4, 1, 5, 9, 2, 6};
  CHECK(WriteInts(v, options, true) == WriteInts(v, options, true));
  CHECK(WriteInts(v, options, true) != WriteInts(v, options, false));
}

}  // namespace
}  // namespace nettrace::parquet
