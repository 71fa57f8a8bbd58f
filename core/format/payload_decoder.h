// core/format — turns one event's payload bytes into named, typed field values, on
// demand (the reader never decodes payloads; the model keeps their offsets).
//
// Which schema describes the payload:
//   1. the event's metadata fields, when it has any (v4/v5 V1 fields or V2Params,
//      v6 FieldDescriptions: NetTraceFormat.md §MetadataBlock "enum TypeCode");
//   2. else, for the CLR providers (runtime, rundown, private, stress), the template
//      generated from the CLR manifest for (event id, version) — their v4/v5 metadata
//      carries no fields (format-pitfalls.md §13); the SampleProfiler's Thread/Sample has a
//      template in the same table;
//   3. else nothing: fields stay empty and every byte counts as undecoded.
//
// Guarantees: never reads outside `payload`; no recursion deeper than kMaxPayloadDepth (payload/decode_state.h);
// a count is checked against the bytes left before anything proportional to it is
// allocated, and the number of values per event is capped; no exceptions. A field that
// cannot be decoded becomes an error value (PayloadValue::Error); where its size is still
// known (RelLoc/DataLoc, fixed-size fields) decoding continues with the next field,
// otherwise it stops there (`stoppedAtError`).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/json_writer.h"
#include "format/clr_events.generated.h"
#include "format/payload_value.h"
#include "format/records.h"

namespace nettrace {

namespace clr {
struct EventInfo;
}

enum class PayloadSchema : uint8_t {
  kNone,         // no description: nothing decoded
  kMetadata,     // the metadata's own field descriptions
  kClrTemplate,  // the generated CLR manifest template
};

const char* PayloadSchemaName(PayloadSchema schema);

struct DecodedPayload {
  std::vector<PayloadField> fields;
  PayloadSchema schema = PayloadSchema::kNone;
  // kClrTemplate: the template used (clr_events.generated.h), else nullptr.
  const clr::EventInfo* clrEvent = nullptr;
  // The payload ended before the schema did: fields it does not reach are left out;
  // a field it cuts in the middle is an error value.
  bool shorterThanTemplate = false;
  // Bytes after the last decoded field (with no schema: the whole payload).
  bool longerThanTemplate = false;
  uint32_t trailingBytes = 0;
  // Some field (at any depth) is an error value.
  bool hasErrors = false;
  // Decoding stopped at a field whose size could not be determined; later fields left out.
  bool stoppedAtError = false;
  // Which DateTime encoding the payload's DateTime fields were read with
  // (format-pitfalls.md §9): kNone when there are none.
  PayloadValue::DateTimeEncoding dateTimeEncoding = PayloadValue::DateTimeEncoding::kNone;
  // ExceptionThrown (runtime id 80) from a runtime that omits an empty ExceptionMessage.
  bool exceptionMessageOmitted = false;

  // The field named `name` at the top level, nullptr if absent.
  const PayloadValue* Find(std::string_view name) const;

  // {"schema":"metadata"|"clr"|"none"[,"template":"GCStart_V2","templateVersion":2],
  //  "fields":[{"name":…,"value":…[,"display":"AllocSmall"]},…],"shorterThanTemplate":…,
  //  "trailingBytes":n,"hasErrors":…,"stoppedAtError":…[,"dateTime":"filetime"]
  //  [,"exceptionMessageOmitted":true]} — values as PayloadValue::ToJson.
  void ToJson(JsonWriter& w) const;
};

/// Decodes `payload` of an event described by `metadata`.
/// @param pointerSize  the trace's pointer size (4 or 8), for CLR pointer fields.
/// @param formatMajor  4, 5 or 6 (TraceReader::formatMajor()). DateTime is read as an
///                     8-byte FILETIME; only in v6, when the payload does not fit that
///                     exactly but fits a 16-byte SYSTEMTIME exactly, as SYSTEMTIME.
DecodedPayload DecodePayload(const EventMetadata& metadata, std::span<const uint8_t> payload, uint32_t pointerSize,
                             int formatMajor);


}  // namespace nettrace
