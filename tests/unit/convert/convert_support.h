// Shared by the tests that convert a trace to v6 and compare it with the original.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "convert/v6_converter.h"
#include "format/trace_reader.h"

namespace nettrace::test {

// `in` read by the reader with the converter behind it, the v6 bytes appended to `out`;
// the first error of the read or the conversion, else Ok.
inline Status ConvertToV6(const std::vector<uint8_t>& in, std::vector<uint8_t>* out,
                          V6Converter::Options options = {}) {
  V6Converter converter(
      [&](std::span<const uint8_t> b) {
        out->insert(out->end(), b.begin(), b.end());
        return Status::Ok();
      },
      options);
  TraceReader reader(&converter);
  Status s = reader.Push(in.data(), in.size());
  return s.ok() ? reader.Finish() : s;
}

// An event's JSON without "payloadOffset", the one field that must differ between a trace
// and its conversion: where the payload lies in each file.
inline std::string WithoutPayloadOffset(std::string json) {
  const std::string key = "\"payloadOffset\":";
  const size_t at = json.find(key);
  if (at != std::string::npos) json.erase(at, json.find(',', at) + 1 - at);
  return json;
}

}  // namespace nettrace::test
