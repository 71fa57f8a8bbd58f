// The query table (core/api): the command-line parser and the JSON parser fill the same
// request structs, name the bad option, and every row is reachable by its flag and its name.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "api/query_options.h"
#include "api/request_json.h"

using namespace nettrace;
using namespace nettrace::api;

namespace {
const QuerySpec& Query(const char* name) {
  const QuerySpec* q = FindQuery(name);
  REQUIRE(q != nullptr);
  return *q;
}
}  // namespace

TEST_CASE("argv and JSON give the same stack query", "[schema]") {
  Request cli, json;
  REQUIRE(ParseCliArgs(Query("flame"),
                       {"--event", "GC/AllocationTick", "--thread", "42", "--from", "1.5", "--to", "300", "--inverted",
                        "--by-thread", "--process", "7", "--by-process", "--weight", "traceevent-thread-time",
                        "--exception-type", "System.IO.IOException", "--no-stitch-async", "--provider", "P"},
                       &cli)
              .ok());
  REQUIRE(ParseJsonRequest(Query("flame"),
                           R"({"event":"GC/AllocationTick","thread":42,"fromMs":1.5,"toMs":300,"inverted":true,)"
                           R"("groupByThread":true,"process":7,"groupByProcess":true,"weight":"traceevent-thread-time",)"
                           R"("exceptionType":"System.IO.IOException","stitchAsync":false,"provider":"P",)"
                           R"("name":"profile","signal":{},"nested":[1,{"a":"}"}],"x":null})",
                           &json)
              .ok());
  for (const Request* r : {&cli, &json}) {
    CHECK(r->stack.event == "GC/AllocationTick");
    CHECK(r->stack.thread == 42u);
    CHECK(r->stack.fromMs == 1.5);
    CHECK(r->stack.toMs == 300);
    CHECK(r->stack.inverted);
    CHECK(r->stack.groupByThread);
    CHECK(r->stack.process == 7u);
    CHECK(r->stack.groupByProcess);
    CHECK(r->stack.weight == WeightKind::kTraceEventThreadTime);
    CHECK(r->stack.exceptionType == "System.IO.IOException");
    CHECK_FALSE(r->stack.stitchAsync);
    CHECK(r->stack.provider == "P");
  }
  CHECK(RequestJson(cli) == RequestJson(json));
  CHECK(RequestJson(cli) ==
        R"({"event":"GC/AllocationTick","thread":42,"fromMs":1.5,"toMs":300,"inverted":true,"groupByThread":true,)"
        R"("process":7,"groupByProcess":true,"weight":"traceevent-thread-time","exceptionType":"System.IO.IOException",)"
        R"("stitchAsync":false,"provider":"P"})");
}

TEST_CASE("bad options are errors naming the option", "[schema]") {
  Request r;
  CHECK(ParseCliArgs(Query("flame"), {"--weight", "bogus"}, &r).message() ==
        "--weight takes auto, count, bytes, thread-time, managed-thread-time, traceevent-thread-time, wait-time, alloc-bytes or alloc-objects, not 'bogus'");
  CHECK(ParseCliArgs(Query("events"), {"--from", "x"}, &r).message() == "--from takes a number, not 'x'");
  CHECK(ParseCliArgs(Query("events"), {"--limit", "-1"}, &r).message() == "--limit takes a number ≥ 0, not '-1'");
  CHECK(ParseCliArgs(Query("events"), {"--limit"}, &r).message() == "--limit takes a value");
  CHECK(ParseCliArgs(Query("summary"), {"--weight", "count"}, &r).message() == "unknown option '--weight'");
  CHECK(ParseCliArgs(Query("export"), {"--format", "folded"}, &r).message() ==
        "--format takes speedscope, chrome, csv, stacks-csv, pprof or otlp, not 'folded'");
  // JSON: the bad member is left out, the others applied, the first error returned.
  Request j;
  Status s = ParseJsonRequest(Query("flame"), R"({"weight":"nope","thread":"12","inverted":true})", &j);
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK(s.message() == "weight takes auto, count, bytes, thread-time, managed-thread-time, traceevent-thread-time, wait-time, alloc-bytes or alloc-objects, not 'nope'");
  CHECK(j.stack.weight == WeightKind::kAuto);
  CHECK_FALSE(j.stack.thread.has_value());
  CHECK(j.stack.inverted);
  // CLI-only options are not part of a JS request.
  Request k;
  REQUIRE(ParseJsonRequest(Query("flame"), R"({"format":"folded","chunkSize":5})", &k).ok());
  CHECK(k.format.empty());
  CHECK(!k.chunkSize);
  CHECK(!ParseJsonRequest(Query("flame"), R"({"weight":"count",)", &k).ok());
}

