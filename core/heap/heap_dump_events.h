// core/heap — a heap snapshot from the GC heap-dump events of a trace (a session with the
// runtime's GCHeapDump | GCHeapCollect | Type | GC keywords, as dotnet-gcdump opens one):
// a RecordSink behind the trace reader that keeps the GCBulk* payloads of the first
// induced, non-concurrent gen-2 GC that walked the heap, then converts them to a graph the
// way PerfView's DotNetHeapDumpGraphReader (also dotnet-gcdump's) does, so the graph
// equals `dotnet-gcdump convert`'s node for node (docs/format/gcdump.md §Heap-dump events).
//
// Like that reader it keeps the bulk payloads until the trace has been read (types need
// module names from rundown at the trace's end): memory is the payload bytes of the one
// dump (32 bytes per object, 8–12 per reference), plus the graph being built.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/record_sink.h"
#include "heap/graph_builder.h"
#include "heap/heap_graph.h"

namespace nettrace::heap {

class HeapDumpEvents : public RecordSink {
 public:
  HeapDumpEvents();
  ~HeapDumpEvents() override;

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnMetadata(const EventMetadata& metadata) override;
  Status OnEvent(const EventRecord& event) override;

  /// After the whole trace: the graph, or why there is none (no heap dump in the trace, a
  /// dump without its end, too few references for the objects' edge counts).
  Status Convert(HeapGraph* out);
  uint64_t MemoryBytes() const;

 private:
  enum class Kind : uint8_t;
  struct Block {
    uint64_t fileOffset;  // of the payload, for errors
    size_t at;            // in the byte store
    uint32_t count;
  };
  struct BlockStore {
    std::vector<uint8_t> bytes;
    std::vector<Block> blocks;
    void Add(const EventRecord& e, size_t skip, uint32_t count);
  };
  class EdgeReader;

  Status OnRootEdges(const EventRecord& e);
  Status OnDependentHandles(const EventRecord& e);
  Status OnRcws(const EventRecord& e);
  Status OnModule(const EventRecord& e);
  Status OnGcStart(const EventRecord& e, uint32_t version);
  Status OnGcStop(const EventRecord& e);
  Status ConvertTypes();
  Status ConvertCcws();
  Status ConvertStaticVars();
  Status ConvertNodes();
  TypeIndex GetTypeIndex(uint64_t typeId, int32_t objectSize);

  std::unordered_map<uint32_t, std::pair<Kind, uint32_t>> kinds_;  // metadata id → kind, version
  uint32_t pointerSize_ = 8;
  int64_t processId_ = -1;
  // DotNetHeapDumpGraphReader's state: which GC is the dump, and whether events count now.
  bool processSeen_ = false, seenStart_ = false, ignoreEvents_ = true;
  int64_t gcNumber_ = -1;
  BlockStore types_, nodes_, edges_, staticVars_, ccws_;
  std::unordered_map<uint64_t, std::string> moduleNames_;
  std::unordered_map<uint64_t, uint64_t> rcwUnknown_;  // object → its COM IUnknown
  std::unordered_map<uint64_t, TypeIndex> typeIndex_;
  std::unordered_map<std::string, TypeIndex> sizedTypes_;  // "name (Bytes > 1K)" → type
  GraphBuilder builder_;
  std::unique_ptr<GraphBuilder::Pseudo> root_;
  HeapInfo info_;
};

}  // namespace nettrace::heap
