#include "export/otlp/otlp_writer.h"

#include <map>
#include <vector>

#include "export/profile/protozero_writer.h"
#include "export/profile/string_table.h"

namespace nettrace {

namespace {

using Tag = protozero::pbf_tag_type;

// Field numbers of opentelemetry-proto v1.11.0 (profiles_service.proto, profiles.proto,
// common.proto, resource.proto), by message.
namespace field {
constexpr Tag kResourceProfiles = 1, kDictionary = 2;                 // ExportProfilesServiceRequest
constexpr Tag kResource = 1, kScopeProfiles = 2;                      // ResourceProfiles
constexpr Tag kResourceAttributes = 1;                                // Resource
constexpr Tag kKey = 1, kValue = 2;                                   // KeyValue
constexpr Tag kStringValue = 1, kIntValue = 3;                        // AnyValue
constexpr Tag kScope = 1, kProfiles = 2;                              // ScopeProfiles
constexpr Tag kScopeName = 1, kScopeVersion = 2;                      // InstrumentationScope
constexpr Tag kSampleType = 1, kSamples = 2, kTimeUnixNano = 3, kDurationNano = 4, kPeriodType = 5,
              kPeriod = 6;                                            // Profile
constexpr Tag kTypeStrindex = 1, kUnitStrindex = 2;                   // ValueType
constexpr Tag kStackIndex = 1, kAttributeIndices = 2, kValues = 4;    // Sample
constexpr Tag kMappingTable = 1, kLocationTable = 2, kFunctionTable = 3, kLinkTable = 4, kStringTable = 5,
              kAttributeTable = 6, kStackTable = 7;                   // ProfilesDictionary
constexpr Tag kFilenameStrindex = 4;                                  // Mapping
constexpr Tag kMappingIndex = 1, kLines = 3;                          // Location
constexpr Tag kFunctionIndex = 1;                                     // Line
constexpr Tag kNameStrindex = 1, kSystemNameStrindex = 2, kFunctionFilenameStrindex = 3;  // Function
constexpr Tag kTraceId = 1, kSpanId = 2;                              // Link
constexpr Tag kKeyStrindex = 1, kAttributeValue = 2;                  // KeyValueAndUnit
constexpr Tag kLocationIndices = 1;                                   // Stack
}  // namespace field

// The bytes of a length-delimited field whose body is `size` bytes long.
uint64_t ItemSize(uint64_t size) { return 1 + protozero::length_of_varint(size) + size; }
void Header(std::string* out, Tag tag, uint64_t size) {
  protozero::add_varint_to_buffer(out, (uint64_t{tag} << 3) | 2);
  protozero::add_varint_to_buffer(out, size);
}

struct Attribute {
  std::string key;
  bool isInt = false;
  int64_t number = 0;
  std::string text;
};

class OtlpWriter final : public ProfileStream {
 public:
  OtlpWriter(const ProfileData& p, std::string version) : p_(p), version_(std::move(version)) {
    Prepare();
    Measure();
    if (resources_.empty()) phase_ = Phase::kDictionaryHead;  // no samples: the dictionary alone
  }

  bool Next(std::string* out, size_t budget) override {
    if (phase_ == Phase::kDone) return false;
    const size_t start = out->size();
    while (phase_ != Phase::kDone && out->size() - start < budget) Step(out);
    return true;
  }

 private:
  enum class Phase { kResource, kProfileHead, kSample, kDictionaryHead, kDictionary, kDone };
  // One process's samples and the body sizes of its messages.
  struct Resource {
    uint64_t pid = 0;
    std::string name;
    std::vector<uint32_t> samples;
    std::vector<uint64_t> profileBody;  // by sample type
    uint64_t scopeBody = 0, body = 0;
  };
  static constexpr int kTables = 7;

