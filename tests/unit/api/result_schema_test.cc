// The result schema (core/api/result_schema.h): its type grammar, and the tables themselves
// hold together — every type parses, every shape a type names exists, no shape or field is
// named twice, every result belongs to a query of the request table.
#include <catch2/catch.hpp>

#include <string>

#include "api/query_options.h"
#include "api/result_schema.h"

using namespace nettrace::api;

TEST_CASE("result types parse by the grammar and bad ones are refused", "[schema]") {
  ResultType t;
  REQUIRE(ParseResultType("integer", &t));
  CHECK(t.kind == ResultType::kInteger);
  REQUIRE(ParseResultType("SummaryThread[]", &t));
  CHECK(t.kind == ResultType::kArray);
  CHECK(t.text == "SummaryThread");
  // "[]" binds last: an array of maps.
  REQUIRE(ParseResultType("map:integer[]", &t));
  CHECK(t.kind == ResultType::kArray);
  CHECK(t.text == "map:integer");
  REQUIRE(ParseResultType("map:string", &t));
  CHECK(t.kind == ResultType::kMap);
  CHECK(t.text == "string");
  REQUIRE(ParseResultType("enum:info|data-loss|error", &t));
  CHECK(t.kind == ResultType::kEnum);
  CHECK(t.text == "info|data-loss|error");
  for (const char* bad : {"", "int", "summary", "Summary Thread", "[]", "map:", "enum:", "enum:a||b", "enum:a|", "Foo[]x"})
    CHECK_FALSE(ParseResultType(bad, &t));
}

TEST_CASE("the result tables hold together and every printed query has a result", "[schema]") {
  CHECK(CheckResultTables() == "");
  // Every query whose default output is a JSON document has its result shape (counts prints
  // lines of text, export and convert write files, collect and live run sessions, and
  // write-sample-universal and heap-snapshot write a trace).
  for (const QuerySpec& q : Queries()) {
    const std::string name = q.name;
    if (name == "counts" || name == "export" || name == "convert" || name == "collect" || name == "live" ||
        name == "write-sample-universal" || name == "heap-snapshot")
      continue;
    bool found = false;
    for (const ResultSpec& spec : ResultSpecs()) found = found || name == spec.query;
    INFO(name);
    CHECK(found);
  }
  const std::string json = ResultSchemaJson();
  CHECK(json.rfind(R"({"commands":[{"query":"summary","format":"json","lines":false,"type":{"kind":"shape","name":"Summary"})", 0) == 0);
  CHECK(SchemaJson(json, "{}").find(R"(],"results":{"commands":)") != std::string::npos);
}
