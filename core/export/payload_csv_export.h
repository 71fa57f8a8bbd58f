// core/export — CSV of one event type with its payload fields as columns:
// TimeMs,Provider,Event,ThreadId,StackId,<field>,… with the StackId of the stacks CSV
// (export/exports.h ExportStacksCsv) instead of a stack per row. Payloads are re-decoded from
// their blocks (format/payload_decoder.h), so the caller pages through the rows in two passes
// with the blocks of each page at hand: the columns (every top-level field name, in order of
// first appearance: later versions of an event add fields; a struct field spreads into
// "Field.Member" columns), then the lines.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/stacks/stack_frames.h"
#include "format/records.h"
#include "model/trace_model.h"

namespace nettrace {

// Adds the field names of one event's payload not yet in `columns` (payload: its bytes).
void AddPayloadColumns(const TraceModel& model, std::span<const uint8_t> payload, uint32_t storeRow, uint32_t formatMajor,
                       std::vector<std::string>* columns);

// One event's payload as (column, text) pairs: struct members as "Field.Member", values as
// PayloadValue::ToString shows them (also the Chrome trace's args).
std::vector<std::pair<std::string, std::string>> PayloadCells(const TraceModel& model, std::span<const uint8_t> payload,
                                                              uint32_t storeRow, uint32_t formatMajor);

std::string PayloadCsvHeader(const std::vector<std::string>& columns);

// One line: each column's value as PayloadValue::ToString shows it (arrays "[a,b]") (a field the payload does
// not have is empty; every field is, without the event's detail). `stackId`: the row's id in the
// stacks CSV, 0 for none.
std::string PayloadCsvLine(const TraceModel& model, const EventDetail* detail, uint32_t storeRow,
                           uint32_t formatMajor, uint32_t stackId, const std::vector<std::string>& columns);

}  // namespace nettrace
