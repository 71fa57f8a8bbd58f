// core/format — hands every record to two sinks in turn (the summary and the store
// builder both follow the same stream). The first error stops the pair.
#pragma once

#include "format/record_sink.h"

namespace nettrace {

class TeeSink final : public RecordSink {
 public:
  TeeSink(RecordSink* a, RecordSink* b) : a_(a), b_(b) {}
  Status OnTraceInfo(const TraceInfo& v) override { return Both([&](RecordSink* s) { return s->OnTraceInfo(v); }); }
  Status OnBlock(const BlockInfo& v) override { return Both([&](RecordSink* s) { return s->OnBlock(v); }); }
  Status OnMetadata(const EventMetadata& v) override { return Both([&](RecordSink* s) { return s->OnMetadata(v); }); }
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override {
    return Both([&](RecordSink* s) { return s->OnStack(id, ips); });
  }
  Status OnThread(const ThreadInfo& v) override { return Both([&](RecordSink* s) { return s->OnThread(v); }); }
  Status OnRemoveThread(const ThreadSequence& v) override {
    return Both([&](RecordSink* s) { return s->OnRemoveThread(v); });
  }
  Status OnLabelList(uint32_t id, const LabelList& v) override {
    return Both([&](RecordSink* s) { return s->OnLabelList(id, v); });
  }
  Status OnEvent(const EventRecord& v) override { return Both([&](RecordSink* s) { return s->OnEvent(v); }); }
  Status OnSequencePoint(const SequencePoint& v) override {
    return Both([&](RecordSink* s) { return s->OnSequencePoint(v); });
  }
  Status OnEndOfStream() override { return Both([&](RecordSink* s) { return s->OnEndOfStream(); }); }

 private:
  template <typename F>
  Status Both(F&& f) {
    NETTRACE_RETURN_IF_ERROR(f(a_));
    return f(b_);
  }
  RecordSink* a_;
  RecordSink* b_;
};

}  // namespace nettrace
