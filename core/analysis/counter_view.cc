#include "analysis/counter_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include "base/json_writer.h"
#include "sort/event_sorter.h"

namespace nettrace {

namespace {
const char* KindName(int k) {
  static const char* const kNames[] = {"mean", "sum", "rate", "updown", "gauge", "histogram"};
  return kNames[k];
}
// The sample member dotnet-counters shows for a kind (Microsoft.Diagnostics.Monitoring.EventPipe
// TraceEventExtensions): an EventCounter's Mean or Increment; a Counter's or ObservableCounter's
// rate; an UpDownCounter's or ObservableUpDownCounter's value (not its rate: "UpDownCounter
// reports the value, not the rate"); a gauge's last value; a histogram's count here (dotnet-counters
// shows its quantiles, which every sample carries).
const char* ShownName(int k) {
  static const char* const kShown[] = {"mean", "increment", "rate", "value", "value", "count"};
  return kShown[k];
}
std::string Text(const PayloadValue* v) { return v && v->kind() == PayloadValue::Kind::kString ? v->text() : std::string(); }
double Number(const PayloadValue* v) {
  if (!v) return NAN;
  // A Single (IntervalSec) as the shortest decimal that reads back as that float, as .NET
  // and TraceEvent print it (1.0000817, not the widened 1.0000816583633423).
  if (v->isNumber()) return v->isSingle() ? std::strtod(FormatDouble(v->asDouble(), true).c_str(), nullptr) : v->asDouble();
  if (v->kind() != PayloadValue::Kind::kString || v->text().empty()) return NAN;
  char* end = nullptr;
  const double d = std::strtod(v->text().c_str(), &end);
  return *end ? NAN : d;  // Metrics writes invariant-culture numbers as text
}
// JSON has no NaN: a value the event did not carry is null. Others print as the shortest text
// that reads back as the same double (FormatDouble), as a plain JSON number: Fixed at that
// text's decimal places prints the same digits.
void Num(JsonWriter& w, double v) {
  if (!std::isfinite(v)) {
    w.Null();
    return;
  }
  const std::string text = FormatDouble(v, false);
  int decimals = 0;
  const size_t e = text.find_first_of("eE"), dot = text.find('.');
  const size_t mantissaEnd = e == std::string::npos ? text.size() : e;
  if (dot != std::string::npos && dot < mantissaEnd) decimals = static_cast<int>(mantissaEnd - dot - 1);
  if (e != std::string::npos) decimals = std::max(0, decimals - std::atoi(text.c_str() + e + 1));
  w.Fixed(v, std::min(decimals, 340));
}
}  // namespace

CounterView::Series* CounterView::Find(const std::string& provider, const std::string& name, const std::string& tags,
                                       Kind kind) {
  if (samples_ >= kMaxSamples) {
    ++notKept_;
    return nullptr;
  }
  std::string key = provider + '\0' + name + '\0' + tags;
  auto it = index_.find(key);
  if (it == index_.end()) {
    if (series_.size() >= kMaxSeries) {
      ++notKept_;
      return nullptr;
    }
    it = index_.emplace(std::move(key), static_cast<uint32_t>(series_.size())).first;
    series_.push_back({provider, name, name, "", tags, kind, {}});
  }
  ++samples_;
  return &series_[it->second];
}

void CounterView::OnEventCounters(uint64_t timestamp, uint32_t ordinal, const std::string& provider,
                                  const DecodedPayload& p) {
  const PayloadValue* payload = p.Find("Payload");
  if ((!payload || payload->kind() != PayloadValue::Kind::kObject) && p.fields.size() == 1)
    payload = &p.fields[0].value;  // a writer that named the one field otherwise
  // The runtime describes the event as one unnamed object field holding "Payload".
  if (payload && payload->kind() == PayloadValue::Kind::kObject)
    if (const PayloadValue* inner = payload->Find("Payload"); inner && inner->kind() == PayloadValue::Kind::kObject) payload = inner;
  if (!payload || payload->kind() != PayloadValue::Kind::kObject) return;
  const std::string name = Text(payload->Find("Name"));
  if (name.empty()) return;
  const bool sum = Text(payload->Find("CounterType")) == "Sum" || (payload->Find("Increment") && !payload->Find("Mean"));
  Series* s = Find(provider, name, "", sum ? Kind::kSum : Kind::kMean);
  if (!s) return;
  if (std::string d = Text(payload->Find("DisplayName")); !d.empty()) s->displayName = d;
  s->units = Text(payload->Find("DisplayUnits"));
  Sample x;
  x.timestamp = timestamp, x.ordinal = ordinal;
  x.interval = Number(payload->Find("IntervalSec"));
  if (sum) {
    x.value = Number(payload->Find("Increment"));
  } else {
    x.value = Number(payload->Find("Mean"));
    x.a = Number(payload->Find("Min")), x.b = Number(payload->Find("Max")), x.count = Number(payload->Find("Count"));
  }
  s->samples.push_back(std::move(x));
}

void CounterView::OnMetric(uint64_t timestamp, uint32_t ordinal, const std::string& event, const DecodedPayload& p) {
  Kind kind;
  if (event == "CounterRateValuePublished") kind = Kind::kRate;
  else if (event == "UpDownCounterRateValuePublished") kind = Kind::kUpDown;
  else if (event == "GaugeValuePublished") kind = Kind::kGauge;
  else if (event == "HistogramValuePublished") kind = Kind::kHistogram;
  else return;
  Series* s = Find(Text(p.Find("meterName")), Text(p.Find("instrumentName")), Text(p.Find("tags")), kind);
  // Sample::value holds what dotnet-counters shows (ShownName), Sample::a the other number.
  if (!s) return;
  s->units = Text(p.Find("unit"));
  Sample x;
  x.timestamp = timestamp, x.ordinal = ordinal;
  switch (kind) {
    case Kind::kRate: x.value = Number(p.Find("rate")), x.a = Number(p.Find("value")); break;
    case Kind::kUpDown: x.value = Number(p.Find("value")), x.a = Number(p.Find("rate")); break;
    case Kind::kGauge: x.value = Number(p.Find("lastValue")); break;
    default: x.value = Number(p.Find("count")), x.a = Number(p.Find("sum")), x.quantiles = Clip(Text(p.Find("quantiles")), 1000); break;
  }
  s->samples.push_back(std::move(x));
}

void CounterView::WriteSample(JsonWriter& w, const Series& s, const Sample& x) const {
  w.BeginObject().Key("timeMs").Fixed(clock_.MsFromSync(x.timestamp), 6);
  switch (s.kind) {
    case Kind::kMean:
      w.Key("mean"), Num(w, x.value), w.Key("min"), Num(w, x.a), w.Key("max"), Num(w, x.b), w.Key("count"), Num(w, x.count);
      w.Key("intervalSec"), Num(w, x.interval);
      break;
    case Kind::kSum: w.Key("increment"), Num(w, x.value), w.Key("intervalSec"), Num(w, x.interval); break;
    case Kind::kRate: w.Key("rate"), Num(w, x.value), w.Key("value"), Num(w, x.a); break;
    case Kind::kUpDown: w.Key("rate"), Num(w, x.a), w.Key("value"), Num(w, x.value); break;
    case Kind::kGauge: w.Key("value"), Num(w, x.value); break;
    case Kind::kHistogram: {
      w.Key("count"), Num(w, x.value), w.Key("sum"), Num(w, x.a), w.Key("quantiles").BeginArray();
      // "0.5=9;0.95=15;0.99=15" → [{"quantile":0.5,"value":9},…]
      size_t at = 0;
      while (at < x.quantiles.size()) {
        size_t end = x.quantiles.find(';', at);
        if (end == std::string::npos) end = x.quantiles.size();
        const std::string part = x.quantiles.substr(at, end - at);
        const size_t eq = part.find('=');
        if (eq != std::string::npos) {
          w.BeginObject().Key("quantile"), Num(w, std::strtod(part.substr(0, eq).c_str(), nullptr));
          w.Key("value"), Num(w, std::strtod(part.substr(eq + 1).c_str(), nullptr)), w.EndObject();
        }
        at = end + 1;
      }
      w.EndArray();
      break;
    }
  }
  w.EndObject();
}

std::string CounterView::Write(ViewFormat format) const {
  std::vector<const Series*> order;
  for (const Series& s : series_) order.push_back(&s);
  std::sort(order.begin(), order.end(), [](const Series* a, const Series* b) {
    return std::tie(a->provider, a->name, a->tags) < std::tie(b->provider, b->name, b->tags);
  });
  // Samples were added in time order; after a late event, sorted back into it.
  auto sorted = [&](const Series& s) {
    std::vector<const Sample*> v;
    for (const Sample& x : s.samples) v.push_back(&x);
    if (late_)
      std::sort(v.begin(), v.end(), [](const Sample* a, const Sample* b) { return SortedBefore(*a, *b); });
    return v;
  };
  if (format == ViewFormat::kCsv) {
    std::string out = "provider,name,tags,kind,units,timeMs,value\n";
    char buf[96];
    for (const Series* s : order)
      for (const Sample* x : sorted(*s)) {
        AppendCsvField(s->provider, &out), out += ',';
        AppendCsvField(s->name, &out), out += ',';
        AppendCsvField(s->tags, &out), out += std::string(",") + KindName(static_cast<int>(s->kind)) + ',';
        AppendCsvField(s->units, &out);
        std::snprintf(buf, sizeof buf, ",%.6f,", clock_.MsFromSync(x->timestamp));
        out += buf;
        if (std::isfinite(x->value)) std::snprintf(buf, sizeof buf, "%.9f", x->value), out += buf;
        out += '\n';
      }
    return out;
  }
  JsonWriter w;
  w.BeginObject().Key("notKept").UInt(notKept_).Key("series").BeginArray();
  for (const Series* s : order) {
    w.BeginObject().Key("provider").String(s->provider).Key("name").String(s->name);
    w.Key("displayName").String(s->displayName).Key("units").String(s->units).Key("tags").String(s->tags);
    w.Key("kind").String(KindName(static_cast<int>(s->kind)));
    const std::vector<const Sample*> samples = sorted(*s);
    // Counting kinds: the total of the increments (what dotnet-counters' rates add up to).
    if (s->kind == Kind::kSum || s->kind == Kind::kRate || s->kind == Kind::kUpDown) {
      double total = 0;
      for (const Sample* x : samples) {
        const double increment = s->kind == Kind::kUpDown ? x->a : x->value;
        total += std::isfinite(increment) ? increment : 0;
      }
      w.Key("total"), Num(w, total);
    }
    // What dotnet-counters shows, and its last value (null when the last sample has none: an
    // observable instrument that measured nothing then, which dotnet-counters takes off screen).
    w.Key("shown").String(ShownName(static_cast<int>(s->kind)));
    w.Key("last"), Num(w, samples.empty() ? NAN : samples.back()->value);
    w.Key("samples").BeginArray();
    for (const Sample* x : samples) WriteSample(w, *s, *x);
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace
