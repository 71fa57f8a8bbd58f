// The parsers, the schema document and the --help text of the query table
// (api/query_options.h; the rows are in query_table.cc).
#include "api/query_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/request_json.h"
#include "base/json_writer.h"

namespace nettrace::api {

namespace {

Status Bad(std::string message) { return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message)); }

// "a|b|c" → {"a", "b", "c"}.
std::vector<std::string> EnumValues(const OptionSpec& o) {
  std::vector<std::string> out;
  for (const char* p = o.values; p && *p;) {
    const char* bar = std::strchr(p, '|');
    out.emplace_back(p, bar ? static_cast<size_t>(bar - p) : std::strlen(p));
    p = bar ? bar + 1 : p + std::strlen(p);
  }
  return out;
}

// "count, bytes or wait-time".
std::string ValueList(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
  return out;
}

// Checks a value of the option's type and fills the typed fields; `who` names the option in
// the message (its flag on the command line, its name in JSON).
Status Check(const OptionSpec& o, const std::string& who, OptionValue* v) {
  if (o.type == OptionType::kEnum) {
    const std::vector<std::string> values = EnumValues(o);
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i] == v->text) return v->index = i, Status();
    return Bad(who + " takes " + ValueList(values) + ", not '" + v->text + "'");
  }
  if (o.type == OptionType::kNumber || o.type == OptionType::kCount) {
    if (!std::isfinite(v->number)) return Bad(who + " takes a number, not '" + v->text + "'");
    if (o.type == OptionType::kCount && v->number < 0) return Bad(who + " takes a number ≥ 0, not '" + v->text + "'");
    if (o.type == OptionType::kCount) v->number = std::floor(v->number);
  }
  return Status();
}

// Text of a command-line value → the option's value.
Status FromText(const OptionSpec& o, const char* text, OptionValue* v) {
  v->text = text;
  if (o.type == OptionType::kNumber || o.type == OptionType::kCount) {
    char* end = nullptr;
    v->number = std::strtod(text, &end);
    if (*end || end == text) return Bad(std::string(o.flag) + " takes a number, not '" + text + "'");
  }
  return Check(o, o.flag, v);
}

const char* TypeName(OptionType t) {
  switch (t) {
    case OptionType::kString: return "string";
    case OptionType::kEnum: return "enum";
    case OptionType::kNumber: return "number";
    case OptionType::kCount: return "count";
    case OptionType::kBool: return "bool";
    case OptionType::kPatterns: return "patterns";
    case OptionType::kFiles: return "files";
  }
  return "string";
}

}  // namespace

const QuerySpec* FindQuery(std::string_view name) {
  for (const QuerySpec& q : Queries())
    if (name == q.name) return &q;
  return nullptr;
}

const OptionSpec* FindFlag(const QuerySpec& query, std::string_view flag) {
  for (const OptionSpec& o : Options())
    if ((o.queries & query.bit) && (flag == o.flag || (o.negation && flag == o.negation))) return &o;
  return nullptr;
}

const OptionSpec* FindName(const QuerySpec& query, std::string_view name) {
  for (const OptionSpec& o : Options())
    if ((o.queries & query.bit) && name == o.name) return &o;
  return nullptr;
}

Status ParseCliArgs(const QuerySpec& query, const std::vector<std::string>& args, Request* request) {
  for (size_t i = 0; i < args.size(); ++i) {
    const OptionSpec* o = FindFlag(query, args[i]);
    if (!o) return Bad("unknown option '" + args[i] + "'");
    OptionValue v;
    if (o->type == OptionType::kBool) {
      v.flag = args[i] == o->flag;
    } else if (i + 1 >= args.size()) {
      return Bad(args[i] + (o->type == OptionType::kPatterns ? " takes a ';'-separated pattern list" : " takes a value"));
    } else if (Status s = FromText(*o, args[++i].c_str(), &v); !s.ok()) {
      return s;
    }
    if (o->type == OptionType::kPatterns || o->type == OptionType::kFiles) {
      // A repeated pattern flag adds to the list, as PerfView's ';' does: one given entry.
      // Files: each is set on its own (the request keeps the list); the given entry holds
      // them all, NUL-separated (RequestJson writes them as an array).
      auto same = std::find_if(request->given.begin(), request->given.end(), [&](const auto& g) { return g.first == o; });
      if (same != request->given.end()) {
        same->second.text += (o->type == OptionType::kFiles ? std::string(1, '\0') : std::string(";")) + v.text;
        o->set(o->type == OptionType::kFiles ? v : same->second, request);
        continue;
      }
    }
    o->set(v, request);
    request->given.emplace_back(o, std::move(v));
  }
  return Status();
}

