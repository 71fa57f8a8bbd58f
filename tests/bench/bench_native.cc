// Native benchmark of the streaming pipeline (read → sort → store), run by `npm run bench`.
//
//   nettrace_bench generate OUT [--size-mb N] [--interleaved]
//                                               write a synthetic NetTrace v6 trace of ~N MB
//   nettrace_bench read FILE [--runs N] [--plain-heap]   median MB/s, events/s, peak RSS,
//                                               bytes/event; the heap readied as the CLI readies
//                                               it (core/cli/huge_page_heap.h), unless --plain-heap
//   nettrace_bench generate-flame OUT [--stacks N]   a v6 trace whose cpu flame graph has
//                                                   many nodes (default 16000 stacks: ~200k)
//   nettrace_bench walk FILE                    the ceiling for reading: the format decoders
//                                               alone (every block and event header decoded,
//                                               payloads skipped, nothing kept); prints events
//   nettrace_bench repeat IN OUT N              a v4/v5 trace written N times back to back
//                                               (tests/bench/repeat_trace.cc)
//   nettrace_bench snapshots FILE [--every N]   a live session's cost: the read in 64 KiB chunks
//                                               with TraceSession::Snapshot() every N chunks
//                                               (default 1) vs none; seconds in Snapshot, ranges
//
// Each run is a fresh child process so that its peak resident memory (getrusage) is its
// own. Timing is wall-clock around the whole read in 4 MiB chunks, as the browser reads (method
// names left in the file, as the app and the CLI leave them).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/huge_page_heap.h"

#include "analysis/stacks/call_tree.h"
#include "repeat_trace.h"
#include "analysis/stacks/flame_graph.h"
#include "format/trace_reader.h"
#include "trace_session.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"
#include "write/universal_trace_writer.h"

using namespace nettrace;

