// core/format — the top-level reader: owns the chunk queue, detects the container format
// from the first bytes (format/trace_type.h) and runs the matching tokenizer
// (FastSerialization NetPerf v3 and NetTrace v4/v5, or v6 blocks), which calls the sink
// in file order.
// Streaming: Push() any number of bytes at a time; at most one block plus the current
// chunk is held. After an error nothing more is read; what the sink got stays valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/stats.h"
#include "base/status.h"
#include "format/records.h"
#include "format/record_sink.h"

namespace nettrace {

class TraceReader {
 public:
  /// stats: where survivable anomalies are counted (nullptr: an internal counter set).
  explicit TraceReader(RecordSink* sink, Stats* stats = nullptr);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  /// Appends bytes and decodes every complete block they finish.
  /// @returns the first fatal error (again on later calls), else Ok.
  Status Push(const uint8_t* data, size_t size);
  /// NetPerf versions 1 and 2 say where their events end only in the file's last bytes:
  /// after the Push that read their header, tailWanted() is how many bytes from the end of
  /// the file the reader needs (0: none); the caller reads them (one range read: a seek, a
  /// Blob.slice) and hands them over with the file's size before pushing on.
  size_t tailWanted() const;
  /// tail: the file's bytes [fileSize - size, fileSize) (size = min(tailWanted(), fileSize)).
  Status ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize);
  /// End of input: an error unless the stream's end marker was read.
  Status Finish();

  const Status& status() const { return status_; }
  /// Bytes fully decoded (the offset of the next unread block).
  uint64_t bytesConsumed() const;
  uint64_t bytesReceived() const;
  /// True once the end-of-stream marker was decoded.
  bool complete() const;
  /// Bytes buffered now (chunks not yet decoded): bounded by one block plus a chunk.
  size_t residentBytes() const;
  const TraceInfo& traceInfo() const;
  /// 3 (NetPerf), 4, 5 (v4 container with V5 metadata tags) or 6+; 0 before the header is read.
  uint32_t formatMajor() const;

 private:
  class Impl;
  std::unique_ptr<Stats> ownStats_;
  std::unique_ptr<Impl> impl_;
  Status status_;
};

}  // namespace nettrace
