#include <catch2/catch.hpp>

#include <cstring>

#include "format/trace_type.h"

using namespace nettrace;

namespace {
TraceType Detect(const std::vector<uint8_t>& b) { return DetectTraceType({b.data(), b.size()}); }
std::vector<uint8_t> Bytes(const char* s, size_t n) { return std::vector<uint8_t>(s, s + n); }
}  // namespace

TEST_CASE("format detection from the first bytes", "[format]") {
  CHECK(Detect(Bytes("Nettrace\x14\0\0\0", 12)) == TraceType::kNetTraceFastSerialization);
  CHECK(Detect(Bytes("Nettrace\0\0\0\0", 12)) == TraceType::kNetTraceBlocks);
  CHECK(Detect(Bytes("\x14\0\0\0!FastSerialization.1", 24)) == TraceType::kNetPerf);
  CHECK(Detect(Bytes("Nettrace\x15\0\0\0", 12)) == TraceType::kUnknown);
  CHECK(Detect(Bytes("PK\x03\x04", 4)) == TraceType::kUnknown);  // a zip: rejected at once
  CHECK(Detect(Bytes("Nett", 4)) == TraceType::kNeedMoreData);    // truncated header: wait
  CHECK(Detect({}) == TraceType::kNeedMoreData);
}
