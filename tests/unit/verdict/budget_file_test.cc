// Budget files (core/verdict/budget_file.h) and the JSON reader under them: what is accepted,
// and the errors, with the line and column of the fault.
#include <catch2/catch.hpp>

#include "verdict/budget_file.h"
#include "verdict/json_value.h"

namespace nettrace::verdict {
namespace {

std::string ErrorOf(const std::string& text) {
  BudgetFile file;
  const Status s = ParseBudgetFile(text, "b.json", &file);
  return s.ok() ? "" : s.message();
}

TEST_CASE("a budget file with each kind of member", "[verdict][budget]") {
  BudgetFile file;
  REQUIRE(ParseBudgetFile(R"({"alpha": 0.01, "budgets": [
    {"metric": "gc.pauseP99Ms", "max": 20},
    {"name": "no timeouts", "metric": "exceptions.count", "type": "System.TimeoutException", "max": 0},
    {"metric": "stacks.inclusivePercent", "pattern": "MyApp!*Parse*", "min": 1, "max": 15,
     "query": {"event": "Thread/Sample", "weight": "thread-time", "justMyCode": true}},
    {"metric": "functions.exclusivePercent", "maxIncrease": 2, "pattern": "MyApp!%"},
    {"metric": "gc.allocatedMB", "maxIncreasePercent": 10}
  ]})", "b.json", &file).ok());
  REQUIRE(file.budgets.size() == 5);
  CHECK(file.alpha == 0.01);
  CHECK(file.budgets[0].name == "gc.pauseP99Ms");
  CHECK(*file.budgets[0].max == 20);
  CHECK(file.budgets[1].name == "no timeouts");
  CHECK(file.budgets[1].args.argument == "System.TimeoutException");
  CHECK(file.budgets[2].args.query.weight == WeightKind::kThreadTime);
  CHECK(file.budgets[2].args.query.transform.justMyCode);
  CHECK(*file.budgets[2].min == 1);
  CHECK(file.budgets[3].functions);
  CHECK(file.budgets[3].exclusive);
  CHECK(file.budgets[3].relative());
  CHECK(*file.budgets[4].maxIncreasePercent == 10);
}

TEST_CASE("budget file errors name the place and the rule", "[verdict][budget]") {
  CHECK(ErrorOf("{\"budgets\": [\n  {\"metric\": \"gc.pauseP99Ms\", \"max\": 20,}\n]}") ==
        "b.json:2:41: expected a member name in quotes");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "gc.pause", "max": 1}]})") == "b.json:1:25: unknown metric 'gc.pause'");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "gc.count"}]})") ==
        "b.json:1:14: a budget needs a limit: \"max\", \"min\", \"maxIncrease\" or \"maxIncreasePercent\"");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "gc.count", "mx": 1}]})") ==
        "b.json:1:43: \"mx\" is not a member of a gc.count budget");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "activity.p99Ms", "max": 1}]})") ==
        "b.json:1:14: a activity.p99Ms budget needs \"activity\"");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "stacks.inclusivePercent", "pattern": "x", "max": 1, "query": {"wieght": "count"}}]})") ==
        "b.json:1:98: \"wieght\" is not a stack query option (`nettrace flame --help` lists them)");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "stacks.inclusivePercent", "pattern": "x", "max": 1, "query": {"weight": "cycles"}}]})")
            .find("weight takes auto, count") != std::string::npos);
  CHECK(ErrorOf(R"({"budgets": [{"metric": "functions.inclusivePercent", "max": 2}]})").find("\"maxIncrease\" (points) only") !=
        std::string::npos);
  CHECK(ErrorOf(R"({"budgets": [{"metric": "gc.count", "max": "3"}]})") == "b.json:1:44: \"max\" must be a number, not a string");
  CHECK(ErrorOf(R"({"budgets": []})") == "b.json:1:13: \"budgets\" is empty");
  CHECK(ErrorOf(R"([])") == "b.json:1:1: a budget file must be an object, not an array");
  CHECK(ErrorOf(R"({"budgets": [{"metric": "gc.count", "max": 1}], "alpha": 2})") == "b.json:1:58: \"alpha\" lies between 0 and 1");
  CHECK(ErrorOf("") == "b.json:1:1: the document ends where a value was expected");
}

TEST_CASE("the JSON reader is strict and bounded", "[verdict][json]") {
  JsonValue v;
  REQUIRE(ParseJson(R"({"a": [1, -2.5e3, true, null, "x\u00e9\ud83d\ude00\n"], "b": {}})", "t", &v).ok());
  CHECK(v.Items("a").size() == 5);
  CHECK(v.Items("a")[1].number == -2500);
  CHECK(v.Items("a")[4].text == "x\xC3\xA9\xF0\x9F\x98\x80\n");
  CHECK(v.Find("b")->kind == JsonValue::kObject);
  for (const char* bad : {"01", "1.", "-", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "\"a", "nul", "1 2", "\"\t\"", "1e999"})
    CHECK_FALSE(ParseJson(bad, "t", &v).ok());
  const std::string deep(100, '[');
  const Status s = ParseJson(deep, "t", &v);
  CHECK(s.message() == "t:1:66: nested deeper than 64 levels");
  CHECK(s.offset() == 65);
}

}  // namespace
}  // namespace nettrace::verdict
