#include "heap/heap_report.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <map>

#include "analysis/views/view_format.h"
#include "base/json_writer.h"

namespace nettrace::heap {

namespace {

std::string Hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, v);
  return buffer;
}

// Rows with objects, largest shallow size first (then retained, then name: a stable order).
std::vector<uint32_t> SortedRows(const HeapAnalysis& a) {
  std::vector<uint32_t> rows;
  for (uint32_t r = 0; r < a.rows.size(); ++r) {
    if (a.rows[r].count > 0) rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [&](uint32_t x, uint32_t y) {
    const TypeRow &a1 = a.rows[x], &b1 = a.rows[y];
    if (a1.size != b1.size) return a1.size > b1.size;
    if (a1.retained != b1.retained) return a1.retained > b1.retained;
    if (a1.name != b1.name) return a1.name < b1.name;
    return a1.module < b1.module;
  });
  return rows;
}

void WriteInfo(JsonWriter& w, const HeapGraph& g) {
  const HeapInfo& i = g.info;
  w.Key("source").String(i.source);
  w.Key("processName").String(i.processName);
  w.Key("processId").Int(i.processId);
  w.Key("pointerSize").UInt(i.pointerSize);
  w.Key("creationTool").String(i.creationTool);
  w.Key("timeCollectedTicks").Int(i.timeCollectedTicks);
  w.Key("gcNumber").Int(i.gcNumber);
  w.Key("weakRootsIgnored").UInt(i.weakRootsIgnored);
  w.Key("unknownTypes").UInt(i.unknownTypes);
  w.Key("nodeLimitReached").Bool(i.nodeLimitReached);
}

void WriteTotals(JsonWriter& w, const Snapshot& s) {
  const HeapAnalysis& a = s.analysis;
  w.Key("totals").BeginObject();
  w.Key("nodes").UInt(s.graph.nodeCount());
  w.Key("edges").UInt(s.graph.edgeCount());
  w.Key("objects").UInt(a.objects);
  w.Key("bytes").UInt(a.bytes);
  uint64_t types = 0;
  for (const TypeRow& r : a.rows) types += r.count > 0;
  w.Key("types").UInt(types);
  w.Key("unreachableObjects").UInt(a.unreachableObjects);
  w.Key("unreachableBytes").UInt(a.unreachableBytes);
  w.EndObject();
}

void WriteRowFields(JsonWriter& w, const TypeRow& r) {
  w.Key("name").String(r.name).Key("module").String(r.module);
}

void WriteLargest(JsonWriter& w, const Snapshot& s, uint32_t limit) {
  const HeapGraph& g = s.graph;
  std::vector<NodeIndex> nodes;
  for (NodeIndex n = 0; n < g.nodeCount(); ++n) {
    if (g.nodeAddress[n] != 0) nodes.push_back(n);
  }
  const size_t k = std::min<size_t>(limit, nodes.size());
  std::partial_sort(nodes.begin(), nodes.begin() + static_cast<ptrdiff_t>(k), nodes.end(), [&](NodeIndex x, NodeIndex y) {
    if (g.nodeSize[x] != g.nodeSize[y]) return g.nodeSize[x] > g.nodeSize[y];
    return x < y;
  });
  w.Key("largest").BeginArray();
  for (size_t i = 0; i < k; ++i) {
    const NodeIndex n = nodes[i];
    w.BeginObject().Key("node").UInt(n);
    WriteRowFields(w, s.analysis.rows[s.analysis.rowOfType[g.nodeType[n]]]);
    w.Key("address").String(Hex(g.nodeAddress[n])).Key("size").UInt(g.nodeSize[n]);
    w.Key("retained").UInt(s.analysis.retained[n]).Key("root").String(s.analysis.RootPath(g, n));
    w.EndObject();
  }
  w.EndArray();
}

// The rows a --paths-to argument names: exact name or "module!name" (or "dll!name"),
// else every row whose name holds it, case-insensitively.
std::vector<uint32_t> MatchRows(const HeapAnalysis& a, const std::string& type) {
  std::vector<uint32_t> exact, partial;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string needle = lower(type);
  for (uint32_t r = 0; r < a.rows.size(); ++r) {
    const TypeRow& row = a.rows[r];
    if (row.count == 0) continue;
    const std::string dll = row.module.substr(row.module.find_last_of('/') + 1);
    if (row.name == type || row.module + "!" + row.name == type || dll + "!" + row.name == type) exact.push_back(r);
    else if (lower(row.name).find(needle) != std::string::npos) partial.push_back(r);
  }
  return exact.empty() ? partial : exact;
}

// "[other roots] / [strong Handles]" → kind "[other roots] / [strong Handles]"; "[static vars] /
// [static var X.Y]" → "[static vars]": the category without the one variable.
std::string RootKind(const std::string& root) {
  const size_t cut = root.find(" / ");
  if (cut == std::string::npos || root.compare(0, cut, "[other roots]") == 0) return root;
  return root.substr(0, cut);
}

