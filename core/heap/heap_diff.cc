// core/heap — growth between two snapshots by type: rows matched by name and module, each
// with count, shallow and retained size in both and the difference; grown rows first.
#include <algorithm>
#include <map>
#include <string>

#include "analysis/views/view_format.h"
#include "base/json_writer.h"
#include "heap/heap_report.h"

namespace nettrace::heap {

namespace {

struct DiffRow {
  std::string name, module;
  int64_t count[2] = {0, 0}, size[2] = {0, 0}, retained[2] = {0, 0};
  int64_t delta(const int64_t (&v)[2]) const { return v[1] - v[0]; }
};

std::vector<DiffRow> DiffRows(const Snapshot& baseline, const Snapshot& current) {
  std::map<std::pair<std::string, std::string>, DiffRow> rows;
  const Snapshot* sides[2] = {&baseline, &current};
  for (int side = 0; side < 2; ++side) {
    for (const TypeRow& r : sides[side]->analysis.rows) {
      if (r.count == 0) continue;
      DiffRow& d = rows[{r.name, r.module}];
      d.name = r.name, d.module = r.module;
      d.count[side] = static_cast<int64_t>(r.count);
      d.size[side] = static_cast<int64_t>(r.size);
      d.retained[side] = static_cast<int64_t>(r.retained);
    }
  }
  std::vector<DiffRow> out;
  for (auto& [key, d] : rows) {
    if (d.delta(d.count) != 0 || d.delta(d.size) != 0 || d.delta(d.retained) != 0) out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const DiffRow& a, const DiffRow& b) {
    if (a.delta(a.size) != b.delta(b.size)) return a.delta(a.size) > b.delta(b.size);
    if (a.delta(a.count) != b.delta(b.count)) return a.delta(a.count) > b.delta(b.count);
    return a.delta(a.retained) > b.delta(b.retained);
  });
  return out;
}

void WriteTriple(JsonWriter& w, const char* key, const int64_t (&v)[2]) {
  w.Key(key).BeginObject().Key("baseline").Int(v[0]).Key("current").Int(v[1]).Key("delta").Int(v[1] - v[0]).EndObject();
}

}  // namespace

std::string HeapDiffJson(const Snapshot& baseline, const Snapshot& current) {
  JsonWriter w;
  w.BeginObject();
  const Snapshot* sides[2] = {&baseline, &current};
  const char* names[2] = {"baseline", "current"};
  for (int side = 0; side < 2; ++side) {
    const HeapAnalysis& a = sides[side]->analysis;
    w.Key(names[side]).BeginObject().Key("source").String(sides[side]->graph.info.source);
    w.Key("objects").UInt(a.objects).Key("bytes").UInt(a.bytes).EndObject();
  }
  const std::vector<DiffRow> rows = DiffRows(baseline, current);
  w.Key("changedTypes").UInt(rows.size()).Key("types").BeginArray();
  for (const DiffRow& d : rows) {
    w.BeginObject().Key("name").String(d.name).Key("module").String(d.module);
    WriteTriple(w, "count", d.count);
    WriteTriple(w, "size", d.size);
    WriteTriple(w, "retained", d.retained);
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

std::string HeapDiffCsv(const Snapshot& baseline, const Snapshot& current) {
  std::string out =
      "name,module,count_baseline,count_current,count_delta,size_baseline,size_current,size_delta,"
      "retained_baseline,retained_current,retained_delta\n";
  for (const DiffRow& d : DiffRows(baseline, current)) {
    AppendCsvField(d.name, &out), out += ',', AppendCsvField(d.module, &out);
    for (const int64_t(*v)[2] : {&d.count, &d.size, &d.retained}) {
      out += ',' + std::to_string((*v)[0]) + ',' + std::to_string((*v)[1]) + ',' + std::to_string((*v)[1] - (*v)[0]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace nettrace::heap
