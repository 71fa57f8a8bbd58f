#include "diag/ipc_message.h"

#include <cstdio>
#include <cstring>

#include "io/byte_cursor.h"

namespace nettrace::diag {
namespace {

constexpr char kMagic[14] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', '\0'};
constexpr char kAdvertiseMagic[8] = {'A', 'D', 'V', 'R', '_', 'V', '1', '\0'};

uint64_t ReadLE(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

// UTF-8 → UTF-16 code units; an invalid byte becomes U+FFFD (names and filters are ours).
std::vector<uint16_t> ToUtf16(const std::string& s) {
  std::vector<uint16_t> out;
  for (size_t i = 0; i < s.size();) {
    const uint8_t b = static_cast<uint8_t>(s[i]);
    uint32_t cp = 0xFFFD;
    size_t len = 1;
    if (b < 0x80) {
      cp = b;
    } else if ((b >> 5) == 0x6 && i + 1 < s.size()) {
      cp = ((b & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu), len = 2;
    } else if ((b >> 4) == 0xE && i + 2 < s.size()) {
      cp = ((b & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu), len = 3;
    } else if ((b >> 3) == 0x1E && i + 3 < s.size()) {
      cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu);
      len = 4;
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<uint16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<uint16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<uint16_t>(cp));
    }
  }
  return out;
}

}  // namespace

std::string HresultName(uint32_t hresult) {
  const char* name = nullptr;
  switch (hresult) {
    case kBadEncoding: name = "BadEncoding"; break;
    case kUnknownCommand: name = "UnknownCommand"; break;
    case kUnknownMagic: name = "UnknownMagic"; break;
    case 0x80131387: name = "UnknownError"; break;
    case kNotSupported: name = "NotSupported"; break;
    case 0x8013136A: name = "ProfilerAlreadyActive"; break;
    case 0x80070057: name = "InvalidArgument"; break;
    case 0x80004005: name = "Fail"; break;
    case 0x8013135B: name = "NotYetAvailable"; break;
    case 0x80131371: name = "RuntimeUninitialized"; break;
    case 0x8007007A: name = "InsufficientBuffer"; break;
    case 0x800000CB: name = "EnvVarNotFound"; break;
    default: break;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08X", static_cast<unsigned>(hresult));
  return name ? std::string(name) + " (" + hex + ")" : std::string(hex);
}

void MessageWriter::U16(uint16_t v) {
  for (int i = 0; i < 2; ++i) bytes_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void MessageWriter::U32(uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void MessageWriter::U64(uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void MessageWriter::String(const std::string& utf8) {
  // An empty string goes out as count 1 + the NUL, as the reference client writes it (the
  // protocol document also allows count 0; the runtime reads both).
  const std::vector<uint16_t> units = ToUtf16(utf8);
  U32(static_cast<uint32_t>(units.size() + 1));
  for (uint16_t u : units) U16(u);
  U16(0);
}

Status BuildMessage(uint8_t commandSet, uint8_t commandId, const std::vector<uint8_t>& payload,
                    std::vector<uint8_t>* message) {
  const size_t total = kHeaderSize + payload.size();
  if (total > 0xFFFF) {
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         "IPC message of " + std::to_string(total) + " bytes exceeds the 65535 a header can state");
  }
  MessageWriter w;
  for (char c : kMagic) w.U8(static_cast<uint8_t>(c));
  w.U16(static_cast<uint16_t>(total));
  w.U8(commandSet);
  w.U8(commandId);
  w.U16(0);
  *message = std::move(w.bytes());
  message->insert(message->end(), payload.begin(), payload.end());
  return Status::Ok();
}

Status ParseHeader(std::span<const uint8_t> bytes, Header* header) {
  if (bytes.size() < kHeaderSize) {
    return Status::Error(ErrorCode::kTruncated, bytes.size(), "IPC header needs 20 bytes");
  }
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return Status::Error(ErrorCode::kBadMagic, 0, "IPC message does not start with DOTNET_IPC_V1");
  }
  header->size = static_cast<uint16_t>(ReadLE(bytes.data() + 14, 2));
  header->commandSet = bytes[16];
  header->commandId = bytes[17];
  if (header->size < kHeaderSize) {
    return Status::Error(ErrorCode::kCorrupt, 14, "IPC header states a size below 20: " + std::to_string(header->size));
  }
  return Status::Ok();
}

Status PayloadReader::Short(size_t need, const char* what) const {
  return Status::Error(ErrorCode::kTruncated, base_ + pos_,
                       std::string("IPC payload ends inside ") + what + " (" + std::to_string(need) + " bytes needed, " +
                           std::to_string(remaining()) + " left)");
}
Status PayloadReader::U32(uint32_t* v, const char* what) {
  if (remaining() < 4) return Short(4, what);
  *v = static_cast<uint32_t>(ReadLE(data_.data() + pos_, 4));
  pos_ += 4;
  return Status::Ok();
}
Status PayloadReader::U64(uint64_t* v, const char* what) {
  if (remaining() < 8) return Short(8, what);
  *v = ReadLE(data_.data() + pos_, 8);
  pos_ += 8;
  return Status::Ok();
}
Status PayloadReader::Guid(std::string* text, const char* what) {
  if (remaining() < 16) return Short(16, what);
  const uint8_t* p = data_.data() + pos_;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                static_cast<unsigned>(ReadLE(p, 4)), static_cast<unsigned>(ReadLE(p + 4, 2)),
                static_cast<unsigned>(ReadLE(p + 6, 2)), p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]);
  *text = buf;
  pos_ += 16;
  return Status::Ok();
}
Status PayloadReader::String(std::string* utf8, const char* what) {
  const uint64_t start = base_ + pos_;
  uint32_t units = 0;
  NETTRACE_RETURN_IF_ERROR(U32(&units, what));
  if (uint64_t{units} * 2 > remaining()) {
    pos_ -= 4;  // name the string's start, its length field
    return Short(4 + size_t{units} * 2, what);
  }
  // The terminator, if any, must be the last unit: a NUL inside would hide the rest.
  const uint8_t* p = data_.data() + pos_;
  uint32_t length = 0;
  while (length < units && (p[2 * length] | p[2 * length + 1]) != 0) ++length;
  if (length + 1 < units) return Status::Error(ErrorCode::kCorrupt, start, std::string(what) + ": NUL inside the string");
  utf8->clear();
  AppendUtf16AsUtf8(p, length, utf8);
  pos_ += size_t{units} * 2;
  return Status::Ok();
}

Status ParseReply(const Header& header, std::span<const uint8_t> payload, Reply* reply) {
  if (header.commandSet != static_cast<uint8_t>(CommandSet::kServer)) {
    return Status::Error(ErrorCode::kCorrupt, 16,
                         "reply is not from the server command set (set " + std::to_string(header.commandSet) + ")");
  }
  reply->payload.assign(payload.begin(), payload.end());
  if (header.commandId == kServerOk) {
    reply->ok = true;
    return Status::Ok();
  }
  if (header.commandId == kServerError) {
    PayloadReader r(payload);
    reply->ok = false;
    return r.U32(&reply->hresult, "the error HRESULT");
  }
  return Status::Error(ErrorCode::kCorrupt, 17, "reply id " + std::to_string(header.commandId) + " is neither OK nor error");
}

Status ParseSessionId(const Reply& reply, uint64_t* sessionId) {
  if (!reply.ok) {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "runtime answered error " + HresultName(reply.hresult));
  }
  PayloadReader r(reply.payload);
  return r.U64(sessionId, "the session id");
}

Status ParseProcessInfo(ProcessCommand command, std::span<const uint8_t> payload, ProcessInfo* info) {
  PayloadReader r(payload);
  info->version = command == ProcessCommand::kProcessInfo2 ? 2 : 1;
  if (command == ProcessCommand::kProcessInfo3) NETTRACE_RETURN_IF_ERROR(r.U32(&info->version, "the payload version"));
  NETTRACE_RETURN_IF_ERROR(r.U64(&info->processId, "the process id"));
  NETTRACE_RETURN_IF_ERROR(r.Guid(&info->runtimeCookie, "the runtime cookie"));
  NETTRACE_RETURN_IF_ERROR(r.String(&info->commandLine, "the command line"));
  NETTRACE_RETURN_IF_ERROR(r.String(&info->os, "the OS"));
  NETTRACE_RETURN_IF_ERROR(r.String(&info->arch, "the architecture"));
  if (command == ProcessCommand::kProcessInfo) return Status::Ok();
  NETTRACE_RETURN_IF_ERROR(r.String(&info->entrypointAssembly, "the entrypoint assembly"));
  NETTRACE_RETURN_IF_ERROR(r.String(&info->clrProductVersion, "the CLR product version"));
  // ProcessInfo3 payload versions ≥ 1 carry the runtime identifier; later fields are skipped.
  if (command == ProcessCommand::kProcessInfo3 && info->version >= 1) {
    NETTRACE_RETURN_IF_ERROR(r.String(&info->runtimeIdentifier, "the runtime identifier"));
  }
  return Status::Ok();
}

Status ParseAdvertise(std::span<const uint8_t> bytes, Advertise* advertise) {
  if (bytes.size() < kAdvertiseSize) {
    return Status::Error(ErrorCode::kTruncated, bytes.size(), "advertise message needs 34 bytes");
  }
  if (std::memcmp(bytes.data(), kAdvertiseMagic, sizeof kAdvertiseMagic) != 0) {
    return Status::Error(ErrorCode::kBadMagic, 0, "connection did not start with the ADVR_V1 advertise");
  }
  PayloadReader r(bytes.subspan(8), 8);
  NETTRACE_RETURN_IF_ERROR(r.Guid(&advertise->runtimeCookie, "the runtime cookie"));
  return r.U64(&advertise->processId, "the process id");
}

}  // namespace nettrace::diag
