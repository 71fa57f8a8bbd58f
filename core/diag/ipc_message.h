// core/diag — the .NET diagnostics IPC protocol as bytes: message headers, the wire
// encoding of integers and strings, replies (OK / error HRESULT), ProcessInfo payloads and
// the reverse-connect advertise. No sockets here: the native CLI owns the transport and
// hands these functions the bytes it read. Facts from dotnet/diagnostics
// documentation/design-docs/ipc-protocol.md; the byte sequences the tests compare against
// were captured from the reference client and a real runtime (tests/apps/IpcCapture).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace nettrace::diag {

inline constexpr size_t kHeaderSize = 20;       // magic(14) size(2) set(1) id(1) reserved(2)
inline constexpr size_t kAdvertiseSize = 34;    // "ADVR_V1\0"(8) cookie(16) pid(8) reserved(2)

enum class CommandSet : uint8_t { kDump = 0x01, kEventPipe = 0x02, kProfiler = 0x03, kProcess = 0x04, kServer = 0xFF };

// Command ids within their set.
enum class EventPipeCommand : uint8_t {
  kStopTracing = 0x01,
  kCollectTracing = 0x02,
  kCollectTracing2 = 0x03,
  kCollectTracing3 = 0x04,
  kCollectTracing4 = 0x05,
  kCollectTracing5 = 0x06,
  kCollectTracing6 = 0x07,
};
enum class ProcessCommand : uint8_t {
  kProcessInfo = 0x00,
  kResumeRuntime = 0x01,
  kProcessInfo2 = 0x04,
  kProcessInfo3 = 0x08,
};
inline constexpr uint8_t kServerOk = 0x00;
inline constexpr uint8_t kServerError = 0xFF;

// HRESULTs the runtime's diagnostic server answers (ipc-protocol.md "Errors"; the reference
// client's DiagnosticsIpcError names).
inline constexpr uint32_t kBadEncoding = 0x80131384;
inline constexpr uint32_t kUnknownCommand = 0x80131385;
inline constexpr uint32_t kUnknownMagic = 0x80131386;
inline constexpr uint32_t kNotSupported = 0x80131515;
/// "UnknownCommand (0x80131385)"-style name of a diagnostics HRESULT; "0x…" alone when unknown.
std::string HresultName(uint32_t hresult);

struct Header {
  uint16_t size = 0;  // the whole message, header included
  uint8_t commandSet = 0;
  uint8_t commandId = 0;
};

/// Appends little-endian values and protocol strings to a growing message.
class MessageWriter {
 public:
  void U8(uint8_t v) { bytes_.push_back(v); }
  void Bool(bool v) { bytes_.push_back(v ? 1 : 0); }
  void U16(uint16_t v);
  void U32(uint32_t v);
  void U64(uint64_t v);
  /// uint32 count of UTF-16 code units including the NUL, then the units ("" → count 1).
  /// The input is UTF-8.
  void String(const std::string& utf8);
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

/// A whole request: header (with the final size) + payload. Fails when it exceeds 64 KiB,
/// the most a uint16 size can say.
Status BuildMessage(uint8_t commandSet, uint8_t commandId, const std::vector<uint8_t>& payload,
                    std::vector<uint8_t>* message);

/// Reads a header from its 20 bytes; checks the magic and that size ≥ 20.
Status ParseHeader(std::span<const uint8_t> bytes, Header* header);

/// Reads protocol values from a payload; each read fails (with the offset) past the end.
class PayloadReader {
 public:
  explicit PayloadReader(std::span<const uint8_t> payload, uint64_t baseOffset = kHeaderSize)
      : data_(payload), base_(baseOffset) {}
  Status U32(uint32_t* v, const char* what);
  Status U64(uint64_t* v, const char* what);
  Status Guid(std::string* text, const char* what);   // "xxxxxxxx-xxxx-…" as .NET prints it
  Status String(std::string* utf8, const char* what);  // converted to UTF-8
  size_t remaining() const { return data_.size() - pos_; }

 private:
  Status Short(size_t need, const char* what) const;
  std::span<const uint8_t> data_;
  uint64_t base_;
  size_t pos_ = 0;
};

/// A reply: OK with its payload, or an error with its HRESULT.
struct Reply {
  bool ok = false;
  uint32_t hresult = 0;
  std::vector<uint8_t> payload;
};
/// Decodes a reply from its header and payload bytes (payload = size - 20 bytes).
Status ParseReply(const Header& header, std::span<const uint8_t> payload, Reply* reply);
/// The session id an OK reply to CollectTracing* / StopTracing carries.
Status ParseSessionId(const Reply& reply, uint64_t* sessionId);

struct ProcessInfo {
  uint32_t version = 1;  // 1, 2, or ProcessInfo3's own payload version
  uint64_t processId = 0;
  std::string runtimeCookie;
  std::string commandLine;
  std::string os;
  std::string arch;
  std::string entrypointAssembly;  // version ≥ 2
  std::string clrProductVersion;   // version ≥ 2
  std::string runtimeIdentifier;   // ProcessInfo3
};
/// Decodes the payload of an OK reply to ProcessInfo (command 0x00, 0x04 or 0x08).
Status ParseProcessInfo(ProcessCommand command, std::span<const uint8_t> payload, ProcessInfo* info);

struct Advertise {
  std::string runtimeCookie;
  uint64_t processId = 0;
};
/// The 34-byte message a runtime sends first on a reverse ("connect") diagnostic port.
Status ParseAdvertise(std::span<const uint8_t> bytes, Advertise* advertise);

}  // namespace nettrace::diag
