// core/heap — the facade of a heap snapshot, driven the same way by the CLI, the Catch2
// tests and the wasm bindings: bytes of a .gcdump or of a .nettrace holding heap-dump
// events go in as chunks (the kind is told from the first bytes, never from a name),
// Finish() builds the graph, Analyze() computes the views' data, and the views come out
// as JSON. A fatal input error keeps what was read before it: a graph, if its arrays were
// complete, stays explorable with the error beside it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "heap/heap_analysis.h"
#include "heap/heap_graph.h"
#include "heap/heap_report.h"

namespace nettrace::heap {

class HeapSession {
 public:
  HeapSession();
  ~HeapSession();
  HeapSession(const HeapSession&) = delete;
  HeapSession& operator=(const HeapSession&) = delete;

  /// The file's size, when known: lets the reader allocate its arrays once.
  void SetFileSize(uint64_t size);
  /// @returns the first fatal error (again on later calls), or Ok.
  Status PushChunk(const uint8_t* data, size_t size);
  /// End of input: builds the graph. @returns the reading error, if any.
  Status Finish();
  /// The analyses (spanning tree, dominators, paths); phase names progress.
  void Analyze(const std::function<void(const char*)>& phase = nullptr);

  const Status& status() const { return status_; }
  bool hasGraph() const { return hasGraph_; }
  bool analyzed() const { return analysis_ != nullptr; }
  const HeapGraph& graph() const { return graph_; }
  const HeapAnalysis& analysis() const { return *analysis_; }
  Snapshot snapshot() const { return Snapshot{graph_, *analysis_}; }
  uint64_t bytesReceived() const { return received_; }
  /// "gcdump", "nettrace" or "" while the first bytes are not in.
  const char* kind() const;

  /// {kind, bytesReceived, error: {code, offset, message} | null, graph: bool, memory: {…}}.
  std::string StatusJson() const;

  // A reader of one file kind (heap_session.cc).
  class Source;

 private:
  Status Detect();

  std::unique_ptr<Source> source_;
  std::string head_;  // the first bytes, until the kind is known
  uint64_t fileSize_ = 0, received_ = 0;
  Status status_;
  HeapGraph graph_;
  bool hasGraph_ = false, finished_ = false;
  std::unique_ptr<HeapAnalysis> analysis_;
};

}  // namespace nettrace::heap
