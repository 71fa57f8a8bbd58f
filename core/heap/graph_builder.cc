#include "heap/graph_builder.h"

#include <algorithm>
#include <climits>
#include <utility>

namespace nettrace::heap {

// Graph's constructor makes type 0, "UNDEFINED", and gives it a size of 0 through the
// record every node not (yet) set points at: such nodes read as UNDEFINED, 0 bytes, no children.
GraphBuilder::GraphBuilder() { graph_.types.push_back(HeapType{"UNDEFINED", "", 0}); }

NodeIndex GraphBuilder::CreateNode() {
  const NodeIndex n = NodeCount();
  defined_.push_back(0);
  recordStart_.push_back(0);
  recordCount_.push_back(0);
  graph_.nodeType.push_back(0);
  graph_.nodeSize.push_back(0);
  graph_.nodeAddress.push_back(0);
  return n;
}

NodeIndex GraphBuilder::GetNodeIndex(uint64_t address) {
  bool added = false;
  const NodeIndex n = addresses_.FindOrAdd(address, NodeCount(), &added);
  if (added) {
    CreateNode();
    graph_.nodeAddress[n] = address;
  }
  return n;
}

TypeIndex GraphBuilder::CreateType(std::string name, std::string module) {
  graph_.types.push_back(HeapType{std::move(name), std::move(module), -1});
  return static_cast<TypeIndex>(graph_.types.size() - 1);
}

TypeIndex GraphBuilder::InternType(const std::string& name, const std::string& module) {
  const std::string key = module.empty() ? name : module + "!" + name;
  auto it = interned_.find(key);
  if (it != interned_.end()) return it->second;
  const TypeIndex t = CreateType(name, module);
  interned_.emplace(key, t);
  return t;
}

void GraphBuilder::SetNode(NodeIndex node, TypeIndex type, int64_t size, std::span<const NodeIndex> children) {
  const uint32_t bytes = size < 0 || size > INT_MAX ? static_cast<uint32_t>(INT_MAX) : static_cast<uint32_t>(size);
  HeapType& t = graph_.types[type];
  if (t.storedSize < 0) t.storedSize = static_cast<int32_t>(bytes);
  defined_[node] = 1;
  graph_.nodeType[node] = type;
  graph_.nodeSize[node] = bytes;
  recordStart_[node] = static_cast<uint32_t>(recordChildren_.size());
  recordCount_[node] = static_cast<uint32_t>(children.size());
  recordChildren_.insert(recordChildren_.end(), children.begin(), children.end());
}

GraphBuilder::Pseudo* GraphBuilder::Pseudo::FindOrCreateChild(GraphBuilder* b, const std::string& name) {
  for (auto& child : pseudoChildren_) {
    if (child->name_ == name) return child.get();
  }
  pseudoChildren_.push_back(std::unique_ptr<Pseudo>(b->NewPseudo(name)));
  children_.push_back(pseudoChildren_.back()->index_);
  return pseudoChildren_.back().get();
}

GraphBuilder::Pseudo* GraphBuilder::NewPseudo(const std::string& name) {
  auto* p = new Pseudo();
  p->name_ = name;
  p->index_ = CreateNode();
  return p;
}

// MemoryNodeBuilder.AllocateTypeIndexes: one new type per distinct name in the tree, in
// pre-order (not interned with the reader's types).
void GraphBuilder::AssignPseudoTypes(Pseudo* p, std::unordered_map<std::string, TypeIndex>* types) {
  auto it = types->find(p->name_);
  const TypeIndex t = it != types->end() ? it->second : CreateType(p->name_, "");
  types->emplace(p->name_, t);
  graph_.nodeType[p->index_] = t;
  for (auto& child : p->pseudoChildren_) AssignPseudoTypes(child.get(), types);
}

void GraphBuilder::SetPseudo(Pseudo* p) {
  SetNode(p->index_, graph_.nodeType[p->index_], 0, p->children_);
  for (auto& child : p->pseudoChildren_) SetPseudo(child.get());
}

void GraphBuilder::BuildPseudo(Pseudo* root) {
  std::unordered_map<std::string, TypeIndex> types;
  AssignPseudoTypes(root, &types);
  SetPseudo(root);
}

HeapGraph GraphBuilder::Finish(NodeIndex root, HeapInfo info) {
  addresses_.Clear();
  const uint32_t n = NodeCount();
  graph_.firstChild.assign(size_t{n} + 1, 0);
  uint64_t edges = 0;
  for (uint32_t i = 0; i < n; ++i) {
    graph_.firstChild[i] = static_cast<uint32_t>(edges);
    edges += defined_[i] ? recordCount_[i] : 0;
  }
  graph_.firstChild[n] = static_cast<uint32_t>(edges);
  graph_.children.resize(edges);
  for (uint32_t i = 0; i < n; ++i) {
    if (!defined_[i]) continue;
    std::copy_n(recordChildren_.begin() + recordStart_[i], recordCount_[i], graph_.children.begin() + graph_.firstChild[i]);
  }
  std::vector<NodeIndex>().swap(recordChildren_);
  std::vector<uint32_t>().swap(recordStart_);
  std::vector<uint32_t>().swap(recordCount_);
  std::vector<uint8_t>().swap(defined_);
  graph_.root = root;
  graph_.info = std::move(info);
  return std::move(graph_);
}

uint64_t GraphBuilder::MemoryBytes() const {
  return graph_.MemoryBytes() + defined_.capacity() + (recordStart_.capacity() + recordCount_.capacity()) * 4 +
         recordChildren_.capacity() * 4 + addresses_.MemoryBytes();
}

}  // namespace nettrace::heap
