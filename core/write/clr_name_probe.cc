#include "write/clr_name_probe.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>
#include <tuple>

#include "format/clr_events.generated.h"
#include "write/nettrace_v5_writer.h"

namespace nettrace {

namespace {

// Past each provider's highest known id: where TraceEvent's own fallback shows.
constexpr uint32_t kIdsPastHighest = 16;

// GCDynamicEvent names .NET 10's GC writes (DATAS: seen in tests/data/dotnet10's Server GC
// traces) beyond the table's, and one no runtime writes: TraceEvent's name for an unknown one.
constexpr std::string_view kMoreDynamicNames[] = {"SizeAdaptationSample", "SizeAdaptationTuning",
                                                  "SizeAdaptationFullGCTuning", "NoSuchGcDynamicEvent"};

const char* ProviderName(clr::Provider p) {
  switch (p) {
    case clr::Provider::kRuntime: return "Microsoft-Windows-DotNETRuntime";
    case clr::Provider::kRundown: return "Microsoft-Windows-DotNETRuntimeRundown";
    case clr::Provider::kPrivate: return "Microsoft-Windows-DotNETRuntimePrivate";
    case clr::Provider::kStress: return "Microsoft-Windows-DotNETRuntimeStress";
    case clr::Provider::kSampleProfiler: return "Microsoft-DotNETCore-SampleProfiler";
    default: return "";
  }
}

void AppendUtf16(std::string_view ascii, std::vector<uint8_t>* out) {
  for (char c : ascii) out->push_back(static_cast<uint8_t>(c)), out->push_back(0);
  out->push_back(0), out->push_back(0);
}

}  // namespace

std::vector<ClrNameProbe> ClrNameProbes() {
  size_t count = 0;
  const clr::EventInfo* all = clr::AllEvents(&count);
  // Per CLR provider: the versions the table has for each id.
  std::map<clr::Provider, std::map<uint32_t, std::vector<uint32_t>>> known;
  for (const clr::Provider p : {clr::Provider::kRuntime, clr::Provider::kRundown, clr::Provider::kPrivate,
                                clr::Provider::kStress})
    known[p];
  for (size_t i = 0; i < count; ++i)
    if (all[i].provider != clr::Provider::kSampleProfiler) known[all[i].provider][all[i].id].push_back(all[i].version);
  std::vector<ClrNameProbe> probes;
  for (const auto& [provider, ids] : known) {
    const uint32_t highest = ids.empty() ? 0 : ids.rbegin()->first;
    for (uint32_t id = 0; id <= highest + kIdsPastHighest; ++id) {
      auto it = ids.find(id);
      const std::vector<uint32_t> versions = it == ids.end() ? std::vector<uint32_t>{0} : it->second;
      for (uint32_t v : versions) probes.push_back({ProviderName(provider), id, v, ""});
    }
  }
  // Each dynamic template's name with its whole Data, and with one byte less (TraceEvent
  // names a shorter one generically); other names with no Data.
  const char* runtime = ProviderName(clr::Provider::kRuntime);
  size_t dynamicCount = 0;
  const clr::EventInfo* dynamic = clr::AllGcDynamicEvents(&dynamicCount);
  for (size_t i = 0; i < dynamicCount; ++i) {
    const uint32_t size = clr::GcDynamicDataSize(dynamic[i]);
    probes.push_back({runtime, clr::kGcDynamicEventId, 0, dynamic[i].opcodeName, size});
    probes.push_back({runtime, clr::kGcDynamicEventId, 0, dynamic[i].opcodeName, size - 1});
  }
  for (std::string_view n : kMoreDynamicNames) probes.push_back({runtime, clr::kGcDynamicEventId, 0, std::string(n), 0});
  for (uint32_t id = 0; id <= 2; ++id) probes.push_back({ProviderName(clr::Provider::kSampleProfiler), id, 0, ""});
  return probes;
}

std::string ClrNameProbeList() {
  std::string out;
  for (const ClrNameProbe& p : ClrNameProbes())
    out += p.provider + '\t' + std::to_string(p.id) + '\t' + std::to_string(p.version) + '\t' +
           (p.dynamicName.empty() ? "" : p.dynamicName + ':' + std::to_string(p.dataSize)) + '\n';
  return out;
}

Status WriteClrNameProbeTrace(std::vector<uint8_t>* out) {
  const std::vector<ClrNameProbe> probes = ClrNameProbes();
  NetTraceV5Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2026, 1, 4, 1, 0, 0, 0, 0};  // Thursday, 1 January 2026 (TraceEvent checks the date)
  info.tickFrequency = 10000000, info.pointerSize = 8, info.processId = 1, info.numberOfProcessors = 1;
  Status s = w.WriteTraceObject(info);
  // One metadata row per distinct (provider, id, version); the dynamic events share one.
  std::map<std::tuple<std::string, uint32_t, uint32_t>, uint32_t> metadataIds;
  std::vector<EventMetadata> metadata;
  for (const ClrNameProbe& p : probes) {
    auto [it, added] = metadataIds.try_emplace({p.provider, p.id, p.version}, static_cast<uint32_t>(metadata.size() + 1));
    if (!added) continue;
    EventMetadata m;
    m.id = it->second, m.providerName = p.provider, m.eventId = p.id, m.version = p.version;
    metadata.push_back(std::move(m));
  }
  if (s.ok()) s = w.WriteMetadataBlock(metadata);
  std::vector<std::vector<uint8_t>> payloads;
  payloads.reserve(probes.size());
  std::vector<EventRecord> events;
  for (const ClrNameProbe& p : probes) {
    std::vector<uint8_t>& payload = payloads.emplace_back();
    if (p.dynamicName.empty()) {
      payload.assign(64, 0);
    } else {
      AppendUtf16(p.dynamicName, &payload);
      for (int b = 0; b < 4; ++b) payload.push_back(static_cast<uint8_t>(p.dataSize >> (8 * b)));
      payload.insert(payload.end(), p.dataSize + 2, 0);  // zero Data, ClrInstanceID 0
    }
    EventRecord e;
    e.metadataId = metadataIds.at({p.provider, p.id, p.version});
    e.thread = e.captureThread = 100, e.sequenceNumber = static_cast<uint32_t>(events.size() + 1);
    e.timestamp = 1000 + 10 * events.size(), e.payload = payload;
    events.push_back(e);
  }
  if (s.ok()) s = w.WriteEvents(events, /*compressed=*/true);
  if (s.ok()) s = w.WriteEndOfStream();
  if (s.ok()) *out = w.TakeBytes();
  return s;
}

}  // namespace nettrace
