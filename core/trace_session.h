// The engine facade: the one object the native CLI, the Catch2 end-to-end tests and the
// wasm bindings all drive. Bytes go in as chunks of any size (PushChunk), then Finish();
// results come out as small JSON documents. After a fatal input error the session keeps
// everything read before the fault: SummaryJson() still answers, with "error" set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"

namespace nettrace {


class TraceSession {
 public:
  TraceSession();
  ~TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  /// Feeds the next bytes of the file. The data is copied as needed; the caller may reuse
  /// its buffer after the call.
  /// @returns the first fatal error (the same one again on later calls), or Ok.
  Status PushChunk(const uint8_t* data, size_t size);

  /// Declares the end of input. @returns an error when the stream ended early.
  Status Finish();

  /// First fatal error so far (Ok when none).
  const Status& status() const;
  uint64_t bytesConsumed() const;
  uint64_t eventCount() const;

  /// The trace summary as one JSON object (see README "Summary JSON").
  std::string SummaryJson() const;

  /// Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines, ordinal
  /// order), after removing the events TraceEvent's TraceLog treats as bookkeeping.
  std::string TraceEventCounts() const;

 private:
  struct Pipeline;
  std::unique_ptr<Pipeline> pipeline_;
};

}  // namespace nettrace
