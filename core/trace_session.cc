#include "trace_session.h"

#include "analysis/summary.h"
#include "base/stats.h"
#include "format/trace_reader.h"

namespace nettrace {

// The session's pipeline: TraceReader (chunks → blocks → records, with reference checks)
// feeding the SummaryBuilder. Later stages (sorter, event store) attach here.
struct TraceSession::Pipeline {
  Stats stats;
  SummaryBuilder summary{&stats};
  TraceReader reader{&summary, &stats};
};

TraceSession::TraceSession() : pipeline_(std::make_unique<Pipeline>()) {}
TraceSession::~TraceSession() = default;

Status TraceSession::PushChunk(const uint8_t* data, size_t size) { return pipeline_->reader.Push(data, size); }

Status TraceSession::Finish() { return pipeline_->reader.Finish(); }

const Status& TraceSession::status() const { return pipeline_->reader.status(); }
uint64_t TraceSession::bytesConsumed() const { return pipeline_->reader.bytesConsumed(); }
uint64_t TraceSession::eventCount() const { return pipeline_->summary.eventCount(); }

std::string TraceSession::SummaryJson() const {
  SummaryBuilder::ReaderState state;
  state.formatMajor = pipeline_->reader.formatMajor();
  state.complete = pipeline_->reader.complete();
  state.bytesRead = pipeline_->reader.bytesConsumed();
  state.error = pipeline_->reader.status();
  return pipeline_->summary.ToJson(state);
}

std::string TraceSession::TraceEventCounts() const { return pipeline_->summary.TraceEventCounts(); }

}  // namespace nettrace
