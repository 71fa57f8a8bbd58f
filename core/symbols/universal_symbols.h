// core/symbols — the tables of the "Universal.System" provider that Linux profilers
// (dotnet-trace collect-linux, one-collect) write into v6 traces: processes, memory
// mappings per process, in-trace symbols and mapping metadata. Unlike .NET's MethodLoad
// ranges, addresses here only mean something inside one process, so every lookup names
// its process. Mappings and symbols exist from their event's time on (a sample taken
// before a symbol was announced resolves as if it did not exist yet).
// Invariant after Finish(): per process, mappings and symbols sorted by start address,
// with running maxima of their ends (bounding the backward walk of Find).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nettrace {

struct UniversalProcess {
  uint64_t pid = 0;
  std::string name;
  uint64_t namespaceId = 0;
  std::string namespaceName;
  bool existing = false;           // ExistingProcess (alive when the trace began)
  uint64_t startTime = 0;          // ticks of ExistingProcess/ProcessCreate
  std::optional<uint64_t> exitTime;  // ProcessExit
};

struct UniversalMapping {
  uint64_t id = 0;
  uint64_t pid = 0;
  uint64_t start = 0, end = 0;  // [start, end)
  uint64_t fileOffset = 0;
  std::string fileName;
  uint64_t metadataId = 0;
  uint64_t time = 0;  // valid from
  uint32_t symbolCount = 0;  // filled by Finish()
};

struct UniversalSymbol {
  uint64_t id = 0;
  uint64_t mappingId = 0;
  uint64_t start = 0, end = 0;  // [start, end)
  std::string name;
  uint64_t time = 0;
};

struct MappingMetadata {
  uint64_t id = 0;
  std::string symbolMetadata;   // JSON text: ELF build-id, or PE/ReadyToRun perf-map identity
  std::string versionMetadata;  // JSON text
};

// The identity a mapping's SymbolMetadata JSON gives (TraceEvent's
// ProcessMappingSymbolMetadata): ELF {"type":"ELF","build_id","debug_link"} or PE
// {"type":"PE","name" (pdb),"signature","age","date_time","perfmap_signature",
// "perfmap_version","perfmap_name"}. Keys and values as written (numbers as their text);
// nullopt when the text is not a flat JSON object or has no "type".
std::optional<std::vector<std::pair<std::string, std::string>>> ParseMappingIdentity(std::string_view json);

// A JIT'd .NET method as perf maps name it: "ret [Module] Namespace.Class::Method(args)[OptLevel]".
struct JittedName {
  std::string module, method, optimizationLevel;  // method: "Namespace.Class.Method"
};
std::optional<JittedName> ParseJittedSymbolName(std::string_view name);

// "/usr/lib/libfoo.so" → "libfoo.so"; "" for an empty name.
std::string MappingBaseName(std::string_view fileName);

class UniversalSymbols {
 public:
  void AddProcess(UniversalProcess p);  // a later start event for a pid updates it
  void AddProcessExit(uint64_t pid, uint64_t time);
  void AddMapping(UniversalMapping m) { mappings_.push_back(std::move(m)), finished_ = false; }
  void AddSymbol(UniversalSymbol s) { symbols_.push_back(std::move(s)), finished_ = false; }
  void AddMetadata(MappingMetadata m) { metadata_[m.id] = std::move(m); }
  void Finish();

  // What an address of a process resolves to at a time, and the time interval
  // [validFrom, validUntil) over which that answer holds (for caching by the caller).
  struct Answer {
    const UniversalSymbol* symbol = nullptr;
    const UniversalMapping* mapping = nullptr;  // holding the address (or the symbol's)
    uint64_t validFrom = 0, validUntil = UINT64_MAX;
  };
  Answer Find(uint64_t pid, uint64_t address, uint64_t timestamp) const;
  bool HasProcess(uint64_t pid) const { return byPid_.count(pid) != 0; }
  bool empty() const { return processes_.empty() && mappings_.empty() && symbols_.empty(); }

  const std::vector<UniversalProcess>& processes() const { return processes_; }
  const std::vector<UniversalMapping>& mappings() const { return mappings_; }  // by (pid, start) after Finish
  const std::vector<UniversalSymbol>& symbols() const { return symbols_; }
  const MappingMetadata* Metadata(uint64_t id) const {
    auto it = metadata_.find(id);
    return it == metadata_.end() ? nullptr : &it->second;
  }

 private:
  // Per process: indexes into mappings_/symbols_ sorted by start, and running max ends.
  struct Index {
    std::vector<uint32_t> mappings, symbols;
    std::vector<uint32_t> symbolMapping;  // per symbols entry: its mapping in this process
    std::vector<uint64_t> mappingMaxEnd, symbolMaxEnd;
  };
  std::vector<UniversalProcess> processes_;
  std::unordered_map<uint64_t, size_t> processByPid_;
  std::vector<UniversalMapping> mappings_;
  std::vector<UniversalSymbol> symbols_;
  std::unordered_map<uint64_t, MappingMetadata> metadata_;
  std::unordered_map<uint64_t, Index> byPid_;
  bool finished_ = true;
};

}  // namespace nettrace
