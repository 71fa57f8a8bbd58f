// tests/fuzz — writes the fuzzers' seed corpus (scripts/fuzz.sh runs it at build time):
//
//   seed_generator DATA_DIR OUT_DIR
//     DATA_DIR  the unpacked real traces (tests/data/**/*.gz, unpacked; any depth)
//     OUT_DIR/trace/    read_fuzzer and convert_fuzzer seeds (fuzz_input.h): each real
//                       trace cut small at block boundaries (3, 12 and 40 KB) and closed
//                       with its end-of-stream marker, one cut also left open; the
//                       writer-made traces (seed_traces.h); some in the chunked form
//     OUT_DIR/decoder/  decoder_fuzzer seeds: the blocks of those traces, each as the
//                       input of its decoder target (decoder_fuzzer.cc's mode byte), the
//                       metadata records with a payload of their events, CLR payloads
//                       with their template index
//     OUT_DIR/heap/     heap_fuzzer seeds: each real .gcdump whole, in chunks of 13 and cut
//                       at 3, 12 and 40 KB; the heap-dump .nettrace files whole; seeded
//                       random heaps of 0 to 1,000 objects (tests/bench/random_heap.h)
//
// Deterministic: the same data gives the same files.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "format/clr_events.generated.h"
#include "format/event_block.h"
#include "format/provider_family.h"
#include "format/trace_reader.h"
#include "seed_traces.h"
#include "../bench/gcdump_writer.h"
#include "../bench/random_heap.h"

namespace fs = std::filesystem;
using namespace nettrace;

namespace {

using Bytes = std::vector<uint8_t>;

// What the generator needs from a read: block boundaries, metadata, one payload per id.
class Recorder final : public RecordSink {
 public:
  Status OnTraceInfo(const TraceInfo& info) override {
    pointerSize = info.pointerSize;
    return Status::Ok();
  }
  Status OnBlock(const BlockInfo& b) override {
    blocks.push_back(b);
    return Status::Ok();
  }
  Status OnMetadata(const EventMetadata& m) override {
    metadata.try_emplace(m.id, m);
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    if (e.payload.size() <= 4096) payloads.try_emplace(e.metadataId, e.payload.begin(), e.payload.end());
    return Status::Ok();
  }
  uint32_t pointerSize = 8;
  std::vector<BlockInfo> blocks;
  std::map<uint32_t, EventMetadata> metadata;
  std::map<uint32_t, Bytes> payloads;
};

bool WriteFile(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

Bytes ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes U16(size_t v) { return {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)}; }

class Generator {
 public:
  explicit Generator(fs::path out) : out_(std::move(out)) {
    fs::create_directories(out_ / "trace");
    fs::create_directories(out_ / "decoder");
    fs::create_directories(out_ / "heap");
  }

  // A whole trace: its small cuts (real traces) or itself (writer-made), and its blocks.
  bool Trace(const std::string& name, const Bytes& file, bool cut) {
    // Blocks starting in the first 64 KB are all a cut or a decoder seed can use.
    const Bytes head(file.begin(), file.begin() + static_cast<ptrdiff_t>(std::min<size_t>(file.size(), 96 << 10)));
    Recorder r;
    TraceReader reader(&r);
    Status s = reader.Push(head.data(), head.size());
    if (s.ok() && head.size() == file.size()) s = reader.Finish();
    const bool v6 = reader.formatMajor() >= 6;
    if (r.blocks.empty()) {  // a format the reader refuses: its first bytes still seed
      std::fprintf(stderr, "seed_generator: %s: no blocks (%s); only its head\n", name.c_str(), s.ToString().c_str());
      return Emit("trace", name + "-head3k", Bytes(head.begin(), head.begin() + std::min<ptrdiff_t>(head.size(), 3072)));
    }
    bool ok = true;
    if (cut) {
      const Bytes end = v6 ? Bytes{0, 0, 0, 0} : Bytes{1};  // §Blocks EndOfStream / FastSerialization NullReference
      size_t lastCut = 0;
      for (size_t kb : {3, 12, 40}) {
        size_t at = 0;
        for (size_t i = 1; i < r.blocks.size(); ++i)
          if (r.blocks[i].offset <= kb * 1024) at = r.blocks[i].offset;
        if (at == 0 || at == lastCut) continue;
        lastCut = at;
        const Bytes prefix(file.begin(), file.begin() + static_cast<ptrdiff_t>(at));
        ok &= Emit("trace", name + "-" + std::to_string(kb) + "k", Cat({prefix, end}));
        if (kb == 12) ok &= Emit("trace", name + "-12k-open-chunk7", Cat({U16(6), prefix}));
      }
    } else {
      ok &= Emit("trace", name, file);
      ok &= Emit("trace", name + "-chunk13", Cat({U16(12), file}));
    }
    return ok && Blocks(name, head, r, v6, reader.formatMajor() == 3);
  }

