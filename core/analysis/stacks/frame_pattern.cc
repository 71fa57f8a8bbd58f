#include "analysis/stacks/frame_pattern.h"

#include <cctype>

namespace nettrace {

namespace {
char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
// PerfView's % is the .NET class [.\w\d?]; bytes of multi-byte UTF-8 characters count as
// letters (\w takes Unicode letters).
bool IdentChar(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '.' || c == '?' || u >= 0x80;
}
std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}
}  // namespace

std::vector<std::string> SplitPatternList(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t semi = list.find(';', start);
    if (semi == std::string::npos) semi = list.size();
    std::string item = Trim(list.substr(start, semi - start));
    if (!item.empty()) out.push_back(item);
    start = semi + 1;
  }
  return out;
}

FramePattern::FramePattern(const std::string& text) {
  // Which braces pair up: an unmatched one is a literal.
  std::vector<bool> paired(text.size(), false);
  std::vector<size_t> open;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') open.push_back(i);
    else if (text[i] == '}' && !open.empty()) paired[open.back()] = paired[i] = true, open.pop_back();
  }
  alternatives_.emplace_back();
  std::vector<uint8_t> groups;  // open captures
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    std::vector<Token>& alt = alternatives_.back();
    if (c == '%') alt.push_back({Kind::kIdentRun, 0, 0});
    else if (c == '*') alt.push_back({Kind::kAnyRun, 0, 0});
    else if (c == '^') alt.push_back({Kind::kStart, 0, 0});
    else if (c == '|' && groups.empty()) alternatives_.emplace_back();
    else if (c == '{' && paired[i] && captureCount_ < 9) {
      groups.push_back(static_cast<uint8_t>(++captureCount_));
      alt.push_back({Kind::kOpen, 0, groups.back()});
    } else if (c == '}' && paired[i] && !groups.empty()) {
      alt.push_back({Kind::kClose, 0, groups.back()});
      groups.pop_back();
    } else {
      alt.push_back({Kind::kChar, Lower(c), 0});
    }
  }
}

// Backtracking, greedy runs first: the leftmost match a .NET regex would find.
bool FramePattern::MatchAt(const std::vector<Token>& alt, size_t t, const std::string& s, size_t pos,
                           std::vector<Span>* spans, size_t* end) const {
  for (; t < alt.size(); ++t) {
    const Token& tok = alt[t];
    switch (tok.kind) {
      case Kind::kChar:
        if (pos >= s.size() || Lower(s[pos]) != tok.c) return false;
        ++pos;
        break;
      case Kind::kStart:
        if (pos != 0) return false;
        break;
      case Kind::kOpen:
        (*spans)[tok.group].begin = pos;
        break;
      case Kind::kClose:
        (*spans)[tok.group].end = pos, (*spans)[tok.group].set = true;
        break;
      case Kind::kIdentRun:
      case Kind::kAnyRun: {
        size_t max = pos;
        while (max < s.size() && (tok.kind == Kind::kAnyRun || IdentChar(s[max]))) ++max;
        for (size_t p = max + 1; p-- > pos;) {
          std::vector<Span> saved = *spans;
          if (MatchAt(alt, t + 1, s, p, spans, end)) return true;
          *spans = saved;
        }
        return false;
      }
    }
  }
  *end = pos;
  return true;
}

bool FramePattern::Match(const std::string& name, std::vector<std::string>* captures) const {
  for (size_t start = 0; start <= name.size(); ++start) {
    for (const std::vector<Token>& alt : alternatives_) {
      std::vector<Span> spans(captureCount_ + 1);
      size_t end = start;
      if (!MatchAt(alt, 0, name, start, &spans, &end)) continue;
      if (captures) {
        captures->assign(captureCount_ + 1, std::string());
        (*captures)[0] = name.substr(start, end - start);
        for (size_t k = 1; k <= captureCount_; ++k)
          if (spans[k].set) (*captures)[k] = name.substr(spans[k].begin, spans[k].end - spans[k].begin);
      }
      return true;
    }
  }
  return false;
}

}  // namespace nettrace
