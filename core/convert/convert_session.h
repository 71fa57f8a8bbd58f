// core/convert — the conversion facade: the one object the native CLI (`nettrace convert`)
// and the wasm bindings (the npm package's convertTrace and its CLI) drive, as TraceSession
// is for reading. Bytes of any trace the reader understands go in as chunks; NetTrace v6
// bytes come out as they are produced (TakeOutput after each push keeps memory bounded by
// one block). A damaged or truncated input still yields every event read before the fault,
// as whole v6 blocks without the end marker, so the output reads as incomplete, as the
// input does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/status.h"
#include "convert/v6_converter.h"

namespace nettrace {

class TraceReader;

class ConvertSession {
 public:
  explicit ConvertSession(V6Converter::Options options = {});
  ~ConvertSession();
  ConvertSession(const ConvertSession&) = delete;
  ConvertSession& operator=(const ConvertSession&) = delete;

  /// Decodes the next bytes of the input and converts what they complete.
  /// @returns the first fatal error (again on later calls), or Ok.
  Status PushChunk(const uint8_t* data, size_t size);
  /// NetPerf v1/v2: the end of the file first (as TraceSession::TailWanted/ProvideTail).
  size_t TailWanted() const;
  Status ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize);
  /// End of input (or the caller's stop after an error): the end marker is written, or, when
  /// the input failed, every record read before the fault is flushed (flushStatus() says
  /// whether that worked). @returns the input's error, if any.
  Status Finish();
  /// The v6 bytes produced since the last call (moved out).
  std::vector<uint8_t> TakeOutput();

  const Status& status() const { return status_; }
  const Status& flushStatus() const { return flushStatus_; }
  uint64_t eventsWritten() const { return converter_.eventsWritten(); }

 private:
  std::vector<uint8_t> output_;
  V6Converter converter_;
  std::unique_ptr<TraceReader> reader_;
  Status status_;
  Status flushStatus_;
  bool finished_ = false;
};

}  // namespace nettrace
