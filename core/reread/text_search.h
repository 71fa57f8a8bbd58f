// core/reread — free-text search over events for the event table. An event matches when
// the text occurs, ASCII case-insensitively, in its provider, its display name, its
// thread's OS id (decimal) or name, one of its label values, or the value of any decoded
// payload field (at any depth; numbers as the event JSON shows them, hex where the
// template says so). Field names, times and header numbers do not match.
//
// Payloads are not kept in memory, so a search is a scan in steps with bounded memory:
// ScanTextStep examines a bounded number of rows and splits the candidates (rows passing
// the query's other filters) into rows that already match on the cheap fields and rows
// whose payloads must be looked at; the caller then provides those rows' blocks (at most
// kMaxBlocksPerStep distinct ones, fewer than the session's block cache holds) and asks
// which of them match. Only the matching row numbers are kept.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/query/event_query.h"
#include "model/trace_model.h"

namespace nettrace {

inline constexpr size_t kMaxBlocksPerStep = 32;

struct TextScanStep {
  std::vector<uint32_t> matches;      // rows that match without their payloads, ascending
  std::vector<uint32_t> needPayload;  // candidate rows to test against their payloads, ascending
  uint64_t begin = 0;                 // the query's row range [begin, end) (time filter)
  uint64_t end = 0;
  uint64_t next = 0;  // cursor for the next step; == end when the scan is complete
};

// What a search decides once per type, thread and label list, not at each step: a search
// of 100,000 event types re-decided every type at every step of 256 rows (16 s), once it
// is linear. Valid for one query over one state of the store (plan.Fits says which).
struct TextSearchPlan {
  // Per EventTypeIndex: 0 filtered out, 1 a candidate, 2 matches on its provider or name.
  std::vector<uint8_t> typeState;
  std::vector<bool> threadOk;       // per ThreadIndex: passes the query's thread filter
  std::vector<bool> threadMatches;  // per ThreadIndex: its OS id or name matches
  std::unordered_map<uint32_t, bool> labelMatches;  // LabelListIndex → matches (filled as met)
  std::string needle;                               // the text, lowercase
  // What it was made for.
  EventQuery query;
  size_t rows = 0, types = 0, threads = 0;
  bool Fits(const TraceModel& model, const EventQuery& q) const;
};

TextSearchPlan PlanTextSearch(const TraceModel& model, const EventQuery& query);

// One step of the scan from store row `cursor` (clamped into the query's time range),
// examining at most `maxRows` rows. query.text must be non-empty; `plan` is the query's
// (its label cache fills as the scan goes).
TextScanStep ScanTextStep(const TraceModel& model, TextSearchPlan& plan, uint64_t cursor, uint64_t maxRows);

// The lowercase form used for matching (ASCII only; UTF-8 bytes above 0x7F unchanged).
std::string LowerAscii(const std::string& s);

// Does any payload field value of this event contain `needleLower`?
bool PayloadContains(const EventMetadata& metadata, std::span<const uint8_t> payload, const std::string& needleLower,
                     uint32_t pointerSize, uint32_t formatMajor);

}  // namespace nettrace
