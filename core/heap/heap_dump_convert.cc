// core/heap — DotNetHeapDumpGraphReader.ConvertHeapDataToGraph over the payloads kept by
// HeapDumpEvents: types first (module names are known only once rundown has been read),
// then COM-callable wrappers, static variables, and the objects with their references in
// the order the runtime wrote them; the pseudo-node tree last. Each step creates nodes
// and types in that reader's order (docs/format/gcdump.md §Heap-dump events).
#include <cinttypes>
#include <cstdio>
#include <string>

#include "heap/heap_dump_events.h"
#include "heap/heap_dump_payload.h"

namespace nettrace::heap {

namespace {

constexpr uint32_t kMaxNodes = 10'000'000;  // DotNetHeapDumpGraphReader's MaxNodeCount
constexpr uint32_t kExternallyImplementedCom = 0x4, kArray = 0x8, kThreadLocal = 0x1;

std::string Hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%" PRIx64, v);
  return buffer;
}

// The reader's renaming of runtime type names: generic arity markers (`1) dropped, square
// brackets turned angle, and "<>" (an array rank, "[]") turned back.
std::string CleanTypeName(const std::string& raw) {
  std::string name;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '`' && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '9') {
      while (i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '9') ++i;
      continue;
    }
    name += raw[i] == '[' ? '<' : raw[i] == ']' ? '>' : raw[i];
  }
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<' && i + 1 < name.size() && name[i + 1] == '>') {
      out += "[]";
      ++i;
    } else {
      out += name[i];
    }
  }
  return out;
}

// " (Bytes > 1K)" … for objects over 1,000 bytes: the reader gives big objects types of their own.
const char* SizeSuffix(int32_t size) {
  if (size < 10000) return " (Bytes > 1K)";
  if (size < 100000) return " (Bytes > 10K)";
  if (size < 1000000) return " (Bytes > 100K)";
  if (size < 10000000) return " (Bytes > 1M)";
  if (size < 100000000) return " (Bytes > 10M)";
  return " (Bytes > 100M)";
}

Status Short(uint64_t offset, const char* what) {
  return Status::Error(ErrorCode::kCorrupt, offset, std::string("heap dump: ") + what + " payload is too short");
}

}  // namespace

// The objects' references, read in order across GCBulkEdge events as the objects claim them.
class HeapDumpEvents::EdgeReader {
 public:
  EdgeReader(const BlockStore& edges, uint32_t pointerSize) : edges_(edges), pointerSize_(pointerSize) {}
  Status Next(uint64_t* target) {
    while (block_ < edges_.blocks.size() && index_ >= edges_.blocks[block_].count) ++block_, index_ = 0, at_ = 0;
    if (block_ >= edges_.blocks.size()) {
      return Status::Error(ErrorCode::kCorrupt, kNoOffset, "heap dump: the objects claim more references than the trace holds");
    }
    const Block& b = edges_.blocks[block_];
    const size_t end = block_ + 1 < edges_.blocks.size() ? edges_.blocks[block_ + 1].at : edges_.bytes.size();
    ByteCursor c(std::span<const uint8_t>(edges_.bytes.data() + b.at, end - b.at), b.fileOffset);
    c.Skip(at_);
    if (!ReadPointer(c, pointerSize_, target) || !c.Skip(4)) return Short(c.fileOffset(), "GCBulkEdge");
    at_ = c.position();
    ++index_;
    return Status::Ok();
  }
  // Whether the block being read has references left (the reader gives up on the dump then).
  bool BlockUnfinished() const { return block_ < edges_.blocks.size() && index_ > 0 && index_ < edges_.blocks[block_].count; }

 private:
  const BlockStore& edges_;
  uint32_t pointerSize_;
  size_t block_ = 0, at_ = 0;
  uint32_t index_ = 0;
};

TypeIndex HeapDumpEvents::GetTypeIndex(uint64_t typeId, int32_t objectSize) {
  auto it = typeIndex_.find(typeId);
  TypeIndex t;
  if (it != typeIndex_.end()) {
    t = it->second;
  } else {
    ++info_.unknownTypes;
    t = builder_.InternType("UNKNOWN 0x" + Hex(typeId), "");
    typeIndex_[typeId] = t;
  }
  if (objectSize > 1000) {
    const std::string name = builder_.Type(t).name + SizeSuffix(objectSize);
    auto sized = sizedTypes_.find(name);  // by name alone, as the reader's table is
    if (sized != sizedTypes_.end()) return sized->second;
    const TypeIndex s = builder_.InternType(name, builder_.Type(t).module);
    sizedTypes_.emplace(name, s);
    return s;
  }
  return t;
}

