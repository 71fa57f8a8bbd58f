// The result schema's type grammar, its consistency check and its JSON form
// (api/result_schema.h; the rows are in result_table_*.cc).
#include "api/result_schema.h"

#include <set>
#include <vector>

#include "base/json_writer.h"

namespace nettrace::api {

namespace {

constexpr std::string_view kArraySuffix = "[]";
constexpr std::string_view kMapPrefix = "map:";
constexpr std::string_view kEnumPrefix = "enum:";

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool IsShapeName(std::string_view s) {
  if (s.empty() || s[0] < 'A' || s[0] > 'Z') return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// The tables in the order their shapes are printed (and generated).
std::vector<Rows<ResultRow>> AllTables() {
  return {SummaryResultRows(), StackResultRows(), RuntimeResultRows(), ViewResultRows(), VerdictResultRows()};
}

// `visit(shapeRow, firstField, fieldCount)` for each shape of every table.
template <typename Visit>
void ForEachShape(Visit visit) {
  for (const Rows<ResultRow>& table : AllTables()) {
    for (size_t i = 0; i < table.size();) {
      size_t end = i + 1;
      while (end < table.size() && !(table.begin()[end].flags & kShapeRow)) ++end;
      visit(table.begin()[i], table.begin() + i + 1, end - i - 1);
      i = end;
    }
  }
}

void WriteType(JsonWriter& w, std::string_view text) {
  ResultType t;
  ParseResultType(text, &t);  // CheckResultTables (a [schema] test) keeps every row parseable
  static const char* const kinds[] = {"number", "integer", "string", "boolean", "unknown", "enum", "shape", "array", "map"};
  w.BeginObject().Key("kind").String(kinds[t.kind]);
  if (t.kind == ResultType::kShape) w.Key("name").String(t.text);
  if (t.kind == ResultType::kEnum) {
    w.Key("values").BeginArray();
    for (std::string_view rest = t.text; !rest.empty();) {
      const size_t bar = rest.find('|');
      w.String(rest.substr(0, bar));
      rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    }
    w.EndArray();
  }
  if (t.kind == ResultType::kArray || t.kind == ResultType::kMap) {
    w.Key("items");
    WriteType(w, t.text);
  }
  w.EndObject();
}

}  // namespace

bool ParseResultType(std::string_view text, ResultType* out) {
  *out = ResultType();
  if (text.size() > kArraySuffix.size() && text.substr(text.size() - kArraySuffix.size()) == kArraySuffix) {
    out->kind = ResultType::kArray;
    out->text = text.substr(0, text.size() - kArraySuffix.size());
    ResultType item;
    return ParseResultType(out->text, &item);
  }
  if (StartsWith(text, kMapPrefix)) {
    out->kind = ResultType::kMap;
    out->text = text.substr(kMapPrefix.size());
    ResultType item;
    return ParseResultType(out->text, &item);
  }
  if (StartsWith(text, kEnumPrefix)) {
    out->kind = ResultType::kEnum;
    out->text = text.substr(kEnumPrefix.size());
    return !out->text.empty() && out->text.front() != '|' && out->text.back() != '|' &&
           out->text.find("||") == std::string_view::npos;
  }
  static const std::pair<std::string_view, ResultType::Kind> scalars[] = {
      {"number", ResultType::kNumber}, {"integer", ResultType::kInteger}, {"string", ResultType::kString},
      {"boolean", ResultType::kBool},  {"unknown", ResultType::kUnknown},
  };
  for (const auto& [name, kind] : scalars)
    if (text == name) return out->kind = kind, true;
  out->kind = ResultType::kShape;
  out->text = text;
  return IsShapeName(text);
}

std::string CheckResultTables() {
  std::set<std::string_view> shapes;
  std::vector<std::string_view> referenced;  // shape names used by a type, checked at the end
  std::string fault;
  auto fail = [&](std::string why) {
    if (fault.empty()) fault = std::move(why);
  };
  auto use = [&](std::string_view text, const std::string& where) {
    ResultType t;
    if (!ParseResultType(text, &t)) return fail(where + ": bad type '" + std::string(text) + "'");
    while (t.kind == ResultType::kArray || t.kind == ResultType::kMap) ParseResultType(t.text, &t);
    if (t.kind == ResultType::kShape) referenced.push_back(t.text);
  };
  for (const Rows<ResultRow>& table : AllTables())
    if (table.size() == 0 || !(table.begin()->flags & kShapeRow)) return "a result table does not open with a shape row";
  ForEachShape([&](const ResultRow& shape, const ResultRow* fields, size_t count) {
    if (!IsShapeName(shape.name) || !shapes.insert(shape.name).second)
      fail(std::string("shape '") + shape.name + "' is not a new capitalised name");
    std::set<std::string_view> names;
    for (size_t i = 0; i < count; ++i) {
      const std::string where = std::string(shape.name) + "." + fields[i].name;
      if (!names.insert(fields[i].name).second) fail(where + ": named twice");
      use(fields[i].type ? fields[i].type : "", where);
    }
  });
  for (const ResultSpec& spec : ResultSpecs()) {
    if (!FindQuery(spec.query)) fail(std::string("result of unknown query '") + spec.query + "'");
    use(spec.type, std::string("result of ") + spec.query);
  }
  for (std::string_view name : referenced)
    if (!shapes.count(name)) fail("no shape named '" + std::string(name) + "'");
  return fault;
}

std::string ResultSchemaJson() {
  JsonWriter w;
  w.BeginObject().Key("commands").BeginArray();
  for (const ResultSpec& spec : ResultSpecs()) {
    w.BeginObject().Key("query").String(spec.query).Key("format").String(spec.format).Key("lines").Bool(spec.lines);
    w.Key("type");
    WriteType(w, spec.type);
    w.Key("doc").String(spec.doc).EndObject();
  }
  w.EndArray().Key("shapes").BeginArray();
  ForEachShape([&](const ResultRow& shape, const ResultRow* fields, size_t count) {
    w.BeginObject().Key("name").String(shape.name).Key("doc").String(shape.doc ? shape.doc : "");
    w.Key("fields").BeginArray();
    for (size_t i = 0; i < count; ++i) {
      const ResultRow& f = fields[i];
      w.BeginObject().Key("name").String(f.name).Key("type");
      WriteType(w, f.type);
      w.Key("optional").Bool(f.flags & kOptional).Key("nullable").Bool(f.flags & kNullable);
      if (f.doc) w.Key("doc").String(f.doc);
      w.EndObject();
    }
    w.EndArray().EndObject();
  });
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace::api