namespace {

constexpr size_t kChunk = 4 << 20;

// The events of one region reordered as a runtime writes them: bursts of one capture thread's
// events (each thread's in their order), the threads taken in turn.
template <typename Next>
std::vector<EventRecord> InThreadBursts(const std::vector<EventRecord>& region, uint32_t threads, Next& next) {
  std::vector<std::vector<size_t>> byThread(threads + 1);
  for (size_t i = 0; i < region.size(); ++i) byThread[region[i].captureThread].push_back(i);
  std::vector<size_t> taken(threads + 1, 0);
  std::vector<EventRecord> out;
  out.reserve(region.size());
  while (out.size() < region.size())
    for (uint32_t t = 1; t <= threads; ++t) {
      const size_t burst = 256 + next() % 3840;
      for (size_t k = 0; k < burst && taken[t] < byThread[t].size(); ++k) out.push_back(region[byThread[t][taken[t]++]]);
    }
  return out;
}

// A trace shaped like a busy .NET process: 16 capture threads, 12 event types, stacks of
// 10-40 frames drawn from a pool, a sequence point every 200k events, per-thread increasing
// timestamps. The runtime writes a thread's buffer at a time, so each region's events are
// written in bursts of one thread's, 256-4095 events long (on every committed trace of a
// runtime, 99.6-99.99 % of consecutive events share their capture thread: bursts of ~270 to
// ~4,800 events on average). `interleaved`: each event written in turn from a random thread,
// which no runtime writes and which costs the sorter most (a stress test of its merge).
int Generate(const char* out, double sizeMb, bool interleaved) {
  FILE* f = std::fopen(out, "wb");
  if (!f) return std::perror(out), 1;
  NetTraceV6Writer w;
  auto drain = [&] {
    std::vector<uint8_t> b = w.TakeBytes();
    return std::fwrite(b.data(), 1, b.size(), f) == b.size();
  };
  TraceInfo info;
  info.syncTimeUtc = {2026, 11, 6, 21, 12, 0, 0, 0};
  info.syncTimeTicks = 1000000;
  info.tickFrequency = 1000000000;
  info.pointerSize = 8;
  info.processId = 4242;
  info.numberOfProcessors = 16;
  if (!w.WriteTraceBlock(info).ok()) return 1;
  std::vector<EventMetadata> meta(12);
  for (uint32_t i = 0; i < meta.size(); ++i) {
    meta[i].id = i + 1;
    meta[i].providerName = i < 6 ? "Bench.Provider" : "Bench.Other";
    meta[i].eventId = i + 1;
    meta[i].eventName = "Event" + std::to_string(i);
    FieldDescription a, b;
    a.name = "Value";
    a.type.code = TypeCode::kInt64;
    b.name = "Count";
    b.type.code = TypeCode::kInt32;
    meta[i].fields = {a, b};
  }
  if (!w.WriteMetadataBlock(meta).ok()) return 1;
  constexpr uint32_t kThreads = 16;
  std::vector<ThreadInfo> threads(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads[t].index = t + 1;
    threads[t].osThreadId = 1000 + t;
    threads[t].osProcessId = 4242;
    threads[t].name = "worker-" + std::to_string(t);
  }
  if (!w.WriteThreadBlock(threads).ok()) return 1;

  uint64_t rng = 0x243F6A8885A308D3ull;
  auto next = [&] {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  };
  std::vector<std::vector<uint8_t>> stackPool(256);
  for (auto& s : stackPool) {
    size_t frames = 10 + next() % 31;
    for (size_t k = 0; k < frames; ++k) {
      uint64_t ip = 0x7f0000000000ull + (next() % 4096) * 64;
      const uint8_t* p = reinterpret_cast<const uint8_t*>(&ip);
      s.insert(s.end(), p, p + 8);
    }
  }
  const uint64_t target = static_cast<uint64_t>(sizeMb * 1024 * 1024);
  std::vector<uint32_t> seq(kThreads + 1, 0);
  std::vector<uint64_t> clock(kThreads + 1, 2000000);
  uint64_t events = 0;
  std::vector<uint8_t> payloads;
  while (w.bytesWritten() < target) {
    if (!w.WriteStackBlock(1, stackPool).ok()) return 1;
    constexpr size_t kRegion = 200000;
    std::vector<EventRecord> region(kRegion);
    payloads.assign(kRegion * 12, 0);
    uint64_t regionEnd = 0;
    for (size_t i = 0; i < kRegion; ++i) {
      EventRecord& e = region[i];
      uint32_t t = 1 + static_cast<uint32_t>(next() % kThreads);
      e.metadataId = 1 + static_cast<uint32_t>(next() % meta.size());
      e.thread = e.captureThread = t;
      e.processorNumber = static_cast<uint32_t>(next() % 16);
      e.sequenceNumber = ++seq[t];
      clock[t] += 100 + next() % 5000;
      e.timestamp = clock[t];
      regionEnd = std::max(regionEnd, e.timestamp);
      e.stackId = 1 + static_cast<uint32_t>(next() % stackPool.size());
      int64_t v = static_cast<int64_t>(next());
      std::memcpy(payloads.data() + i * 12, &v, 8);
      e.payload = std::span<const uint8_t>(payloads.data() + i * 12, 12);
      e.isSorted = false;
    }
    if (!interleaved) region = InThreadBursts(region, kThreads, next);
    if (!w.WriteEvents(region, true, 256 * 1024).ok()) return 1;
    events += kRegion;
    SequencePoint sp;
    sp.timestamp = regionEnd + 1;
    for (uint32_t t = 1; t <= kThreads; ++t) {
      sp.threads.push_back({t, seq[t]});
      clock[t] = regionEnd + 2;
    }
    if (!w.WriteSequencePointBlock(sp).ok()) return 1;
    if (!drain()) return std::perror(out), 1;
  }
  if (!w.WriteEndOfStream().ok() || !drain()) return 1;
  std::fclose(f);
  std::fprintf(stderr, "wrote %llu events, %.1f MB to %s\n", static_cast<unsigned long long>(events),
               static_cast<double>(w.bytesWritten()) / 1048576.0, out);
  return 0;
}

// A collect-linux-like trace (in-trace symbols, cpu samples) built for the flame-graph
// benchmark: `stacks` distinct stacks of 12-31 frames, each frame drawn from 6 methods per
// depth, so the tree fans out fast and almost every stack adds a node per frame below the
// sixth level. One cpu sample per stack: 1 stack in 8 weighs 1 ms, the others 1-10 µs, so
// that at full width ~2,000 distinct stacks are just over half a pixel wide (the worst case
// for drawing: ~40k nodes visible at once) above a long tail of sub-pixel ones.
// Deterministic (fixed xorshift seed). Prints the flame graph's node count.
int GenerateFlame(const char* out, uint32_t stacks) {
  constexpr uint32_t kLevels = 32, kChoices = 6;
  constexpr uint64_t kBase = 0x7e0000000000, kSymbolSize = 0x100;
  UniversalTraceWriter w;
  w.AddThread(1, 4242, 4242, "bench");
  w.ExistingProcess(0, 1, "bench");
  w.ProcessMapping(0, 1, 1, kBase, kBase + kLevels * kChoices * kSymbolSize, 0, "/memfd:doublemapper (deleted)");
  static const char* const kVerbs[kChoices] = {"Parse", "Render", "Compute", "Dispatch", "Load", "Store"};
  for (uint32_t level = 0; level < kLevels; ++level)
    for (uint32_t c = 0; c < kChoices; ++c) {
      const uint32_t id = level * kChoices + c;
      const uint64_t start = kBase + id * kSymbolSize;
      w.ProcessSymbol(0, 1, id + 1, 1, start, start + kSymbolSize,
                      "void [Bench] Bench.Layer" + std::to_string(level) + ".Component" + std::to_string(c) +
                          "::" + kVerbs[c] + "Item" + std::to_string(level) + "(int32)[OptimizedTier1]");
    }
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  };
  std::vector<uint64_t> ips;
  for (uint32_t i = 0; i < stacks; ++i) {
    const uint32_t depth = 12 + static_cast<uint32_t>(next() % 20);
    ips.clear();
    for (uint32_t level = 0; level < depth; ++level)  // root first here, reversed below
      ips.push_back(kBase + (level * kChoices + next() % kChoices) * kSymbolSize + 0x10);
    std::reverse(ips.begin(), ips.end());
    const uint32_t stack = w.AddStack(ips);
    const uint64_t micros = i % 8 == 0 ? 1000 : 1 + next() % 10;  // 1 hot stack in 8
    w.Cpu(1000000 + uint64_t{i} * 1000000, 1, 1000 * micros, stack);
  }
  std::vector<uint8_t> bytes;
  if (!w.Finish(&bytes).ok()) return 1;
  FILE* f = std::fopen(out, "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0)
    return std::perror(out), 1;
  TraceSession session;
  if (!session.PushChunk(bytes.data(), bytes.size()).ok() || !session.Finish().ok()) return 1;
  StackQuery query;
  query.event = "cpu";
  std::printf("{\"file\":\"%s\",\"bytes\":%zu,\"stacks\":%u,\"flameNodes\":%zu}\n", out, bytes.size(), stacks,
              session.BuildFlameGraph(query).size());
  return 0;
}

struct RunResult {
  double seconds = 0, bytesPerEvent = 0;
  uint64_t bytes = 0, events = 0;
  long peakKb = 0;
  double cpuSeconds = 0;  // the child's user + system time (getrusage): on a shared machine
                          // what the read cost, where wall time also counts waiting
};

// One timed read in this (child) process.
RunResult ReadOnce(const char* path) {
  RunResult r;
  FILE* f = std::fopen(path, "rb");
  if (!f) std::perror(path), std::exit(1);
  std::vector<uint8_t> buf(kChunk);
  TraceSession session;
  // As the CLI and the app read a file: method names stay in it (read back only when frames
  // are named, which a read alone never asks for).
  session.KeepNamesInSource([path](uint64_t offset, uint64_t size, std::vector<uint8_t>* bytes) {
    FILE* g = std::fopen(path, "rb");
    bytes->resize(size);
    const bool ok = g && fseeko(g, static_cast<off_t>(offset), SEEK_SET) == 0 && std::fread(bytes->data(), 1, size, g) == size;
    if (g) std::fclose(g);
    return ok;
  });
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    size_t n = std::fread(buf.data(), 1, buf.size(), f);
    r.bytes += n;
    if (n > 0 && !session.PushChunk(buf.data(), n).ok()) break;
    if (n < buf.size()) break;
  }
  Status s = session.Finish();
  auto end = std::chrono::steady_clock::now();
  std::fclose(f);
  if (!s.ok()) std::fprintf(stderr, "read error: %s\n", s.ToString().c_str()), std::exit(1);
  r.seconds = std::chrono::duration<double>(end - start).count();
  r.events = session.eventCount();
  r.bytesPerEvent = session.StoreBytesPerEvent();
  return r;
}

