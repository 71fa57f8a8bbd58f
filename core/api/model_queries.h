// core/api — the queries answered from the trace model and the request alone, by name: the
// one dispatch that the facade (TraceSession::Query), the native CLI, the wasm module's
// query() and the JS API's query() all go through. A query added here (a row naming its
// analysis) is reachable from each of them without a line in any; tests/node/query_dispatch
// .test.mjs runs every row through each and compares the outputs with the native CLI's.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/query_options.h"
#include "base/status.h"
#include "model/trace_model.h"

namespace nettrace::api {

// Where a long answer goes as it is written (the summary's thread list of a million threads is
// 100 MB); what is left is returned.
using AnswerPart = std::function<void(const std::string&)>;

struct ModelQuery {
  const char* name;  // the query table's (query_table.cc)
  bool namesFrames;  // reads frame names: the model's symbols are prepared first
  bool csv;          // takes format "csv" as well as "json"
  bool lines;        // its answer is lines ("Provider/Event, count"), not one JSON document
  // `args`: the positional arguments after FILE (sandwich: FUNCTION).
  Status (*answer)(const TraceModel& model, const Request& request, const std::vector<std::string>& args,
                   const AnswerPart& part, std::string* out);
};

Rows<ModelQuery> ModelQueries();
const ModelQuery* FindModelQuery(std::string_view name);
// The request's format checked against the query's ("" is json).
Status CheckAnswerFormat(const ModelQuery& query, const Request& request);
// A JSON request (the JS API's object) for a model query: its options, and the CLI-only ones
// it answers with (format, and top's n).
Status ParseModelRequest(const QuerySpec& query, std::string_view json, Request* request);

}  // namespace nettrace::api
