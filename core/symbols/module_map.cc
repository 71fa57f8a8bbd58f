#include "symbols/module_map.h"

namespace nettrace {

std::string ModuleNameFromPath(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  auto dropSuffix = [&](std::string_view suffix) {
    if (base.size() > suffix.size()) {
      std::string_view tail = base.substr(base.size() - suffix.size());
      bool same = true;
      for (size_t i = 0; i < suffix.size(); ++i)
        if ((tail[i] | 0x20) != (suffix[i] | 0x20)) same = false;
      if (same) base.remove_suffix(suffix.size());
      return same;
    }
    return false;
  };
  if (dropSuffix(".dll") || dropSuffix(".exe") || dropSuffix(".so") || dropSuffix(".dylib")) dropSuffix(".ni");
  return std::string(base);
}

void ModuleMap::AddModule(uint64_t moduleId, std::string_view ilPath, std::string_view nativePath) {
  std::string_view path = !ilPath.empty() ? ilPath : nativePath;
  if (path.empty() || names_.count(moduleId)) return;
  names_.emplace(moduleId, ModuleNameFromPath(path));
}

}  // namespace nettrace
