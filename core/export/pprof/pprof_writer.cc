#include "export/pprof/pprof_writer.h"

#include "export/profile/protozero_writer.h"
#include "export/profile/string_table.h"

namespace nettrace {

namespace {

// profile.proto field numbers.
namespace field {
enum Profile : protozero::pbf_tag_type {
  kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5, kStringTable = 6,
  kTimeNanos = 9, kDurationNanos = 10, kPeriodType = 11, kPeriod = 12, kComment = 13, kDefaultSampleType = 14,
};
enum ValueType : protozero::pbf_tag_type { kType = 1, kUnit = 2 };
enum Sample : protozero::pbf_tag_type { kLocationId = 1, kValue = 2, kLabel = 3 };
enum Label : protozero::pbf_tag_type { kKey = 1, kStr = 2, kNum = 3 };
enum Mapping : protozero::pbf_tag_type { kMappingId = 1, kFilename = 5, kHasFunctions = 7 };
enum Location : protozero::pbf_tag_type { kLocationIdField = 1, kMappingIdField = 2, kLine = 4 };
enum Line : protozero::pbf_tag_type { kFunctionId = 1 };
enum Function : protozero::pbf_tag_type { kFunctionIdField = 1, kName = 2, kSystemName = 3, kFunctionFile = 4 };
}  // namespace field

class PprofWriter final : public ProfileStream {
 public:
  explicit PprofWriter(const ProfileData& p) : p_(p) { InternAll(); }

  bool Next(std::string* out, size_t budget) override {
    if (phase_ == Phase::kDone) return false;
    const size_t start = out->size();
    while (phase_ != Phase::kDone && out->size() - start < budget) Step(out);
    return true;
  }

 private:
  enum class Phase { kHead, kSamples, kMappings, kLocations, kFunctions, kStrings, kDone };

  void InternAll() {
    for (const ProfileSampleType& t : p_.types) strings_.Intern(t.type), strings_.Intern(t.unit);
    for (const ProfileSampleType& t : p_.types) strings_.Intern(t.periodType), strings_.Intern(t.periodUnit);
    for (const char* key : {"thread_id", "thread_name", "process_id", "process_name", "activity"}) strings_.Intern(key);
    for (const ProfileThread& t : p_.threads) strings_.Intern(t.threadName), strings_.Intern(t.processName);
    for (const std::string& a : p_.activities) strings_.Intern(a);
    for (const std::string& m : p_.mappings) strings_.Intern(m);
    for (const ProfileFunction& f : p_.functions) strings_.Intern(f.name), strings_.Intern(f.systemName), strings_.Intern(f.file);
    for (const std::string& c : p_.comments) strings_.Intern(c);
  }

  void ValueType(protozero::pbf_writer& w, protozero::pbf_tag_type tag, const std::string& type, const std::string& unit) {
    protozero::pbf_writer v(w, tag);
    v.add_int64(field::kType, strings_.Of(type));
    v.add_int64(field::kUnit, strings_.Of(unit));
  }

  void Head(protozero::pbf_writer& w) {
    for (const ProfileSampleType& t : p_.types) ValueType(w, field::kSampleType, t.type, t.unit);
    w.add_int64(field::kTimeNanos, p_.timeNanos);
    w.add_int64(field::kDurationNanos, p_.durationNanos);
    // One period for the profile: the first type's that has one (the sample profiler's).
    for (const ProfileSampleType& t : p_.types) {
      if (t.period == 0) continue;
      ValueType(w, field::kPeriodType, t.periodType, t.periodUnit);
      w.add_int64(field::kPeriod, t.period);
      break;
    }
    for (const std::string& c : p_.comments) w.add_int64(field::kComment, strings_.Of(c));
    if (!p_.types.empty()) w.add_int64(field::kDefaultSampleType, strings_.Of(p_.types[0].type));
  }

  void Label(protozero::pbf_writer& sample, const char* key, const std::string* str, const uint64_t* num) {
    protozero::pbf_writer l(sample, field::kLabel);
    l.add_int64(field::kKey, strings_.Of(key));
    if (str) l.add_int64(field::kStr, strings_.Of(*str));
    if (num) l.add_int64(field::kNum, static_cast<int64_t>(*num));
  }

