// core/symbols — module names by ModuleID from the loader's events (ModuleLoad,
// DomainModuleLoad and their rundown DCStart/DCEnd twins), and native image ranges when
// something announced them. EventPipe's loader events carry no image base or size, so the
// ranges stay empty for runtime-only traces; frames outside every method then show as a
// hex address (see FrameNamer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nettrace {

// "C:\app\bin\mvc-hello-world.dll" → "mvc-hello-world" (PerfView names modules by file
// name without extension; ".ni" of NGEN images goes too).
std::string ModuleNameFromPath(std::string_view path);

struct ModuleImage {
  uint64_t base = 0;
  uint64_t size = 0;
  std::string name;
};

class ModuleMap {
 public:
  // First non-empty path wins: IL path, else native path.
  void AddModule(uint64_t moduleId, std::string_view ilPath, std::string_view nativePath);
  void AddImage(ModuleImage image) { images_.push_back(std::move(image)); }

  // nullptr when the module was never announced.
  const std::string* Name(uint64_t moduleId) const {
    auto it = names_.find(moduleId);
    return it == names_.end() ? nullptr : &it->second;
  }
  // The image holding `address`, or nullptr.
  const ModuleImage* ImageAt(uint64_t address) const {
    for (const ModuleImage& m : images_)
      if (address >= m.base && address - m.base < m.size) return &m;
    return nullptr;
  }
  size_t size() const { return names_.size(); }

 private:
  std::unordered_map<uint64_t, std::string> names_;
  std::vector<ModuleImage> images_;
};

}  // namespace nettrace
