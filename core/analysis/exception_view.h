// core/analysis — the exceptions view (issue 14 item 2): first-chance exceptions
// (Exception/Start, runtime event 80) by type, with the first distinct messages, whether
// they were caught and where (ExceptionCatch/Start, runtime event 250, names the catching
// method; the runtime writes it on the throwing thread between the throw and its
// Exception/Stop), and the throwing method: the top frame of the throw's stack once the
// runtime's own dispatch frames (System.Runtime.EH.*, the managed exception dispatcher of
// .NET 9+) are left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/view_format.h"

namespace nettrace {

class TraceModel;
class SymbolCollector;

class ExceptionView {
 public:
  static constexpr size_t kMaxTypes = 10000;      // distinct type names kept; later ones go to "other"
  static constexpr size_t kMaxThrows = size_t{1} << 20;  // throws whose stack is attributed
  static constexpr size_t kMaxMessages = 5;       // distinct messages kept per type
  static constexpr size_t kMaxCatchPairs = 100000;  // distinct (type, catching method) pairs kept
  static constexpr size_t kMaxMessageBytes = 1000;  // a kept message is cut there (UTF-8 boundary)

  void OnThrow(uint32_t ordinal, uint64_t thread, const std::string& type, const std::string& message);
  void OnCatch(uint64_t thread, const std::string& method);
  void OnStop(uint64_t thread) { pending_.erase(thread); }
  void SawCatchEvents() { catchEvents_ = true; }

  // Index of a type name (for StackQuery::exceptionType); nullopt when never thrown.
  std::optional<uint32_t> TypeIndex(const std::string& type) const;
  // Type index of the throw with this file-order ordinal; nullopt when not a kept throw.
  std::optional<uint32_t> TypeOfThrow(uint32_t ordinal) const;

  std::string Write(const TraceModel& model, const SymbolCollector& symbols, ViewFormat format) const;

 private:
  struct Type {
    std::string name;
    uint64_t count = 0, caught = 0;
    std::vector<std::string> messages;
    std::unordered_map<std::string, uint64_t> catchingMethods;
  };
  std::vector<Type> types_;
  std::unordered_map<std::string, uint32_t> typeIndex_;
  uint64_t count_ = 0, otherCount_ = 0, notAttributed_ = 0;
  // (file-order ordinal, type): filled in time order, which is not file order once the
  // throws of several threads interleave; sorted by ordinal when first looked up.
  mutable std::vector<std::pair<uint32_t, uint32_t>> throws_;
  mutable bool sorted_ = true;
  std::unordered_map<uint64_t, uint32_t> pending_;        // thread → type of its uncaught throw
  bool catchEvents_ = false;
  size_t catchPairs_ = 0;
};

}  // namespace nettrace
