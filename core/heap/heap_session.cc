#include "heap/heap_session.h"

#include <cstring>

#include "base/json_writer.h"
#include "format/trace_reader.h"
#include "heap/gcdump_reader.h"
#include "heap/heap_dump_events.h"

namespace nettrace::heap {

namespace {

// Enough to tell the kinds apart: "Nettrace" opens every .nettrace; a .gcdump is a
// FastSerialization stream whose first object is a GCHeapDump (a NetPerf file is one too,
// of another object: docs/format/gcdump.md §Telling the files apart).
constexpr size_t kHeadBytes = 64;
constexpr char kNettraceMagic[] = "Nettrace";
constexpr char kGcdumpType[] = "GCHeapDump";

}  // namespace

class HeapSession::Source {
 public:
  virtual ~Source() = default;
  virtual Status Push(const uint8_t* data, size_t size) = 0;
  virtual Status Finish(HeapGraph* graph, bool* hasGraph) = 0;
  virtual const char* kind() const = 0;
};

namespace {

class GcdumpSource : public HeapSession::Source {
 public:
  GcdumpSource(HeapGraph* graph, uint64_t fileSize) : reader_(graph) { reader_.SetFileSize(fileSize); }
  Status Push(const uint8_t* data, size_t size) override { return reader_.Push(data, size); }
  Status Finish(HeapGraph* graph, bool* hasGraph) override {
    Status s = reader_.Finish();
    *hasGraph = graph->firstChild.size() == size_t{graph->nodeType.size()} + 1 && !graph->nodeType.empty();
    return s;
  }
  const char* kind() const override { return "gcdump"; }

 private:
  GcdumpReader reader_;
};

class NettraceSource : public HeapSession::Source {
 public:
  NettraceSource() : reader_(&events_) {}
  Status Push(const uint8_t* data, size_t size) override { return reader_.Push(data, size); }
  Status Finish(HeapGraph* graph, bool* hasGraph) override {
    Status read = reader_.Finish();
    Status converted = events_.Convert(graph);
    *hasGraph = converted.ok();
    return read.ok() ? converted : read;
  }
  const char* kind() const override { return "nettrace"; }

 private:
  HeapDumpEvents events_;
  TraceReader reader_;
};

}  // namespace

HeapSession::HeapSession() = default;
HeapSession::~HeapSession() = default;

void HeapSession::SetFileSize(uint64_t size) { fileSize_ = size; }

const char* HeapSession::kind() const { return source_ ? source_->kind() : ""; }

Status HeapSession::Detect() {
  if (head_.size() >= 8 && std::memcmp(head_.data(), kNettraceMagic, 8) == 0) {
    source_ = std::make_unique<NettraceSource>();
  } else if (head_.find(kGcdumpType) != std::string::npos) {
    source_ = std::make_unique<GcdumpSource>(&graph_, fileSize_);
  } else {
    return Status::Error(ErrorCode::kBadMagic, 0, "neither a .gcdump nor a .nettrace (no heap snapshot here)");
  }
  std::string head;
  head.swap(head_);
  return source_->Push(reinterpret_cast<const uint8_t*>(head.data()), head.size());
}

Status HeapSession::PushChunk(const uint8_t* data, size_t size) {
  if (!status_.ok() || finished_) return status_;
  received_ += size;
  if (!source_) {
    const size_t take = std::min(size, kHeadBytes - head_.size());
    head_.append(reinterpret_cast<const char*>(data), take);
    data += take, size -= take;
    if (head_.size() < kHeadBytes) return status_;
    status_ = Detect();
    if (!status_.ok()) return status_;
  }
  if (size > 0) status_ = source_->Push(data, size);
  return status_;
}

Status HeapSession::Finish() {
  if (finished_) return status_;
  finished_ = true;
  if (!source_ && status_.ok()) {
    status_ = head_.empty() ? Status::Error(ErrorCode::kTruncated, 0, "the file is empty") : Detect();
  }
  if (!source_) return status_;
  Status s = source_->Finish(&graph_, &hasGraph_);
  if (status_.ok()) status_ = std::move(s);
  if (hasGraph_) {
    Status check = graph_.Check();
    if (!check.ok()) {
      hasGraph_ = false;
      if (status_.ok()) status_ = check;
    }
  }
  // What only the whole file shows (no heap dump in the trace, references the objects do not
  // claim, a broken graph) is found after its last byte: the error points at the file's end.
  if (!status_.ok() && status_.offset() == kNoOffset) {
    status_ = Status::Error(status_.code(), received_, status_.message());
  }
  return status_;
}

void HeapSession::Analyze(const std::function<void(const char*)>& phase) {
  if (!hasGraph_ || analysis_) return;
  analysis_ = std::make_unique<HeapAnalysis>(HeapAnalysis::Run(graph_, phase));
}

std::string HeapSession::StatusJson() const {
  JsonWriter w;
  w.BeginObject().Key("kind").String(kind()).Key("bytesReceived").UInt(received_).Key("error");
  if (status_.ok()) {
    w.Null();
  } else {
    w.BeginObject().Key("code").String(ErrorCodeName(status_.code()));
    if (status_.offset() == kNoOffset) w.Key("offset").Null();
    else w.Key("offset").UInt(status_.offset());
    w.Key("message").String(status_.message()).EndObject();
  }
  w.Key("graph").Bool(hasGraph_).Key("analyzed").Bool(analyzed());
  if (hasGraph_) {
    const uint64_t graphBytes = graph_.MemoryBytes();
    const uint64_t analysisBytes = analysis_ ? analysis_->MemoryBytes() : 0;
    w.Key("memory").BeginObject().Key("graphBytes").UInt(graphBytes).Key("analysisBytes").UInt(analysisBytes);
    w.Key("nodes").UInt(graph_.nodeCount()).Key("edges").UInt(graph_.edgeCount()).EndObject();
  }
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace::heap