void WritePaths(JsonWriter& w, const Snapshot& s, const HeapQuery& q) {
  const HeapGraph& g = s.graph;
  const HeapAnalysis& a = s.analysis;
  const std::vector<uint32_t> rows = MatchRows(a, q.pathsTo);
  std::vector<bool> wanted(a.rows.size(), false);
  for (uint32_t r : rows) wanted[r] = true;
  std::vector<NodeIndex> instances;
  for (NodeIndex n = 0; n < g.nodeCount(); ++n) {
    const uint32_t row = a.RowOf(g, n);
    if (row != kNoRow && wanted[row]) instances.push_back(n);
  }
  std::stable_sort(instances.begin(), instances.end(), [&](NodeIndex x, NodeIndex y) { return a.retained[x] > a.retained[y]; });
  struct Kind { uint64_t count = 0, size = 0, retained = 0; };
  std::map<std::string, Kind> kinds;
  for (NodeIndex n : instances) {
    Kind& k = kinds[a.RootPath(g, n)];
    ++k.count, k.size += g.nodeSize[n], k.retained += a.retained[n];
  }
  w.Key("type").String(q.pathsTo).Key("matched").BeginArray();
  for (uint32_t r : rows) w.BeginObject(), WriteRowFields(w, a.rows[r]), w.EndObject();
  w.EndArray().Key("instances").UInt(instances.size());
  w.Key("roots").BeginArray();
  for (const auto& [root, k] : kinds) {
    w.BeginObject().Key("root").String(root).Key("kind").String(RootKind(root));
    w.Key("count").UInt(k.count).Key("size").UInt(k.size).Key("retained").UInt(k.retained).EndObject();
  }
  w.EndArray().Key("paths").BeginArray();
  for (size_t i = 0; i < std::min<size_t>(q.paths, instances.size()); ++i) {
    const NodeIndex n = instances[i];
    w.BeginObject().Key("node").UInt(n).Key("address").String(Hex(g.nodeAddress[n]));
    w.Key("size").UInt(g.nodeSize[n]).Key("retained").UInt(a.retained[n]);
    const std::string root = a.RootPath(g, n);
    w.Key("root").String(root).Key("kind").String(RootKind(root)).Key("steps").BeginArray();
    std::vector<NodeIndex> path;
    if (a.pathParent[n] != kNoNode) {
      for (NodeIndex v = n; v != g.root; v = a.pathParent[v]) path.push_back(v);
    }
    for (size_t k = path.size(); k-- > 0;) {
      const NodeIndex v = path[k];
      w.BeginObject().Key("node").UInt(v).Key("type").String(g.types[g.nodeType[v]].name);
      if (g.nodeAddress[v] != 0) w.Key("address").String(Hex(g.nodeAddress[v]));
      w.Key("size").UInt(g.nodeSize[v]).EndObject();
    }
    w.EndArray().EndObject();
  }
  w.EndArray();
}

}  // namespace

std::string HeapJson(const Snapshot& s, const HeapQuery& q) {
  JsonWriter w;
  w.BeginObject();
  WriteInfo(w, s.graph);
  WriteTotals(w, s);
  w.Key("roots").BeginArray();
  for (const RootCategory& r : s.analysis.roots) {
    w.BeginObject().Key("node").UInt(r.node).Key("name").String(r.name);
    w.Key("retained").UInt(r.retained).Key("inclusive").UInt(r.inclusive).EndObject();
  }
  w.EndArray().Key("types").BeginArray();
  for (uint32_t r : SortedRows(s.analysis)) {
    const TypeRow& row = s.analysis.rows[r];
    w.BeginObject();
    WriteRowFields(w, row);
    w.Key("count").UInt(row.count).Key("size").UInt(row.size).Key("retained").UInt(row.retained);
    w.Key("inclusive").UInt(row.inclusive).EndObject();
  }
  w.EndArray();
  WriteLargest(w, s, q.largest);
  if (!q.pathsTo.empty()) {
    w.Key("pathsTo").BeginObject();
    WritePaths(w, s, q);
    w.EndObject();
  }
  w.EndObject();
  return w.Take();
}

std::string HeapPathsJson(const Snapshot& s, const HeapQuery& q) {
  JsonWriter w;
  w.BeginObject();
  WritePaths(w, s, q);
  w.EndObject();
  return w.Take();
}

std::string HeapTypesCsv(const Snapshot& s) {
  std::string out = "name,module,count,size,retained,inclusive\n";
  for (uint32_t r : SortedRows(s.analysis)) {
    const TypeRow& row = s.analysis.rows[r];
    AppendCsvField(row.name, &out), out += ',', AppendCsvField(row.module, &out);
    out += ',' + std::to_string(row.count) + ',' + std::to_string(row.size) + ',' + std::to_string(row.retained) + ',' +
           std::to_string(row.inclusive) + '\n';
  }
  return out;
}

}  // namespace nettrace::heap
