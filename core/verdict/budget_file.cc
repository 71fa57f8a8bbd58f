#include "verdict/budget_file.h"

#include <cmath>

#include "api/query_options.h"
#include "api/result_schema.h"
#include "base/json_writer.h"

namespace nettrace::verdict {

namespace {

constexpr const char* kFunctionMetrics[] = {"functions.inclusivePercent", "functions.exclusivePercent"};

// Errors after parsing: "what:line:column: why", at the offending value.
class Checker {
 public:
  Checker(std::string_view text, std::string_view what) : text_(text), what_(what) {}

  Status Fail(const JsonValue& at, const std::string& why) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at.offset && i < text_.size(); ++i)
      line += text_[i] == '\n', column = text_[i] == '\n' ? 1 : column + 1;
    return Status::Error(ErrorCode::kInvalidArgument, at.offset,
                         std::string(what_) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + why);
  }
  Status Expect(const JsonValue& v, JsonValue::Kind kind, const std::string& who) const {
    if (v.kind == kind) return Status();
    return Fail(v, who + " must be " + JsonKindName(kind) + ", not " + JsonKindName(v.kind));
  }

 private:
  std::string_view text_, what_;
};

// A budget's "query": the flame query's options (the request table's rows, as the JS API's
// flameGraph takes them), strictly: an unknown or CLI-only key is an error, not ignored.
Status ParseQuery(const Checker& c, const JsonValue& q, StackQuery* out) {
  NETTRACE_RETURN_IF_ERROR(c.Expect(q, JsonValue::kObject, "\"query\""));
  const api::QuerySpec* flame = api::FindQuery("flame");
  JsonWriter w;
  w.BeginObject();
  for (const auto& [key, v] : q.members) {
    const api::OptionSpec* o = api::FindName(*flame, key);
    if (!o || o->cliOnly) return c.Fail(v, "\"" + key + "\" is not a stack query option (`nettrace flame --help` lists them)");
    w.Key(key);
    if (v.kind == JsonValue::kString) w.String(v.text);
    else if (v.kind == JsonValue::kNumber) w.Exact(v.number);
    else if (v.kind == JsonValue::kBool) w.Bool(v.boolean);
    else return c.Fail(v, "\"" + key + "\" takes a string, number or boolean");
  }
  w.EndObject();
  api::Request request;
  if (Status s = api::ParseJsonRequest(*flame, w.Take(), &request); !s.ok()) return c.Fail(q, s.message());
  *out = request.stack;
  return Status();
}

Status ParseLimit(const Checker& c, const JsonValue& v, const std::string& key, std::optional<double>* out) {
  NETTRACE_RETURN_IF_ERROR(c.Expect(v, JsonValue::kNumber, "\"" + key + "\""));
  if ((key == "maxIncrease" || key == "maxIncreasePercent") && v.number < 0)
    return c.Fail(v, "\"" + key + "\" is an increase: 0 or more");
  *out = v.number;
  return Status();
}

Status ParseBudget(const Checker& c, const JsonValue& b, Budget* out) {
  NETTRACE_RETURN_IF_ERROR(c.Expect(b, JsonValue::kObject, "a budget"));
  const JsonValue* metric = b.Find("metric");
  if (!metric) return c.Fail(b, "a budget needs \"metric\" (`nettrace schema --json` lists them under budgets.metrics)");
  NETTRACE_RETURN_IF_ERROR(c.Expect(*metric, JsonValue::kString, "\"metric\""));
  out->metric = metric->text;
  out->kind = FindMetric(out->metric);
  out->functions = out->metric == kFunctionMetrics[0] || out->metric == kFunctionMetrics[1];
  out->exclusive = out->metric == kFunctionMetrics[1];
  if (!out->kind && !out->functions) return c.Fail(*metric, "unknown metric '" + out->metric + "'");
  const char* argumentName = out->functions ? "pattern" : out->kind->argumentName;
  for (const auto& [key, v] : b.members) {
    if (key == "metric" || key == "description") continue;
    if (key == "name") {
      NETTRACE_RETURN_IF_ERROR(c.Expect(v, JsonValue::kString, "\"name\""));
      out->name = v.text;
    } else if (key == "max") {
      NETTRACE_RETURN_IF_ERROR(ParseLimit(c, v, key, &out->max));
    } else if (key == "min") {
      NETTRACE_RETURN_IF_ERROR(ParseLimit(c, v, key, &out->min));
    } else if (key == "maxIncrease") {
      NETTRACE_RETURN_IF_ERROR(ParseLimit(c, v, key, &out->maxIncrease));
    } else if (key == "maxIncreasePercent") {
      NETTRACE_RETURN_IF_ERROR(ParseLimit(c, v, key, &out->maxIncreasePercent));
    } else if (key == "query" && (out->functions || out->kind->stacks)) {
      NETTRACE_RETURN_IF_ERROR(ParseQuery(c, v, &out->args.query));
    } else if (argumentName && key == argumentName) {
      NETTRACE_RETURN_IF_ERROR(c.Expect(v, JsonValue::kString, "\"" + key + "\""));
      out->args.argument = v.text;
    } else {
      return c.Fail(v, "\"" + key + "\" is not a member of a " + out->metric + " budget");
    }
  }
  if (out->kind && out->kind->argument == MetricArgument::kRequired && out->args.argument.empty())
    return c.Fail(b, std::string("a ") + out->metric + " budget needs \"" + argumentName + "\"");
  if (!out->max && !out->min && !out->relative())
    return c.Fail(b, "a budget needs a limit: \"max\", \"min\", \"maxIncrease\" or \"maxIncreasePercent\"");
  if (out->functions && (out->max || out->min || out->maxIncreasePercent || !out->maxIncrease))
    return c.Fail(b, out->metric + " limits how much a function's share grows: \"maxIncrease\" (points) only");
  if (out->name.empty()) {
    out->name = out->metric;
    if (!out->args.argument.empty()) out->name += " " + out->args.argument;
  }
  return Status();
}

}  // namespace