  // Processes (resources) in first-sample order, their samples, the attribute table, the strings.
  void Prepare() {
    std::map<uint64_t, size_t> resourceOf;
    std::map<std::string, int32_t> attributeOf;  // key + '\0' + value → index
    auto attribute = [&](Attribute a) {
      const std::string id = a.key + '\0' + (a.isInt ? std::to_string(a.number) : a.text);
      auto [it, added] = attributeOf.emplace(id, static_cast<int32_t>(attributes_.size() + 1));
      if (added) strings_.Intern(a.key), attributes_.push_back(std::move(a));
      return it->second;
    };
    threadAttributes_.resize(p_.threads.size());
    for (size_t s = 0; s < p_.sampleCount(); ++s) {
      const uint16_t thread = p_.sampleThread[s];
      const ProfileThread& t = p_.threads[thread];
      auto [it, added] = resourceOf.emplace(t.processId, resources_.size());
      if (added) {
        resources_.emplace_back();
        resources_.back().pid = t.processId, resources_.back().name = t.processName;
      }
      resources_[it->second].samples.push_back(static_cast<uint32_t>(s));
      std::vector<int32_t>& ta = threadAttributes_[thread];
      if (!ta.empty()) continue;
      ta.push_back(attribute({"thread.id", true, static_cast<int64_t>(t.threadId), ""}));
      if (!t.threadName.empty()) ta.push_back(attribute({"thread.name", false, 0, t.threadName}));
    }
    activityAttributes_.assign(p_.activities.size(), 0);
    for (size_t a = 1; a < p_.activities.size(); ++a)
      activityAttributes_[a] = attribute({"dotnet.activity", false, 0, p_.activities[a]});
    for (const ProfileSampleType& t : p_.types)
      strings_.Intern(t.type), strings_.Intern(t.unit), strings_.Intern(t.periodType), strings_.Intern(t.periodUnit);
    for (const std::string& m : p_.mappings) strings_.Intern(m);
    for (const ProfileFunction& f : p_.functions)
      strings_.Intern(f.name), strings_.Intern(f.systemName), strings_.Intern(f.file);
  }

  // The body sizes of every nested message, so that each length precedes its body.
  void Measure() {
    std::string scratch;
    for (Resource& r : resources_) {
      r.profileBody.assign(p_.types.size(), 0);
      uint64_t scope = (ScopeHead(&scratch), scratch.size());  // the scope field, whole
      for (size_t t = 0; t < p_.types.size(); ++t) {
        uint64_t body = (ProfileHead(t, &scratch), scratch.size());
        for (uint32_t s : r.samples)
          if (p_.Value(s, t) != 0) body += ItemSize((SampleBody(s, t, &scratch), scratch.size()));
        r.profileBody[t] = body;
        scope += ItemSize(body);
      }
      r.scopeBody = scope;
      r.body = ItemSize((ResourceBody(r, &scratch), scratch.size())) + ItemSize(scope);
    }
    dictionaryBody_ = 0;
    for (int table = 0; table < kTables; ++table)
      for (size_t e = 0; e < TableSize(table); ++e) dictionaryBody_ += (Entry(table, e, &scratch), scratch.size());
  }

  void ResourceBody(const Resource& r, std::string* out) {
    out->clear();
    protozero::pbf_writer w(*out);
    auto keyValue = [&](const char* key, const std::string* text, const int64_t* number) {
      protozero::pbf_writer kv(w, field::kResourceAttributes);
      kv.add_string(field::kKey, key);
      protozero::pbf_writer v(kv, field::kValue);
      if (text) v.add_string(field::kStringValue, *text);
      if (number) v.add_int64(field::kIntValue, *number);
    };
    const std::string service = r.name.empty() ? "unknown_service" : r.name;
    const int64_t pid = static_cast<int64_t>(r.pid);
    keyValue("service.name", &service, nullptr);
    keyValue("process.pid", nullptr, &pid);
    if (!r.name.empty()) keyValue("process.executable.name", &r.name, nullptr);
  }

