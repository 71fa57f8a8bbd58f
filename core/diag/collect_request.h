// core/diag — the EventPipe commands: CollectTracing 1–6 (one request, encoded for the
// version asked), StopTracing, the Process set's header-only commands, and the rule for
// retrying an older CollectTracing when a runtime answers "unknown command".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "diag/ipc_message.h"

namespace nettrace::diag {

// The rundown a CollectTracing2/3 requestRundown=true means (ipc-protocol.md CollectTracing4).
inline constexpr uint64_t kDefaultRundownKeyword = 0x80020139;

// CollectTracing5+ per-provider event-id filter. Absent = all events (sent as enable=false,
// no ids, as the reference client does).
struct EventIdFilter {
  bool present = false;
  bool enable = false;
  std::vector<uint32_t> ids;
};

struct ProviderConfig {
  std::string name;
  uint64_t keywords = 0;
  uint32_t level = 4;       // EventLevel: 0 LogAlways … 5 Verbose
  std::string filterData;   // "key=value;key=value" arguments, or empty
  EventIdFilter eventFilter;
};

struct CollectRequest {
  uint32_t circularBufferMB = 256;
  uint32_t format = 1;                          // 0 NetPerf, 1 NetTrace
  uint64_t rundownKeyword = kDefaultRundownKeyword;  // 0 = no rundown
  bool requestStackwalk = true;
  uint32_t bufferMode = 0;                      // CollectTracing6: 0 drop, 1 block
  // When a custom rundown keyword cannot be sent (runtime before CollectTracing4): true
  // drops the rundown, false falls back to the default rundown (dotnet-trace's retry
  // strategies DropKeywordDropRundown / DropKeywordKeepRundown).
  bool dropRundownOnFallback = false;
  std::vector<ProviderConfig> providers;
};

/// The oldest CollectTracing that expresses everything in `request` — the reference
/// client's choice: 6 for block buffering, 5 for event-id filters, 4 for a rundown keyword
/// other than 0 and the default, 3 without stackwalk, else 2.
EventPipeCommand MinimumCollectVersion(const CollectRequest& request);

/// The whole CollectTracing message (header + payload) of `version` (kCollectTracing …
/// kCollectTracing6). Fails when that version cannot say what the request asks (call
/// FallbackCollect to adjust the request first) or when there are no providers.
Status EncodeCollect(const CollectRequest& request, EventPipeCommand version, std::vector<uint8_t>* message);

/// After `failed` was refused with UnknownCommand: the next older version and the request
/// adjusted to fit it; `lost` says what the older version cannot do (empty when nothing).
/// False when there is nothing older than CollectTracing (version 1).
bool FallbackCollect(EventPipeCommand failed, CollectRequest* request, EventPipeCommand* older, std::string* lost);

/// StopTracing (0x02 0x01) of a session.
std::vector<uint8_t> EncodeStopTracing(uint64_t sessionId);
/// A Process-set command without payload (ProcessInfo 1/2/3, ResumeRuntime).
std::vector<uint8_t> EncodeProcessCommand(ProcessCommand command);

/// "CollectTracing2"-style name of an EventPipe command.
const char* EventPipeCommandName(EventPipeCommand command);

}  // namespace nettrace::diag
