// core/heap — builds a HeapGraph the way PerfView's MemoryGraph and MemoryNodeBuilder do
// while DotNetHeapDumpGraphReader converts heap-dump events (docs/format/gcdump.md
// §Heap-dump events): a node index per distinct address in order of first mention,
// pseudo-nodes for the root categories created on first use, types created (and interned
// by "module!name" where the reader interns) in the reader's order, and each node's
// record set once. The same calls in the same order give the same indexes as
// `dotnet-gcdump convert`, so the spanning tree (which breaks ties by index) agrees too.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "heap/address_index.h"
#include "heap/heap_graph.h"

namespace nettrace::heap {

class GraphBuilder {
 public:
  GraphBuilder();

  NodeIndex GetNodeIndex(uint64_t address);
  NodeIndex CreateNode();
  uint32_t NodeCount() const { return static_cast<uint32_t>(defined_.size()); }
  // Graph.CreateType: a new type every call; its stored size is set by its first node.
  TypeIndex CreateType(std::string name, std::string module);
  // DotNetHeapDumpGraphReader.CreateType: interned by "module!name".
  TypeIndex InternType(const std::string& name, const std::string& module);
  const HeapType& Type(TypeIndex t) const { return graph_.types[t]; }
  // Graph.SetNode: a negative size reads as int.MaxValue, as PerfView's does.
  void SetNode(NodeIndex node, TypeIndex type, int64_t size, std::span<const NodeIndex> children);

  // MemoryNodeBuilder: a pseudo-node with named pseudo-children (FindOrCreateChild) and
  // other children (AddChild); Build gives types to the whole tree (one per name) and sets
  // every pseudo-node's record, parents first.
  class Pseudo {
   public:
    Pseudo* FindOrCreateChild(GraphBuilder* b, const std::string& name);
    void AddChild(NodeIndex child) { children_.push_back(child); }
    NodeIndex index() const { return index_; }

   private:
    friend class GraphBuilder;
    std::string name_;
    NodeIndex index_ = 0;
    std::vector<NodeIndex> children_;
    std::vector<std::unique_ptr<Pseudo>> pseudoChildren_;
  };
  Pseudo* NewPseudo(const std::string& name);
  void BuildPseudo(Pseudo* root);

  // The graph in index order (compressed sparse rows); the builder is spent.
  HeapGraph Finish(NodeIndex root, HeapInfo info);
  uint64_t MemoryBytes() const;

 private:
  void AssignPseudoTypes(Pseudo* p, std::unordered_map<std::string, TypeIndex>* types);
  void SetPseudo(Pseudo* p);

  HeapGraph graph_;  // types, addresses; node records below until Finish
  std::vector<uint8_t> defined_;
  std::vector<uint32_t> recordStart_, recordCount_;
  std::vector<NodeIndex> recordChildren_;  // in the order nodes were set
  AddressIndex addresses_;
  std::unordered_map<std::string, TypeIndex> interned_;
};

}  // namespace nettrace::heap
