#include <algorithm>
#include <cstdio>
#include <vector>

#include "analysis/event_query.h"
#include "analysis/view_format.h"
#include "events/trace_clock.h"
#include "export/export_stream.h"
#include "export/exports.h"

namespace nettrace {

namespace {

// The call stack of each event, in store order (0: no stack).
std::vector<uint32_t> EventCallStacks(const TraceModel& model, StackResolver* resolver) {
  const EventStore& store = model.store();
  std::vector<uint32_t> out(store.size());
  EventStore::RowCursor cursor(store);
  for (size_t row = 0; row < store.size(); ++row) out[row] = resolver->Resolve(store.stack(row), cursor.timestamp(row));
  return out;
}

// Frame names root first, ';' between them (the folded-stack convention), as a CSV field.
void AppendStackField(const StackResolver& resolver, uint32_t stack, std::string* out) {
  std::string text;
  for (uint32_t f : resolver.stacks().Frames(stack)) {
    if (!text.empty()) text += ';';
    text += resolver.frames().name(f);
  }
  AppendCsvField(text, out);
}

// The header, then one line per event in store order.
class EventsCsv : public ItemStream {
 public:
  EventsCsv(const TraceModel& model, StackResolver* resolver, bool stackText)
      : model_(model), resolver_(resolver), stackText_(stackText), stacks_(EventCallStacks(model, resolver)),
        cursor_(model.store()) {}

 protected:
  bool Step(std::string* out) override {
    if (!headerDone_) {
      *out += stackText_ ? "TimeMs,Provider,Event,ThreadId,StackId,Stack\n" : "TimeMs,Provider,Event,ThreadId,StackId\n";
      headerDone_ = true;
      return true;
    }
    const EventStore& store = model_.store();
    if (row_ >= store.size()) return false;
    const EventType& type = model_.types()[store.type(row_)];
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f,", TicksToMs(model_.info(), cursor_.timestamp(row_)));
    *out += buf;
    AppendCsvField(type.metadata.providerName, out);
    *out += ',';
    AppendCsvField(type.name, out);
    const ThreadEntry& t = model_.threads()[store.thread(row_)];
    *out += ',' + std::to_string(t.osThreadId.value_or(t.key)) + ',';
    if (stacks_[row_] != 0) *out += std::to_string(stacks_[row_]);
    if (stackText_) {
      *out += ',';
      AppendStackField(*resolver_, stacks_[row_], out);
    }
    *out += '\n';
    ++row_;
    return true;
  }

 private:
  const TraceModel& model_;
  StackResolver* resolver_;
  const bool stackText_;
  const std::vector<uint32_t> stacks_;
  EventStore::RowCursor cursor_;
  size_t row_ = 0;
  bool headerDone_ = false;
};

// The header, then one line per call stack some event has, ascending id.
class StacksCsv : public ItemStream {
 public:
  StacksCsv(const TraceModel& model, StackResolver* resolver) : resolver_(resolver) {
    used_ = EventCallStacks(model, resolver);
    std::sort(used_.begin(), used_.end());
    used_.erase(std::unique(used_.begin(), used_.end()), used_.end());
    if (!used_.empty() && used_.front() == 0) next_ = 1;
  }

 protected:
  bool Step(std::string* out) override {
    if (!headerDone_) {
      *out += "StackId,Depth,Stack\n";
      headerDone_ = true;
      return true;
    }
    if (next_ >= used_.size()) return false;
    const uint32_t stack = used_[next_++];
    *out += std::to_string(stack) + ',' + std::to_string(resolver_->stacks().Frames(stack).size()) + ',';
    AppendStackField(*resolver_, stack, out);
    *out += '\n';
    return true;
  }

 private:
  StackResolver* resolver_;
  std::vector<uint32_t> used_;
  size_t next_ = 0;
  bool headerDone_ = false;
};

}  // namespace

std::unique_ptr<ExportStream> EventsCsvStream(const TraceModel& model, StackResolver* resolver, bool stackText) {
  return std::make_unique<EventsCsv>(model, resolver, stackText);
}

std::unique_ptr<ExportStream> StacksCsvStream(const TraceModel& model, StackResolver* resolver) {
  return std::make_unique<StacksCsv>(model, resolver);
}

std::string ExportEventsCsv(const TraceModel& model, StackResolver* resolver, bool stackText) {
  return DrainExport(EventsCsvStream(model, resolver, stackText).get());
}

std::string ExportStacksCsv(const TraceModel& model, StackResolver* resolver) {
  return DrainExport(StacksCsvStream(model, resolver).get());
}

}  // namespace nettrace