  void ScopeHead(std::string* out) {
    out->clear();
    protozero::pbf_writer w(*out);
    protozero::pbf_writer scope(w, field::kScope);
    scope.add_string(field::kScopeName, "nettrace-analyzer");
    if (!version_.empty()) scope.add_string(field::kScopeVersion, version_);
  }

  void ValueType(protozero::pbf_writer& w, Tag tag, const std::string& type, const std::string& unit) {
    protozero::pbf_writer v(w, tag);
    v.add_int32(field::kTypeStrindex, strings_.Of(type));
    v.add_int32(field::kUnitStrindex, strings_.Of(unit));
  }

  // A Profile's fields other than its samples.
  void ProfileHead(size_t t, std::string* out) {
    out->clear();
    protozero::pbf_writer w(*out);
    const ProfileSampleType& type = p_.types[t];
    ValueType(w, field::kSampleType, type.type, type.unit);
    w.add_fixed64(field::kTimeUnixNano, static_cast<uint64_t>(p_.timeNanos));
    w.add_uint64(field::kDurationNano, static_cast<uint64_t>(p_.durationNanos));
    if (type.period != 0) {
      ValueType(w, field::kPeriodType, type.periodType, type.periodUnit);
      w.add_int64(field::kPeriod, type.period);
    }
  }

  void SampleBody(uint32_t s, size_t t, std::string* out) {
    out->clear();
    protozero::pbf_writer w(*out);
    w.add_int32(field::kStackIndex, static_cast<int32_t>(p_.sampleStack[s] + 1));
    std::vector<int32_t>& attrs = sampleAttributes_;
    attrs = threadAttributes_[p_.sampleThread[s]];
    if (p_.sampleActivity[s]) attrs.push_back(activityAttributes_[p_.sampleActivity[s]]);
    w.add_packed_int32(field::kAttributeIndices, attrs.begin(), attrs.end());
    const int64_t value = p_.Value(s, t);
    w.add_packed_int64(field::kValues, &value, &value + 1);
  }

  size_t TableSize(int table) const {
    switch (table) {
      case 0: return p_.mappings.size() + 1;
      case 1: case 2: return p_.functions.size() + 1;
      case 3: return 1;
      case 4: return strings_.strings().size();
      case 5: return attributes_.size() + 1;
      default: return p_.stackCount() + 1;
    }
  }

  // Dictionary table `table`'s entry e as a whole field (tag, length, body) in *out.
  void Entry(int table, size_t e, std::string* out) {
    static constexpr Tag kTags[kTables] = {field::kMappingTable, field::kLocationTable, field::kFunctionTable,
                                           field::kLinkTable,    field::kStringTable,   field::kAttributeTable,
                                           field::kStackTable};
    std::string& body = entry_;
    body.clear();
    protozero::pbf_writer w(body);
    if (table == 4) {
      out->clear();
      protozero::pbf_writer(*out).add_string(field::kStringTable, strings_.strings()[e]);
      return;
    }
    if (table == 3) {  // the zero Link, its ids at their lengths (profiles.proto's advice)
      w.add_bytes(field::kTraceId, std::string(16, '\0'));
      w.add_bytes(field::kSpanId, std::string(8, '\0'));
    } else if (e > 0) {
      EntryBody(table, e - 1, w);
    }
    out->clear();
    protozero::pbf_writer(*out).add_message(kTags[table], body);
  }

