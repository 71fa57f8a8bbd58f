// core/format/payload — decodes a payload by the field descriptions of its metadata:
// every TypeCode of NetTrace v4/v5 (V1 fields and V2Params) and v6
// (NetTraceFormat.md §MetadataBlock "enum TypeCode"). Internal to payload_decoder.cc.
#pragma once

#include <vector>

#include "format/payload/decode_state.h"
#include "format/records.h"

namespace nettrace::payload {

// Decodes `fields` from the payload start. A payload that ends exactly between two
// top-level fields leaves the rest out (s.shorter); an undecodable field whose size is
// unknown ends the walk and sets *stopped. The cursor ends after the last decoded byte.
void DecodeMetadataFields(const std::vector<FieldDescription>& fields, DecodeState& s, ByteCursor& c,
                          std::vector<PayloadField>* out, bool* stopped);

// Whether a DateTime occurs anywhere in `fields` (its width is then worth a second try).
bool ContainsDateTime(const std::vector<FieldDescription>& fields, int depth = 0);

}  // namespace nettrace::payload
