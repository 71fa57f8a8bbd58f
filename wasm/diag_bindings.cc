// wasm/ — the embind surface of core/diag (the .NET diagnostics IPC protocol as bytes), for
// the npm package's live sessions (web/src/live/): Node moves the bytes over its own Unix
// sockets, and every message is encoded and decoded here, by the same C++ the native CLI
// uses. Conversions only. Session ids (uint64) cross as decimal strings: they are runtime
// addresses, and a Number would round them above 2^53.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/status.h"
#include "diag/collect_request.h"
#include "diag/ipc_message.h"
#include "diag/provider_spec.h"

namespace {

using emscripten::val;
using nettrace::Status;
namespace diag = nettrace::diag;

val Bytes(const std::vector<uint8_t>& v) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}
std::vector<uint8_t> FromJs(const val& bytes) { return emscripten::convertJSArrayToNumberVector<uint8_t>(bytes); }
// {ok, message}: diag errors are about messages, not file offsets.
val WithStatus(const Status& s) {
  val out = val::object();
  out.set("ok", s.ok());
  out.set("message", s.message());
  return out;
}

// A CollectTracing request and the version it is at: the fallback state the native CLI keeps
// in StartSession (core/cli/diag_commands.cc).
class CollectPlan {
 public:
  CollectPlan(const std::string& profiles, const std::string& providers, uint32_t bufferMB) {
    status_ = diag::BuildCollectRequest(profiles, providers, &request_);
    request_.circularBufferMB = bufferMB;
    version_ = diag::MinimumCollectVersion(request_);
  }
  val status() const { return WithStatus(status_); }
  std::string versionName() const { return diag::EventPipeCommandName(version_); }
  // → {ok, message, bytes}: the whole message for the current version.
  val message() const {
    std::vector<uint8_t> bytes;
    val out = WithStatus(status_.ok() ? diag::EncodeCollect(request_, version_, &bytes) : status_);
    out.set("bytes", Bytes(bytes));
    return out;
  }
  // After UnknownCommand: → {ok, older, lost}; ok false when nothing older exists.
  val fallback() {
    std::string lost;
    diag::EventPipeCommand older;
    val out = val::object();
    const bool ok = diag::FallbackCollect(version_, &request_, &older, &lost);
    out.set("ok", ok);
    if (ok) {
      out.set("older", std::string(diag::EventPipeCommandName(older)));
      out.set("lost", lost);
      version_ = older;
    }
    return out;
  }

 private:
  Status status_;
  diag::CollectRequest request_;
  diag::EventPipeCommand version_ = diag::EventPipeCommand::kCollectTracing2;
};

// 20 header bytes → {ok, message, size, commandSet, commandId}.
val ParseHeader(const val& bytes) {
  diag::Header h;
  val out = WithStatus(diag::ParseHeader(FromJs(bytes), &h));
  out.set("size", h.size);
  out.set("commandSet", h.commandSet);
  out.set("commandId", h.commandId);
  return out;
}

// A whole reply (header + payload) → {ok, message, success, hresult, hresultName, payload,
// sessionId}: `ok` is the decoding, `success` the runtime's answer; sessionId ("" unless the
// OK payload carries one) is a decimal string.
val ParseReply(const val& bytes) {
  const std::vector<uint8_t> all = FromJs(bytes);
  diag::Header h;
  diag::Reply reply;
  Status s = diag::ParseHeader(all, &h);
  if (s.ok() && all.size() != h.size) {
    s = Status::Error(nettrace::ErrorCode::kTruncated, all.size(), "the reply is not the size its header says");
  }
  if (s.ok()) s = diag::ParseReply(h, {all.data() + diag::kHeaderSize, all.size() - diag::kHeaderSize}, &reply);
  val out = WithStatus(s);
  out.set("success", reply.ok);
  out.set("hresult", reply.hresult);
  out.set("hresultName", reply.ok ? std::string() : diag::HresultName(reply.hresult));
  out.set("payload", Bytes(reply.payload));
  uint64_t id = 0;
  out.set("sessionId", s.ok() && reply.ok && diag::ParseSessionId(reply, &id).ok() ? std::to_string(id) : std::string());
  return out;
}

val EncodeStopTracing(const std::string& sessionId) {
  return Bytes(diag::EncodeStopTracing(std::strtoull(sessionId.c_str(), nullptr, 10)));
}
// 0 ProcessInfo, 1 ResumeRuntime, 4 ProcessInfo2, 8 ProcessInfo3 (the command ids).
val EncodeProcessCommand(uint32_t id) { return Bytes(diag::EncodeProcessCommand(static_cast<diag::ProcessCommand>(id))); }

// An OK ProcessInfo payload → {ok, message, processId, commandLine, os, arch,
// entrypointAssembly, clrProductVersion, runtimeIdentifier}.
val ParseProcessInfo(uint32_t commandId, const val& payload) {
  diag::ProcessInfo info;
  val out = WithStatus(diag::ParseProcessInfo(static_cast<diag::ProcessCommand>(commandId), FromJs(payload), &info));
  out.set("processId", static_cast<double>(info.processId));
  out.set("runtimeCookie", info.runtimeCookie);
  out.set("commandLine", info.commandLine);
  out.set("os", info.os);
  out.set("arch", info.arch);
  out.set("entrypointAssembly", info.entrypointAssembly);
  out.set("clrProductVersion", info.clrProductVersion);
  out.set("runtimeIdentifier", info.runtimeIdentifier);
  return out;
}

std::string HresultName(uint32_t hresult) { return diag::HresultName(hresult); }

// The 34-byte advertise of a reverse diagnostic port → {ok, message, processId, runtimeCookie}.
val ParseAdvertise(const val& bytes) {
  diag::Advertise adv;
  val out = WithStatus(diag::ParseAdvertise(FromJs(bytes), &adv));
  out.set("processId", static_cast<double>(adv.processId));
  out.set("runtimeCookie", adv.runtimeCookie);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace_diag) {
  emscripten::class_<CollectPlan>("DiagCollectPlan")
      .constructor<std::string, std::string, uint32_t>()
      .function("status", &CollectPlan::status)
      .function("versionName", &CollectPlan::versionName)
      .function("message", &CollectPlan::message)
      .function("fallback", &CollectPlan::fallback);
  emscripten::function("diagParseHeader", &ParseHeader);
  emscripten::function("diagParseReply", &ParseReply);
  emscripten::function("diagEncodeStopTracing", &EncodeStopTracing);
  emscripten::function("diagEncodeProcessCommand", &EncodeProcessCommand);
  emscripten::function("diagParseProcessInfo", &ParseProcessInfo);
  emscripten::function("diagHresultName", &HresultName);
  emscripten::function("diagParseAdvertise", &ParseAdvertise);
}
