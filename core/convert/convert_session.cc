#include "convert/convert_session.h"

#include "format/trace_reader.h"

namespace nettrace {

ConvertSession::ConvertSession(V6Converter::Options options)
    : converter_(
          [this](std::span<const uint8_t> bytes) {
            output_.insert(output_.end(), bytes.begin(), bytes.end());
            return Status::Ok();
          },
          options),
      reader_(std::make_unique<TraceReader>(&converter_)) {}

ConvertSession::~ConvertSession() = default;

Status ConvertSession::PushChunk(const uint8_t* data, size_t size) {
  if (status_.ok() && !finished_) status_ = reader_->Push(data, size);
  return status_;
}

size_t ConvertSession::TailWanted() const { return status_.ok() && !finished_ ? reader_->tailWanted() : 0; }

Status ConvertSession::ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize) {
  if (status_.ok() && !finished_) status_ = reader_->ProvideTail(data, size, fileSize);
  return status_;
}

Status ConvertSession::Finish() {
  if (finished_) return status_;
  finished_ = true;
  if (status_.ok()) status_ = reader_->Finish();
  // The input failed: keep what was read before the fault (the records held back for
  // block-sized writes would otherwise be lost with the input's tail).
  if (!status_.ok()) flushStatus_ = converter_.FlushIncomplete();
  return status_;
}

std::vector<uint8_t> ConvertSession::TakeOutput() {
  std::vector<uint8_t> out;
  out.swap(output_);
  return out;
}

}  // namespace nettrace