Status HeapDumpEvents::ConvertTypes() {
  for (size_t b = 0; b < types_.blocks.size(); ++b) {
    const Block& block = types_.blocks[b];
    const size_t end = b + 1 < types_.blocks.size() ? types_.blocks[b + 1].at : types_.bytes.size();
    ByteCursor c(std::span<const uint8_t>(types_.bytes.data() + block.at, end - block.at), block.fileOffset);
    for (uint32_t i = 0; i < block.count; ++i) {
      uint64_t typeId = 0, moduleId = 0;
      uint32_t nameId = 0, flags = 0, parameters = 0;
      std::string raw;
      if (!c.ReadU64(&typeId) || !c.ReadU64(&moduleId) || !c.ReadU32(&nameId) || !c.ReadU32(&flags) || !c.Skip(1) ||
          !c.ReadNullTerminatedUtf16(&raw) || !c.ReadU32(&parameters) || !c.Skip(size_t{parameters} * 8)) {
        return Short(c.fileOffset(), "BulkType");
      }
      if (raw.empty()) raw = std::string((flags & kArray) ? "ArrayType(0x" : "Type(0x") + Hex(nameId) + ")";
      std::string name = CleanTypeName(raw);
      auto module = moduleNames_.find(moduleId);
      if (module == moduleNames_.end()) module = moduleNames_.emplace(moduleId, "Module(0x" + Hex(moduleId) + ")").first;
      if (flags & kExternallyImplementedCom) name = "[RCW " + name + "]";
      typeIndex_[typeId] = builder_.InternType(name, module->second);
    }
  }
  return Status::Ok();
}

// Each COM-callable wrapper is a node of its own (200 bytes, the COM side) holding its object.
Status HeapDumpEvents::ConvertCcws() {
  GraphBuilder::Pseudo* ccwRoot = root_->FindOrCreateChild(&builder_, "[COM/WinRT Objects]");
  for (size_t b = 0; b < ccws_.blocks.size(); ++b) {
    const Block& block = ccws_.blocks[b];
    const size_t end = b + 1 < ccws_.blocks.size() ? ccws_.blocks[b + 1].at : ccws_.bytes.size();
    ByteCursor c(std::span<const uint8_t>(ccws_.bytes.data() + block.at, end - block.at), block.fileOffset);
    for (uint32_t i = 0; i < block.count; ++i) {
      uint64_t object = 0, typeId = 0, unknown = 0;
      if (!c.Skip(8) || !c.ReadU64(&object) || !c.ReadU64(&typeId) || !c.ReadU64(&unknown) || !c.Skip(12)) {
        return Short(c.fileOffset(), "GCBulkRootCCW");
      }
      if (unknown == 0) continue;  // set lazily by the runtime: not yet a COM object
      const NodeIndex ccw = builder_.GetNodeIndex(unknown);
      const TypeIndex objectType = GetTypeIndex(typeId, 200);
      const TypeIndex type = builder_.InternType("[CCW 0x" + Hex(unknown) + " for type " + builder_.Type(objectType).name + "]", "");
      const NodeIndex child = builder_.GetNodeIndex(object);
      builder_.SetNode(ccw, type, 200, {&child, 1});
      ccwRoot->AddChild(ccw);
    }
  }
  return Status::Ok();
}