Status ParseBudgetFile(std::string_view text, std::string_view what, BudgetFile* out) {
  *out = BudgetFile();
  JsonValue doc;
  NETTRACE_RETURN_IF_ERROR(ParseJson(text, what, &doc));
  const Checker c(text, what);
  NETTRACE_RETURN_IF_ERROR(c.Expect(doc, JsonValue::kObject, "a budget file"));
  const JsonValue* list = doc.Find("budgets");
  if (!list) return c.Fail(doc, "a budget file needs \"budgets\": [ … ]");
  for (const auto& [key, v] : doc.members) {
    if (key == "budgets" || key == "$schema" || key == "description") continue;
    if (key == "alpha" || key == "minShare") {
      NETTRACE_RETURN_IF_ERROR(c.Expect(v, JsonValue::kNumber, "\"" + key + "\""));
      if (!(v.number > 0 && v.number < 1)) return c.Fail(v, "\"" + key + "\" lies between 0 and 1");
      (key == "alpha" ? out->alpha : out->minShare) = v.number;
    } else {
      return c.Fail(v, "\"" + key + "\" is not a member of a budget file");
    }
  }
  NETTRACE_RETURN_IF_ERROR(c.Expect(*list, JsonValue::kArray, "\"budgets\""));
  if (list->items.empty()) return c.Fail(*list, "\"budgets\" is empty");
  for (const JsonValue& b : list->items) {
    Budget budget;
    budget.index = out->budgets.size();
    NETTRACE_RETURN_IF_ERROR(ParseBudget(c, b, &budget));
    out->budgets.push_back(std::move(budget));
  }
  return Status();
}

std::string SchemaJson() { return api::SchemaJson(api::ResultSchemaJson(), BudgetSchemaJson()); }

std::string BudgetSchemaJson() {
  JsonWriter w;
  w.BeginObject().Key("file").BeginArray();
  auto member = [&](const char* name, const char* type, const char* doc) {
    w.BeginObject().Key("name").String(name).Key("type").String(type).Key("doc").String(doc).EndObject();
  };
  member("budgets", "Budget[]", "the budgets, checked in order");
  member("alpha", "number", "family-wise error rate of the relative budgets' tests (default 0.05)");
  member("minShare", "number", "function metrics: shares with a lower mean over all traces are not tested (default 0.001)");
  member("description", "string", "free text");
  member("$schema", "string", "free text (an editor's schema reference)");
  w.EndArray().Key("budget").BeginArray();
  member("metric", "string", "one of metrics[].name, or functions.inclusivePercent / functions.exclusivePercent");
  member("name", "string", "the verdict's name (default: the metric and its argument)");
  member("max", "number", "each checked trace's value must be at most this");
  member("min", "number", "each checked trace's value must be at least this");
  member("maxIncrease", "number",
         "with --baseline: the mean may not grow by more than this (the metric's unit; percentage points for shares), "
         "when the change is significant");
  member("maxIncreasePercent", "number", "with --baseline: the mean may not grow by more than this % of the baseline's mean");
  member("query", "object", "stacks.* and functions.*: the stack selection, the flame query's options (event, weight, …)");
  member("type | activity | pattern", "string", "the metric's argument (metrics[].argument)");
  member("description", "string", "free text");
  w.EndArray().Key("metrics").BeginArray();
  for (const MetricKind& k : MetricKinds()) {
    w.BeginObject().Key("name").String(k.name).Key("unit").String(k.unit);
    if (k.argumentName) w.Key("argument").String(k.argumentName).Key("argumentRequired").Bool(k.argument == MetricArgument::kRequired);
    w.Key("query").Bool(k.stacks).Key("doc").String(k.doc).EndObject();
  }
  for (const char* f : kFunctionMetrics) {
    w.BeginObject().Key("name").String(f).Key("unit").String("points").Key("argument").String("pattern");
    w.Key("argumentRequired").Bool(false).Key("query").Bool(true);
    w.Key("doc").String(std::string("relative only (maxIncrease, with --baseline): no function's mean ") +
                        (f == kFunctionMetrics[0] ? "inclusive" : "exclusive") +
                        " share grows significantly by more than maxIncrease points; \"pattern\": only functions it matches");
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace::verdict
