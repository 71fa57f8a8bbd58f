// core/analysis — PerfView's frame-name patterns (the language of its GroupPats, FoldPats,
// ExcPats and IncPats text boxes), matched the way PerfView's FilterStackSource matches them:
//   %     any run (possibly empty) of letters, digits, '_', '.' or '?' (so it stops at '!')
//   *     any run of any characters
//   ^     the start of the frame name
//   |     alternatives (at the top level of a pattern; inside {} it is a literal here)
//   {}    a capture, $1..$9 in a group's name
// everything else literal; case-insensitive (ASCII); unanchored: a pattern matches when it
// matches any part of the name. PerfView's undocumented "@" prefix (a raw .NET regular
// expression) is not supported: "@" is a literal. Unbalanced braces are literals, so every
// text is a pattern and parsing cannot fail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nettrace {

class FramePattern {
 public:
  explicit FramePattern(const std::string& text);
  // Whether the pattern matches part of `name`; when it does and `captures` is given,
  // (*captures)[0] is the matched text and [k] the k-th capture ("" when not taken).
  bool Match(const std::string& name, std::vector<std::string>* captures = nullptr) const;
  size_t captureCount() const { return captureCount_; }

 private:
  enum class Kind : uint8_t { kChar, kIdentRun, kAnyRun, kStart, kOpen, kClose };
  struct Token {
    Kind kind;
    char c;         // kChar: the lower-cased character
    uint8_t group;  // kOpen/kClose: capture number (1-based)
  };
  struct Span {
    size_t begin = 0, end = 0;
    bool set = false;
  };
  bool MatchAt(const std::vector<Token>& alt, size_t t, const std::string& s, size_t pos, std::vector<Span>* spans,
               size_t* end) const;
  std::vector<std::vector<Token>> alternatives_;
  size_t captureCount_ = 0;
};

// "a;b;c" → the non-empty trimmed patterns, PerfView's list form.
std::vector<std::string> SplitPatternList(const std::string& list);

}  // namespace nettrace