Status HeapDumpEvents::ConvertStaticVars() {
  GraphBuilder::Pseudo* statics = root_->FindOrCreateChild(&builder_, "[static vars]");
  for (size_t b = 0; b < staticVars_.blocks.size(); ++b) {
    const Block& block = staticVars_.blocks[b];
    const size_t end = b + 1 < staticVars_.blocks.size() ? staticVars_.blocks[b + 1].at : staticVars_.bytes.size();
    ByteCursor c(std::span<const uint8_t>(staticVars_.bytes.data() + block.at, end - block.at), block.fileOffset);
    for (uint32_t i = 0; i < block.count; ++i) {
      uint64_t object = 0, typeId = 0;
      uint32_t flags = 0;
      std::string field;
      if (!c.Skip(8) || !c.ReadU64(&object) || !c.ReadU64(&typeId) || !c.ReadU32(&flags) ||
          !c.ReadNullTerminatedUtf16(&field)) {
        return Short(c.fileOffset(), "GCBulkRootStaticVar");
      }
      GraphBuilder::Pseudo* parent = (flags & kThreadLocal) ? root_->FindOrCreateChild(&builder_, "[thread static vars]") : statics;
      auto type = typeIndex_.find(typeId);
      const std::string typeName = type != typeIndex_.end() ? builder_.Type(type->second).name : "Type(0x" + Hex(typeId) + ")";
      GraphBuilder::Pseudo* var = parent->FindOrCreateChild(&builder_, "[static var " + typeName + "." + field + "]");
      var->AddChild(builder_.GetNodeIndex(object));
    }
  }
  return Status::Ok();
}

Status HeapDumpEvents::ConvertNodes() {
  EdgeReader edges(edges_, pointerSize_);
  std::vector<NodeIndex> children;
  for (size_t b = 0; b < nodes_.blocks.size(); ++b) {
    const Block& block = nodes_.blocks[b];
    const size_t end = b + 1 < nodes_.blocks.size() ? nodes_.blocks[b + 1].at : nodes_.bytes.size();
    ByteCursor c(std::span<const uint8_t>(nodes_.bytes.data() + block.at, end - block.at), block.fileOffset);
    for (uint32_t i = 0; i < block.count; ++i) {
      uint64_t address = 0, size = 0, typeId = 0, edgeCount = 0;
      if (!ReadPointer(c, pointerSize_, &address) || !c.ReadU64(&size) || !c.ReadU64(&typeId) || !c.ReadU64(&edgeCount)) {
        return Short(c.fileOffset(), "GCBulkNode");
      }
      const NodeIndex node = builder_.GetNodeIndex(address);
      int32_t objectSize = static_cast<int32_t>(static_cast<uint32_t>(size));  // C#'s (int) cast
      const TypeIndex type = GetTypeIndex(typeId, objectSize);
      children.clear();
      for (uint64_t k = 0; k < edgeCount; ++k) {
        uint64_t target = 0;
        NETTRACE_RETURN_IF_ERROR(edges.Next(&target));
        children.push_back(builder_.GetNodeIndex(target));
      }
      auto rcw = rcwUnknown_.find(address);
      if (rcw != rcwUnknown_.end()) {  // the COM object it wraps, and 1,000 bytes for the COM side
        children.push_back(builder_.GetNodeIndex(rcw->second));
        objectSize += 1000;
      }
      builder_.SetNode(node, type, objectSize, children);
      if (builder_.NodeCount() >= kMaxNodes) {
        info_.nodeLimitReached = true;
        return Status::Ok();
      }
    }
  }
  if (edges.BlockUnfinished()) {
    return Status::Error(ErrorCode::kCorrupt, kNoOffset, "heap dump: references left over after the last object");
  }
  return Status::Ok();
}

Status HeapDumpEvents::Convert(HeapGraph* out) {
  if (!seenStart_) {
    return Status::Error(ErrorCode::kCorrupt, kNoOffset,
                         "heap dump: the trace holds no heap dump (an induced gen-2 GC with GCBulkNode events)");
  }
  if (!ignoreEvents_) {
    return Status::Error(ErrorCode::kTruncated, kNoOffset, "heap dump: the trace shows a heap dump's start but not its end");
  }
  NETTRACE_RETURN_IF_ERROR(ConvertTypes());
  NETTRACE_RETURN_IF_ERROR(ConvertCcws());
  NETTRACE_RETURN_IF_ERROR(ConvertStaticVars());
  NETTRACE_RETURN_IF_ERROR(ConvertNodes());
  builder_.BuildPseudo(root_.get());
  info_.source = "nettrace";
  info_.pointerSize = pointerSize_;
  info_.processId = processId_;
  info_.gcNumber = gcNumber_;
  const NodeIndex root = root_->index();
  *out = builder_.Finish(root, info_);
  int64_t total = 0;
  for (uint32_t s : out->nodeSize) total += s;
  out->info.fileTotalSize = total;
  return Status::Ok();
}

}  // namespace nettrace::heap
