#include "verdict/report_text.h"

#include <cmath>
#include <cstdio>

namespace nettrace::verdict {

std::string Significant(double v, int digits) {
  if (!std::isfinite(v)) return "null";
  if (v == 0) return "0";  // never "-0"
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
  return buffer;
}

std::string MarkdownText(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\n': case '\r': out += ' '; break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '#': case '~':
        out += '\\', out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string XmlText(std::string_view s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else out += c;
    }
  }
  return out;
}

std::string BaseName(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace nettrace::verdict