  // heap_fuzzer's seeds (its input format is read_fuzzer's: raw, or a chunk header first).
  bool HeapFile(const std::string& name, const Bytes& file, bool gcdump) {
    bool ok = Emit("heap", name, file);
    if (!gcdump) return ok;
    ok &= Emit("heap", name + "-chunk13", Cat({U16(12), file}));
    for (size_t kb : {3, 12, 40}) {
      if (kb * 1024 < file.size()) ok &= Emit("heap", name + "-cut" + std::to_string(kb) + "k", Bytes(file.begin(), file.begin() + kb * 1024));
    }
    return ok;
  }

  bool RandomHeaps() {
    bool ok = true;
    for (uint32_t objects : {0u, 1u, 10u, 100u, 1000u}) {
      const Bytes file = bench::GcdumpWriter().Write(bench::RandomHeap(objects, objects + 1));
      ok &= HeapFile("random-heap-" + std::to_string(objects) + ".gcdump", file, objects == 100);
    }
    return ok;
  }

  bool Misc() {
    bool ok = true;
    // ChunkQueue op streams: append 10, peek 4, consume 3, append 5, peek 12, consume 12.
    ok &= Emit("decoder", "chunkqueue-ops", {1, 0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 4, 2, 3, 0, 5, 11, 12, 13, 14, 15, 1, 12, 2, 12});
    // ByteCursor: varints of every length, then ops from the end (4 = varint, 7 = string).
    ok &= Emit("decoder", "cursor-varints",
               {0, 0x05, 0x80, 0x01, 0xFF, 0xFF, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 2, 'h', 'i', 7, 4, 4, 4, 4});
    // UTF-16 with a surrogate pair, a lone surrogate and a terminator.
    ok &= Emit("decoder", "utf16", {8, 'a', 0, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8, 'b', 0, 0, 0});
    return ok;
  }

 private:
  bool Emit(const char* dir, const std::string& name, const Bytes& bytes) {
    ++count_;
    return WriteFile(out_ / dir / name, bytes);
  }

  // Decoder seeds from the blocks of one trace (at most a few per kind).
  // NetPerf's EventBlocks go to the NetPerf selectors (V4V5Block 5, EventRows generation 2).
  bool Blocks(const std::string& name, const Bytes& head, const Recorder& r, bool v6, bool netPerf) {
    std::map<int, int> perKind;
    bool ok = true;
    const uint8_t ptr = r.pointerSize == 8 ? 1 : 0;
    for (const BlockInfo& b : r.blocks) {
      if (b.contentOffset + b.payloadSize > head.size() || b.payloadSize > (16 << 10)) continue;
      if (perKind[static_cast<int>(b.kind)]++ >= 3) continue;
      const Bytes content(head.begin() + static_cast<ptrdiff_t>(b.contentOffset),
                          head.begin() + static_cast<ptrdiff_t>(b.contentOffset + b.payloadSize));
      const std::string base = name + "-" + BlockKindName(b.kind) + "-" + std::to_string(b.offset);
      const int sel = netPerf && b.kind == BlockKind::kEvent ? 5 : Selector(b.kind, v6);
      if (sel >= 0) ok &= Emit("decoder", base, Cat({{static_cast<uint8_t>(v6 ? 5 : 6), static_cast<uint8_t>(sel), ptr}, content}));
      const uint8_t gen = netPerf ? 2 : static_cast<uint8_t>(v6);
      if (b.kind == BlockKind::kEvent) ok &= Emit("decoder", base + "-rows", Cat({{7, gen}, content}));
      if (b.kind == BlockKind::kMetadata) ok &= MetadataSeeds(base, content, r, v6);
    }
    // CLR template payloads: the template's index in AllEvents() and a real payload.
    size_t count = 0;
    const clr::EventInfo* all = clr::AllEvents(&count);
    for (const auto& [id, m] : r.metadata) {
      const clr::EventInfo* info = clr::FindEvent(ClrProviderOf(m.providerName), m.eventId, m.version);
      auto payload = r.payloads.find(id);
      if (!info || !m.fields.empty() || payload == r.payloads.end() || perKind[-1]++ >= 24) continue;
      const uint8_t flags = static_cast<uint8_t>(ptr | (v6 ? 4 : 0));
      ok &= Emit("decoder", name + "-clr-" + info->symbol + "-" + std::to_string(id),
                 Cat({{4}, U16(static_cast<size_t>(info - all)), {flags}, payload->second}));
    }
    return ok;
  }

