#include "export/export_stream.h"

#include <cstdint>

namespace nettrace {

bool ItemStream::Next(std::string* out, size_t budget) {
  const size_t start = out->size();
  while (!done_ && out->size() - start < budget) done_ = !Step(out);
  return out->size() > start;
}

std::string DrainExport(ExportStream* stream) {
  std::string out;
  while (stream->Next(&out, SIZE_MAX)) {
  }
  return out;
}

}  // namespace nettrace