int Read(const char* path, int runs, bool plainHeap) {
  std::vector<RunResult> results;
  for (int i = 0; i < runs; ++i) {
    int pipeFd[2];
    if (pipe(pipeFd) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
      if (!plainHeap) nettrace_cli::ReadyHeapForTraces(path);
      RunResult r = ReadOnce(path);
      if (write(pipeFd[1], &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(1);
      _exit(0);
    }
    close(pipeFd[1]);
    RunResult r;
    bool got = read(pipeFd[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
    close(pipeFd[0]);
    int status;
    struct rusage usage;
    wait4(pid, &status, 0, &usage);
    if (!got || status != 0) return 1;
    r.peakKb = usage.ru_maxrss;
    r.cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                   static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    results.push_back(r);
  }
  std::sort(results.begin(), results.end(), [](const RunResult& a, const RunResult& b) { return a.seconds < b.seconds; });
  const RunResult& m = results[results.size() / 2];
  long peak = 0;
  std::vector<double> cpu;
  for (const auto& r : results) peak = std::max(peak, r.peakKb), cpu.push_back(r.cpuSeconds);
  std::sort(cpu.begin(), cpu.end());
  const double mb = static_cast<double>(m.bytes) / 1048576.0;
  std::printf(
      "{\"file\":\"%s\",\"runs\":%d,\"bytes\":%llu,\"events\":%llu,\"medianSeconds\":%.4f,\"mbPerSecond\":%.1f,"
      "\"eventsPerSecond\":%.0f,\"medianCpuSeconds\":%.4f,\"peakRssMb\":%.1f,\"storeBytesPerEvent\":%.3f}\n",
      path, runs, static_cast<unsigned long long>(m.bytes), static_cast<unsigned long long>(m.events), m.seconds,
      mb / m.seconds, static_cast<double>(m.events) / m.seconds, cpu[cpu.size() / 2], static_cast<double>(peak) / 1024.0,
      m.bytesPerEvent);
  return 0;
}

// What every later stage adds to the read is measured against this (scripts/bench.sh runs
// both under callgrind): the reader with a sink that only counts.
int Walk(const char* path) {
  struct CountingSink final : RecordSink {
    uint64_t events = 0;
    Status OnEvent(const EventRecord&) override {
      ++events;
      return Status::Ok();
    }
  } sink;
  FILE* f = std::fopen(path, "rb");
  if (!f) return std::perror(path), 1;
  std::vector<uint8_t> buf(kChunk);
  TraceReader reader(&sink);
  Status s = Status::Ok();
  for (size_t n; s.ok() && (n = std::fread(buf.data(), 1, buf.size(), f)) > 0;) s = reader.Push(buf.data(), n);
  std::fclose(f);
  if (s.ok()) s = reader.Finish();
  if (!s.ok()) return std::fprintf(stderr, "read error: %s\n", s.ToString().c_str()), 1;
  std::printf("{\"file\":\"%s\",\"events\":%llu}\n", path, static_cast<unsigned long long>(sink.events));
  return 0;
}

}  // namespace

// Live sessions snapshot between chunks (TraceSession::Snapshot): what that adds to the read,
// and how much of it is spent in Snapshot itself (the method ranges are made sorted there).
int Snapshots(const char* path, int every) {
  std::vector<uint8_t> bytes;
  if (!ReadWholeFile(path, &bytes)) return 1;
  constexpr size_t kLiveChunk = 64 * 1024;
  using Clock = std::chrono::steady_clock;
  auto read = [&](int snapshotEvery, double* inSnapshot, size_t* snapshots) {
    TraceSession session;
    *inSnapshot = 0;
    *snapshots = 0;
    const auto start = Clock::now();
    for (size_t at = 0, chunk = 1; at < bytes.size(); at += kLiveChunk, ++chunk) {
      if (!session.PushChunk(bytes.data() + at, std::min(kLiveChunk, bytes.size() - at)).ok()) break;
      if (snapshotEvery <= 0 || chunk % static_cast<size_t>(snapshotEvery) != 0) continue;
      const auto before = Clock::now();
      session.Snapshot();
      *inSnapshot += std::chrono::duration<double>(Clock::now() - before).count();
      ++*snapshots;
    }
    (void)session.Finish();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::make_pair(seconds, session.symbols().methods().size());
  };
  double plainIn = 0, liveIn = 0;
  size_t none = 0, snapshots = 0;
  const auto plain = read(0, &plainIn, &none);
  const auto live = read(every, &liveIn, &snapshots);
  std::printf(
      "{\"file\":\"%s\",\"bytes\":%zu,\"methodRanges\":%zu,\"snapshots\":%zu,\"secondsWithout\":%.4f,"
      "\"secondsWith\":%.4f,\"secondsInSnapshot\":%.4f}\n",
      path, bytes.size(), live.second, snapshots, plain.first, live.first, liveIn);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 3 && !std::strcmp(argv[1], "generate")) {
    double size = 1100;
    bool interleaved = false;
    for (int i = 3; i < argc; ++i) {
      if (!std::strcmp(argv[i], "--size-mb") && i + 1 < argc) size = std::atof(argv[++i]);
      else if (!std::strcmp(argv[i], "--interleaved")) interleaved = true;
    }
    return Generate(argv[2], size, interleaved);
  }
  if (argc >= 3 && !std::strcmp(argv[1], "generate-flame")) {
    uint32_t stacks = 16000;
    if (argc >= 5 && !std::strcmp(argv[3], "--stacks")) stacks = static_cast<uint32_t>(std::atoi(argv[4]));
    return GenerateFlame(argv[2], stacks);
  }
  if (argc >= 3 && !std::strcmp(argv[1], "read")) {
    int runs = 5;
    bool plainHeap = false;
    for (int i = 3; i < argc; ++i) {
      if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
      else if (!std::strcmp(argv[i], "--plain-heap")) plainHeap = true;
    }
    return Read(argv[2], runs, plainHeap);
  }
  if (argc >= 3 && !std::strcmp(argv[1], "walk")) return Walk(argv[2]);
  if (argc >= 5 && !std::strcmp(argv[1], "repeat")) return RepeatTrace(argv[2], argv[3], std::max(1, std::atoi(argv[4])));
  if (argc >= 3 && !std::strcmp(argv[1], "snapshots")) {
    int every = 1;
    if (argc >= 5 && !std::strcmp(argv[3], "--every")) every = std::max(1, std::atoi(argv[4]));
    return Snapshots(argv[2], every);
  }
  std::fprintf(stderr,
               "usage: nettrace_bench generate OUT [--size-mb N] [--interleaved] | generate-flame OUT [--stacks N] | read FILE [--runs N] [--plain-heap] "
               "| walk FILE | repeat IN OUT N | snapshots FILE [--every N]\n");
  return 2;
}
