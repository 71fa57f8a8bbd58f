#include "analysis/universal_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "events/trace_clock.h"

namespace nettrace {

void WriteUniversalSummaryFields(JsonWriter& w, const TraceModel& model, const SymbolCollector& symbols,
                                 const std::vector<uint64_t>& eventsPerThread) {
  const UniversalCollector& u = symbols.universal();
  if (!u.any()) return;
  const UniversalSymbols& tables = u.symbols();
  // Every pid that announced itself, wrote events or owns a thread row, in pid order.
  std::map<uint64_t, const UniversalProcess*> pids;
  for (const UniversalProcess& p : tables.processes()) pids[p.pid] = &p;
  for (const auto& [pid, stats] : u.processStats()) pids.emplace(pid, nullptr);
  std::map<uint64_t, std::set<uint64_t>> threadsOf;
  std::map<uint64_t, uint64_t> eventsOf;  // by pid: the events of its threads
  for (size_t t = 0; t < model.threads().size(); ++t) {
    const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    if (!e.processId) continue;
    pids.emplace(*e.processId, nullptr);
    if (e.osThreadId) threadsOf[*e.processId].insert(*e.osThreadId);
    if (t < eventsPerThread.size()) eventsOf[*e.processId] += eventsPerThread[t];
  }
  uint64_t totalCpu = 0;
  for (const auto& [pid, stats] : u.processStats()) totalCpu += stats.cpuValue;
  auto ms = [&](uint64_t ticks) { return TicksToMs(model.info(), ticks); };

  w.Key("processes").BeginArray();
  for (const auto& [pid, p] : pids) {
    static const UniversalProcessStats kNoStats;
    auto st = u.processStats().find(pid);
    const UniversalProcessStats& s = st == u.processStats().end() ? kNoStats : st->second;
    w.BeginObject();
    w.Key("pid").UInt(pid);
    w.Key("name").String(p ? p->name : "");
    w.Key("namespaceId").UInt(p ? p->namespaceId : 0);
    w.Key("namespaceName").String(p ? p->namespaceName : "");
    w.Key("existing").Bool(p && p->existing);
    if (p) w.Key("startMs").Fixed(ms(p->startTime), 6);
    if (p && p->exitTime) w.Key("exitMs").Fixed(ms(*p->exitTime), 6);
    w.Key("events").UInt(eventsOf[pid]);
    w.Key("cpuSamples").UInt(s.cpuSamples);
    w.Key("cpuNanoseconds").UInt(s.cpuValue);
    w.Key("cpuShare").Fixed(totalCpu ? static_cast<double>(s.cpuValue) / static_cast<double>(totalCpu) : 0.0, 6);
    w.Key("cswitches").UInt(s.cswitches);
    w.Key("offCpuNanoseconds").UInt(s.cswitchValue);
    w.Key("threads").BeginArray();
    for (uint64_t tid : threadsOf[pid]) w.UInt(tid);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  size_t with = 0;
  for (const UniversalMapping& m : tables.mappings()) with += m.symbolCount > 0;
  w.Key("mappings").BeginObject();
  w.Key("count").UInt(tables.mappings().size());
  w.Key("withSymbols").UInt(with);
  w.Key("withoutSymbols").UInt(tables.mappings().size() - with);
  w.Key("symbols").UInt(tables.symbols().size());
  w.Key("listed").BeginArray();
  for (size_t i = 0; i < tables.mappings().size() && i < kSummaryMappingLimit; ++i) {
    const UniversalMapping& m = tables.mappings()[i];
    w.BeginObject();
    w.Key("pid").UInt(m.pid);
    w.Key("id").UInt(m.id);
    w.Key("start").UInt(m.start);
    w.Key("end").UInt(m.end);
    w.Key("fileOffset").UInt(m.fileOffset);
    w.Key("file").String(m.fileName);
    w.Key("symbols").UInt(m.symbolCount);
    // The metadata JSON (ELF build-id, PE/ReadyToRun perf-map identity) as text.
    if (const MappingMetadata* md = m.metadataId ? tables.Metadata(m.metadataId) : nullptr) {
      w.Key("symbolMetadata").String(md->symbolMetadata);
      if (auto identity = ParseMappingIdentity(md->symbolMetadata)) {
        w.Key("identity").BeginObject();
        for (const auto& [key, value] : *identity) w.Key(key).String(value);
        w.EndObject();
      }
      w.Key("versionMetadata").String(md->versionMetadata);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace nettrace
