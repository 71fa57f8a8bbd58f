#include "export/dotnet_trace_frames.h"

#include <string_view>

namespace nettrace {

namespace {

bool EndsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

// TraceLog's category for a thread that writes a runtime event of this name; `overrides`: it
// replaces an earlier one (CategorizeThread(..., overwrite: true)).
const char* Category(const EventType& type, bool* overrides) {
  *overrides = false;
  if (type.knownProvider != KnownProvider::kClrRuntime) return nullptr;
  if (type.name == "ThreadPoolWorkerThreadAdjustment/Sample") return ".NET ThreadPool";
  if (type.name == "GC/FinalizersStart" || type.name == "GC/FinalizersStop") return ".NET Finalizer Thread";
  if (type.name == "ThreadPool/IODequeue") {
    *overrides = true;
    return ".NET IO ThreadPool Worker";
  }
  return nullptr;
}

bool IsActivityFrame(std::string_view name) { return name == "(Activities)" || name.rfind("Activity ", 0) == 0; }

}  // namespace

DotnetTraceFrames::DotnetTraceFrames(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver)
    : model_(model),
      symbols_(symbols),
      resolver_(resolver),
      categories_(model.threads().size()),
      frames_(model.threads().size(), {UINT32_MAX, UINT32_MAX}) {
  nonActivities_ = Intern("(Non-Activities)");
  threads_ = Intern("Threads");
  // Which event types categorize a thread, then the rows of those types in time order.
  std::vector<const char*> byType(model.types().size(), nullptr);
  std::vector<bool> overrides(model.types().size(), false);
  bool any = false;
  for (size_t t = 0; t < byType.size(); ++t) {
    bool o = false;
    byType[t] = Category(model.types()[EventTypeIndex(static_cast<uint16_t>(t))], &o);
    overrides[t] = o, any |= byType[t] != nullptr;
  }
  if (!any) return;
  const EventStore& store = model.store();
  for (size_t row = 0; row < store.size(); ++row) {
    const uint16_t type = store.type(row).value;
    if (!byType[type]) continue;
    std::string& category = categories_[store.thread(row).value];
    if (category.empty() || overrides[type]) category = byType[type];
  }
}

uint32_t DotnetTraceFrames::Intern(const std::string& name) { return resolver_->frames().Intern(name, FrameKind::kSynthetic); }

std::string DotnetTraceFrames::ProcessName(const std::string& commandLine, uint64_t pid) {
  std::string image = commandLine;
  if (const size_t space = commandLine.find(' '); space != std::string::npos && space > 0) {
    image = commandLine.substr(0, space);
    if (image.size() > 2 && image.front() == '"' && image.back() == '"') image = image.substr(1, image.size() - 2);
  }
  const size_t separator = image.find_last_of("\\/");
  const size_t start = separator == std::string::npos ? 0 : separator + 1;
  std::string name = image.substr(start);
  const size_t dot = image.rfind('.');
  if (dot != std::string::npos && dot > start) {
    const std::string_view extension = std::string_view(image).substr(dot);
    if (EndsWithIgnoreCase(extension, ".dll") && extension.size() == 4) name = image.substr(start, dot - start);
    if (EndsWithIgnoreCase(extension, ".exe") && extension.size() == 4) name = image.substr(start, dot - start);
  }
  if (name.empty() && pid != 0) name = "Process(" + std::to_string(pid) + ")";
  return name;
}

std::string DotnetTraceFrames::Arguments(const std::string& commandLine) {
  if (commandLine.empty()) return commandLine;
  const size_t end = commandLine[0] == '"' ? commandLine.find('"', 1) : commandLine.find(' ');
  return end == std::string::npos ? commandLine : commandLine.substr(end + 1);
}

std::string DotnetTraceFrames::ThreadName(uint16_t thread) const {
  const ThreadEntry& t = model_.threads()[ThreadIndex(thread)];
  std::string name = "Thread (" + std::to_string(t.osThreadId.value_or(t.key)) + ")";
  if (!categories_[thread].empty()) name += " (" + categories_[thread] + ")";
  return name;
}

std::vector<uint32_t> DotnetTraceFrames::Wrap(uint16_t thread, const std::vector<uint32_t>& path) {
  if (frames_[thread].first == UINT32_MAX) {  // the thread's process and thread frames, once
    const ThreadEntry& t = model_.threads()[ThreadIndex(thread)];
    const uint64_t pid = t.processId.value_or(model_.info().processId);
    const std::string& commandLine = symbols_.CommandLine(pid);
    frames_[thread] = {Intern(std::string("Process") + (model_.info().pointerSize == 4 ? "32 " : "64 ") +
                              ProcessName(commandLine, pid) + " (" + std::to_string(pid) + ") Args: " + Arguments(commandLine)),
                       Intern(ThreadName(thread))};
  }
  std::vector<uint32_t> out{frames_[thread].first};
  size_t activities = 0;
  while (activities < path.size() && IsActivityFrame(resolver_->frames().name(path[activities]))) ++activities;
  if (activities == 0) out.push_back(nonActivities_);
  out.insert(out.end(), path.begin(), path.begin() + static_cast<std::ptrdiff_t>(activities));
  out.push_back(threads_);
  out.push_back(frames_[thread].second);
  out.insert(out.end(), path.begin() + static_cast<std::ptrdiff_t>(activities), path.end());
  return out;
}

}  // namespace nettrace
