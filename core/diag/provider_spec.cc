#include "diag/provider_spec.h"

#include <cctype>

namespace nettrace::diag {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

Status Bad(const std::string& spec, const std::string& why) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "provider spec '" + spec + "': " + why);
}

Status ParseKeywords(const std::string& spec, std::string text, uint64_t* keywords) {
  text = Trim(text);
  *keywords = 0;
  if (text.empty()) return Status::Ok();
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text = text.substr(2);
  if (text.empty() || text.size() > 16) return Bad(spec, "keywords must be up to 16 hex digits");
  for (char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return Bad(spec, "keywords must be hexadecimal");
    *keywords = (*keywords << 4) | static_cast<uint64_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10);
  }
  return Status::Ok();
}

Status ParseLevel(const std::string& spec, std::string text, uint32_t* level) {
  text = Lower(Trim(text));
  *level = 4;
  if (text.empty()) return Status::Ok();
  if (std::isdigit(static_cast<unsigned char>(text[0]))) {
    uint64_t v = 0;
    for (char c : text) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return Bad(spec, "level must be a number or a level name");
      v = v * 10 + static_cast<uint64_t>(c - '0');
      if (v > 5) v = 6;  // clamp before overflow; dotnet-trace clamps to Verbose
    }
    *level = static_cast<uint32_t>(v > 5 ? 5 : v);
    return Status::Ok();
  }
  static const char* const kNames[] = {"logalways", "critical", "error", "warning", "informational", "verbose"};
  for (uint32_t i = 0; i < 6; ++i) {
    if (text == kNames[i]) {
      *level = i;
      return Status::Ok();
    }
  }
  return Bad(spec, "unknown level '" + text + "'");
}

ProviderConfig Provider(const char* name, uint64_t keywords, uint32_t level, const char* filter = "") {
  ProviderConfig p;
  p.name = name;
  p.keywords = keywords;
  p.level = level;
  p.filterData = filter;
  return p;
}

// The arguments string of dotnet-trace's database profile, as the reference client
// serializes it (a value with ';' or '=' in double quotes).
constexpr const char* kDatabaseFilter =
    "FilterAndPayloadSpecs=\""
    "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandBefore@Activity1Start:-Command;Command.CommandText;"
    "ConnectionId;Operation;Command.Connection.ServerVersion;Command.CommandTimeout;Command.CommandType;"
    "Command.Connection.ConnectionString;Command.Connection.Database;Command.Connection.DataSource;"
    "Command.Connection.PacketSize\r\n"
    "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandAfter@Activity1Stop:\r\n"
    "Microsoft.EntityFrameworkCore/Microsoft.EntityFrameworkCore.Database.Command.CommandExecuting@Activity2Start:"
    "-Command.CommandText;Command;ConnectionId;IsAsync;Command.Connection.ClientConnectionId;"
    "Command.Connection.ServerVersion;Command.CommandTimeout;Command.CommandType;Command.Connection.ConnectionString;"
    "Command.Connection.Database;Command.Connection.DataSource;Command.Connection.PacketSize\r\n"
    "Microsoft.EntityFrameworkCore/Microsoft.EntityFrameworkCore.Database.Command.CommandExecuted@Activity2Stop:\"";

constexpr const char* kRuntime = "Microsoft-Windows-DotNETRuntime";
// The reference client's default keywords for a provider given without any.
constexpr uint64_t kClientDefaultKeywords = 0xF00000000000;

}  // namespace

Status ParseProviderSpec(const std::string& spec, ProviderConfig* p) {
  // Split on the first three ':' only: the filter may contain ':' itself.
  std::vector<std::string> parts;
  size_t start = 0;
  while (parts.size() < 3) {
    const size_t colon = spec.find(':', start);
    if (colon == std::string::npos) break;
    parts.push_back(spec.substr(start, colon - start));
    start = colon + 1;
  }
  parts.push_back(spec.substr(start));
  *p = ProviderConfig{};
  p->name = Trim(parts[0]);
  if (p->name.empty()) return Bad(spec, "no provider name");
  NETTRACE_RETURN_IF_ERROR(ParseKeywords(spec, parts.size() > 1 ? parts[1] : "", &p->keywords));
  NETTRACE_RETURN_IF_ERROR(ParseLevel(spec, parts.size() > 2 ? parts[2] : "", &p->level));
  if (parts.size() > 3 && !Trim(parts[3]).empty()) p->filterData = parts[3];
  return Status::Ok();
}

