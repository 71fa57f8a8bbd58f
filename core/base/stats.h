// core/base — the one list of things a reader can survive but a user should know about.
// Each counter is declared once here with its severity and whether the trace itself
// recorded it or we found it. The summary prints every non-zero counter; tests assert
// on them. Fatal problems are not counters: they are Status errors.
#pragma once

#include <cstdint>

namespace nettrace {

enum class StatSeverity : uint8_t { kInfo, kDataLoss, kError };
enum class StatSource : uint8_t { kTrace, kAnalysis };

// X(name, severity, source, description)
#define NETTRACE_STATS(X)                                                                                          \
  X(unknownBlockKinds, kInfo, kTrace, "v6 blocks of a kind this reader does not know, skipped by size")            \
  X(unknownMetadataTags, kInfo, kTrace, "v5 metadata tags of an unknown kind, skipped by size")                    \
  X(unknownOptionalMetadata, kDataLoss, kTrace,                                                                    \
    "v6 metadata rows whose optional metadata has an unknown kind (no size: rest of that list not read)")           \
  X(unknownThreadInfo, kDataLoss, kTrace,                                                                          \
    "v6 thread rows with an unknown info kind (no size: rest of that row not read)")                               \
  X(unknownLabelKinds, kDataLoss, kTrace,                                                                          \
    "v6 label lists with an unknown label kind (no size: rest of that block not read)")                            \
  X(stackIdsUnresolved, kError, kAnalysis,                                                                         \
    "events whose stack id names no stack of their sequence-point region")                                         \
  X(labelListIdsUnresolved, kError, kAnalysis,                                                                     \
    "events whose label list id names no label list of their sequence-point region")                               \
  X(partialStackIps, kDataLoss, kTrace,                                                                         \
    "stacks whose size is not a whole number of pointers (the partial last address is dropped)")                  \
  X(emptyLabelLists, kInfo, kTrace,                                                                             \
    "v6 label lists with no label left (their only label was of an unknown kind): read as the empty list 0")      \
  X(metadataIdsOutOfRange, kDataLoss, kTrace,                                                                   \
    "metadata rows whose id needs 32 bits (events refer to metadata by 31-bit ids): dropped")                      \
  X(metadataByteFieldsTruncated, kInfo, kTrace,                                                                  \
    "v4/v5 metadata whose Version or Level exceeds 255: the low byte is kept, as TraceEvent's event header does") \
  X(metadataFieldsCut, kDataLoss, kTrace,                                                                        \
    "metadata field lists cut before a field whose type describes no layout (undefined type code or malformed): " \
    "later fields are not decoded")                                                                              \
  X(metadataRedefinitions, kError, kAnalysis, "v4/v5 metadata ids defined twice (the later definition wins)")      \
  X(sequenceNumberGaps, kDataLoss, kTrace, "places where a capture thread's sequence numbers skip (events dropped)") \
  X(tooManyThreads, kError, kAnalysis, "events on threads beyond the 65,535 the event table can index (shown as the last)") \
  X(tooManyEventTypes, kError, kAnalysis, "events of types beyond the 65,535 the event table can index (shown as the last)") \
  X(unsortedCaptureThreadRuns, kInfo, kTrace, "capture threads whose events were not in time order within a region") \
  X(isSortedHintViolations, kInfo, kTrace, "events earlier than an event marked IsSorted before them (placed correctly anyway)") \
  X(syncTimeInvalid, kError, kTrace,                                                                            \
    "the trace's sync time is not a date and time of years 1-9999 (UTC times are shown as null)")                   \
  X(droppedEvents, kDataLoss, kTrace, "events the writer numbered but never wrote (sequence gaps and sequence points)")

struct Stats {
#define NETTRACE_STAT_FIELD(name, severity, source, description) uint64_t name = 0;
  NETTRACE_STATS(NETTRACE_STAT_FIELD)
#undef NETTRACE_STAT_FIELD
};

}  // namespace nettrace
