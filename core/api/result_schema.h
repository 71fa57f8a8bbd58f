// core/api — the result half of the facade's one schema. Every JSON
// document a query prints (`nettrace summary`, `gc`, `flame`, the event views, …) is described
// once here, in tables of named shapes (result_table_*.cc): each field's name, JSON type,
// whether it may be absent or null, and its doc line. `nettrace schema --json` prints them next
// to the request table, scripts/gen-api-types.mjs writes the TypeScript result types from them
// (web/src/api/generated/results.ts), and tests/node/result_schema.test.mjs validates the
// output of every query on every committed trace against them, so a writer that changes a
// document without changing its shape here fails a test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/query_options.h"

namespace nettrace::api {

enum ResultFieldFlag : uint8_t {
  kShapeRow = 1u << 0,  // the row opens a shape: name = the shape's (TypeScript) name, doc = its doc
  kOptional = 1u << 1,  // the key may be absent
  kNullable = 1u << 2,  // the value may be null
};

// One row of a result table: a shape header (kShapeRow) or a field of the shape above it.
// `type` is a small grammar, parsed by ParseResultType:
//   number | integer | string | boolean | unknown      JSON scalars ("unknown": any JSON value)
//   enum:a|b|c                                         one of these strings
//   Name                                               another shape (a capitalised name)
//   T[]                                                an array of T
//   map:T                                              an object of any keys, each value a T
// ("[]" binds last: "map:integer[]" is an array of maps.)
// A field named "*" is the shape's rest: keys the shape does not name, each value a `type`.
struct ResultRow {
  const char* name;
  const char* type;  // nullptr on a shape row
  uint8_t flags;
  const char* doc;  // nullptr: none
};

// A query's JSON output: the shape it prints, and whether it prints one document per line.
struct ResultSpec {
  const char* query;   // a query of the request table (Queries())
  const char* format;  // the --format value that prints it ("json"; "runs": diff --baseline … --compare …'s json)
  const char* type;    // in the grammar above
  bool lines;          // JSON lines: one `type` per line (events)
  const char* doc;
};

// The tables, split by what they describe: the summary, events and stacks, GC/JIT and ps, the
// event views.
Rows<ResultRow> SummaryResultRows();
Rows<ResultRow> StackResultRows();
Rows<ResultRow> RuntimeResultRows();
Rows<ResultRow> ViewResultRows();
Rows<ResultRow> VerdictResultRows();  // check and the many-run diff (result_table_verdict.cc)
Rows<ResultSpec> ResultSpecs();

// A parsed `type`: kind, and the shape name / enum values / element type it carries.
struct ResultType {
  enum Kind : uint8_t { kNumber, kInteger, kString, kBool, kUnknown, kEnum, kShape, kArray, kMap } kind = kUnknown;
  std::string_view text;  // kShape: the name; kEnum: "a|b|c"; kArray/kMap: the element's type text
};
// False when `text` is not in the grammar.
bool ParseResultType(std::string_view text, ResultType* out);

// Whether the tables hold together: every type parses, every shape named exists once, every
// field name is unique in its shape, every query in ResultSpecs exists. The first fault, else "".
std::string CheckResultTables();

// The "results" member of `nettrace schema --json`:
// {"commands": [{query, format, lines, type, doc}], "shapes": [{name, doc, fields: [{name, type, optional, nullable, doc}]}]}
// where each type is {"kind": …} with "name" (shape), "values" (enum) or "items" (array, map).
std::string ResultSchemaJson();

}  // namespace nettrace::api