TEST_CASE("every option of every query is reachable by its flag and by its name", "[schema]") {
  for (const QuerySpec& q : Queries()) {
    std::set<std::string> flags, names;
    for (const OptionSpec& o : Options()) {
      if (!(o.queries & q.bit)) continue;
      INFO(q.name << " " << o.flag);
      CHECK(flags.insert(o.flag).second);  // one meaning per flag and per name in a query
      CHECK(names.insert(o.name).second);
      CHECK(FindFlag(q, o.flag) == &o);
      CHECK(FindName(q, o.name) == &o);
      if (o.negation) CHECK(FindFlag(q, o.negation) == &o);
      std::vector<std::string> args = {o.flag};
      if (o.type == OptionType::kEnum) {
        const std::string values = o.values;
        args.push_back(values.substr(0, values.find('|')));
      } else if (o.type != OptionType::kBool) {
        args.push_back("3");
      }
      Request r;
      CHECK(ParseCliArgs(q, args, &r).ok());
      REQUIRE(r.given.size() == 1);
      CHECK(r.given[0].first == &o);
      if (!o.cliOnly) {  // the JSON the CLI's request prints reads back as the same request
        Request back;
        CHECK(ParseJsonRequest(q, RequestJson(r), &back).ok());
        CHECK(RequestJson(back) == RequestJson(r));
      }
    }
  }
  // The weights' values are WeightKind's order.
  for (int i = 0; i <= static_cast<int>(WeightKind::kWaitTime); ++i) {
    Request r;
    const char* names[] = {"auto", "count", "bytes", "thread-time", "managed-thread-time", "traceevent-thread-time", "wait-time"};
    REQUIRE(ParseCliArgs(Query("top"), {"--weight", names[i]}, &r).ok());
    CHECK(static_cast<int>(r.stack.weight) == i);
  }
  // The histogram's groupBy values are HistogramGroup's order (the wasm binding takes the
  // request whole: no second table of these names in TypeScript).
  const std::pair<const char*, HistogramGroup> groups[] = {{"none", HistogramGroup::kNone},
                                                           {"provider", HistogramGroup::kProvider},
                                                           {"eventType", HistogramGroup::kEventType},
                                                           {"thread", HistogramGroup::kThread}};
  for (const auto& [name, group] : groups) {
    Request r;
    REQUIRE(ParseJsonRequest(Query("histogram"), std::string(R"({"groupBy":")") + name + R"(","buckets":7})", &r).ok());
    CHECK(r.groupBy == group);
    CHECK(r.buckets == 7u);
  }
}

TEST_CASE("request JSON strings and numbers read back exactly", "[schema]") {
  std::vector<JsonMember> m;
  REQUIRE(ParseFlatJsonObject(R"({"a":"x\"y\\\u00e9\ud83d\ude00\n","b":-1.25e3,"c":false})", &m).ok());
  REQUIRE(m.size() == 3);
  CHECK(m[0].text == "x\"y\\\xc3\xa9\xf0\x9f\x98\x80\n");
  CHECK(m[1].number == -1250);
  CHECK((m[2].kind == JsonMember::kBool && !m[2].flag));
  CHECK(JsonNumber(300) == "300");
  CHECK(JsonNumber(0.1) == "0.1");
  CHECK(JsonNumber(1.0 / 3) == "0.3333333333333333");
  CHECK(JsonNumber(-2) == "-2");
}

TEST_CASE("grouping and folding options: argv and JSON alike, a repeated pattern flag adds to the list", "[schema]") {
  Request cli, json;
  REQUIRE(ParseCliArgs(Query("diff"),
                       {"--group-by-module", "--just-my-code", "--drop-time-leaves", "--group-pats", "System.*->SYS",
                        "--fold-pats", "a", "--fold-pats", "b", "--exclude-pats", "Idle", "--include-pats", "Main"},
                       &cli)
              .ok());
  REQUIRE(ParseJsonRequest(Query("diff"),
                           R"({"groupByModule":true,"justMyCode":true,"dropTimeLeaves":true,"groupPats":"System.*->SYS",)"
                           R"("foldPats":"a;b","excludePats":"Idle","includePats":"Main"})",
                           &json)
              .ok());
  for (const Request* r : {&cli, &json}) {
    CHECK(r->stack.transform.groupByModule);
    CHECK(r->stack.transform.justMyCode);
    CHECK(r->stack.transform.dropTimeLeaves);
    CHECK(r->stack.transform.groupPats == "System.*->SYS");
    CHECK(r->stack.transform.foldPats == "a;b");
    CHECK(r->stack.transform.excludePats == "Idle");
    CHECK(r->stack.transform.includePats == "Main");
  }
  CHECK(RequestJson(cli) == RequestJson(json));
  Request r;
  CHECK(ParseCliArgs(Query("flame"), {"--fold-pats"}, &r).message() == "--fold-pats takes a ';'-separated pattern list");
}

TEST_CASE("export's own options: speedscope form, payload CSV, stack text", "[schema]") {
  Request r;
  REQUIRE(ParseCliArgs(Query("export"), {"--speedscope", "sampled", "--no-csv-payload", "--stack-text", "--event", "X"}, &r).ok());
  CHECK(r.speedscope == "sampled");
  CHECK_FALSE(r.csvPayload);
  CHECK(r.stackText);
  CHECK(Given(r, "event"));
  CHECK_FALSE(Given(r, "provider"));
  CHECK(ParseCliArgs(Query("export"), {"--speedscope", "flat"}, &r).message() ==
        "--speedscope takes evented or sampled, not 'flat'");
  CHECK(ParseCliArgs(Query("flame"), {"--speedscope", "sampled"}, &r).message() == "unknown option '--speedscope'");
}
