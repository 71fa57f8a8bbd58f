// core/verdict — how verdicts and comparisons are written for people and CI tools: numbers
// with a fixed number of significant digits (p-values and intervals come from libm's lgamma,
// exp and log, which may differ in the last bit between the native build and wasm's musl;
// 6 to 9 digits print the same on both), and trace strings (frame names, exception types,
// file names) escaped for each target, since they are data: GitHub renders a job summary's
// Markdown with inline HTML, and JUnit reports are XML.
#pragma once

#include <string>
#include <string_view>

namespace nettrace::verdict {

// `v` with `digits` significant digits, as %g writes it ("0.0123", "1.5e-07"); valid JSON.
std::string Significant(double v, int digits);

// Text for a GitHub-flavoured Markdown table cell: HTML's & < > as entities, Markdown's
// punctuation (\ ` * _ [ ] | # ~ < >) escaped, line breaks as spaces.
std::string MarkdownText(std::string_view s);

// Text for XML character data and attribute values (& < > " ' as entities); characters XML 1.0
// cannot hold (controls other than tab, newline, carriage return) become U+FFFD.
std::string XmlText(std::string_view s);

// The file name of a path ("runs/a.nettrace" → "a.nettrace").
std::string BaseName(std::string_view path);

}  // namespace nettrace::verdict
