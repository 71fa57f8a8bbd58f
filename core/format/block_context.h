// core/format — what every block decoder needs besides the block's bytes.
#pragma once

#include <cstdint>

#include "base/stats.h"
#include "format/event_row.h"
#include "format/record_sink.h"

namespace nettrace {

struct BlockContext {
  RecordSink* sink = nullptr;
  Stats* stats = nullptr;
  RowGeneration generation = RowGeneration::kV4V5;
  // Set by the v4/v5 metadata decoder when a record carries V5 tags.
  bool sawV5Tags = false;
};

}  // namespace nettrace
