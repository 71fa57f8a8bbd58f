// A command's argv, its usage line and its help, from the query table (api/command_line.h).
#include "api/command_line.h"

#include <algorithm>

namespace nettrace::api {

namespace {

Status Bad(std::string message) { return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message)); }

bool IsHelp(std::string_view arg) { return arg == "--help" || arg == "-h"; }

// A positional argument that takes every one left: "TRACE…" (check's traces).
bool IsVariadic(std::string_view name) { return name.size() > 3 && name.substr(name.size() - 3) == "…"; }

// "FILE ROW" → "FILE ROW"; the names joined as --help shows them.
std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Columns a UTF-8 string takes in a terminal (one per code point: "SPEC,…" is 6).
size_t Width(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// "usage: PROGRAM COMMAND ARGS [options]"; [options] when some option is not in ARGS already.
std::string UsageLine(const QuerySpec& query, std::string_view program) {
  const std::string args = query.args;
  bool more = false;
  for (const OptionSpec& o : Options())
    if ((o.queries & query.bit) && args.find(o.flag) == std::string::npos) more = true;
  return "usage: " + std::string(program) + " " + query.name + (args.empty() ? "" : " " + args) +
         (more ? " [options]" : "");
}

}  // namespace

std::vector<std::string> PositionalNames(const QuerySpec& query) {
  std::vector<std::string> names;
  const std::string_view args = query.args;
  for (size_t at = 0; at < args.size();) {
    const size_t end = std::min(args.find(' ', at), args.size());
    const std::string_view word = args.substr(at, end - at);
    const std::string_view stem = IsVariadic(word) ? word.substr(0, word.size() - 3) : word;
    if (stem.empty() || !std::all_of(stem.begin(), stem.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) break;
    names.emplace_back(word);
    at = end + 1;
  }
  return names;
}

Status ParseCommandLine(const QuerySpec& query, const std::vector<std::string>& args, CommandLine* line,
                        Request* request) {
  // Options apart from positional arguments first, so that --help is seen wherever it stands
  // and the options are parsed (and their errors reported) in the order given.
  std::vector<std::string> options;
  bool endOfOptions = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (endOfOptions || arg == "-" || arg.empty() || arg[0] != '-') {
      line->positional.push_back(arg);
    } else if (arg == "--") {
      endOfOptions = true;
    } else if (IsHelp(arg)) {
      line->help = true;
    } else {
      options.push_back(arg);
      const OptionSpec* o = FindFlag(query, arg);
      if (o && o->type == OptionType::kFiles) {
        // Files up to the next option: `--baseline a b c` is `--baseline a --baseline b --baseline c`.
        bool first = true;
        while (i + 1 < args.size() && (args[i + 1].empty() || args[i + 1][0] != '-' || args[i + 1] == "-")) {
          if (!first) options.push_back(arg);
          options.push_back(args[++i]), first = false;
        }
        if (first) return Bad(arg + " takes one file or more");
      } else if (o && o->type != OptionType::kBool && i + 1 < args.size()) {
        options.push_back(args[++i]);
      }
    }
  }
  if (line->help) return Status();
  NETTRACE_RETURN_IF_ERROR(ParseCliArgs(query, options, request));
  const std::vector<std::string> names = PositionalNames(query);
  // diff --baseline … --compare …: the files replace A B.
  if (!request->compareFiles.empty()) {
    if (request->baselineFiles.empty()) return Bad("--compare goes with --baseline");
    if (!line->positional.empty()) return Bad("diff takes A B or --baseline … --compare …, not both");
    return Status();
  }
  const bool variadic = !names.empty() && IsVariadic(names.back());
  if (line->positional.size() < names.size()) return Bad(std::string(query.name) + " needs " + Joined(names));
  if (line->positional.size() > names.size() && !variadic)
    return Bad("unexpected argument '" + line->positional[names.size()] + "' (" + query.name +
               (names.empty() ? " takes none" : " takes " + Joined(names)) + ")");
  return Status();
}

std::string CommandUsage(const QuerySpec& query, std::string_view program) {
  return UsageLine(query, program) + "   (" + std::string(program) + " " + query.name + " --help: the options)";
}

std::string CommandHelp(const QuerySpec& query, std::string_view program) {
  std::string out = UsageLine(query, program) + "\n" + query.doc + "\n";
  std::vector<std::pair<std::string, std::string>> rows;  // (flag and values, doc and default)
  size_t column = 0;
  for (const OptionSpec& o : Options()) {
    if (!(o.queries & query.bit)) continue;
    std::string left = o.flag;
    if (o.negation) left += std::string(" / ") + o.negation;
    if (o.type != OptionType::kBool && o.values) left += std::string(" ") + o.values;
    std::string right = o.doc;
    if (o.defaultValue && o.type != OptionType::kBool) right += std::string(" (default ") + o.defaultValue + ")";
    constexpr size_t kWidest = 30;  // a longer flag column moves its doc over rather than all docs
    if (Width(left) <= kWidest) column = std::max(column, Width(left));
    rows.emplace_back(std::move(left), std::move(right));
  }
  if (!rows.empty()) out += "options:\n";
  for (const auto& [left, right] : rows)
    out += "  " + left + std::string(std::max(column, Width(left)) - Width(left) + 3, ' ') + right + "\n";
  return out;
}

}  // namespace nettrace::api
