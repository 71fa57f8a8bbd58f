#include "heap/perfview_priorities.h"

#include <cctype>

namespace nettrace::heap {

namespace {

struct Priority {
  const char* pattern;
  float priority;
};

// DefaultPriorities, in its order (the first match wins).
constexpr Priority kDefaults[] = {
    {"v4.0.30319\\%!", -1},  // .NET Framework's own types
    {"v2.0.50727\\%!", -1},
    {"[*local vars]", -1000},  // transient
    {"mscorlib!Runtime.CompilerServices.ConditionalWeakTable", -10000},
    {"[COM/WinRT Objects]", -1000000},
    {"[*handles]", -2000000},
    {"[other roots]", -2000000},
};

// .NET's \w (letters, digits, connector punctuation) with '.' and '?' ("[.\w\d?]"); bytes
// of a multi-byte UTF-8 character count as letters.
bool PercentChar(unsigned char c) { return c == '.' || c == '?' || c == '_' || std::isalnum(c) || c >= 0x80; }

bool Lower(unsigned char a, unsigned char b) { return std::tolower(a) == std::tolower(b); }

// Backtracking match of pattern[p..] at text[t..] (patterns are a few characters long).
bool MatchAt(std::string_view pattern, size_t p, std::string_view text, size_t t) {
  if (p == pattern.size()) return true;
  const char c = pattern[p];
  if (c == '*' || c == '%') {
    for (size_t k = t;; ++k) {
      if (MatchAt(pattern, p + 1, text, k)) return true;
      if (k == text.size() || (c == '*' ? text[k] == '\n' : !PercentChar(static_cast<unsigned char>(text[k])))) return false;
    }
  }
  return t < text.size() && Lower(static_cast<unsigned char>(c), static_cast<unsigned char>(text[t])) &&
         MatchAt(pattern, p + 1, text, t + 1);
}

}  // namespace

bool PerfViewPatternMatches(std::string_view pattern, std::string_view text) {
  for (size_t t = 0; t <= text.size(); ++t) {
    if (MatchAt(pattern, 0, text, t)) return true;
  }
  return false;
}

std::vector<float> DefaultTypePriorities(const HeapGraph& graph) {
  std::vector<float> priorities(graph.types.size(), 0.0f);
  for (TypeIndex t = 0; t < graph.types.size(); ++t) {
    const std::string fullName = graph.FullName(t);
    for (const Priority& p : kDefaults) {
      if (PerfViewPatternMatches(p.pattern, fullName)) {
        priorities[t] = p.priority;
        break;
      }
    }
  }
  return priorities;
}

}  // namespace nettrace::heap
