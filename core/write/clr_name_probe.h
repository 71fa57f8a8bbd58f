// core/write — the CLR name probe: a NetTrace v5 trace that holds one event for every name
// question the CLR event table (format/clr_events.generated.h) answers, so that TraceEvent can
// answer the same questions: every (provider, id, version) of the table, every other id of
// each CLR provider from 0 to 16 past its highest, a runtime GCDynamicEvent (id 39) for each
// dynamic-event name the table or .NET 10 knows and one that nobody does, and the
// SampleProfiler's ids 0–2. Metadata is written as the runtime writes it for these providers
// (no event name, no field descriptions, no opcode).
//
// scripts/oracle.sh writes the trace (`nettrace write-clr-name-probe OUT`), has TraceEvent name
// each event (tests/oracle, `--clr-names`) and keeps the answers in
// tests/data/clr-names/traceevent-clr-names.txt; scripts/gen_clr_events.py and the unit tests hold our
// names to that file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace nettrace {

// One probe event: what it asks about. dynamicName and dataSize: the GCDynamicEvent's Name ("" for
// every other event) and DataSize (its Data is that many zero bytes).
struct ClrNameProbe {
  std::string provider;
  uint32_t id = 0;
  uint32_t version = 0;
  std::string dynamicName;
  uint32_t dataSize = 0;
};

// The probes in the order the trace holds them (one thread, ascending timestamps).
std::vector<ClrNameProbe> ClrNameProbes();

// The probes as text, one line each: provider, id, version and dynamicName:dataSize (empty for
// the others), tab-separated
// (`nettrace write-clr-name-probe OUT` writes it to OUT.probes.tsv for the oracle).
std::string ClrNameProbeList();

// The probe trace. Payloads: a GCDynamicEvent's fields (Name, DataSize, Data, ClrInstanceID 0);
// 64 zero bytes for every other event (the names do not depend on them).
Status WriteClrNameProbeTrace(std::vector<uint8_t>* out);

}  // namespace nettrace
