#include "analysis/allocation_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>
#include <vector>

#include "analysis/allocation_estimate.h"
#include "analysis/allocation_samples.h"
#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "base/json_writer.h"
#include "model/trace_model.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

namespace {

using Source = AllocationSamples::Source;

// What a set of samples adds up to (a type, a function, a call stack, all of them).
struct Tally {
  uint64_t samples = 0;
  double remainder = 0;  // Σ (ObjectSize - SampledByteOffset): the interval's u
  double bytes = 0;      // estimated (ticks: TraceEvent's amounts)
  double objects = 0;    // estimated (ticks: unused)
  double sampledBytes = 0;  // Σ ObjectSize
  void Add(const Tally& t) {
    samples += t.samples, remainder += t.remainder, bytes += t.bytes, objects += t.objects;
    sampledBytes += t.sampledBytes;
  }
};

struct Named {
  std::string name;
  Tally all, self;
};

const char* SourceName(Source s) {
  return s == Source::kSampled ? "AllocationSampled" : s == Source::kTicks ? "GC/AllocationTick" : "none";
}

const char* SourceNote(Source s) {
  switch (s) {
    case Source::kSampled:
      return "AllocationSampled (.NET 10 randomized sampling): each allocated byte sampled with probability "
             "1/102,400; estimates are unbiased (a sample of an object of n bytes stands for n/(1-q^n) bytes), "
             "intervals from the negative binomial model of the runtime's design document";
    case Source::kTicks:
      return "GC/AllocationTick: the older sampling, one event per ~100 KB allocated with a fixed stride (biased "
             "for periodic allocation patterns); bytes are the events' AllocationAmount as TraceEvent reads them; "
             "no interval";
    case Source::kNone: break;
  }
  return "no AllocationSampled or GC/AllocationTick events in this trace";
}

uint64_t Whole(double v) { return v > 0 ? static_cast<uint64_t>(std::llround(v)) : 0; }

// The members of one row that estimates (and, from AllocationSampled, intervals) give.
void WriteTally(JsonWriter& w, const Tally& t, Source source, double confidence) {
  w.Key("samples").UInt(t.samples);
  w.Key("bytes").UInt(Whole(t.bytes));
  const bool sampled = source == Source::kSampled;
  w.Key("objects");
  sampled ? w.UInt(Whole(t.objects)) : w.Null();
  const AllocationInterval i = AllocatedBytesInterval(t.samples, t.remainder, confidence);
  w.Key("bytesLow");
  sampled ? w.UInt(Whole(i.low)) : w.Null();
  w.Key("bytesHigh");
  sampled ? w.UInt(Whole(i.high)) : w.Null();
}

bool Heavier(const Named& a, const Named& b) {
  return a.all.bytes != b.all.bytes ? a.all.bytes > b.all.bytes : a.name < b.name;
}

std::string Csv(const std::vector<Named>& types, Source source, double confidence) {
  std::string out = "type,samples,bytes,objects,bytesLow,bytesHigh,sampledBytes\n";
  const bool sampled = source == Source::kSampled;
  for (const Named& t : types) {
    const AllocationInterval i = AllocatedBytesInterval(t.all.samples, t.all.remainder, confidence);
    AppendCsvField(t.name, &out);
    out += ',' + std::to_string(t.all.samples) + ',' + std::to_string(Whole(t.all.bytes)) + ',';
    if (sampled) out += std::to_string(Whole(t.all.objects)) + ',' + std::to_string(Whole(i.low)) + ',' + std::to_string(Whole(i.high));
    else out += ",,";
    out += ',' + (sampled ? std::to_string(Whole(t.all.sampledBytes)) : std::string()) + '\n';
  }
  return out;
}

}  // namespace

