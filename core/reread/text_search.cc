#include "reread/text_search.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "analysis/query/event_filter.h"
#include "format/payload/clr_enums.h"
#include "format/payload_decoder.h"

namespace nettrace {

std::string LowerAscii(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

namespace {

bool Contains(const std::string& haystack, const std::string& needleLower) {
  return LowerAscii(haystack).find(needleLower) != std::string::npos;
}

bool ValueContains(const PayloadValue& v, const std::string& needleLower) {
  switch (v.kind()) {
    case PayloadValue::Kind::kArray:
      return std::any_of(v.items().begin(), v.items().end(), [&](const PayloadValue& i) { return ValueContains(i, needleLower); });
    case PayloadValue::Kind::kObject:
      return std::any_of(v.fields().begin(), v.fields().end(),
                         [&](const PayloadField& f) { return ValueContains(f.value, needleLower); });
    default: return Contains(v.ToString(), needleLower);
  }
}

// Label values as the event JSON writes them (analysis/query/event_json.cc).
bool LabelsContain(const LabelList& list, const std::string& needleLower) {
  for (const Label& l : list.labels) {
    std::string s;
    switch (l.kind) {
      case LabelKind::kActivityId:
      case LabelKind::kRelatedActivityId: s = l.guid.ToString(); break;
      case LabelKind::kTraceId: {
        static const char* hex = "0123456789abcdef";
        for (uint8_t b : l.guid.bytes) s += hex[b >> 4], s += hex[b & 15];
        break;
      }
      case LabelKind::kSpanId: {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(l.number));
        s = buf;
        break;
      }
      case LabelKind::kStringKeyValue: s = l.value; break;
      case LabelKind::kIntKeyValue: s = std::to_string(l.intValue); break;
      default: s = std::to_string(l.number); break;  // opcode, keywords, level, version
    }
    if (Contains(s, needleLower)) return true;
  }
  return false;
}

}  // namespace

bool PayloadContains(const EventMetadata& metadata, std::span<const uint8_t> payload, const std::string& needleLower,
                     uint32_t pointerSize, uint32_t formatMajor) {
  const DecodedPayload p = DecodePayload(metadata, payload, pointerSize, static_cast<int>(formatMajor));
  // An enum field also matches by the name the detail shows ("AllocSmall"), not only its number.
  return std::any_of(p.fields.begin(), p.fields.end(), [&](const PayloadField& f) {
    return ValueContains(f.value, needleLower) ||
           (f.enumType && Contains(FormatEnumField(*f.enumType, f.value), needleLower));
  });
}

bool TextSearchPlan::Fits(const TraceModel& model, const EventQuery& q) const {
  return model.store().size() == rows && model.types().size() == types && model.threads().size() == threads &&
         q.text == query.text && q.provider == query.provider && q.name == query.name && q.thread == query.thread &&
         q.fromMs == query.fromMs && q.toMs == query.toMs;
}

TextSearchPlan PlanTextSearch(const TraceModel& model, const EventQuery& q) {
  TextSearchPlan plan;
  plan.query = q;
  plan.rows = model.store().size(), plan.types = model.types().size(), plan.threads = model.threads().size();
  plan.needle = LowerAscii(q.text);
  const std::string& needle = plan.needle;
  plan.typeState.assign(model.types().size(), 0);
  for (size_t t = 0; t < plan.typeState.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    if (!TypeMatches(type, q.provider, q.name)) continue;
    plan.typeState[t] = Contains(type.metadata.providerName, needle) || Contains(type.name, needle) ? 2 : 1;
  }
  plan.threadOk = ThreadMask(model, q.thread);
  plan.threadMatches.assign(model.threads().size(), false);
  for (size_t t = 0; t < plan.threadMatches.size(); ++t) {
    const ThreadEntry& th = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    plan.threadMatches[t] = (th.osThreadId && Contains(std::to_string(*th.osThreadId), needle)) ||
                            (th.name && Contains(*th.name, needle));
  }
  return plan;
}

TextScanStep ScanTextStep(const TraceModel& model, TextSearchPlan& plan, uint64_t cursor, uint64_t maxRows) {
  const EventStore& store = model.store();
  const EventQuery& q = plan.query;
  const std::string& needle = plan.needle;
  const std::vector<uint8_t>& typeState = plan.typeState;
  const std::vector<bool>& threadOk = plan.threadOk;
  const std::vector<bool>& threadMatches = plan.threadMatches;
  std::unordered_map<uint32_t, bool>& labelMatches = plan.labelMatches;

  const RowRange range = RowsInTime(model, q.fromMs, q.toMs);
  TextScanStep step;
  step.begin = range.begin, step.end = range.end;
  uint64_t row = std::clamp<uint64_t>(cursor, range.begin, range.end);
  const uint64_t stop = row + std::min<uint64_t>(maxRows ? maxRows : 1, range.end - row);
  std::vector<uint64_t> blocks;  // distinct blocks of needPayload (few: a linear search)
  for (; row < stop; ++row) {
    const uint8_t state = typeState[store.type(row).value];
    const uint16_t thread = store.thread(row).value;
    if (!state || !threadOk[thread]) continue;
    bool match = state == 2 || threadMatches[thread];
    if (!match) {
      if (const uint32_t labels = store.labels(row).value) {
        auto [it, added] = labelMatches.emplace(labels, false);
        if (added) it->second = LabelsContain(model.labels().Get(LabelListIndex(labels)), needle);
        match = it->second;
      }
    }
    if (match) {
      step.matches.push_back(static_cast<uint32_t>(row));
      continue;
    }
    const uint64_t block = store.Locate(row).blockOffset;
    if (std::find(blocks.begin(), blocks.end(), block) == blocks.end()) {
      if (blocks.size() >= kMaxBlocksPerStep) break;  // this row starts the next step
      blocks.push_back(block);
    }
    step.needPayload.push_back(static_cast<uint32_t>(row));
  }
  step.next = row;
  return step;
}

}  // namespace nettrace