  void Sample(protozero::pbf_writer& w, size_t s) {
    protozero::pbf_writer sample(w, field::kSample);
    const uint32_t stack = p_.sampleStack[s];
    const uint32_t* locations = p_.stackLocations.data();
    sample.add_packed_uint64(field::kLocationId, locations + p_.stackBegin[stack], locations + p_.stackBegin[stack + 1]);
    const int64_t* values = p_.values.data() + s * p_.types.size();
    sample.add_packed_int64(field::kValue, values, values + p_.types.size());
    const ProfileThread& t = p_.threads[p_.sampleThread[s]];
    Label(sample, "thread_id", nullptr, &t.threadId);
    if (!t.threadName.empty()) Label(sample, "thread_name", &t.threadName, nullptr);
    Label(sample, "process_id", nullptr, &t.processId);
    if (!t.processName.empty()) Label(sample, "process_name", &t.processName, nullptr);
    if (p_.sampleActivity[s]) Label(sample, "activity", &p_.activities[p_.sampleActivity[s]], nullptr);
  }

  void Mapping(protozero::pbf_writer& w, size_t i) {
    protozero::pbf_writer m(w, field::kMapping);
    m.add_uint64(field::kMappingId, i + 1);
    m.add_int64(field::kFilename, strings_.Of(p_.mappings[i]));
    m.add_bool(field::kHasFunctions, true);
  }

  void Location(protozero::pbf_writer& w, size_t i) {
    protozero::pbf_writer l(w, field::kLocation);
    l.add_uint64(field::kLocationIdField, i + 1);
    if (p_.functions[i].mapping) l.add_uint64(field::kMappingIdField, p_.functions[i].mapping);
    protozero::pbf_writer line(l, field::kLine);
    line.add_uint64(field::kFunctionId, i + 1);
  }

  void Function(protozero::pbf_writer& w, size_t i) {
    const ProfileFunction& f = p_.functions[i];
    protozero::pbf_writer fn(w, field::kFunction);
    fn.add_uint64(field::kFunctionIdField, i + 1);
    fn.add_int64(field::kName, strings_.Of(f.name));
    if (!f.systemName.empty()) fn.add_int64(field::kSystemName, strings_.Of(f.systemName));
    if (!f.file.empty()) fn.add_int64(field::kFunctionFile, strings_.Of(f.file));
  }

  // Appends one item of the current phase, moving to the next phase after its last.
  void Step(std::string* out) {
    protozero::pbf_writer w(*out);
    switch (phase_) {
      case Phase::kHead: Head(w); return Advance(1);
      case Phase::kSamples: return Item(&PprofWriter::Sample, w, p_.sampleCount());
      case Phase::kMappings: return Item(&PprofWriter::Mapping, w, p_.mappings.size());
      case Phase::kLocations: return Item(&PprofWriter::Location, w, p_.functions.size());
      case Phase::kFunctions: return Item(&PprofWriter::Function, w, p_.functions.size());
      case Phase::kStrings:
        if (index_ < strings_.strings().size()) w.add_string(field::kStringTable, strings_.strings()[index_]);
        return Advance(strings_.strings().size());
      case Phase::kDone: return;
    }
  }

  void Item(void (PprofWriter::*write)(protozero::pbf_writer&, size_t), protozero::pbf_writer& w, size_t count) {
    if (index_ < count) (this->*write)(w, index_);
    Advance(count);
  }

  void Advance(size_t count) {
    if (++index_ < count) return;
    index_ = 0;
    phase_ = static_cast<Phase>(static_cast<int>(phase_) + 1);
  }

  const ProfileData& p_;
  ProfileStringTable strings_;
  Phase phase_ = Phase::kHead;
  size_t index_ = 0;
};

}  // namespace

std::unique_ptr<ProfileStream> PprofStream(const ProfileData& profile) { return std::make_unique<PprofWriter>(profile); }

}  // namespace nettrace
