// core/symbols — follows the stream for the two "Universal" providers of Linux profilers:
// Universal.System (processes, mappings, symbols, mapping metadata → UniversalSymbols)
// and Universal.Events (cpu / cswitch samples, whose weight is their Value field).
// Which event is which is the resolver's (events/event_kind.h: the Universal kinds).
// Payloads are decoded through their own v6 metadata (format/payload_decoder) and read
// by field NAME, so a producer adding fields does not break us. Events are tied to a
// process through their thread's OS process id (the resolver's thread table: v6 ThreadBlock
// rows), which is also how a mapping without a process id field finds its process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "events/event_kind.h"
#include "format/records.h"
#include "symbols/universal_symbols.h"

namespace nettrace {

inline constexpr const char* kUniversalSystemProvider = "Universal.System";
inline constexpr const char* kUniversalEventsProvider = "Universal.Events";

// Per-process sample statistics gathered while streaming (for the summary; the events per
// process are the store's, counted per thread).
struct UniversalProcessStats {
  uint64_t cpuSamples = 0, cpuValue = 0;
  uint64_t cswitches = 0, cswitchValue = 0;
};

class UniversalCollector {
 public:
  void OnTraceInfo(const TraceInfo& info) { pointerSize_ = info.pointerSize, formatMajor_ = info.formatMajor; }
  // A metadata record's kind, as the resolver classified it.
  void OnMetadataKind(EventKind kind) { any_ = any_ || IsUniversalKind(kind); }
  // An event of a Universal kind, decoded with its definition; `ordinal` is its file-order
  // number, `pid` its thread's OS process, if its thread row gave one.
  // @returns false when its payload could not be decoded.
  bool OnEvent(const EventRecord& e, EventKind kind, const EventMetadata& definition, uint32_t ordinal,
               std::optional<uint64_t> pid);
  void Finish() { symbols_.Finish(); }

  const UniversalSymbols& symbols() const { return symbols_; }
  // Value of a Universal.Events cpu/cswitch event by ordinal; nullopt for others.
  std::optional<uint64_t> SampleValue(uint32_t ordinal) const;
  const std::unordered_map<uint64_t, UniversalProcessStats>& processStats() const { return stats_; }
  // Whether a Universal event was defined (a Linux profiler's trace).
  bool any() const { return any_; }
  // Nothing to do: no Universal event is defined (every trace but a Linux profiler's).
  bool idle() const { return !any_; }

 private:
  uint32_t pointerSize_ = 8;
  uint32_t formatMajor_ = 6;
  bool any_ = false;
  std::unordered_map<uint64_t, UniversalProcessStats> stats_;  // by pid
  // The last sample's process and its statistics (stats_'s nodes do not move): samples come
  // in runs of one process.
  uint64_t lastPid_ = 0;
  UniversalProcessStats* lastStats_ = nullptr;
  std::vector<std::pair<uint32_t, uint64_t>> values_;  // (ordinal, Value), ascending
  UniversalSymbols symbols_;
};

}  // namespace nettrace
