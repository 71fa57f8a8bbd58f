// tests/fuzz — convert_fuzzer: `nettrace convert` (core/convert/v6_converter.h) on
// hostile bytes. The input (fuzz_input.h) is read by the facade and, separately, streamed
// through TraceReader into the V6Converter, in the same chunks.
//
// Assertions:
//   * errors of either path name a byte offset inside the file;
//   * when the facade read the input completely, the converter must succeed too (a
//     converter that refuses what the reader accepts cannot convert a user's trace);
//   * when both succeeded, the v6 output reads back completely with the same event count
//     and the same per-type counts (TraceEvent's baseline form), and converting that
//     output again keeps them.
#include <cstdint>
#include <string>
#include <vector>

#include "convert/v6_converter.h"
#include "format/trace_reader.h"
#include "trace_session.h"
#include "fuzz_check.h"
#include "fuzz_input.h"

namespace nettrace::fuzz {
namespace {

// Converts `t`; *out receives the v6 bytes; returns the reader's/converter's status.
Status Convert(const FuzzTrace& t, std::vector<uint8_t>* out) {
  V6Converter converter(
      [out](std::span<const uint8_t> b) {
        out->insert(out->end(), b.begin(), b.end());
        return Status::Ok();
      },
      V6Converter::Options{});
  TraceReader reader(&converter);
  return FeedInChunks(
      t, [&](const uint8_t* p, size_t n) { return reader.Push(p, n); }, [&] { return reader.Finish(); });
}

struct Counts {
  Status status;
  uint64_t events = 0;
  std::string perType;
};

Counts ReadCounts(const FuzzTrace& t) {
  TraceSession s;
  Counts c;
  c.status = FeedInChunks(
      t, [&](const uint8_t* p, size_t n) { return s.PushChunk(p, n); }, [&] { return s.Finish(); });
  c.events = s.eventCount();
  c.perType = s.TraceEventCounts();
  return c;
}

void CheckSameCounts(const Counts& got, const Counts& want, const char* what) {
  FUZZ_CHECK(got.status.ok(), std::string(what) + " does not read back: " + got.status.ToString());
  FUZZ_CHECK(got.events == want.events, std::string(what) + ": " + std::to_string(got.events) + " events, the original has " +
                                            std::to_string(want.events));
  FUZZ_CHECK(got.perType == want.perType,
             std::string(what) + ": per-type counts differ\n--- original\n" + want.perType + "--- read back\n" + got.perType);
}

}  // namespace
}  // namespace nettrace::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nettrace;
  using namespace nettrace::fuzz;
  const FuzzTrace t = SplitFuzzInput(data, size);
  const Counts original = ReadCounts(t);
  FUZZ_CHECK(ErrorProblem(original.status, t.bytes.size()).empty(), ErrorProblem(original.status, t.bytes.size()));

  std::vector<uint8_t> v6;
  const Status converted = Convert(t, &v6);
  FUZZ_CHECK(ErrorProblem(converted, t.bytes.size()).empty(), "convert: " + ErrorProblem(converted, t.bytes.size()));
  if (original.status.ok()) {
    FUZZ_CHECK(converted.ok(), "the converter refuses a trace the reader accepts: " + converted.ToString());
  }
  if (!converted.ok()) return 0;

  // A converted trace that the original read did not accept in full still has to be a
  // readable file (no crash, errors with offsets); only complete inputs have counts to keep.
  const FuzzTrace back{v6, 0};
  const Counts readBack = ReadCounts(back);
  FUZZ_CHECK(ErrorProblem(readBack.status, v6.size()).empty(), "read back: " + ErrorProblem(readBack.status, v6.size()));
  if (!original.status.ok()) return 0;
  CheckSameCounts(readBack, original, "the converted trace");

  std::vector<uint8_t> again;
  const Status reconverted = Convert(back, &again);
  FUZZ_CHECK(reconverted.ok(), "the converter refuses its own output: " + reconverted.ToString());
  CheckSameCounts(ReadCounts(FuzzTrace{again, 0}), original, "the converted trace converted again");
  return 0;
}
