// Every real trace converted to NetTrace v6 and read back gives the same events: same
// types and counts, same times, threads, stacks, activity ids, processors, sequence
// numbers and payload bytes. This exercises the v6 writer and reader on real data.
#include <catch2/catch.hpp>

#include "analysis/event_query.h"
#include "convert/v6_converter.h"
#include "format/trace_reader.h"
#include "test_support.h"

using namespace nettrace;

namespace {

std::vector<uint8_t> Convert(const std::vector<uint8_t>& in, V6Converter::Options options = {}) {
  std::vector<uint8_t> out;
  V6Converter converter(
      [&](std::span<const uint8_t> b) {
        out.insert(out.end(), b.begin(), b.end());
        return Status::Ok();
      },
      options);
  TraceReader reader(&converter);
  REQUIRE(reader.Push(in.data(), in.size()).ok());
  REQUIRE(reader.Finish().ok());
  return out;
}

struct Loaded {
  TraceSession session;
  std::vector<uint32_t> rows;
};

// Opens a trace and provides every block, so each event's JSON carries its details.
void Load(const std::vector<uint8_t>& bytes, Loaded* l) {
  REQUIRE(l->session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(l->session.Finish().ok());
  EventQuery q;
  q.limit = UINT64_MAX;
  l->rows = l->session.QueryEvents(q, nullptr);
  for (const ByteRange& r : l->session.BlocksNeeded(l->rows)) {
    l->session.ProvideBlock(r.offset, bytes.data() + r.offset, r.size);
  }
}

// The one field that must differ: where the payload lies in each file.
std::string WithoutOffsets(std::string json) {
  const std::string key = "\"payloadOffset\":";
  size_t at = json.find(key);
  if (at != std::string::npos) json.erase(at, json.find(',', at) + 1 - at);
  return json;
}

}  // namespace

TEST_CASE("corpus traces converted to v6 read back event for event", "[convert][v6][corpus]") {
  for (const auto& name : test::CorpusTraces()) {
    INFO(name);
    auto original = test::ReadFile(test::DataPath(name));
    auto converted = Convert(original);
    Loaded a, b;
    Load(original, &a);
    Load(converted, &b);
    CHECK(a.session.TraceEventCounts() == b.session.TraceEventCounts());
    REQUIRE(a.rows.size() == b.rows.size());
    // The block cache holds 64 blocks: compare in windows that fit it.
    for (size_t i = 0; i < a.rows.size(); ++i) {
      if (i % 2000 == 0) {
        std::vector<uint32_t> window(a.rows.begin() + i, a.rows.begin() + std::min(a.rows.size(), i + 2000));
        for (const ByteRange& r : a.session.BlocksNeeded(window)) a.session.ProvideBlock(r.offset, original.data() + r.offset, r.size);
        for (const ByteRange& r : b.session.BlocksNeeded(window)) b.session.ProvideBlock(r.offset, converted.data() + r.offset, r.size);
      }
      std::string ea = WithoutOffsets(a.session.EventJson(a.rows[i]));
      std::string eb = WithoutOffsets(b.session.EventJson(b.rows[i]));
      if (ea != eb) {
        INFO("event " << i);
        REQUIRE(ea == eb);
      }
    }
  }
}

TEST_CASE("trimming keeps a time window without inventing dropped events", "[convert][v6]") {
  auto original = test::ReadFile(test::DataPath("only_managed_samples.nettrace"));
  V6Converter::Options window;
  window.fromMs = 2000;
  window.toMs = 4000;
  auto trimmed = Convert(original, window);
  Loaded all, cut;
  Load(original, &all);
  Load(trimmed, &cut);
  EventQuery q;
  q.fromMs = 2000;
  q.toMs = 4000;
  uint64_t inWindow = 0;
  all.session.QueryEvents(q, &inWindow);
  REQUIRE(inWindow > 1000);
  CHECK(cut.rows.size() == inWindow);
  CHECK(cut.session.SummaryJson().find("\"dropped\":{\"events\":0,") != std::string::npos);
  CHECK(trimmed.size() < original.size() / 2);
}
