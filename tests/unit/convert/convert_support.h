// Shared by the tests that convert a trace to v6 and compare it with the original.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "convert/convert_session.h"

namespace nettrace::test {

// `in` converted by the conversion facade (the one `nettrace convert` and the wasm build
// drive), the v6 bytes appended to `out` — after an input error, what was read before it;
// the first error of the read or the conversion, else Ok.
inline Status ConvertToV6(const std::vector<uint8_t>& in, std::vector<uint8_t>* out,
                          V6Converter::Options options = {}) {
  ConvertSession session(options);
  (void)session.PushChunk(in.data(), in.size());
  const Status s = session.Finish();
  const std::vector<uint8_t> bytes = session.TakeOutput();
  out->insert(out->end(), bytes.begin(), bytes.end());
  return s.ok() ? session.flushStatus() : s;
}

// An event's JSON without one numeric member (its key and value).
inline std::string WithoutMember(std::string json, const std::string& name) {
  const std::string key = "\"" + name + "\":";
  const size_t at = json.find(key);
  if (at != std::string::npos) json.erase(at, json.find(',', at) + 1 - at);
  return json;
}

// An event's JSON without "payloadOffset", the one field that must differ between a trace
// and its conversion: where the payload lies in each file.
inline std::string WithoutPayloadOffset(std::string json) { return WithoutMember(std::move(json), "payloadOffset"); }

}  // namespace nettrace::test
