// AppendJsonString (base/json_writer.h): printable ASCII is copied as it is (in runs), the
// characters JSON escapes are escaped, valid UTF-8 is kept and invalid bytes become U+FFFD,
// wherever they fall in a string. Trace strings are data: any byte must give valid JSON.
#include <catch2/catch.hpp>

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
