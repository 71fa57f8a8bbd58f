// The model queries (core/api/model_queries.h): the one dispatch by name that the CLI, the
// wasm module and the JS API go through. Every row is a query of the table the native CLI
// runs on a FILE; the generic JSON request takes the CLI-only options the answers need and no
// others; errors are values naming what is wrong. tests/node/query_dispatch.test.mjs runs
// every row through each transport on the committed traces.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "api/model_queries.h"
#include "trace_session.h"

using namespace nettrace;
using namespace nettrace::api;

TEST_CASE("every model query is a query of the table that the native CLI runs on a FILE", "[schema]") {
  std::set<std::string> names;
  for (const ModelQuery& m : ModelQueries()) {
    INFO(m.name);
    CHECK(names.insert(m.name).second);
    const QuerySpec* spec = FindQuery(m.name);
    REQUIRE(spec != nullptr);
    CHECK(spec->native);
    CHECK(std::string(spec->args).rfind("FILE", 0) == 0);
    CHECK(FindModelQuery(m.name) == &m);
    // A query with a CSV answer has the format option that asks for it.
    if (m.csv) CHECK(FindName(*spec, "format") != nullptr);
  }
  CHECK(FindModelQuery("export") == nullptr);
  CHECK(FindModelQuery("events") == nullptr);
}

TEST_CASE("the generic request takes format and top's n, and no other CLI-only option", "[schema]") {
  Request request;
  REQUIRE(ParseModelRequest(*FindQuery("top"), R"({"n": 3, "format": "csv", "chunkSize": 7, "weight": "count"})",
                            &request).ok());
  CHECK(request.count == 3u);
  CHECK(request.format == "csv");  // top has no --format: kept, so that it is refused, not ignored
  CHECK(!CheckAnswerFormat(*FindModelQuery("top"), request).ok());
  CHECK(!request.chunkSize.has_value());
  CHECK(request.stack.weight == WeightKind::kCount);

  Request plain;
  REQUIRE(ParseJsonRequest(*FindQuery("gc"), R"({"format": "csv"})", &plain).ok());
  CHECK(plain.format.empty());  // the JS API's own requests take no CLI-only option

  Request bad;
  const Status s = ParseModelRequest(*FindQuery("gc"), R"({"format": "xml"})", &bad);
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK(s.message().find("format") != std::string::npos);
}

TEST_CASE("a format a query does not answer is refused, naming the query", "[schema]") {
  Request csv;
  csv.format = "csv";
  CHECK(CheckAnswerFormat(*FindModelQuery("gc"), csv).ok());
  CHECK(CheckAnswerFormat(*FindModelQuery("allocations"), csv).ok());
  const Status s = CheckAnswerFormat(*FindModelQuery("top"), csv);
  CHECK(s.message() == "top answers json only");
  Request none;
  CHECK(CheckAnswerFormat(*FindModelQuery("summary"), none).ok());
}

TEST_CASE("the facade's Query: an unknown name or a missing argument is an error, not an answer", "[schema]") {
  TraceSession session;
  std::string out;
  Status s = session.Query("export", "{}", {}, &out);
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK(s.message() == "no query named 'export'");
  s = session.Query("sandwich", "{}", {}, &out);
  CHECK(s.message() == "sandwich takes one FUNCTION (a frame name)");
  s = session.Query("gc", R"({"format": "csv"})", {}, &out);
  REQUIRE(s.ok());
  CHECK(out == session.GcCsv());
  REQUIRE(session.Query("counts", "{}", {}, &out).ok());
  CHECK(out == session.TraceEventCounts());
}
