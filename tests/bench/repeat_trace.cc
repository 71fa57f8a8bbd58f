// A NetTrace v4/v5 trace written again N times back to back, for the benchmark's
// sample-heavy trace (only_managed_samples repeated about 20 times): the
// same metadata (written once), stacks and events; each repetition's timestamps follow the
// previous one's, every capture thread's sequence numbers continue, and a sequence point
// ends each repetition so that the next one may define its stack ids again.
#include "repeat_trace.h"

#include <cstdio>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "format/record_sink.h"
#include "format/trace_reader.h"
#include "write/nettrace_v5_writer.h"

using namespace nettrace;

namespace {

// What lies between two sequence points of the input.
struct Segment {
  std::vector<EventMetadata> metadata;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> stacks;
  std::vector<EventRecord> events;  // payloads point into Collector::payloads
  bool endsWithSequencePoint = false;
  uint64_t endTimestamp = 0;  // that sequence point's
};

class Collector final : public RecordSink {
 public:
  Status OnTraceInfo(const TraceInfo& i) override {
    info = i;
    return Status::Ok();
  }
  Status OnMetadata(const EventMetadata& m) override {
    segments.back().metadata.push_back(m);
    return Status::Ok();
  }
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override {
    segments.back().stacks.emplace_back(id, std::vector<uint8_t>(ips.begin(), ips.end()));
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    const std::vector<uint8_t>& bytes = payloads.emplace_back(e.payload.begin(), e.payload.end());
    EventRecord copy = e;
    copy.payload = bytes;
    segments.back().events.push_back(copy);
    first = std::min(first, e.timestamp), last = std::max(last, e.timestamp);
    return Status::Ok();
  }
  Status OnSequencePoint(const SequencePoint& sp) override {
    segments.back().endsWithSequencePoint = true;
    segments.back().endTimestamp = sp.timestamp;
    segments.emplace_back();
    return Status::Ok();
  }

  TraceInfo info;
  std::vector<Segment> segments = std::vector<Segment>(1);
  std::deque<std::vector<uint8_t>> payloads;
  uint64_t first = UINT64_MAX, last = 0;
};

// One repetition's segment: its stacks in runs of consecutive ids, its events shifted.
Status WriteSegment(NetTraceV5Writer& w, const Segment& seg, uint64_t shift, std::map<uint64_t, uint32_t>* sequence) {
  Status s = Status::Ok();
  for (size_t i = 0; i < seg.stacks.size() && s.ok();) {
    std::vector<std::vector<uint8_t>> run{seg.stacks[i].second};
    size_t j = i + 1;
    for (; j < seg.stacks.size() && seg.stacks[j].first == seg.stacks[j - 1].first + 1; ++j) run.push_back(seg.stacks[j].second);
    s = w.WriteStackBlock(seg.stacks[i].first, run);
    i = j;
  }
  std::vector<EventRecord> events = seg.events;
  for (EventRecord& e : events) e.timestamp += shift, e.sequenceNumber = ++(*sequence)[e.captureThread];
  if (s.ok() && !events.empty()) s = w.WriteEvents(events, /*compressed=*/true);
  return s;
}

}  // namespace

bool ReadWholeFile(const char* path, std::vector<uint8_t>* out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return std::perror(path), false;
  std::vector<uint8_t> buf(1 << 20);
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), f)) > 0;) out->insert(out->end(), buf.begin(), buf.begin() + n);
  std::fclose(f);
  return true;
}

int RepeatTrace(const char* in, const char* out, int times) {
  std::vector<uint8_t> bytes;
  if (!ReadWholeFile(in, &bytes)) return 1;
  Collector c;
  TraceReader reader(&c);
  Status s = reader.Push(bytes.data(), bytes.size());
  if (s.ok()) s = reader.Finish();
  if (!s.ok()) return std::fprintf(stderr, "read error: %s\n", s.ToString().c_str()), 1;
  if (c.info.formatMajor < 4 || c.info.formatMajor > 5 || c.first > c.last)
    return std::fprintf(stderr, "repeat: a NetTrace v4/v5 trace with events is needed\n"), 1;
  NetTraceV5Writer w(c.info.formatMajor == 4 ? NetTraceV5Writer::Version::kV4 : NetTraceV5Writer::Version::kV5);
  s = w.WriteTraceObject(c.info);
  const uint64_t span = c.last - c.first + 1;
  std::map<uint64_t, uint32_t> sequence;  // capture thread → last sequence number written
  for (int rep = 0; rep < times && s.ok(); ++rep) {
    for (size_t k = 0; k < c.segments.size() && s.ok(); ++k) {
      const Segment& seg = c.segments[k];
      if (rep == 0 && !seg.metadata.empty()) s = w.WriteMetadataBlock(seg.metadata);
      if (s.ok()) s = WriteSegment(w, seg, span * static_cast<uint64_t>(rep), &sequence);
      if (!s.ok() || (!seg.endsWithSequencePoint && k + 1 < c.segments.size())) continue;
      if (k + 1 == c.segments.size() && rep + 1 == times) break;  // the end of the stream follows
      SequencePoint sp;
      sp.timestamp = (seg.endsWithSequencePoint ? seg.endTimestamp : c.last) + span * static_cast<uint64_t>(rep);
      for (const auto& [thread, number] : sequence) sp.threads.push_back({thread, number});
      s = w.WriteSequencePointBlock(sp);
    }
  }
  if (s.ok()) s = w.WriteEndOfStream();
  if (!s.ok()) return std::fprintf(stderr, "write error: %s\n", s.ToString().c_str()), 1;
  const std::vector<uint8_t> written = w.TakeBytes();
  FILE* f = std::fopen(out, "wb");
  if (!f || std::fwrite(written.data(), 1, written.size(), f) != written.size()) return std::perror(out), 1;
  std::fclose(f);
  return 0;
}
