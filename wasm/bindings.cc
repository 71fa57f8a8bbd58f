// wasm/ — the embind surface of the engine facade (core/trace_session.h). Conversions only:
// no parsing, no policy. Every function here is a one-line forward to TraceSession, so that
// replacing embind with extern "C" later is a change to this folder alone.
//
// Bytes cross once: JS copies a chunk into a wasm-heap buffer it allocated with _malloc
// (M.HEAPU8.set) and passes (pointer, length). The pointer is a uintptr_t: embind carries
// it as an unsigned Number, so buffers above 2 GiB round-trip.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "base/status.h"
#include "trace_session.h"

namespace {

using emscripten::val;
using nettrace::Status;
using nettrace::TraceSession;

// Status → {ok, code, offset, message}; offset is a Number, or null when the error is not
// about a position (kNoOffset). File offsets stay below 2^53, so a double is exact.
val StatusToJs(const Status& status) {
  val out = val::object();
  out.set("ok", status.ok());
  out.set("code", std::string(nettrace::ErrorCodeName(status.code())));
  if (status.offset() == nettrace::kNoOffset) {
    out.set("offset", val::null());
  } else {
    out.set("offset", static_cast<double>(status.offset()));
  }
  out.set("message", status.message());
  return out;
}

val PushChunk(TraceSession& session, std::uintptr_t data, std::size_t size) {
  return StatusToJs(session.PushChunk(reinterpret_cast<const uint8_t*>(data), size));
}
val Finish(TraceSession& session) { return StatusToJs(session.Finish()); }
val GetStatus(const TraceSession& session) { return StatusToJs(session.status()); }
std::string SummaryJson(const TraceSession& session) { return session.SummaryJson(); }
std::string TraceEventCounts(const TraceSession& session) { return session.TraceEventCounts(); }
// Counters as Numbers (exact below 2^53) rather than BigInt: they feed progress bars.
double BytesConsumed(const TraceSession& session) { return static_cast<double>(session.bytesConsumed()); }
double EventCount(const TraceSession& session) { return static_cast<double>(session.eventCount()); }

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace) {
  emscripten::class_<TraceSession>("TraceSession")
      .constructor<>()
      .function("pushChunk", &PushChunk)
      .function("finish", &Finish)
      .function("status", &GetStatus)
      .function("summaryJson", &SummaryJson)
      .function("traceEventCounts", &TraceEventCounts)
      .function("bytesConsumed", &BytesConsumed)
      .function("eventCount", &EventCount);
}
