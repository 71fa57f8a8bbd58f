// Helpers for the heap tests: the committed snapshots (tests/data/heap/, unpacked into the
// test data folder), read whole or in chunks, and their JSON views parsed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "heap/heap_session.h"
#include "stacks/mini_json.h"
#include "test_support.h"

namespace nettrace::test {

// The four committed snapshots: one program, two shapes, two ways of taking them.
inline const std::vector<std::string>& HeapSnapshots() {
  static const std::vector<std::string> names = {
      "heap/heapgraphs-small.gcdump", "heap/heapgraphs-small.nettrace",
      "heap/heapgraphs-big.gcdump",   "heap/heapgraphs-big.nettrace"};
  return names;
}

// Reads bytes into a session in chunks of chunkSize (0: whole), finishes and analyses it.
inline std::unique_ptr<heap::HeapSession> ReadHeap(const std::vector<uint8_t>& bytes, size_t chunkSize = 0) {
  auto session = std::make_unique<heap::HeapSession>();
  const size_t step = chunkSize == 0 ? std::max<size_t>(bytes.size(), 1) : chunkSize;
  for (size_t at = 0; at < bytes.size(); at += step) {
    if (!session->PushChunk(bytes.data() + at, std::min(step, bytes.size() - at)).ok()) break;
  }
  (void)session->Finish();
  session->Analyze();
  return session;
}

inline std::unique_ptr<heap::HeapSession> ReadHeapFile(const std::string& name, size_t chunkSize = 0) {
  return ReadHeap(ReadFile(DataPath(name)), chunkSize);
}

inline Json ParsedJson(const std::string& text) {
  Json json;
  JsonParser parser(text);
  if (!parser.Parse(&json)) json = Json{};
  return json;
}

}  // namespace nettrace::test
