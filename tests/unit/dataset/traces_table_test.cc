// The traces table's fields from the Summary JSON: the path lookup over nested objects,
// strings with escapes and braces; ISO UTC times as microseconds (worked with Python's
// datetime); a real trace's row against the session it came from.
#include <catch2/catch.hpp>

#include <string>

#include "dataset/summary_fields.h"
#include "dataset/traces_table.h"
#include "test_support.h"

namespace nettrace::dataset {
namespace {

TEST_CASE("summary fields: values by path through nested objects and arrays", "[dataset]") {
  const std::string json =
      R"({"a": {"s": "x}\"{y", "list": [1, {"b": 2}], "n": -42}, "b": {"s": "\u00e9\n", "t": true, "z": null}})";
  CHECK(JsonAt(json, {"a", "n"}) == "-42");
  CHECK(JsonInt(json, {"a", "n"}) == -42);
  CHECK(JsonString(json, {"a", "s"}) == "x}\"{y");
  CHECK(JsonString(json, {"b", "s"}) == "\xC3\xA9\n");
  CHECK(JsonBool(json, {"b", "t"}) == true);
  CHECK(JsonAt(json, {"a", "list"}) == "[1, {\"b\": 2}]");
  CHECK_FALSE(JsonInt(json, {"b", "z"}).has_value());  // null
  CHECK_FALSE(JsonAt(json, {"a", "missing"}).has_value());
  CHECK_FALSE(JsonAt(json, {"a", "s", "deeper"}).has_value());
  CHECK_FALSE(JsonAt(R"({"a": [1, 2)", {"b"}).has_value());  // malformed before the key
}

TEST_CASE("summary fields: ISO UTC times as microseconds since 1970", "[dataset]") {
  CHECK(IsoUtcMicros("1970-01-01T00:00:00Z") == 0);
  CHECK(IsoUtcMicros("2020-11-25T00:16:23.949248Z") == 1606263383949248);
  CHECK(IsoUtcMicros("2020-11-25T00:16:23.9492481Z") == 1606263383949248);  // past µs: dropped
  CHECK(IsoUtcMicros("2020-11-25T00:16:23.9Z") == 1606263383900000);
  CHECK(IsoUtcMicros("1969-12-31T23:59:59.5Z") == -500000);
  CHECK_FALSE(IsoUtcMicros("2020-11-25 00:16:23Z").has_value());
  CHECK_FALSE(IsoUtcMicros("2020-13-25T00:16:23Z").has_value());
  CHECK_FALSE(IsoUtcMicros("2020-11-25T00:16:23.Z").has_value());
}

TEST_CASE("traces table: a corpus trace's row agrees with its session", "[dataset][corpus]") {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath("only_managed_samples.nettrace"));
  const test::RunResult run = test::RunTrace(bytes, 1 << 20);
  REQUIRE(run.status.ok());
  const TraceRow r = TraceRowFromSummary(run.summary, "id", "only_managed_samples.nettrace", int64_t(bytes.size()));
  CHECK(r.format == "NetTrace FastSerialization");
  CHECK(r.formatMajor == 4);
  CHECK(r.complete);
  CHECK_FALSE(r.errorCode.has_value());
  CHECK(r.processId == 60178);
  CHECK(r.pointerSize == 8);
  CHECK(r.eventCount == int64_t(run.events));
  CHECK(r.bytesRead == int64_t(bytes.size()));
  // Summary timeRange: first 263861290714941, last 263871762288393 ticks at 1 GHz.
  CHECK(r.durationNs == 263871762288393 - 263861290714941);
  CHECK(r.startUtcUs == IsoUtcMicros("2020-11-25T00:16:23.949248Z"));
  CHECK(r.syncTimeUtcUs == IsoUtcMicros("2020-11-25T00:16:23.949000Z"));
}

TEST_CASE("traces table: a truncated trace keeps its error's code, offset and message", "[dataset][corpus]") {
  const std::vector<uint8_t> bytes =
      test::ReadFile(test::DataPath("truncated/dotnet-trace-netcore3.0-preview-truncated.nettrace"));
  const test::RunResult run = test::RunTrace(bytes, 1 << 20);
  const TraceRow r = TraceRowFromSummary(run.summary, "id", "t.nettrace", int64_t(bytes.size()));
  CHECK_FALSE(r.complete);
  CHECK(r.errorCode == "truncated");
  CHECK(r.errorOffset == 4170673);
  REQUIRE(r.errorMessage.has_value());
  CHECK(r.errorMessage->find("ends inside a block") != std::string::npos);
}

}  // namespace
}  // namespace nettrace::dataset
