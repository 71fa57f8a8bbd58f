// AppendJsonString (base/json_writer.h): printable ASCII is copied as it is (in runs), the
// characters JSON escapes are escaped, valid UTF-8 is kept and invalid bytes become U+FFFD,
// wherever they fall in a string. Trace strings are data: any byte must give valid JSON.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "base/json_writer.h"

using namespace nettrace;

namespace {
std::string Json(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}
}  // namespace

TEST_CASE("AppendJsonString escapes what JSON needs and copies runs of plain text", "[base]") {
  CHECK(Json("") == "\"\"");
  CHECK(Json("System.Char[]") == "\"System.Char[]\"");
  CHECK(Json("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(Json("\"") == "\"\\\"\"");
  CHECK(Json("line\nnext\r\ttab") == "\"line\\nnext\\r\\ttab\"");
  CHECK(Json(std::string_view("nul\0end", 7)) == "\"nul\\u0000end\"");
  CHECK(Json("\x01\x1f\x7f") == "\"\\u0001\\u001f\\u007f\"");
  CHECK(Json("caf\xC3\xA9 ok") == "\"caf\xC3\xA9 ok\"");           // UTF-8 kept
  CHECK(Json("\xE2\x82\xAC") == "\"\xE2\x82\xAC\"");               // at the start
  CHECK(Json("bad \xC3 byte") == "\"bad \xEF\xBF\xBD byte\"");      // truncated sequence
  CHECK(Json("end\xFF") == "\"end\xEF\xBF\xBD\"");                  // invalid last byte
  CHECK(Json(" ~") == "\" ~\"");                                    // the ends of the plain range
}

// SpillTo: a writer that hands its text out at the ends of objects and arrays writes, in
// parts, exactly the document it writes whole; each part but the last ends a value, and none
// is held longer than the threshold plus one value.
TEST_CASE("JsonWriter::SpillTo writes the same document in parts", "[base]") {
  auto write = [](JsonWriter& w) {
    w.BeginObject().Key("threads").BeginArray();
    for (int i = 0; i < 1000; ++i) w.BeginObject().Key("index").UInt(i).Key("name").String("worker \"" + std::to_string(i) + "\"").EndObject();
    w.EndArray().Key("done").Bool(true).EndObject();
  };
  JsonWriter whole;
  write(whole);
  std::string parts;
  size_t spills = 0, largest = 0;
  JsonWriter spilled;
  spilled.SpillTo([&](const std::string& part) {
    parts += part;
    ++spills;
    largest = std::max(largest, part.size());
    CHECK((part.back() == '}' || part.back() == ']'));
  }, 256);
  write(spilled);
  parts += spilled.Take();
  CHECK(parts == whole.str());
  CHECK(spills > 50);
  CHECK(largest < 256 + 64);
}
