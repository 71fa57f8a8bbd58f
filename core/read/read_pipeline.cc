#include "read/read_pipeline.h"

namespace nettrace {

Status ReadPipeline::Push(const uint8_t* data, size_t size) {
  Status s = reader_.Push(data, size);
  if (!s.ok()) FlushOnce();  // keep every event read before the fault
  return s;
}

Status ReadPipeline::ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize) {
  Status s = reader_.ProvideTail(data, size, fileSize);
  if (!s.ok()) FlushOnce();
  return s;
}

Status ReadPipeline::Finish() {
  Status s = reader_.Finish();
  FlushOnce();
  return s;
}

void ReadPipeline::FlushOnce() {
  if (!flushed_) store_.Flush(), symbols_.Finish();
  flushed_ = true;
}

StoreSnapshot ReadPipeline::Snapshot() {
  if (!flushed_) {
    store_.SealReleased();
    symbols_.FinishMethods();  // sorts what was added since; later adds need it again
  }
  return {store_.store().size(), store_.sorter().pending()};
}

void ReadPipeline::KeepNamesInSource(BlockReader read) {
  symbols_.KeepNamesInSource(true);
  namesReader_ = std::move(read);
}

std::vector<ByteRange> ReadPipeline::NameRangesNeeded() {
  if (!flushed_) return {};
  if (!methodsSorted_) symbols_.FinishMethods(), methodsSorted_ = true;
  return names_.Needed(model_, &symbols_.methods());
}

void ReadPipeline::ProvideNames(uint64_t offset, const uint8_t* data, size_t size) {
  if (flushed_) names_.Provide(offset, {data, size}, &symbols_.methods());
}

const TraceModel& ReadPipeline::PrepareSymbols() {
  if (flushed_ && !methodsSorted_) {
    symbols_.FinishMethods(), methodsSorted_ = true;
    if (namesReader_) ReadNames();
  }
  if (flushed_) names_.Take(&symbols_.methods());
  return model_;
}

void ReadPipeline::ReadNames() {
  std::vector<uint8_t> bytes;
  // Each round loads what it asks for; one more is needed only after names that were not
  // terminated, so this ends (and a failed read ends it too: those frames are named by
  // their method id, analysis/stack_frames.cc).
  for (std::vector<ByteRange> ranges; !(ranges = names_.Needed(model_, &symbols_.methods())).empty();) {
    for (const ByteRange& r : ranges) {
      if (!namesReader_(r.offset, r.size, &bytes) || bytes.size() != r.size) return;
      names_.Provide(r.offset, bytes, &symbols_.methods());
    }
  }
}

}  // namespace nettrace
