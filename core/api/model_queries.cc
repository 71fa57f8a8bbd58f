#include "api/model_queries.h"

#include <algorithm>

#include "analysis/summary/trace_summary.h"
#include "analysis/views/allocation_view.h"
#include "analysis/views/model_views.h"
#include "analysis/views/stack_views.h"
#include "api/request_json.h"

namespace nettrace::api {

namespace {

using Args = std::vector<std::string>;

ViewFormat FormatOf(const Request& r) { return r.format == "csv" ? ViewFormat::kCsv : ViewFormat::kJson; }
StackQuery StacksOf(const TraceModel& m, const Request& r) { return WithDefaultWeight(m, r.stack); }

// A row's answer from one of the model's documents in the request's format.
template <std::string (*Document)(const TraceModel&, ViewFormat)>
Status ViewAnswer(const TraceModel& m, const Request& r, const Args&, const AnswerPart&, std::string* out) {
  *out = Document(m, FormatOf(r));
  return Status();
}

Status Summary(const TraceModel& m, const Request&, const Args&, const AnswerPart& part, std::string* out) {
  *out = SummaryJson(m, part);
  return Status();
}
Status Counts(const TraceModel& m, const Request&, const Args&, const AnswerPart&, std::string* out) {
  *out = TraceEventCounts(m);
  return Status();
}
Status Flame(const TraceModel& m, const Request& r, const Args&, const AnswerPart&, std::string* out) {
  *out = FlameGraphJson(m, StacksOf(m, r));
  return Status();
}
Status Top(const TraceModel& m, const Request& r, const Args&, const AnswerPart&, std::string* out) {
  *out = TopFunctionsJson(m, StacksOf(m, r), r.count.value_or(20));
  return Status();
}
Status Sandwich(const TraceModel& m, const Request& r, const Args& args, const AnswerPart&, std::string* out) {
  if (args.size() != 1)
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "sandwich takes one FUNCTION (a frame name)");
  *out = SandwichJson(m, StacksOf(m, r), args[0]);
  return Status();
}
Status Allocations(const TraceModel& m, const Request& r, const Args&, const AnswerPart&, std::string* out) {
  AllocationViewOptions options;
  options.format = FormatOf(r);
  *out = AllocationsView(m, options);
  return Status();
}

}  // namespace

Rows<ModelQuery> ModelQueries() {
  // name, namesFrames, csv, lines, answer
  static const ModelQuery queries[] = {
      {"summary", false, false, false, Summary},
      {"counts", false, false, true, Counts},
      {"flame", true, false, false, Flame},
      {"top", true, false, false, Top},
      {"sandwich", true, false, false, Sandwich},
      {"gc", false, true, false, ViewAnswer<GcDocument>},
      {"jit", false, true, false, ViewAnswer<JitDocument>},
      {"exceptions", true, true, false, ViewAnswer<ExceptionsDocument>},
      {"contention", false, true, false, ViewAnswer<ContentionDocument>},
      {"activities", true, true, false, ViewAnswer<ActivitiesDocument>},
      {"counters", false, true, false, ViewAnswer<CountersDocument>},
      {"threadpool", false, true, false, ViewAnswer<ThreadPoolDocument>},
      {"allocations", true, true, false, Allocations},
  };
  return {queries, sizeof queries / sizeof queries[0]};
}

const ModelQuery* FindModelQuery(std::string_view name) {
  for (const ModelQuery& q : ModelQueries())
    if (name == q.name) return &q;
  return nullptr;
}

Status CheckAnswerFormat(const ModelQuery& query, const Request& request) {
  const std::string& f = request.format;
  if (f.empty() || f == "json" || (query.csv && f == "csv")) return Status();
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                       std::string(query.name) + (query.csv ? " --format takes json or csv" : " answers json only"));
}

Status ParseModelRequest(const QuerySpec& query, std::string_view json, Request* request) {
  const Status parsed = ParseJsonRequest(query, json, request, {"format", "n"});
  if (FindName(query, "format")) return parsed;
  // A query the CLI takes no --format for answers json only: a format asked of it is kept, for
  // CheckAnswerFormat to refuse as the CLI refuses the flag.
  std::vector<JsonMember> members;
  (void)ParseFlatJsonObject(json, &members);
  for (const JsonMember& m : members)
    if (m.key == "format" && m.kind == JsonMember::kString) request->format = m.text;
  return parsed;
}

}  // namespace nettrace::api
