// The view tables' CSV reader (dataset/csv_table.h): quoted fields with commas, quotes and
// line breaks; CRLF; a field that is not its column's type is an error naming the line and
// column; and an event's payload fields as one JSON object (summary_fields.h). The rows
// themselves are read back by DuckDB and hyparquet in tests/node/dataset_tables.test.mjs.
#include <catch2/catch.hpp>

#include <string>

#include "dataset/csv_table.h"
#include "dataset/summary_fields.h"

namespace nettrace::dataset {
namespace {

const std::vector<CsvColumn> kColumns = {
    {"name", "name", CsvType::kString}, {"n", "n", CsvType::kInt64}, {"x", "x", CsvType::kDouble}, {"ok", "ok", CsvType::kBool}};

Status Write(const std::string& csv) {
  parquet::MemorySink sink;
  return WriteCsvTable(csv, kColumns, {}, &sink);
}

TEST_CASE("csv table: quoted fields, CRLF, empty fields and missing columns are read", "[dataset]") {
  CHECK(Write("name,n,x,ok\n\"a, \"\"b\"\"\nc\",1,2.5,true\r\nplain,,,\n").ok());
  CHECK(Write("n,name\n7,x\n").ok());  // x and ok are not in the document: null
  CHECK(Write("name,n,x,ok\n").ok());  // no rows
}

TEST_CASE("csv table: a field that is not its column's type names its line and column", "[dataset]") {
  const Status bad = Write("name,n,x,ok\na,1,2,true\nb,1x,2,false\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message() == "CSV line 3, column 'n': '1x' is not a number");
  CHECK(Write("name,n,x,ok\na,1,2,yes\n").message() == "CSV line 2, column 'ok': 'yes' is not a boolean");
  CHECK(Write("name,n,x,ok\na,99999999999999999999,2,true\n").message() ==
        "CSV line 2, column 'n': '99999999999999999999' is not a number");
}

TEST_CASE("payload fields as one JSON object", "[dataset]") {
  CHECK(NameValueArrayAsObject(R"([{"name":"Count","value":3},{"name":"Reason","value":"a\"b"},{"name":"Ids","value":[1,2]}])") ==
        R"({"Count":3,"Reason":"a\"b","Ids":[1,2]})");
  CHECK(NameValueArrayAsObject("[]") == "{}");
  CHECK_FALSE(NameValueArrayAsObject(R"([{"value":3}])").has_value());
  CHECK_FALSE(NameValueArrayAsObject(R"({"name":"x"})").has_value());
}

}  // namespace
}  // namespace nettrace::dataset
