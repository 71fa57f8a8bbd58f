// tests/bench — writes a heap graph as a .gcdump, the layout dotnet-gcdump 10 writes
// (docs/format/gcdump.md): a FastSerialization stream holding a GCHeapDump (type version
// 10) whose MemoryGraph holds the types, one record label per node, the blob of compressed
// node records, the addresses, and the tail with the InteropInfo skip region, the creation
// tool and the forward-reference table. heap_gen (random graphs of any size, for the
// reference's check and the memory figures) and the fuzzers' seed generator use it; the
// reference, PerfView's own reader (tests/heap_oracle), reads what it writes.
//
// The caller gives per node a type, a size, an address (0: a pseudo-node) and its children.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace nettrace::bench {

struct GcdumpType {
  std::string name;
  std::string module;  // "" is written as a null string, as for PerfView's pseudo-node types
};

struct GcdumpGraph {
  std::vector<GcdumpType> types;  // types[0] must be "UNDEFINED" (the blob's label-0 record)
  std::vector<uint32_t> nodeType, nodeSize;
  std::vector<uint64_t> nodeAddress;
  std::vector<uint32_t> firstChild;  // node count + 1 entries
  std::vector<uint32_t> children;
  uint32_t root = 0;
  std::string creationTool = "nettrace heap_gen";
};

class GcdumpWriter {
 public:
  std::vector<uint8_t> Write(const GcdumpGraph& g) {
    out_.clear();
    I32(20);
    Raw("!FastSerialization.1");
    U8(kBeginObject), TypeDefinition("GCHeapDump", 10, 8);
    U8(kBeginObject), TypeDefinition("Graphs.MemoryGraph", 1, 0);
    const uint32_t n = static_cast<uint32_t>(g.nodeType.size());
    // A type's stored size is its first node's size (PerfView's SetNodeTypeAndSize); a node
    // whose size differs from it writes its own.
    std::vector<int32_t> stored(g.types.size(), -1);
    int64_t total = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (stored[g.nodeType[i]] < 0) stored[g.nodeType[i]] = static_cast<int32_t>(g.nodeSize[i]);
      total += g.nodeSize[i];
    }
    I64(total);
    I32(static_cast<int32_t>(g.root));
    I32(static_cast<int32_t>(g.types.size()));
    for (size_t t = 0; t < g.types.size(); ++t) {
      String(g.types[t].name, false);
      I32(stored[t] < 0 ? 0 : stored[t]);
      String(g.types[t].module, g.types[t].module.empty());
    }
    std::vector<uint8_t> blob = {0, 0};  // label 0: UNDEFINED, its stored size, no children
    std::vector<uint32_t> labels(n);
    for (uint32_t i = 0; i < n; ++i) {
      labels[i] = static_cast<uint32_t>(blob.size());
      const uint32_t t = g.nodeType[i];
      const bool sizeGiven = static_cast<int32_t>(g.nodeSize[i]) != stored[t];
      CompressedInt(&blob, static_cast<int32_t>(t << 1 | (sizeGiven ? 1 : 0)));
      if (sizeGiven) CompressedInt(&blob, static_cast<int32_t>(g.nodeSize[i]));
      CompressedInt(&blob, static_cast<int32_t>(g.firstChild[i + 1] - g.firstChild[i]));
      for (uint32_t e = g.firstChild[i]; e < g.firstChild[i + 1]; ++e) {
        CompressedInt(&blob, static_cast<int32_t>(g.children[e] - i));  // C# int arithmetic
      }
    }
    I32(static_cast<int32_t>(n));
    for (uint32_t label : labels) I32(static_cast<int32_t>(label));
    I32(static_cast<int32_t>(blob.size()));
    out_.insert(out_.end(), blob.begin(), blob.end());
    I32(static_cast<int32_t>(n));
    for (uint64_t a : g.nodeAddress) I64(static_cast<int64_t>(a));
    U8(kByte), U8(1);  // tagged Is64Bit
    U8(kEndObject);    // the graph
    Tail(g.creationTool);
    return std::move(out_);
  }

  // PerfView's Node.WriteCompressedInt: big-endian 7-bit groups, the first sign-extended.
  static void CompressedInt(std::vector<uint8_t>* out, int32_t value) {
    const uint32_t v = static_cast<uint32_t>(value);
    int bytes = 5;
    for (int k = 1; k <= 4; ++k) {
      const int shift = 32 - 7 * k;
      if (static_cast<int32_t>(v << shift) >> shift == value) {
        bytes = k;
        break;
      }
    }
    for (int i = bytes - 1; i > 0; --i) out->push_back(static_cast<uint8_t>(((v >> (7 * i)) | 0x80) & 0xFF));
    out->push_back(static_cast<uint8_t>(v & 0x7F));
  }

 private:
  static constexpr uint8_t kNull = 1, kBeginObject = 4, kEndObject = 6, kByte = 8, kSkipRegion = 12, kString = 13;

  // GCHeapDump's fields after the graph, as dotnet-gcdump 10 leaves them: no JS or .NET
  // heap info, no log, machine or process, a null InteropInfo in a skip region, the tool.
  void Tail(const std::string& tool) {
    U8(1);                     // Is64Bit again
    F32One(), F32One();        // average count and size multipliers
    U8(kNull), U8(kNull);      // JSHeapInfo, DotNetHeapInfo
    String("", true);          // collection log
    I64(0);                    // time collected
    String("", true), String("", true);  // machine, process
    I32(0), I64(0), I64(0);    // process id, commit, working set
    I32(0);                    // count multipliers by type
    U8(kSkipRegion), I32(0), U8(kNull);  // forward reference 0 ends the region
    const uint32_t regionEnd = Here();
    U8(kString), String(tool, false);
    U8(kEndObject);  // GCHeapDump
    U8(kEndObject);  // the stream's end
    const uint32_t table = Here();
    I32(1), I32(static_cast<int32_t>(regionEnd));
    const uint32_t trailer = Here();
    I32(static_cast<int32_t>(table));
    I32(static_cast<int32_t>(trailer));
  }

  void TypeDefinition(const char* name, int32_t version, int32_t minimumReaderVersion) {
    U8(kBeginObject), U8(kNull), I32(version), I32(minimumReaderVersion), String(name, false), U8(kEndObject);
  }
  // ASCII names only: one byte per UTF-16 code unit below 0x80.
  void String(const std::string& s, bool null) {
    if (null) return I32(-1);
    I32(static_cast<int32_t>(s.size()));
    Raw(s);
  }
  void Raw(const std::string& s) { out_.insert(out_.end(), s.begin(), s.end()); }
  void U8(uint8_t v) { out_.push_back(v); }
  void I32(int32_t v) { Bytes(&v, 4); }
  void I64(int64_t v) { Bytes(&v, 8); }
  void F32One() {
    const float one = 1.0f;
    Bytes(&one, 4);
  }
  void Bytes(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  uint32_t Here() const { return static_cast<uint32_t>(out_.size()); }

  std::vector<uint8_t> out_;
};

}  // namespace nettrace::bench