  // The body of entry i + 1 of a table other than links and strings.
  void EntryBody(int table, size_t i, protozero::pbf_writer& w) {
    if (table == 0) {
      w.add_int32(field::kFilenameStrindex, strings_.Of(p_.mappings[i]));
    } else if (table == 1) {
      if (p_.functions[i].mapping) w.add_int32(field::kMappingIndex, static_cast<int32_t>(p_.functions[i].mapping));
      protozero::pbf_writer line(w, field::kLines);
      line.add_int32(field::kFunctionIndex, static_cast<int32_t>(i + 1));
    } else if (table == 2) {
      const ProfileFunction& f = p_.functions[i];
      w.add_int32(field::kNameStrindex, strings_.Of(f.name));
      if (!f.systemName.empty()) w.add_int32(field::kSystemNameStrindex, strings_.Of(f.systemName));
      if (!f.file.empty()) w.add_int32(field::kFunctionFilenameStrindex, strings_.Of(f.file));
    } else if (table == 5) {
      const Attribute& a = attributes_[i];
      w.add_int32(field::kKeyStrindex, strings_.Of(a.key));
      protozero::pbf_writer v(w, field::kAttributeValue);
      if (a.isInt) v.add_int64(field::kIntValue, a.number);
      else v.add_string(field::kStringValue, a.text);
    } else {
      const uint32_t* l = p_.stackLocations.data();
      std::vector<int32_t>& ids = sampleAttributes_;
      ids.assign(l + p_.stackBegin[i], l + p_.stackBegin[i + 1]);
      w.add_packed_int32(field::kLocationIndices, ids.begin(), ids.end());
    }
  }

  void Step(std::string* out) {
    std::string& scratch = item_;
    switch (phase_) {
      case Phase::kResource: {
        const Resource& r = resources_[resource_];
        Header(out, field::kResourceProfiles, r.body);
        ResourceBody(r, &scratch);
        Header(out, field::kResource, scratch.size());
        out->append(scratch);
        Header(out, field::kScopeProfiles, r.scopeBody);
        ScopeHead(&scratch);
        out->append(scratch);
        type_ = 0, phase_ = Phase::kProfileHead;
        return;
      }
      case Phase::kProfileHead:
        Header(out, field::kProfiles, resources_[resource_].profileBody[type_]);
        ProfileHead(type_, &scratch);
        out->append(scratch);
        sample_ = 0, phase_ = Phase::kSample;
        return;
      case Phase::kSample: return NextSample(out);
      case Phase::kDictionaryHead:
        Header(out, field::kDictionary, dictionaryBody_);
        table_ = 0, entryIndex_ = 0, phase_ = Phase::kDictionary;
        return;
      case Phase::kDictionary:
        Entry(table_, entryIndex_, &scratch);
        out->append(scratch);
        if (++entryIndex_ < TableSize(table_)) return;
        entryIndex_ = 0;
        if (++table_ == kTables) phase_ = Phase::kDone;
        return;
      case Phase::kDone: return;
    }
  }

  // The next sample of the current profile with a value, or the next profile, resource or
  // the dictionary when there is none.
  void NextSample(std::string* out) {
    const std::vector<uint32_t>& samples = resources_[resource_].samples;
    while (sample_ < samples.size() && p_.Value(samples[sample_], type_) == 0) ++sample_;
    if (sample_ < samples.size()) {
      SampleBody(samples[sample_++], type_, &item_);
      Header(out, field::kSamples, item_.size());
      out->append(item_);
      return;
    }
    if (++type_ < p_.types.size()) {
      phase_ = Phase::kProfileHead;
    } else if (++resource_ < resources_.size()) {
      phase_ = Phase::kResource;
    } else {
      phase_ = Phase::kDictionaryHead;
    }
  }

  const ProfileData& p_;
  std::string version_;
  ProfileStringTable strings_;
  std::vector<Resource> resources_;
  std::vector<Attribute> attributes_;                  // attribute_table[i + 1]
  std::vector<std::vector<int32_t>> threadAttributes_;  // by ThreadIndex
  std::vector<int32_t> activityAttributes_;            // by activity index
  uint64_t dictionaryBody_ = 0;
  Phase phase_ = Phase::kResource;
  size_t resource_ = 0, type_ = 0, sample_ = 0, entryIndex_ = 0;
  int table_ = 0;
  std::string item_, entry_;
  std::vector<int32_t> sampleAttributes_;
};

}  // namespace

std::unique_ptr<ProfileStream> OtlpStream(const ProfileData& profile, const std::string& scopeVersion) {
  return std::make_unique<OtlpWriter>(profile, scopeVersion);
}

}  // namespace nettrace
