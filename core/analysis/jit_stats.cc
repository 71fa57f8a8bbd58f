#include "analysis/jit_stats.h"

#include <algorithm>
#include <cstdio>

#include "base/json_writer.h"
#include "events/event_naming.h"
#include "events/trace_clock.h"

namespace nettrace {

namespace {
constexpr uint64_t kMethodFlagJitted = 0x8;
constexpr uint8_t kTierOsr = 5, kTierReadyToRun = 8, kTierPreJit = 255;

// The string field `name` into *out (its capacity reused), empty when there is none.
const std::string& Text(ClrPayloadFields& p, std::string_view name, std::string* out) {
  if (!p.Text(name, out)) out->clear();
  return *out;
}
}  // namespace

// JITStats.GetMethodName: Namespace + "." + Name + the signature from its '('.
std::string JitStats::MethodName(ClrPayloadFields& p) {
  std::string name = Text(p, "MethodNamespace", &text_);
  name += '.';
  name += Text(p, "MethodName", &text_);
  const std::string& sig = Text(p, "MethodSignature", &text_);
  if (const size_t paren = sig.find('('); paren != std::string::npos) name.append(sig, paren);
  return name;
}

std::string OptimizationTierName(uint8_t tier) {
  static const char* const kNames[] = {"Unknown",        "MinOptJitted",      "Optimized",
                                       "QuickJitted",    "OptimizedTier1",    "OptimizedTier1OSR",
                                       "QuickJittedInstrumented", "OptimizedTier1Instrumented", "ReadyToRun"};
  if (tier < sizeof kNames / sizeof kNames[0]) return kNames[tier];
  if (tier == kTierPreJit) return "PreJIT";
  return std::to_string(tier);
}

// TraceEvent's MethodComplete: a method completed on the multicore-JIT background thread is
// MulticoreJitBackground; otherwise OSR compiles on the foreground, and other non-default
// versions are tiered-compilation background work.
const char* CompilationThreadKindName(const JitRecord& m) {
  if (m.multicoreJitBackground) return "MulticoreJitBackground";
  if (m.tier == kTierOsr) return "Foreground";
  return m.versionId == 0 ? "Foreground" : "TieredCompilationBackground";
}

double JitStats::Ms(uint64_t ts) const {
  return TraceClock(info_).MsFromSync(ts);
}

void JitStats::OnEvent(const TimeOrderedEvent& x) {
  const EventKind kind = x.kind;
  if (!Reads(kind)) return;
  late_ |= x.late;
  const EventRecord& e = x.record;
  const EventMetadata& meta = *x.metadata;
  const uint64_t processId = x.processId, threadId = x.osThreadId;
  // Integers and names read where the template puts them (JIT-heavy traces are thousands
  // of these events: no whole decode, no allocation beyond the method's name).
  ClrPayloadFields p(meta, x.clrLayout, e.payload, info_.pointerSize ? info_.pointerSize : 8,
                     static_cast<int>(info_.formatMajor));
  if (IsModuleKind(kind)) {
    const uint64_t moduleId = p.UInt(fields_.moduleOfModule);
    modules_[processId][moduleId] = Text(p, "ModuleILPath", &text_);
    return;
  }
  if (kind == EventKind::kPrivateMulticoreJit) {  // ClrMulticoreJit/Common (MulticoreJitPrivate template)
    OnMulticoreJit(p, e.timestamp, processId, threadId);
    return;
  }
  std::vector<size_t>& open = open_[processId][threadId];
  if (kind == EventKind::kMethodJittingStarted) {
    JitRecord m;
    m.processId = processId, m.threadId = threadId, m.timestamp = e.timestamp, m.ordinal = x.ordinal;
    m.moduleId = p.UInt(fields_.moduleOfStart);
    m.name = MethodName(p);
    m.startMs = Ms(e.timestamp);
    m.ilSize = static_cast<uint32_t>(p.UInt(fields_.ilSize));
    open.push_back(methods_.size());
    methods_.push_back(std::move(m));
    return;
  }
  const uint64_t flags = p.UInt(fields_.flags);
  if (!(flags & kMethodFlagJitted)) return;  // TraceEvent's IsJitted
  if (open.empty()) {  // no JittingStarted: a method of its own, JIT time 0
    JitRecord m;
    m.processId = processId, m.threadId = threadId, m.timestamp = e.timestamp, m.ordinal = x.ordinal;
    m.moduleId = p.UInt(fields_.moduleOfLoad);
    m.name = kind == EventKind::kMethodLoadVerbose ? MethodName(p) : std::string();
    m.startMs = Ms(e.timestamp);
    open.push_back(methods_.size());
    methods_.push_back(std::move(m));
  }
  JitRecord& m = methods_[open.back()];
  open.pop_back();
  m.nativeSize = p.UInt(fields_.size);
  m.jitTimeMs = Ms(e.timestamp) - m.startMs;
  if (const uint8_t tier = static_cast<uint8_t>((flags >> 7) & 0x7); tier != 0) m.tier = tier;
  m.versionId = kind == EventKind::kMethodLoadVerbose ? p.UInt(fields_.rejit) : 0;
  m.completed = true;
  m.loadTimestamp = e.timestamp;
  sorted_ = false;
}

// The earliest GROUPWAIT or JITTHREAD event of each process names its background JIT thread
// (TraceEvent keeps the first one it meets in time order).
void JitStats::OnMulticoreJit(ClrPayloadFields& p, uint64_t timestamp, uint64_t processId, uint64_t threadId) {
  const std::string& what = Text(p, "String1", &text_);
  if (what != "GROUPWAIT" && what != "JITTHREAD") return;
  BackgroundThread& b = backgroundJit_[processId];
  if (timestamp < b.timestamp) b = {threadId, timestamp};
  sorted_ = false;
}

// Puts methods_ in a stable order by `before`, and moves the open methods' indexes with
// their records: reading may go on after a query (a live session), and a later load must
// complete the method it started, not the one now at its old place.
template <typename Before>
void JitStats::Reorder(Before before) const {
  std::vector<uint32_t> order(methods_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return before(methods_[a], methods_[b]); });
  std::vector<JitRecord> sorted;
  sorted.reserve(methods_.size());
  std::vector<uint32_t> moved(methods_.size());
  for (size_t k = 0; k < order.size(); ++k) {
    sorted.push_back(std::move(methods_[order[k]]));
    moved[order[k]] = static_cast<uint32_t>(k);
  }
  methods_ = std::move(sorted);
  for (auto& [process, threads] : open_)
    for (auto& [thread, open] : threads)
      for (size_t& index : open) index = moved[index];
}

