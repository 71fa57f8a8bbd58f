// core/symbols — follows the stream for the two "Universal" providers of Linux profilers:
// Universal.System (processes, mappings, symbols, mapping metadata → UniversalSymbols)
// and Universal.Events (cpu / cswitch samples, whose weight is their Value field).
// Payloads are decoded through their own v6 metadata (format/payload_decoder) and read
// by field NAME, so a producer adding fields does not break us. Events are tied to a
// process through their thread row's OS process id (v6 ThreadBlock), which is also how
// a mapping without a process id field finds its process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/small_key_map.h"
#include "format/records.h"
#include "symbols/universal_symbols.h"

namespace nettrace {

inline constexpr const char* kUniversalSystemProvider = "Universal.System";
inline constexpr const char* kUniversalEventsProvider = "Universal.Events";

// Per-process event statistics gathered while streaming (for the summary).
struct UniversalProcessStats {
  uint64_t events = 0;
  uint64_t cpuSamples = 0, cpuValue = 0;
  uint64_t cswitches = 0, cswitchValue = 0;
};

class UniversalCollector {
 public:
  void OnTraceInfo(const TraceInfo& info) { pointerSize_ = info.pointerSize, formatMajor_ = info.formatMajor; }
  // Returns true when the metadata is one of the Universal providers'.
  bool OnMetadata(const EventMetadata& m);
  void OnThread(const ThreadInfo& t) {
    if (!t.osProcessId) return;
    bool added = false;
    threadProcess_.At(t.index, &added) = {*t.osProcessId, nullptr};
    anyThreadProcess_ = true;
  }
  // Every event (for per-process counts); `ordinal` is its file-order number.
  // @returns false when a Universal payload could not be decoded.
  bool OnEvent(const EventRecord& e, uint32_t ordinal);
  void Finish() { symbols_.Finish(); }

  // The OS process id of an event's thread (v6 thread index), if its row gave one.
  std::optional<uint64_t> ProcessOf(uint64_t threadIndex) const {
    if (!anyThreadProcess_) return std::nullopt;  // v4/v5 threads have no process: no lookup per event
    const ThreadProcess* t = threadProcess_.Find(threadIndex);
    if (!t) return std::nullopt;
    return t->pid;
  }

  const UniversalSymbols& symbols() const { return symbols_; }
  // Value of a Universal.Events cpu/cswitch event by ordinal; nullopt for others.
  std::optional<uint64_t> SampleValue(uint32_t ordinal) const;
  const std::unordered_map<uint64_t, UniversalProcessStats>& processStats() const { return stats_; }
  bool any() const { return !metas_.empty(); }
  // Nothing to do per event: no Universal metadata and no thread rows naming processes
  // (every v4/v5 trace) — OnEvent is then not called at all.
  bool idle() const { return metas_.empty() && !anyThreadProcess_; }

 private:
  enum class Kind : uint8_t { kNone, kProcessStart, kProcessExit, kMapping, kSymbol, kMappingMetadata, kCpu, kCswitch, kOtherSample };
  struct Meta {
    Kind kind = Kind::kNone;
    bool existing = false;
    EventMetadata metadata;
  };
  uint32_t pointerSize_ = 8;
  uint32_t formatMajor_ = 6;
  std::unordered_map<uint32_t, Meta> metas_;  // Universal metadata only, by metadata id
  // A v6 thread index's OS process, and that process's counts once an event of the thread
  // came (stats_'s nodes do not move). Looked up per event: a SmallKeyMap, where two hash
  // look-ups of 64-bit keys (a murmur hash each in wasm, libc++ on 32 bits) were 9 % of a v6
  // trace's read in wasm.
  struct ThreadProcess {
    uint64_t pid = 0;
    UniversalProcessStats* stats = nullptr;
  };
  SmallKeyMap<ThreadProcess> threadProcess_;
  bool anyThreadProcess_ = false;
  std::unordered_map<uint64_t, UniversalProcessStats> stats_;
  std::vector<std::pair<uint32_t, uint64_t>> values_;  // (ordinal, Value), ascending
  UniversalSymbols symbols_;
};

}  // namespace nettrace
