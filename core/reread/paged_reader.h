// core/reread — what needs the events' blocks again, in pages a caller drives: an event's
// details, the free-text search over payloads, the CSV of one event type with its payload
// fields as columns, and the Chrome trace with each event's payload as args. Each step says
// which blocks it needs (BlockCache::Needed); the caller provides them and asks again. The
// native tool, which can read the file itself, runs the whole loop with a BlockReader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/query/event_query.h"
#include "analysis/stacks/stack_frames.h"
#include "base/byte_range.h"
#include "base/status.h"
#include "export/exports.h"
#include "model/trace_model.h"
#include "reread/block_cache.h"
#include "reread/text_search.h"

namespace nettrace {

class PagedReader {
 public:
  // `model` names frames (stack ids of the payload CSV, the Chrome trace's stacks) once its
  // symbols are prepared (ReadPipeline::PrepareSymbols): the caller does that first.
  explicit PagedReader(const TraceModel& model) : model_(model), cache_(model) {}

  BlockCache& blocks() { return cache_; }

  // One event as JSON; with its block provided, with header details and fields.
  std::string EventJson(uint32_t row) const;

  // Free text (reread/text_search.h): one step of the scan, the payload matches of rows whose
  // blocks are provided, and the whole loop for a caller that can read the file.
  TextScanStep ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const;
  std::vector<uint32_t> MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const;
  Status SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows, uint64_t rowsPerStep);

  // The payload CSV (export/payload_csv_export.h) of `rows` (one type's, in time order), a
  // page at a time with the page's blocks provided: pass 1 the columns, pass 2 the lines.
  size_t PayloadCsvPageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const {
    return cache_.PageEnd(rows, begin, maxBlocks);
  }
  void PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                         std::vector<std::string>* columns) const;
  std::string PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                              const std::vector<std::string>& columns);
  Status ExportPayloadCsv(const std::vector<uint32_t>& rows, const BlockReader& read, std::string* out);

  // The Chrome trace with args (export/exports.h ChromeTraceWriter): Begin, Events for
  // consecutive pages of store rows from row 0, End. One at a time.
  std::string ChromeTraceBegin();
  uint32_t ChromeTracePageEnd(uint32_t beginRow, size_t maxBlocks) const { return cache_.PageEnd(beginRow, maxBlocks); }
  std::string ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const;
  std::string ChromeTraceEnd(const ChromeTraceWriter::PartSink& part = nullptr);
  // The whole of it, the blocks re-read through `read`, each part handed to `put` as it is
  // written (the file's size is the document's, not memory's); a `put` that returns false
  // ends it. Fails only when a block cannot be read again.
  using PartWriter = std::function<bool(const std::string& part)>;
  Status ExportChromeTraceWithArgs(const BlockReader& read, const PartWriter& put);

 private:
  const TraceModel& model_;
  BlockCache cache_;
  mutable std::unique_ptr<TextSearchPlan> textPlan_;  // the last text query's
  std::unique_ptr<ChromeTraceWriter> chromeWriter_;  // the Chrome trace being written in pages
  // The payload CSV's stack ids: the resolver of the rows before csvNextRow_ (PayloadCsvLines).
  std::unique_ptr<StackResolver> csvResolver_;
  uint32_t csvNextRow_ = 0;
};

}  // namespace nettrace
