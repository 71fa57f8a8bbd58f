// Two valid traces of extreme shape (tests/shapes) read through the facade: a type nested
// deeper than the reader reads keeps the trace (its fields are cut), and events on threads
// beyond the event table's 65,535 are counted once each.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/query/event_query.h"
#include "shapes/extreme_shapes.h"
#include "trace_session.h"

using namespace nettrace;

namespace {

Status ReadWhole(const std::vector<uint8_t>& bytes, TraceSession* session) {
  Status status = session->PushChunk(bytes.data(), bytes.size());
  return status.ok() ? session->Finish() : status;
}

uint64_t Stat(const std::string& summary, const std::string& name) {
  const std::string key = "{\"name\":\"" + name + "\",\"value\":";
  const size_t at = summary.find(key);
  return at == std::string::npos ? 0 : std::stoull(summary.substr(at + key.size()));
}

}  // namespace

TEST_CASE("extreme shapes: a type nested 40 deep has its fields cut, the trace reads whole", "[format][metadata]") {
  std::vector<uint8_t> bytes;
  REQUIRE(shapes::WriteShape(shapes::Shape::kDeepNesting, 40, &bytes).ok());
  TraceSession session;
  const Status status = ReadWhole(bytes, &session);
  INFO(status.ToString());
  REQUIRE(status.ok());
  CHECK(session.eventCount() == 8);
  const std::string summary = session.SummaryJson();
  CHECK(Stat(summary, "metadataFieldsCut") == 1);
  // The ordinary type beside it still decodes its field.
  std::vector<uint32_t> rows = session.QueryEvents(EventQuery{}, nullptr);
  for (const ByteRange& r : session.BlocksNeeded(rows)) session.ProvideBlock(r.offset, bytes.data() + r.offset, r.size);
  CHECK(session.EventJson(1).find("\"fields\":[{\"name\":\"value\",\"value\":1}]") != std::string::npos);
  CHECK(session.EventJson(0).find("\"fields\":[]") != std::string::npos);
}

TEST_CASE("extreme shapes: tooManyThreads counts the events beyond the table once each", "[format]") {
  std::vector<uint8_t> bytes;
  REQUIRE(shapes::WriteShape(shapes::Shape::kManyThreads, 65'540, &bytes).ok());
  TraceSession session;
  REQUIRE(ReadWhole(bytes, &session).ok());
  // 65,540 threads with one event each; the table indexes 65,535 of them.
  CHECK(Stat(session.SummaryJson(), "tooManyThreads") == 5);
}
