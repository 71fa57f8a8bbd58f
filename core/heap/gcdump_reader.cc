#include "heap/gcdump_reader.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "heap/fast_serialization.h"
#include "heap/node_records.h"

namespace nettrace::heap {

namespace {

constexpr char kMagic[] = "!FastSerialization.1";
constexpr uint64_t kMaxPrefix = uint64_t{256} << 20;  // the type table: names of every type
constexpr uint64_t kMaxTail = uint64_t{256} << 20;    // the collection log, segments, metadata
constexpr int32_t kMaxTypes = 1 << 24;
// GCHeapDump versions 9 and 10 share the layout read here; 8 was never readable and
// older ones put the heap's metadata elsewhere (docs/format/gcdump.md §GCHeapDump).
constexpr int32_t kFirstVersion = 9;

}  // namespace

uint64_t GcdumpReader::Reserve(uint64_t claimed, uint64_t unit) const {
  if (fileSize_ == 0) return 0;
  return std::min(claimed, fileSize_ / unit);
}

Status GcdumpReader::Push(const uint8_t* data, size_t size) {
  if (!status_.ok() || finished_) return status_;
  queue_.Lend(data, size);
  status_ = Advance(false);
  queue_.KeepUnread();
  return status_;
}

Status GcdumpReader::ParsePrefix(bool atEnd, bool* done) {
  *done = false;
  const uint64_t avail = queue_.available();
  if (!atEnd && avail < prefixRetryAt_) return Status::Ok();
  std::span<const uint8_t> bytes;
  queue_.Peek(static_cast<size_t>(avail), &bytes);
  ByteCursor c(bytes, queue_.position());
  FsReader fs(&c);
  Status s = [&]() -> Status {
    int32_t magicLength = 0;
    NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&magicLength, "the file header"));
    std::span<const uint8_t> magic;
    if (magicLength == 20 && !c.ReadBytes(20, &magic)) return fs.Truncated("the file header");
    if (magicLength != 20 || std::memcmp(magic.data(), kMagic, 20) != 0) {
      return Status::Error(ErrorCode::kBadMagic, 0, "not a .gcdump: no FastSerialization header");
    }
    FsType type;
    bool isNull = false;
    NETTRACE_RETURN_IF_ERROR(fs.BeginObject("GCHeapDump", &type, &isNull));
    if (isNull || type.version < kFirstVersion) {
      return Status::Error(ErrorCode::kUnsupportedVersion, 24,
                           "gcdump: GCHeapDump version " + std::to_string(type.version) + " (this reader reads 9 and later)");
    }
    typeVersion_ = type.version;
    NETTRACE_RETURN_IF_ERROR(fs.BeginObject("Graphs.MemoryGraph", &type, &isNull));
    if (isNull) return fs.Error(ErrorCode::kCorrupt, "the heap dump holds no graph");
    if (type.minimumReaderVersion >= 1) {  // Graph's deferred type names: .NET Native dumps only
      return fs.Error(ErrorCode::kUnsupportedFormat, "graphs with deferred type names (.NET Native) are not read");
    }
    int64_t totalSize = 0;
    int32_t root = 0, typeCount = 0, nodeCount = 0;
    NETTRACE_RETURN_IF_ERROR(fs.ReadI64(&totalSize, "the graph header"));
    NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&root, "the graph header"));
    NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&typeCount, "the graph header"));
    if (typeCount < 0 || typeCount > kMaxTypes) {
      return fs.Error(ErrorCode::kCorrupt, "type count " + std::to_string(typeCount));
    }
    std::vector<HeapType> types;
    for (int32_t i = 0; i < typeCount; ++i) {
      HeapType t;
      NETTRACE_RETURN_IF_ERROR(fs.ReadString(&t.name, "a type's name"));
      NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&t.storedSize, "a type's size"));
      NETTRACE_RETURN_IF_ERROR(fs.ReadString(&t.module, "a type's module"));
      types.push_back(std::move(t));
    }
    const uint64_t countAt = c.fileOffset();
    NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&nodeCount, "the node count"));
    if (nodeCount < 0) return Status::Error(ErrorCode::kCorrupt, countAt, "gcdump: negative node count");
    if (root < 0 || (root >= nodeCount && nodeCount > 0)) {
      return Status::Error(ErrorCode::kCorrupt, countAt, "gcdump: root node " + std::to_string(root) +
                                                             " is not among the " + std::to_string(nodeCount) + " nodes");
    }
    graph_->types = std::move(types);
    graph_->root = static_cast<NodeIndex>(root);
    graph_->info.fileTotalSize = totalSize;
    nodeCount_ = static_cast<uint32_t>(nodeCount);
    return Status::Ok();
  }();
  if (s.code() == ErrorCode::kTruncated && !atEnd) {
    if (avail > kMaxPrefix) {
      return Status::Error(ErrorCode::kLimitExceeded, queue_.position(), "gcdump: the type table exceeds 256 MB");
    }
    prefixRetryAt_ = std::max<uint64_t>(avail * 2, avail + 4096);
    return Status::Ok();
  }
  NETTRACE_RETURN_IF_ERROR(s);
  queue_.Consume(c.position());
  labels_.reserve(Reserve(nodeCount_, 4) * 4);
  *done = true;
  return Status::Ok();
}

