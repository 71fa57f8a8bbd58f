// core/analysis — one event of the store as a JSON object, for the event table and the
// `events` CLI: time (ms from the trace start and UTC), type, thread, processor,
// sequence number, labels and payload fields. Header details that the store does not
// keep (processor, sequence number, payload) come from the event's row, re-decoded from
// its block.
#pragma once

#include <string>

#include "format/records.h"
#include "model/trace_model.h"

namespace nettrace {

// detail: this event's, from its re-decoded row, or nullptr when its block is not at hand (the
// JSON then says "detail": false and carries only what the store keeps). With it, "payload"
// holds the decoded fields (format/payload_decoder.h).
std::string EventJson(const TraceModel& model, uint32_t storeRow, const EventDetail* detail, uint32_t formatMajor);

}  // namespace nettrace
