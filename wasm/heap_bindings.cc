// wasm/ — the embind surface of core/heap (heap/heap_session.h), for the JS API
// (web/src/api/heap.ts), the npm CLI's `heap` and the page's Heap tab. Conversions only: the
// reading, the analyses and the documents are core/heap's, as `nettrace heap` prints them
// (core/cli/heap_command.cc). Bytes cross as in bindings.cc: a (pointer, length) into the wasm
// heap that the JS side filled.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "base/status.h"
#include "heap/heap_report.h"
#include "heap/heap_session.h"

namespace {

using emscripten::val;
using nettrace::Status;
using nettrace::heap::HeapSession;

// Status → {ok, code, offset, message}, as bindings.cc's StatusToJs.
val StatusOf(const Status& s) {
  val out = val::object();
  out.set("ok", s.ok());
  out.set("code", std::string(nettrace::ErrorCodeName(s.code())));
  if (s.offset() == nettrace::kNoOffset) out.set("offset", val::null());
  else out.set("offset", static_cast<double>(s.offset()));
  out.set("message", s.message());
  return out;
}

void SetFileSize(HeapSession& h, double size) { h.SetFileSize(static_cast<uint64_t>(size)); }
val PushChunk(HeapSession& h, std::uintptr_t data, std::size_t size) {
  return StatusOf(h.PushChunk(reinterpret_cast<const uint8_t*>(data), size));
}
val Finish(HeapSession& h) { return StatusOf(h.Finish()); }
val GetStatus(const HeapSession& h) { return StatusOf(h.status()); }
// onPhase: a JS function called with each analysis phase's name, or undefined.
void Analyze(HeapSession& h, val onPhase) {
  if (onPhase.isUndefined() || onPhase.isNull()) return h.Analyze();
  h.Analyze([&](const char* phase) { onPhase(std::string(phase)); });
}
double BytesReceived(const HeapSession& h) { return static_cast<double>(h.bytesReceived()); }
std::string Kind(const HeapSession& h) { return h.kind(); }

nettrace::heap::HeapQuery Query(const std::string& pathsTo, double largest, double paths) {
  nettrace::heap::HeapQuery q;
  q.pathsTo = pathsTo;
  q.largest = static_cast<uint32_t>(std::min(std::max(largest, 0.0), 4294967295.0));
  q.paths = static_cast<uint32_t>(std::min(std::max(paths, 0.0), 4294967295.0));
  return q;
}

// The views need an analysed snapshot: "" before Analyze() (the JS side never asks then).
std::string Json(const HeapSession& h, const std::string& pathsTo, double largest, double paths) {
  return h.analyzed() ? nettrace::heap::HeapJson(h.snapshot(), Query(pathsTo, largest, paths)) : std::string();
}
std::string PathsJson(const HeapSession& h, const std::string& pathsTo, double paths) {
  return h.analyzed() ? nettrace::heap::HeapPathsJson(h.snapshot(), Query(pathsTo, 0, paths)) : std::string();
}
std::string TypesCsv(const HeapSession& h) { return h.analyzed() ? nettrace::heap::HeapTypesCsv(h.snapshot()) : std::string(); }
// Growth from `baseline` to `current` (both analysed); csv: the table, else the JSON document.
std::string DiffText(const HeapSession& baseline, const HeapSession& current, bool csv) {
  if (!baseline.analyzed() || !current.analyzed()) return std::string();
  return csv ? nettrace::heap::HeapDiffCsv(baseline.snapshot(), current.snapshot())
             : nettrace::heap::HeapDiffJson(baseline.snapshot(), current.snapshot());
}

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace_heap) {
  emscripten::class_<HeapSession>("HeapSession")
      .constructor<>()
      .function("setFileSize", &SetFileSize)
      .function("pushChunk", &PushChunk)
      .function("finish", &Finish)
      .function("status", &GetStatus)
      .function("analyze", &Analyze)
      .function("hasGraph", &HeapSession::hasGraph)
      .function("analyzed", &HeapSession::analyzed)
      .function("bytesReceived", &BytesReceived)
      .function("kind", &Kind)
      .function("statusJson", &HeapSession::StatusJson)
      .function("json", &Json)
      .function("pathsJson", &PathsJson)
      .function("typesCsv", &TypesCsv);
  emscripten::function("heapDiffText", &DiffText);
}
