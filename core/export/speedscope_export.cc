#include <map>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "base/saturating.h"
#include "export/exports.h"

namespace nettrace {

std::string ExportSpeedscope(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                             const std::string& name) {
  // Frames used by the selection, numbered in first-use order.
  std::unordered_map<uint32_t, uint32_t> frameIndex;
  std::vector<uint32_t> frames;
  std::map<uint16_t, std::vector<size_t>> byThread;  // thread → selection entries, time order
  for (size_t i = 0; i < sel.size(); ++i) byThread[sel.threads[i]].push_back(i);

  JsonWriter w;
  w.BeginObject();
  w.Key("$schema").String("https://www.speedscope.app/file-format-schema.json");
  w.Key("exporter").String("nettrace-analyzer");
  w.Key("name").String(name);
  w.Key("activeProfileIndex").UInt(0);
  w.Key("profiles").BeginArray();
  for (const auto& [thread, entries] : byThread) {
    uint64_t total = 0;
    for (size_t i : entries) total = SatAdd(total, sel.weights[i]);
    w.BeginObject();
    w.Key("type").String("sampled");
    w.Key("name").String(resolver->frames().name(ThreadFrame(model, resolver, thread)));
    // Counted samples carry no duration of their own: their unit is "none".
    w.Key("unit").String(sel.unit == WeightUnit::kSamples ? "none" : WeightUnitName(sel.unit));
    w.Key("startValue").UInt(0);
    w.Key("endValue").UInt(total);
    w.Key("samples").BeginArray();
    for (size_t i : entries) {
      w.BeginArray();
      for (uint32_t f : resolver->stacks().Frames(sel.callStacks[i])) {
        auto [it, added] = frameIndex.emplace(f, static_cast<uint32_t>(frames.size()));
        if (added) frames.push_back(f);
        w.UInt(it->second);
      }
      w.EndArray();
    }
    w.EndArray();
    w.Key("weights").BeginArray();
    for (size_t i : entries) w.UInt(sel.weights[i]);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("shared").BeginObject().Key("frames").BeginArray();
  for (uint32_t f : frames) w.BeginObject().Key("name").String(resolver->frames().name(f)).EndObject();
  w.EndArray().EndObject();
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