Status ParseProviderList(const std::string& list, std::vector<ProviderConfig>* providers) {
  bool quoted = false;
  std::string current;
  auto flush = [&]() -> Status {
    if (Trim(current).empty()) return Bad(list, "empty provider in the list");
    ProviderConfig p;
    NETTRACE_RETURN_IF_ERROR(ParseProviderSpec(current, &p));
    providers->push_back(std::move(p));
    current.clear();
    return Status::Ok();
  };
  for (char c : list) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      NETTRACE_RETURN_IF_ERROR(flush());
    } else {
      current.push_back(c);
    }
  }
  return flush();
}

const std::vector<TraceProfile>& TraceProfiles() {
  static const std::vector<TraceProfile> profiles = {
      // GC | AssemblyLoader | Loader | JIT | Exception | Threading | JittedMethodILToNativeMap | Compilation
      {"dotnet-common", {Provider(kRuntime, 0x100003801D, 4)}, 0, false,
       "Lightweight runtime events: GC, AssemblyLoader, Loader, JIT, Exceptions, Threading, JittedMethodILToNativeMap, Compilation"},
      {"dotnet-sampled-thread-time", {Provider("Microsoft-DotNETCore-SampleProfiler", kClientDefaultKeywords, 4)}, 0, false,
       "Samples .NET thread stacks (~100 Hz)"},
      {"gc-verbose", {Provider(kRuntime, 0x1 | 0x2 | 0x8000, 5)}, 0, false,
       "GC collections and sampled object allocations (GC | GCHandle | Exception, verbose)"},
      {"gc-collect", {Provider(kRuntime, 0x1, 4), Provider("Microsoft-Windows-DotNETRuntimePrivate", 0x1, 4)}, 0x1, true,
       "GC collections only, at very low overhead (GC rundown only)"},
      {"database",
       {Provider("System.Threading.Tasks.TplEventSource", 0x80, 4),
        Provider("Microsoft-Diagnostics-DiagnosticSource", 0x1 | 0x2, 5, kDatabaseFilter)},
       0, false, "ADO.NET and Entity Framework database commands"},
      {"cpu-sampling", {Provider("Microsoft-DotNETCore-SampleProfiler", kClientDefaultKeywords, 4)}, 0, false,
       "EventPipe thread sampling (= dotnet-sampled-thread-time; dotnet-trace 10's cpu-sampling is collect-linux only)"},
  };
  return profiles;
}

Status BuildCollectRequest(const std::string& profiles, const std::string& providers, CollectRequest* request) {
  *request = CollectRequest{};
  if (!providers.empty()) NETTRACE_RETURN_IF_ERROR(ParseProviderList(providers, &request->providers));
  std::string names = profiles;
  if (profiles.empty() && providers.empty()) names = "dotnet-common,dotnet-sampled-thread-time";
  uint64_t rundown = 0;
  size_t start = 0;
  while (!names.empty() && start <= names.size()) {
    const size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = Lower(Trim(names.substr(start, comma - start)));
    start = comma + 1;
    const TraceProfile* found = nullptr;
    for (const TraceProfile& t : TraceProfiles()) {
      if (name == t.name) found = &t;
    }
    if (!found) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "unknown profile '" + name + "'");
    rundown |= found->rundownKeyword;
    request->dropRundownOnFallback |= found->dropRundownOnFallback;
    for (const ProviderConfig& p : found->providers) {
      bool present = false;
      for (const ProviderConfig& q : request->providers) present |= Lower(q.name) == Lower(p.name);
      if (!present) request->providers.push_back(p);
    }
  }
  request->rundownKeyword = rundown ? rundown : kDefaultRundownKeyword;
  return Status::Ok();
}

}  // namespace nettrace::diag