  // v6: the whole block and an event payload of each of its metadata ids; v4/v5: each
  // metadata record (a row of the block) and a payload of its id.
  bool MetadataSeeds(const std::string& base, const Bytes& content, const Recorder& r, bool v6) {
    const uint8_t ptr = r.pointerSize == 8 ? 1 : 0;
    if (v6) {
      const Bytes payload = r.payloads.empty() ? Bytes{} : r.payloads.begin()->second;
      return Emit("decoder", base + "-v6meta", Cat({{3, ptr}, U16(content.size()), content, payload}));
    }
    std::vector<EventRecord> rows;
    if (!DecodeEventRows(ByteCursor(content, 0), RowGeneration::kV4V5, &rows).ok()) return true;
    bool ok = true;
    for (size_t i = 0; i < rows.size() && i < 8; ++i) {
      const Bytes record(rows[i].payload.begin(), rows[i].payload.end());
      uint32_t id = 0;  // the record starts with the metadata id (NetTraceFormat_v5.md §Metadata)
      if (record.size() >= 4) id = record[0] | record[1] << 8 | record[2] << 16 | uint32_t{record[3]} << 24;
      auto payload = r.payloads.find(id);
      ok &= Emit("decoder", base + "-record" + std::to_string(i),
                 Cat({{2, ptr}, U16(record.size()), record, payload == r.payloads.end() ? Bytes{} : payload->second}));
    }
    return ok;
  }

  // decoder_fuzzer's block selector for a kind (V6Block / V4V5Block), -1 if none.
  static int Selector(BlockKind kind, bool v6) {
    switch (kind) {
      case BlockKind::kTrace: return 0;
      case BlockKind::kEvent: return 1;
      case BlockKind::kMetadata: return 2;
      case BlockKind::kSequencePoint: return v6 ? 3 : 4;
      case BlockKind::kStack: return v6 ? 4 : 3;
      case BlockKind::kThread: return v6 ? 5 : -1;
      case BlockKind::kRemoveThread: return v6 ? 6 : -1;
      case BlockKind::kLabelList: return v6 ? 7 : -1;
      default: return -1;
    }
  }

  fs::path out_;
  size_t count_ = 0;

 public:
  size_t count() const { return count_; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: seed_generator DATA_DIR OUT_DIR\n");
    return 2;
  }
  Generator g(argv[2]);
  std::vector<fs::path> traces, heaps;
  for (const auto& e : fs::recursive_directory_iterator(argv[1])) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".nettrace" || ext == ".netperf")) traces.push_back(e.path());
    // The heap snapshots (tests/data/heap/): the small ones, which replay fast.
    if (e.is_regular_file() && e.path().parent_path().filename() == "heap" && e.path().stem().string().ends_with("-small") &&
        (ext == ".gcdump" || ext == ".nettrace"))
      heaps.push_back(e.path());
  }
  std::sort(traces.begin(), traces.end());
  std::sort(heaps.begin(), heaps.end());
  bool ok = true;
  for (const fs::path& p : heaps) ok &= g.HeapFile(p.filename().string(), ReadFile(p), p.extension() == ".gcdump");
  ok &= g.RandomHeaps();
  for (const fs::path& p : traces) ok &= g.Trace(p.stem().string(), ReadFile(p), /*cut=*/true);
  std::vector<fuzz::SeedTrace> written;
  Status s = fuzz::WriterSeedTraces(&written);
  if (!s.ok()) {
    std::fprintf(stderr, "seed_generator: the writer refused a seed trace: %s\n", s.ToString().c_str());
    return 1;
  }
  for (const fuzz::SeedTrace& t : written) ok &= g.Trace(t.name, t.bytes, /*cut=*/false);
  ok &= g.Misc();
  if (!ok) {
    std::fprintf(stderr, "seed_generator: cannot write under %s\n", argv[2]);
    return 1;
  }
  std::printf("seed_generator: %zu seeds from %zu real and %zu writer-made traces\n", g.count(), traces.size(),
              written.size());
  return 0;
}