void GcdumpReader::TakeBytes(std::vector<uint8_t>* out, uint64_t want) {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(want - out->size(), queue_.available()));
  if (n == 0) return;
  std::span<const uint8_t> bytes;
  queue_.Peek(n, &bytes);
  out->insert(out->end(), bytes.begin(), bytes.end());
  queue_.Consume(n);
}

Status GcdumpReader::Advance(bool atEnd) {
  for (;;) {
    std::span<const uint8_t> bytes;
    switch (stage_) {
      case Stage::kPrefix: {
        bool done = false;
        NETTRACE_RETURN_IF_ERROR(ParsePrefix(atEnd, &done));
        if (!done) return Status::Ok();
        stage_ = Stage::kLabels;
        break;
      }
      case Stage::kLabels:
        TakeBytes(&labels_, uint64_t{nodeCount_} * 4);
        if (labels_.size() < uint64_t{nodeCount_} * 4) return Status::Ok();
        stage_ = Stage::kBlobSize;
        break;
      case Stage::kBlobSize: {
        if (!queue_.Peek(4, &bytes)) return Status::Ok();
        int32_t size = 0;
        std::memcpy(&size, bytes.data(), 4);
        if (size < 0) return Status::Error(ErrorCode::kCorrupt, queue_.position(), "gcdump: negative node blob size");
        blobSize_ = static_cast<uint64_t>(size);
        queue_.Consume(4);
        blobStart_ = queue_.position();
        blob_.reserve(Reserve(blobSize_, 1));
        stage_ = Stage::kBlob;
        break;
      }
      case Stage::kBlob:
        TakeBytes(&blob_, blobSize_);
        if (blob_.size() < blobSize_) return Status::Ok();
        stage_ = Stage::kAddressCount;
        break;
      case Stage::kAddressCount: {
        if (!queue_.Peek(4, &bytes)) return Status::Ok();
        int32_t count = 0;
        std::memcpy(&count, bytes.data(), 4);
        if (count < 0 || static_cast<uint32_t>(count) != nodeCount_) {
          return Status::Error(ErrorCode::kCorrupt, queue_.position(),
                               "gcdump: " + std::to_string(count) + " addresses for " + std::to_string(nodeCount_) + " nodes");
        }
        queue_.Consume(4);
        graph_->nodeAddress.reserve(Reserve(nodeCount_, 8));
        stage_ = Stage::kAddresses;
        break;
      }
      case Stage::kAddresses: {
        const uint64_t n = std::min<uint64_t>(nodeCount_ - addressesRead_, queue_.available() / 8);
        if (n > 0) {
          queue_.Peek(static_cast<size_t>(n * 8), &bytes);
          const size_t old = graph_->nodeAddress.size();
          graph_->nodeAddress.resize(old + n);
          std::memcpy(graph_->nodeAddress.data() + old, bytes.data(), n * 8);
          queue_.Consume(static_cast<size_t>(n * 8));
          addressesRead_ += n;
        }
        if (addressesRead_ < nodeCount_) return Status::Ok();
        tailStart_ = queue_.position();
        stage_ = Stage::kTail;
        break;
      }
      case Stage::kTail:
        TakeBytes(&tail_, queue_.available() + tail_.size());
        if (tail_.size() > kMaxTail) {
          return Status::Error(ErrorCode::kLimitExceeded, tailStart_, "gcdump: more than 256 MB after the graph");
        }
        return Status::Ok();
    }
  }
}

Status GcdumpReader::Finish() {
  if (finished_) return status_;
  finished_ = true;
  if (status_.ok()) status_ = Advance(true);
  queue_.KeepUnread();
  if (!status_.ok() && stage_ <= Stage::kBlob) return status_;
  if (stage_ < Stage::kTail && status_.ok()) {
    const char* where = stage_ == Stage::kLabels   ? "the node offsets"
                        : stage_ == Stage::kBlobSize ? "the node blob's size"
                        : stage_ == Stage::kBlob     ? "the node blob"
                                                     : "the node addresses";
    status_ = Status::Error(ErrorCode::kTruncated, queue_.position(), std::string("gcdump: the file ends inside ") + where);
    if (stage_ <= Stage::kBlob) return status_;
  }
  graph_->nodeAddress.resize(nodeCount_, 0);  // a file cut inside the addresses: the rest read as 0
  Status decoded = DecodeNodes();
  if (!decoded.ok()) {
    status_ = decoded;
    return status_;
  }
  if (stage_ == Stage::kTail && status_.ok()) status_ = ParseTail();
  return status_;
}

Status GcdumpReader::DecodeNodes() {
  NodeRecords records(blob_, blobStart_, static_cast<uint32_t>(graph_->types.size()), nodeCount_);
  NETTRACE_RETURN_IF_ERROR(records.Decode(labels_, graph_));
  std::vector<uint8_t>().swap(labels_);
  std::vector<uint8_t>().swap(blob_);
  return Status::Ok();
}

}  // namespace nettrace::heap