Status ParseJsonRequest(const QuerySpec& query, std::string_view json, Request* request,
                        const std::vector<std::string_view>& cliOnlyTaken) {
  std::vector<JsonMember> members;
  Status first = ParseFlatJsonObject(json, &members);
  for (JsonMember& m : members) {
    const OptionSpec* o = FindName(query, m.key);
    const bool taken = o && (!o->cliOnly || std::find(cliOnlyTaken.begin(), cliOnlyTaken.end(), o->name) != cliOnlyTaken.end());
    if (!taken || m.kind == JsonMember::kNull) continue;
    const bool isText =
        o->type == OptionType::kString || o->type == OptionType::kEnum || o->type == OptionType::kPatterns;
    const bool isNumber = o->type == OptionType::kNumber || o->type == OptionType::kCount;
    const bool typeOk = isText ? m.kind == JsonMember::kString
                        : isNumber ? m.kind == JsonMember::kNumber
                                   : m.kind == JsonMember::kBool;
    OptionValue v;
    v.text = m.text;
    v.number = m.number;
    v.flag = m.flag;
    Status s = typeOk ? Check(*o, m.key, &v) : Bad(m.key + " takes a " + TypeName(o->type) + " value");
    if (!s.ok()) {
      if (first.ok()) first = s;
      continue;
    }
    o->set(v, request);
    request->given.emplace_back(o, std::move(v));
  }
  return first;
}

bool Given(const Request& request, std::string_view name) {
  for (const auto& g : request.given)
    if (name == g.first->name) return true;
  return false;
}

std::string RequestJson(const Request& request) {
  std::string out = "{";
  for (const auto& [o, v] : request.given) {
    if (out.size() > 1) out += ',';
    AppendJsonString(o->name, &out);
    out += ':';
    if (o->type == OptionType::kFiles) {
      out += '[';
      for (size_t from = 0, n = 0; from <= v.text.size(); ++n) {
        const size_t end = std::min(v.text.find('\0', from), v.text.size());
        if (n) out += ',';
        AppendJsonString(std::string_view(v.text).substr(from, end - from), &out);
        from = end + 1;
      }
      out += ']';
    } else if (o->type == OptionType::kBool) out += v.flag ? "true" : "false";
    else if (o->type == OptionType::kNumber || o->type == OptionType::kCount) out += JsonNumber(v.number);
    else AppendJsonString(v.text, &out);
  }
  return out + "}";
}

std::string SchemaJson(const std::string& resultsJson, const std::string& budgetsJson) {
  JsonWriter w;
  w.BeginObject().Key("queries").BeginArray();
  for (const QuerySpec& q : Queries()) {
    w.BeginObject().Key("name").String(q.name).Key("args").String(q.args).Key("doc").String(q.doc);
    w.Key("native").Bool(q.native).Key("options").BeginArray();
    for (const OptionSpec& o : Options()) {
      if (!(o.queries & q.bit)) continue;
      w.BeginObject().Key("name").String(o.name).Key("flag").String(o.flag);
      if (o.negation) w.Key("negation").String(o.negation);
      w.Key("type").String(TypeName(o.type));
      if (o.type == OptionType::kEnum) {
        w.Key("values").BeginArray();
        for (const std::string& v : EnumValues(o)) w.String(v);
        w.EndArray();
      } else if (o.values) {
        w.Key("valueName").String(o.values);
      }
      if (o.defaultValue) w.Key("default").String(o.defaultValue);
      w.Key("cliOnly").Bool(o.cliOnly).Key("doc").String(o.doc).EndObject();
    }
    w.EndArray().EndObject();
  }
  // The results after the requests, so the request part reads as it did (api/result_schema.h).
  // The budget file `check --budget` reads, after the results.
  w.EndArray().Key("results").Raw(resultsJson).Key("budgets").Raw(budgetsJson).EndObject();
  return w.Take();
}

std::string CliHelp(bool native) {
  std::string out = "commands:\n";
  uint32_t shown = 0;
  for (const QuerySpec& q : Queries()) {
    if (native && !q.native) continue;
    shown |= q.bit;
    out += std::string("  ") + q.name + (*q.args ? std::string(" ") + q.args : std::string()) + ": " + q.doc + "\n";
  }
  out += "options:\n";
  uint32_t header = 0;
  for (const OptionSpec& o : Options()) {
    const uint32_t queries = o.queries & shown;
    if (!queries) continue;
    if (queries != header) {
      header = queries;
      std::string names;
      for (const QuerySpec& q : Queries())
        if (q.bit & queries) names += (names.empty() ? "" : ", ") + std::string(q.name);
      if (std::strcmp(o.name, "chunkSize") == 0) names = "every command reading a FILE";
      out += "  " + names + ":\n";
    }
    std::string line = std::string("    ") + o.flag;
    if (o.negation) line += std::string(" / ") + o.negation;
    if (o.type != OptionType::kBool && o.values) line += std::string(" ") + o.values;
    line += std::string("   ") + o.doc;
    if (o.defaultValue && o.type != OptionType::kBool) line += std::string(" (default ") + o.defaultValue + ")";
    out += line + "\n";
  }
  return out;
}

}  // namespace nettrace::api
