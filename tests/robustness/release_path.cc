#include "release_path.h"

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/query/event_query.h"
#include "base/status.h"
#include "heap/heap_session.h"
#include "trace_session.h"

namespace nettrace::robustness {
namespace {

constexpr uint64_t kChunk = 1 << 20;  // the CLI's default --chunk-size

void SetError(const Status& s, ChildResult* r) {
  r->errorCode = static_cast<uint8_t>(s.code());
  r->errorOffset = s.offset();
  const std::string text = s.ToString();
  std::strncpy(r->message, text.c_str(), sizeof r->message - 1);
}

}  // namespace

ChildResult RunReleasePath(const MutatedFile& file) {
  const auto start = std::chrono::steady_clock::now();
  ChildResult r;
  TraceSession session;
  std::vector<uint8_t> buffer;
  Status status;
  for (uint64_t at = 0;; at += kChunk) {
    if (!file.Read(at, kChunk, &buffer)) {
      SetError(Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "the study could not read its input"), &r);
      return r;
    }
    if (!buffer.empty() && !(status = session.PushChunk(buffer.data(), buffer.size())).ok()) break;
    if (buffer.size() < kChunk) {
      status = session.Finish();
      break;
    }
  }
  r.complete = status.ok();
  if (!status.ok()) SetError(status, &r);
  r.events = session.eventCount();

  // The outputs are sized so the work cannot be optimised away.
  volatile size_t sink = session.SummaryJson().size();
  std::vector<uint32_t> rows = session.QueryEvents(EventQuery{}, nullptr);
  for (const ByteRange& range : session.BlocksNeeded(rows)) {
    if (file.Read(range.offset, range.size, &buffer) && buffer.size() == range.size)
      session.ProvideBlock(range.offset, buffer.data(), buffer.size());
  }
  for (uint32_t row : rows) sink = sink + session.EventJson(row).size();
  sink = sink + session.FlameGraphJson(StackQuery{}).size();
  (void)sink;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

ChildResult RunHeapPath(const MutatedFile& file) {
  const auto start = std::chrono::steady_clock::now();
  ChildResult r;
  heap::HeapSession session;
  std::vector<uint8_t> buffer;
  Status status;
  for (uint64_t at = 0;; at += kChunk) {
    if (!file.Read(at, kChunk, &buffer)) {
      SetError(Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "the study could not read its input"), &r);
      return r;
    }
    if (!buffer.empty() && !(status = session.PushChunk(buffer.data(), buffer.size())).ok()) break;
    if (buffer.size() < kChunk) break;
  }
  status = session.Finish();  // the first error again, or the end of the read
  r.complete = status.ok();
  if (!status.ok()) SetError(status, &r);
  if (session.hasGraph()) {
    r.events = session.graph().nodeCount();
    session.Analyze();
    heap::HeapQuery query;
    query.pathsTo = "System";
    volatile size_t sink = heap::HeapJson(session.snapshot(), query).size();
    (void)sink;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace nettrace::robustness