const std::vector<JitRecord>& JitStats::Methods() const {
  if (!sorted_) {
    // Created in (timestamp, file order): only the processes need grouping, unless a late
    // event came, which only a sort by time puts back in place.
    auto byProcess = [](const JitRecord& a, const JitRecord& b) { return a.processId < b.processId; };
    if (late_) {
      Reorder([](const JitRecord& a, const JitRecord& b) {
        if (a.processId != b.processId) return a.processId < b.processId;
        return SortedBefore(a, b);
      });
    } else if (!std::is_sorted(methods_.begin(), methods_.end(), byProcess)) {
      Reorder(byProcess);
    }
    for (JitRecord& m : methods_) {
      auto b = backgroundJit_.find(m.processId);
      m.multicoreJitBackground = m.completed && b != backgroundJit_.end() && m.threadId == b->second.threadId &&
                                 m.loadTimestamp >= b->second.timestamp;
    }
    sorted_ = true;
  }
  return methods_;
}

std::string JitStats::ModulePath(uint64_t processId, uint64_t moduleId) const {
  auto p = modules_.find(processId);
  if (p == modules_.end()) return {};
  auto m = p->second.find(moduleId);
  return m == p->second.end() ? std::string() : m->second;
}

std::string JitStats::ToJson() const {
  const std::vector<JitRecord>& all = Methods();
  JsonWriter w;
  w.BeginObject().Key("processes").BeginArray();
  for (size_t begin = 0; begin < all.size();) {
    size_t end = begin;
    while (end < all.size() && all[end].processId == all[begin].processId) ++end;
    // JITStats.AddMethodToStatistics, for each completed method.
    uint64_t count = 0, fg = 0, bg = 0, mcj = 0, il = 0, native = 0;
    double total = 0, fgMs = 0, bgMs = 0, mcjMs = 0;
    for (size_t i = begin; i < end; ++i) {
      const JitRecord& m = all[i];
      if (!m.completed) continue;
      ++count, total += m.jitTimeMs, il += m.ilSize, native += m.nativeSize;
      const char kind = CompilationThreadKindName(m)[0];
      if (kind == 'F') ++fg, fgMs += m.jitTimeMs;
      else if (kind == 'M') ++mcj, mcjMs += m.jitTimeMs;
      else ++bg, bgMs += m.jitTimeMs;
    }
    w.BeginObject().Key("processId").UInt(all[begin].processId);
    w.Key("totals").BeginObject();
    w.Key("count").UInt(count).Key("totalJitTimeMs").Fixed(total, 6);
    w.Key("countForeground").UInt(fg).Key("foregroundJitTimeMs").Fixed(fgMs, 6);
    w.Key("countBackgroundTieredCompilation").UInt(bg).Key("backgroundTieredCompilationJitTimeMs").Fixed(bgMs, 6);
    w.Key("countBackgroundMultiCoreJit").UInt(mcj).Key("backgroundMultiCoreJitTimeMs").Fixed(mcjMs, 6);
    w.Key("totalILSize").UInt(il).Key("totalNativeSize").UInt(native);
    w.EndObject();
    w.Key("methods").BeginArray();
    for (size_t i = begin; i < end; ++i) {
      const JitRecord& m = all[i];
      w.BeginObject();
      w.Key("name").String(m.name);
      w.Key("module").String(ModulePath(m.processId, m.moduleId));
      w.Key("threadId").UInt(m.threadId);
      w.Key("startMs").Fixed(m.startMs, 6);
      w.Key("jitTimeMs").Fixed(m.jitTimeMs, 6);
      w.Key("ilSize").UInt(m.ilSize);
      w.Key("nativeSize").UInt(m.nativeSize);
      w.Key("tier").String(OptimizationTierName(m.tier));
      w.Key("r2r").Bool(m.tier == kTierReadyToRun || m.tier == kTierPreJit);
      w.Key("thread").String(CompilationThreadKindName(m));
      w.Key("versionId").UInt(m.versionId);
      w.Key("completed").Bool(m.completed);
      w.EndObject();
    }
    w.EndArray().EndObject();
    begin = end;
  }
  w.EndArray().EndObject();
  return w.Take();
}

std::string JitStats::ToCsv() const {
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
  };
  char buf[64];
  auto fixed = [&](double v) {
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return std::string(buf);
  };
  std::string out = "processId,threadId,startMs,jitTimeMs,ilSize,nativeSize,tier,r2r,thread,versionId,completed,name,module\n";
  for (const JitRecord& m : Methods()) {
    out += std::to_string(m.processId) + ',' + std::to_string(m.threadId) + ',' + fixed(m.startMs) + ',' +
           fixed(m.jitTimeMs) + ',' + std::to_string(m.ilSize) + ',' + std::to_string(m.nativeSize) + ',' +
           OptimizationTierName(m.tier) + ',' + (m.tier == kTierReadyToRun || m.tier == kTierPreJit ? "true" : "false") +
           ',' + CompilationThreadKindName(m) + ',' + std::to_string(m.versionId) + ',' +
           (m.completed ? "true" : "false") + ',' + quote(m.name) + ',' + quote(ModulePath(m.processId, m.moduleId)) + '\n';
  }
  return out;
}

}  // namespace nettrace
