#include "symbols/universal_symbols.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace nettrace {

std::optional<JittedName> ParseJittedSymbolName(std::string_view name) {
  // The module is the first "[...]" preceded by whitespace AND followed by whitespace:
  // a return type such as "valuetype [System.Runtime]System.Int32" has a bracket too,
  // but glued to the type name.
  if (name.size() < 4 || name.back() != ']') return std::nullopt;
  const size_t optOpen = name.rfind('[');
  if (optOpen == std::string_view::npos || optOpen == 0) return std::nullopt;
  for (size_t p = name.find(" ["); p != std::string_view::npos && p < optOpen; p = name.find(" [", p + 1)) {
    const size_t close = name.find(']', p + 2);
    if (close == std::string_view::npos || close + 1 >= optOpen) break;
    if (name[close + 1] != ' ' && name[close + 1] != '\t') continue;
    JittedName j;
    j.module = std::string(name.substr(p + 2, close - p - 2));
    std::string_view sig = name.substr(close + 1, optOpen - close - 1);
    while (!sig.empty() && (sig.front() == ' ' || sig.front() == '\t')) sig.remove_prefix(1);
    // PerfView's frames leave the signature out, so overloads share a frame.
    const size_t paren = sig.find('(');
    if (paren != std::string_view::npos) sig = sig.substr(0, paren);
    while (!sig.empty() && sig.back() == ' ') sig.remove_suffix(1);
    if (j.module.empty() || sig.empty()) return std::nullopt;
    for (size_t i = 0; i < sig.size(); ++i) {
      if (sig[i] == ':' && i + 1 < sig.size() && sig[i + 1] == ':') {
        j.method += '.';
        ++i;
      } else {
        j.method += sig[i];
      }
    }
    j.optimizationLevel = std::string(name.substr(optOpen + 1, name.size() - optOpen - 2));
    return j;
  }
  return std::nullopt;
}

namespace {

void SkipSpace(std::string_view s, size_t* i) {
  while (*i < s.size() && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r')) ++*i;
}

// A JSON string at s[*i] (the opening quote), unescaped to UTF-8.
bool ReadJsonString(std::string_view s, size_t* i, std::string* out) {
  if (*i >= s.size() || s[*i] != '"') return false;
  for (++*i; *i < s.size(); ++*i) {
    char c = s[*i];
    if (c == '"') {
      ++*i;
      return true;
    }
    if (c != '\\') {
      *out += c;
      continue;
    }
    if (++*i >= s.size()) return false;
    c = s[*i];
    if (c == 'u') {
      if (*i + 4 >= s.size()) return false;
      unsigned v = 0;
      for (int k = 1; k <= 4; ++k) {
        const char h = s[*i + k];
        v = v * 16 + static_cast<unsigned>(h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                           : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 0);
      }
      *i += 4;
      // Identities are ASCII; anything else is kept as U+FFFD rather than decoded fully.
      *out += v < 0x80 ? std::string(1, static_cast<char>(v)) : std::string("\xEF\xBF\xBD");
      continue;
    }
    const char* from = "\"\\/bfnrt";
    const char* to = "\"\\/\b\f\n\r\t";
    const char* at = std::char_traits<char>::find(from, 8, c);
    if (!at) return false;
    *out += to[at - from];
  }
  return false;
}

}  // namespace

std::optional<std::vector<std::pair<std::string, std::string>>> ParseMappingIdentity(std::string_view s) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = 0;
  SkipSpace(s, &i);
  if (i >= s.size() || s[i++] != '{') return std::nullopt;
  bool hasType = false;
  for (;;) {
    SkipSpace(s, &i);
    if (i < s.size() && s[i] == '}') break;
    std::string key, value;
    if (!ReadJsonString(s, &i, &key)) return std::nullopt;
    SkipSpace(s, &i);
    if (i >= s.size() || s[i++] != ':') return std::nullopt;
    SkipSpace(s, &i);
    if (i < s.size() && s[i] == '"') {
      if (!ReadJsonString(s, &i, &value)) return std::nullopt;
    } else {
      // A number, true/false/null: its text. Nested values are not part of an identity.
      while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ' ') {
        if (s[i] == '{' || s[i] == '[') return std::nullopt;
        value += s[i++];
      }
    }
    hasType = hasType || key == "type";
    out.emplace_back(std::move(key), std::move(value));
    SkipSpace(s, &i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') break;
    return std::nullopt;
  }
  if (!hasType) return std::nullopt;
  return out;
}

std::string MappingBaseName(std::string_view fileName) {
  const size_t slash = fileName.find_last_of('/');
  return std::string(slash == std::string_view::npos ? fileName : fileName.substr(slash + 1));
}

void UniversalSymbols::AddProcess(UniversalProcess p) {
  auto [it, added] = processByPid_.emplace(p.pid, processes_.size());
  if (added) {
    processes_.push_back(std::move(p));
    return;
  }
  // A pid seen again (rundown then create, or pid reuse): the latest start wins.
  UniversalProcess& old = processes_[it->second];
  std::optional<uint64_t> exit = p.startTime >= old.startTime ? std::nullopt : old.exitTime;
  old = std::move(p);
  old.exitTime = exit;
}

