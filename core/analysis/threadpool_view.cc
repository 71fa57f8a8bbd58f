#include "analysis/threadpool_view.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "base/json_writer.h"
#include "format/payload_decoder.h"
#include "sort/event_sorter.h"

namespace nettrace {

namespace {
// ThreadAdjustmentReasonMap of the runtime's manifest (ClrEtwAll.man), by value.
constexpr const char* kReasons[] = {"Warmup",      "Initializing",     "RandomMove",      "ClimbingMove",      "ChangePointFound",
                                    "Stabilizing", "Starvation",       "ThreadTimedOut",  "CooperativeBlocking"};
constexpr uint32_t kStarvation = 6;
std::string ReasonName(uint32_t r) { return r < std::size(kReasons) ? kReasons[r] : "Reason" + std::to_string(r); }

// Runtime event id → what it is, for the ids in 44..65 (kCountedSize = not read).
constexpr int kFirstId = 44, kLastId = 65;
constexpr const char* kEventNames[] = {"workerStart", "workerStop", "retirementStart", "retirementStop", "workerWait",
                                       "adjustmentSample", "adjustment", "adjustmentStats", "ioThreadCreate",
                                       "ioThreadTerminate", "ioThreadRetire", "ioThreadUnretire", "minMaxThreads",
                                       "workingThreadCount", "enqueue", "dequeue", "ioEnqueue", "ioDequeue", "ioPack"};
int Slot(uint32_t id) {
  static constexpr int kById[kLastId - kFirstId + 1] = {
      8, 9, 10, 11,                      // 44 IOThreadCreate, 45 Terminate, 46 Retire, 47 Unretire
      -1, -1,                            // 48, 49
      0, 1, 2, 3,                        // 50 WorkerThreadStart, 51 Stop, 52 RetirementStart, 53 RetirementStop
      5, 6, 7,                           // 54 AdjustmentSample, 55 Adjustment, 56 AdjustmentStats
      4,                                 // 57 WorkerThreadWait
      -1,                                // 58
      12, 13,                            // 59 MinMaxThreads, 60 WorkingThreadCount
      14, 15, 16, 17, 18,                // 61 Enqueue, 62 Dequeue, 63 IOEnqueue, 64 IODequeue, 65 IOPack
  };
  return id >= kFirstId && id <= kLastId ? kById[id - kFirstId] : -1;
}
uint32_t U32(const DecodedPayload& p, const char* name) {
  const PayloadValue* v = p.Find(name);
  return v && v->isInteger() ? static_cast<uint32_t>(v->asUInt()) : 0;
}
double F64(const DecodedPayload& p, const char* name) {
  const PayloadValue* v = p.Find(name);
  return v && v->isNumber() ? v->asDouble() : 0;
}
}  // namespace

void ThreadPoolView::AddPoint(std::vector<Point>* series, const Point& p, uint64_t* notKept) {
  if (series->size() >= kMaxPoints) {
    ++*notKept;
    return;
  }
  series->push_back(p);
}

void ThreadPoolView::OnEvent(uint32_t eventId, uint64_t timestamp, uint32_t ordinal, uint64_t thread,
                             const DecodedPayload& p) {
  const int slot = Slot(eventId);
  if (slot < 0) return;
  ++counts_[slot];
  Point point;
  point.timestamp = timestamp, point.thread = thread, point.ordinal = ordinal, point.event = static_cast<uint8_t>(slot);
  switch (slot) {
    case kWorkerStart: case kWorkerStop: case kRetirementStart: case kRetirementStop: case kWorkerWait:
      point.active = U32(p, "ActiveWorkerThreadCount"), point.retired = U32(p, "RetiredWorkerThreadCount");
      AddPoint(&workers_, point, &notKept_);
      break;
    case kIoCreate: case kIoTerminate: case kIoRetire: case kIoUnretire:
      // IOThread*_V1: IOThreadCount and RetiredIOThreads (ClrEtwAll.man IOThreadTemplate_V1).
      point.active = U32(p, "IOThreadCount"), point.retired = U32(p, "RetiredIOThreads");
      AddPoint(&io_, point, &notKept_);
      break;
    case kAdjustment: {
      if (adjustments_.size() >= kMaxPoints) {
        ++notKept_;
        break;
      }
      Adjustment a;
      a.timestamp = timestamp, a.thread = thread, a.ordinal = ordinal, a.averageThroughput = F64(p, "AverageThroughput");
      a.newCount = U32(p, "NewWorkerThreadCount"), a.reason = U32(p, "Reason");
      adjustments_.push_back(a);
      break;
    }
    case kMinMax:
      if (minMax_.size() < kMaxPoints)
        minMax_.push_back({timestamp, ordinal, U32(p, "MinWorkerThreads"), U32(p, "MaxWorkerThreads"), U32(p, "MinIOCompletionThreads"),
                           U32(p, "MaxIOCompletionThreads")});
      break;
    case kWorkingCount: maxWorking_ = std::max(maxWorking_, U32(p, "Count")); break;
    default: break;  // only counted
  }
}

double ThreadPoolView::Ms(uint64_t ts) const {
  return clock_.MsFromSync(ts);
}

std::string ThreadPoolView::Write(ViewFormat format) const {
  // The lists are in time order as the sorted tap handed the events; after a late event
  // (lying IsSorted marks), sorted back into (timestamp, file order).
  auto timeOrder = [](const auto& a, const auto& b) { return SortedBefore(a, b); };
  std::vector<Adjustment> adjustments = adjustments_;
  std::vector<MinMax> minMax = minMax_;
  if (late_) std::sort(adjustments.begin(), adjustments.end(), timeOrder), std::sort(minMax.begin(), minMax.end(), timeOrder);
  if (format == ViewFormat::kCsv) {  // the adjustments table
    std::string out = "timeMs,thread,reason,reasonCode,newWorkerThreadCount,averageThroughput\n";
    char buf[96];
    for (const Adjustment& a : adjustments) {
      std::snprintf(buf, sizeof buf, "%.6f,%llu,", Ms(a.timestamp), static_cast<unsigned long long>(a.thread));
      out += buf + ReasonName(a.reason) + ',' + std::to_string(a.reason) + ',' + std::to_string(a.newCount) + ',';
      std::snprintf(buf, sizeof buf, "%.6f\n", a.averageThroughput);
      out += buf;
    }
    return out;
  }
  JsonWriter w;
  w.BeginObject().Key("events").BeginObject();
  for (int i = 0; i < kCountedSize; ++i) w.Key(kEventNames[i]).UInt(counts_[i]);
  w.EndObject().Key("notKept").UInt(notKept_);
  uint32_t maxActive = 0, maxIo = 0;
  for (const Point& x : workers_) maxActive = std::max(maxActive, x.active);
  for (const Point& x : io_) maxIo = std::max(maxIo, x.active);
  w.Key("maxActiveWorkers").UInt(maxActive).Key("maxIoThreads").UInt(maxIo).Key("maxWorkingThreads").UInt(maxWorking_);
  uint64_t starvation = 0;
  for (const Adjustment& a : adjustments) starvation += a.reason == kStarvation;
  w.Key("starvationAdjustments").UInt(starvation);
  w.Key("minMax").BeginArray();
  for (const MinMax& m : minMax) {
    w.BeginObject().Key("timeMs").Fixed(Ms(m.timestamp), 6).Key("minWorkerThreads").UInt(m.minWorkers);
    w.Key("maxWorkerThreads").UInt(m.maxWorkers).Key("minIOCompletionThreads").UInt(m.minIo);
    w.Key("maxIOCompletionThreads").UInt(m.maxIo).EndObject();
  }
  w.EndArray();
  auto series = [&](const char* key, std::vector<Point> points) {
    // Time order (see above), then only the changes of the counts.
    if (late_) std::sort(points.begin(), points.end(), timeOrder);
    w.Key(key).BeginArray();
    for (size_t i = 0; i < points.size(); ++i) {
      const Point& x = points[i];
      if (i > 0 && points[i - 1].active == x.active && points[i - 1].retired == x.retired) continue;
      w.BeginObject().Key("timeMs").Fixed(Ms(x.timestamp), 6).Key("thread").UInt(x.thread);
      w.Key("event").String(kEventNames[x.event]).Key("active").UInt(x.active).Key("retired").UInt(x.retired).EndObject();
    }
    w.EndArray();
  };
  series("workers", workers_);
  series("ioThreads", io_);
  w.Key("adjustments").BeginArray();
  for (const Adjustment& a : adjustments) {
    w.BeginObject().Key("timeMs").Fixed(Ms(a.timestamp), 6).Key("thread").UInt(a.thread);
    w.Key("reason").String(ReasonName(a.reason)).Key("reasonCode").UInt(a.reason);
    w.Key("newWorkerThreadCount").UInt(a.newCount).Key("averageThroughput").Fixed(a.averageThroughput, 6);
    w.Key("starvation").Bool(a.reason == kStarvation).EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace
