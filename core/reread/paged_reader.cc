#include "reread/paged_reader.h"

#include <algorithm>

#include "analysis/views/activity_view.h"
#include "analysis/query/event_json.h"
#include "analysis/runtime/gc_stats.h"
#include "analysis/views/runtime_views.h"
#include "export/chrome_spans.h"
#include "export/payload_csv_export.h"
#include "format/trace_reader.h"

static_assert(nettrace::kMaxBlocksPerStep < nettrace::BlockCache::kEntries,
              "a text-search step's blocks must fit in the cache");

namespace nettrace {

std::string PagedReader::EventJson(uint32_t row) const {
  if (row >= model_.store().size()) return "null";
  const std::optional<EventDetail> detail = cache_.Detail(row);
  return nettrace::EventJson(model_, row, detail ? &*detail : nullptr, cache_.formatMajor());
}

TextScanStep PagedReader::ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const {
  // The query's plan (what each type, thread and label value says) is kept for its next step.
  if (!textPlan_ || !textPlan_->Fits(model_, query)) textPlan_ = std::make_unique<TextSearchPlan>(PlanTextSearch(model_, query));
  return ScanTextStep(model_, *textPlan_, cursor, maxRows);
}

std::vector<uint32_t> PagedReader::MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const {
  const std::string needle = LowerAscii(text);
  const uint32_t pointerSize = model_.info().pointerSize ? model_.info().pointerSize : 8;
  std::vector<uint32_t> out;
  for (uint32_t row : rows) {
    const std::optional<EventDetail> detail = cache_.Detail(row);
    if (!detail) continue;
    const EventType& type = model_.types()[model_.store().type(row)];
    if (PayloadContains(type.metadata, detail->payload, needle, pointerSize, cache_.formatMajor())) out.push_back(row);
  }
  return out;
}

Status PagedReader::SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows,
                               uint64_t rowsPerStep) {
  rows->clear();
  if (query.text.empty()) {
    EventQuery all = query;
    all.offset = 0, all.limit = UINT64_MAX;
    *rows = std::move(QueryEvents(model_, all).rows);
    return Status::Ok();
  }
  for (uint64_t cursor = 0;;) {
    TextScanStep step = ScanText(query, cursor, rowsPerStep);
    NETTRACE_RETURN_IF_ERROR(cache_.ReadFor(step.needPayload, read));
    std::vector<uint32_t> payloadMatches = MatchPayloadText(step.needPayload, query.text);
    const size_t before = rows->size();
    rows->insert(rows->end(), step.matches.begin(), step.matches.end());
    rows->insert(rows->end(), payloadMatches.begin(), payloadMatches.end());
    std::inplace_merge(rows->begin() + static_cast<std::ptrdiff_t>(before),
                       rows->begin() + static_cast<std::ptrdiff_t>(before + step.matches.size()), rows->end());
    if (step.next >= step.end) break;
    cursor = step.next;
  }
  return Status::Ok();
}

void PagedReader::PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                    std::vector<std::string>* columns) const {
  for (size_t i = begin; i < end && i < rows.size(); ++i)
    if (const std::optional<EventDetail> detail = cache_.Detail(rows[i]))
      AddPayloadColumns(model_, detail->payload, rows[i], cache_.formatMajor(), columns);
}

std::string PagedReader::PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                         const std::vector<std::string>& columns) {
  end = std::min(end, rows.size());
  if (begin >= end) return "";
  // Stack ids are numbered in store order (the stacks CSV): every row before a page's rows is
  // resolved first. The resolver carries on from page to page (pages come in row order; any
  // resolver that has resolved rows 0..n-1 in order gives the ids a fresh one gives), and starts
  // again when a page goes back.
  const EventStore& store = model_.store();
  const auto first = *std::min_element(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end));
  const auto last = *std::max_element(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end));
  if (!csvResolver_ || first < csvNextRow_) csvResolver_ = std::make_unique<StackResolver>(model_, model_.symbols()), csvNextRow_ = 0;
  std::vector<uint32_t> ids(last + 1 - first);
  for (uint32_t r = csvNextRow_; r <= last; ++r) {
    const uint32_t id = csvResolver_->Resolve(store.stack(r), store.timestamp(r));
    if (r >= first) ids[r - first] = id;
  }
  csvNextRow_ = last + 1;
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    const std::optional<EventDetail> detail = cache_.Detail(rows[i]);
    out += PayloadCsvLine(model_, detail ? &*detail : nullptr, rows[i], cache_.formatMajor(), ids[rows[i] - first], columns);
  }
  return out;
}

Status PagedReader::ExportPayloadCsv(const std::vector<uint32_t>& rows, const BlockReader& read, std::string* out) {
  std::vector<std::string> columns;
  std::string body;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t begin = 0; begin < rows.size();) {
      const size_t end = PayloadCsvPageEnd(rows, begin, 32);
      NETTRACE_RETURN_IF_ERROR(cache_.ReadFor(
          std::vector<uint32_t>(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end)), read));
      if (pass == 0) PayloadCsvColumns(rows, begin, end, &columns);
      else body += PayloadCsvLines(rows, begin, end, columns);
      begin = end;
    }
  }
  *out = PayloadCsvHeader(columns) + body;
  return Status::Ok();
}

std::string PagedReader::ChromeTraceBegin() {
  chromeWriter_ = std::make_unique<ChromeTraceWriter>(model_, model_.symbols());
  return chromeWriter_->Head(ChromeSpans(model_.info(), ActivityView(model_, model_.symbols()).FinishedActivities(), model_.gc().Gcs()));
}

std::string PagedReader::ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const {
  if (!chromeWriter_) return "";
  return chromeWriter_->Events(beginRow, endRow, [this](uint32_t row) {
    const std::optional<EventDetail> detail = cache_.Detail(row);
    if (!detail) return std::vector<std::pair<std::string, std::string>>{};
    return PayloadCells(model_, detail->payload, row, cache_.formatMajor());
  });
}

std::string PagedReader::ChromeTraceEnd(const ChromeTraceWriter::PartSink& part) {
  if (!chromeWriter_) return "";
  std::string tail = chromeWriter_->Tail(part);
  chromeWriter_.reset();
  return tail;
}

Status PagedReader::ExportChromeTraceWithArgs(const BlockReader& read, const PartWriter& put) {
  bool more = put(ChromeTraceBegin());
  std::vector<uint32_t> page;
  const uint32_t size = static_cast<uint32_t>(model_.store().size());
  for (uint32_t begin = 0; more && begin < size;) {
    const uint32_t end = ChromeTracePageEnd(begin, 32);
    page.clear();
    for (uint32_t r = begin; r < end; ++r) page.push_back(r);
    if (Status s = cache_.ReadFor(page, read); !s.ok()) {
      ChromeTraceEnd();
      return s;
    }
    more = put(ChromeTraceEvents(begin, end));
    begin = end;
  }
  const std::string tail = ChromeTraceEnd([&](const std::string& part) { more = more && put(part); });
  if (more) put(tail);
  return Status::Ok();
}

}  // namespace nettrace