std::string WriteAllocationView(const AllocationSamples& samples, const TraceModel& model,
                                const SymbolCollector& symbols, const StackSelection& sel, StackResolver* resolver,
                                const AllocationViewOptions& options) {
  const Source source = samples.source();
  std::vector<Named> types(samples.typeNames().size());
  for (size_t t = 0; t < types.size(); ++t) types[t].name = samples.typeNames()[t];
  std::map<uint32_t, Tally> byStack;  // call stack → its samples
  Tally total;
  for (size_t i = 0; i < sel.size(); ++i) {
    const uint32_t ordinal = model.store().ordinal(sel.rows[i]);
    const AllocationSamples::Sample* s = samples.Find(ordinal);
    if (!s) continue;
    Tally t;
    t.samples = 1;
    if (source == Source::kTicks) {
      t.bytes = static_cast<double>(symbols.AllocationBytes(ordinal).value_or(0));
    } else {
      t.remainder = static_cast<double>(s->size - s->offset);
      t.bytes = UpscaledBytes(s->size), t.objects = UpscaledObjects(s->size);
      t.sampledBytes = static_cast<double>(s->size);
    }
    types[s->type].all.Add(t);
    byStack[sel.callStacks[i]].Add(t);
    total.Add(t);
  }
  types.erase(std::remove_if(types.begin(), types.end(), [](const Named& n) { return n.all.samples == 0; }), types.end());
  std::sort(types.begin(), types.end(), Heavier);
  if (options.format == ViewFormat::kCsv) return Csv(types, source, options.confidence);

  // Functions: each stack's tally to every distinct frame on it (inclusive), and to its leaf.
  std::map<uint32_t, Named> byFrame;
  for (const auto& [cs, t] : byStack) {
    const std::vector<uint32_t> frames = resolver->stacks().Frames(cs);
    std::unordered_set<uint32_t> seen;
    for (uint32_t f : frames)
      if (seen.insert(f).second) byFrame[f].all.Add(t);
    if (!frames.empty()) byFrame[frames.back()].self.Add(t);
  }
  std::vector<Named> functions;
  functions.reserve(byFrame.size());
  for (auto& [f, n] : byFrame) {
    n.name = resolver->frames().name(f);
    functions.push_back(std::move(n));
  }
  std::sort(functions.begin(), functions.end(), Heavier);
  const size_t shown = std::min(functions.size(), options.functions);

  JsonWriter w;
  w.BeginObject();
  w.Key("source").String(SourceName(source));
  w.Key("note").String(SourceNote(source));
  w.Key("confidence").Exact(options.confidence);
  w.Key("bytesPerSample");
  source == Source::kSampled ? w.UInt(Whole(1.0 / kAllocationSampleProbability)) : w.Null();
  w.Key("notKept").UInt(samples.notKept());
  w.Key("total").BeginObject();
  WriteTally(w, total, source, options.confidence);
  w.EndObject();
  w.Key("types").BeginArray();
  for (const Named& t : types) {
    w.BeginObject().Key("type").String(t.name);
    WriteTally(w, t.all, source, options.confidence);
    w.EndObject();
  }
  w.EndArray();
  w.Key("functions").BeginArray();
  for (size_t i = 0; i < shown; ++i) {
    const Named& f = functions[i];
    w.BeginObject().Key("name").String(f.name);
    WriteTally(w, f.all, source, options.confidence);
    w.Key("selfSamples").UInt(f.self.samples).Key("selfBytes").UInt(Whole(f.self.bytes));
    w.EndObject();
  }
  w.EndArray();
  w.Key("otherFunctions").UInt(functions.size() - shown);
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace

namespace nettrace {

std::string AllocationsView(const TraceModel& model, const AllocationViewOptions& options) {
  StackResolver resolver(model, model.symbols());
  StackQuery query;
  query.weight = WeightKind::kAllocBytes;
  const StackSelection sel = SelectStacks(model, model.symbols(), &resolver, model.allocations().Retarget(query));
  return WriteAllocationView(model.allocations(), model, model.symbols(), sel, &resolver, options);
}

}  // namespace nettrace