void UniversalSymbols::AddProcessExit(uint64_t pid, uint64_t time) {
  auto it = processByPid_.find(pid);
  if (it == processByPid_.end()) {
    UniversalProcess p;
    p.pid = pid;
    p.startTime = time;
    it = processByPid_.emplace(pid, processes_.size()).first;
    processes_.push_back(std::move(p));
  }
  processes_[it->second].exitTime = time;
}

void UniversalSymbols::Finish() {
  if (finished_) return;
  finished_ = true;
  std::stable_sort(mappings_.begin(), mappings_.end(), [](const UniversalMapping& a, const UniversalMapping& b) {
    return std::tie(a.pid, a.start, a.time) < std::tie(b.pid, b.start, b.time);
  });
  std::stable_sort(symbols_.begin(), symbols_.end(), [](const UniversalSymbol& a, const UniversalSymbol& b) {
    return std::tie(a.start, a.time) < std::tie(b.start, b.time);
  });
  byPid_.clear();
  // A mapping id may be shared by processes (fork): a symbol of it belongs to each.
  std::unordered_map<uint64_t, std::vector<uint32_t>> mappingsById;
  for (uint32_t i = 0; i < mappings_.size(); ++i) {
    mappings_[i].symbolCount = 0;
    mappingsById[mappings_[i].id].push_back(i);
    byPid_[mappings_[i].pid].mappings.push_back(i);
  }
  for (uint32_t s = 0; s < symbols_.size(); ++s) {
    auto it = mappingsById.find(symbols_[s].mappingId);
    if (it == mappingsById.end()) continue;  // a symbol of an unknown mapping has no process
    uint64_t lastPid = UINT64_MAX;
    for (uint32_t m : it->second) {
      ++mappings_[m].symbolCount;
      if (mappings_[m].pid == lastPid) continue;  // one entry per process
      lastPid = mappings_[m].pid;
      Index& idx = byPid_[lastPid];
      idx.symbols.push_back(s);
      idx.symbolMapping.push_back(m);
    }
  }
  for (auto& [pid, idx] : byPid_) {
    uint64_t maxEnd = 0;
    for (uint32_t m : idx.mappings) idx.mappingMaxEnd.push_back(maxEnd = std::max(maxEnd, mappings_[m].end));
    maxEnd = 0;
    for (uint32_t s : idx.symbols) idx.symbolMaxEnd.push_back(maxEnd = std::max(maxEnd, symbols_[s].end));
  }
}

namespace {
// Walks the entries starting at or below `address` that can still reach it; calls
// visit(k) for each one holding it. Sorted by start, so this stops early.
template <typename Start, typename End, typename Visit>
void Covering(size_t n, const std::vector<uint64_t>& maxEnd, uint64_t address, Start start, End end, Visit visit) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (start(mid) <= address) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo; k-- > 0 && maxEnd[k] > address;)
    if (address < std::max(end(k), start(k) + 1)) visit(k);
}
}  // namespace

UniversalSymbols::Answer UniversalSymbols::Find(uint64_t pid, uint64_t address, uint64_t timestamp) const {
  Answer a;
  auto it = byPid_.find(pid);
  if (it == byPid_.end()) return a;
  const Index& idx = it->second;
  // The answer changes when any entry holding the address appears: narrow the interval
  // to the announcements around `timestamp`.
  auto note = [&](uint64_t time) {
    if (time <= timestamp) a.validFrom = std::max(a.validFrom, time);
    else a.validUntil = std::min(a.validUntil, time);
  };
  uint64_t bestSymbolTime = 0, bestMappingTime = 0;
  const UniversalMapping* symbolMapping = nullptr;
  Covering(
      idx.symbols.size(), idx.symbolMaxEnd, address, [&](size_t k) { return symbols_[idx.symbols[k]].start; },
      [&](size_t k) { return symbols_[idx.symbols[k]].end; },
      [&](size_t k) {
        const UniversalSymbol& s = symbols_[idx.symbols[k]];
        note(s.time);
        // The most recently announced symbol alive at the time wins (code address reuse).
        if (s.time <= timestamp && (!a.symbol || s.time >= bestSymbolTime)) {
          a.symbol = &s, bestSymbolTime = s.time;
          symbolMapping = &mappings_[idx.symbolMapping[k]];
        }
      });
  Covering(
      idx.mappings.size(), idx.mappingMaxEnd, address, [&](size_t k) { return mappings_[idx.mappings[k]].start; },
      [&](size_t k) { return mappings_[idx.mappings[k]].end; },
      [&](size_t k) {
        const UniversalMapping& m = mappings_[idx.mappings[k]];
        note(m.time);
        if (m.time <= timestamp && (!a.mapping || m.time >= bestMappingTime)) a.mapping = &m, bestMappingTime = m.time;
      });
  if (a.symbol && symbolMapping) a.mapping = symbolMapping;
  return a;
}

}  // namespace nettrace
