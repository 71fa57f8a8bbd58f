#include "symbols/symbol_collector.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "events/event_naming.h"
#include "events/start_stop_rule.h"
#include "format/payload/clr_payload_fields.h"
#include "format/payload/exception_thrown.h"
#include "format/payload_decoder.h"
#include "io/byte_cursor.h"
#include "symbols/method_fields.h"

namespace nettrace {

Status SymbolCollector::OnTraceInfo(const TraceInfo& info) {
  if (info.pointerSize == 4 || info.pointerSize == 8) pointerSize_ = info.pointerSize;
  formatMajor_ = static_cast<int>(info.formatMajor);
  universal_.OnTraceInfo(info);
  return Status::Ok();
}

// The Linux-profiler tables read their own metadata; what a CLR event is, the resolver says.
Status SymbolCollector::OnMetadata(const EventMetadata& m) {
  universal_.OnMetadataKind(types_->KindOf(m.id));
  tpl_.OnMetadata(m);
  // The runtime's ProcessInfo (id 1): CommandLine first.
  if (ClassifyProvider(m.providerName) == KnownProvider::kEventPipe && m.eventId == 1 && !m.fields.empty() &&
      m.fields[0].type.code == TypeCode::kNullTerminatedUTF16String && !IsProcessInfo(m.id) &&
      processInfoTypes_.size() < kMaxProcessInfoTypes)
    processInfoTypes_.push_back(m.id);
  // Start events that begin start-stop activities (the resolver's kind says which): an
  // EventSource's whose first field is a string, and the runtime's ExceptionCatch/Start.
  const StartStopRule rule = StartStopRuleOf(types_->KindOf(m.id));
  if (rule.role == StartStopRole::kStart &&
      (rule.exceptionHandling || (!m.fields.empty() && m.fields[0].type.code == TypeCode::kNullTerminatedUTF16String)))
    startTypes_[m.id] = rule.exceptionHandling;
  else
    startTypes_.erase(m.id);
  return Status::Ok();
}

void SymbolCollector::DecodeStartInfo(const EventRecord& e, uint32_t ordinal) {
  auto type = startTypes_.find(e.metadataId);
  if (type == startTypes_.end()) return;
  const EventMetadata& m = types_->MetadataOf(e.metadataId);
  std::string text;
  auto keep = [&] {
    auto [at, added] = startTextIndex_.emplace(text, static_cast<uint32_t>(startTexts_.size()));
    if (added) startTexts_.push_back(text);
    startInfo_.emplace_back(ordinal, at->second);
  };
  // Exception/Start: its first field, the type, read in place (format/payload/exception_thrown.h);
  // an empty payload has no first field.
  if (!type->second && ReadExceptionThrownStrings(m, e.payload, pointerSize_, &text, nullptr)) {
    if (e.payload.empty()) return;
    text = "/ExceptionType=" + text;
    return keep();
  }
  if (type->second) {  // ExceptionCatch/Start: the catching method, as TraceEvent names the activity
    // Read where the decoder's layout puts it (in place when it can be).
    const ResolvedType* t = types_->current().definition;
    ClrPayloadFields p(m, t ? t->clrLayout : nullptr, e.payload, pointerSize_, 5);
    if (!p.Text("MethodName", &text)) return;
    return keep();
  }
  const DecodedPayload p = DecodePayload(m, e.payload, pointerSize_, 5);
  if (p.fields.empty() || p.fields[0].value.kind() != PayloadValue::Kind::kString) return;
  text = "/" + p.fields[0].name + "=" + p.fields[0].value.text();
  keep();
}

const std::string& SymbolCollector::CommandLine(std::optional<uint64_t> pid) const {
  static const std::string kNone;
  if (auto it = commandLines_.find(pid); it != commandLines_.end()) return it->second;
  if (auto it = commandLines_.find(std::nullopt); it != commandLines_.end()) return it->second;
  return commandLines_.size() == 1 ? commandLines_.begin()->second : kNone;
}

const std::string* SymbolCollector::StartInfo(uint32_t ordinal) const {
  auto it = std::lower_bound(startInfo_.begin(), startInfo_.end(), std::make_pair(ordinal, uint32_t{0}));
  if (it == startInfo_.end() || it->first != ordinal) return nullptr;
  return &startTexts_[it->second];
}

// Layouts from ClrEtwAll.man (the generated table's MethodLoad*, MethodDC*, ModuleLoad*,
// DomainModule*, GCAllocationTick*, ThreadPool* templates).
Status SymbolCollector::Collect(const EventRecord& e) {
  const uint32_t ordinal = types_->current().ordinal;
  if (const ResolvedEvent& r = types_->current(); IsUniversalKind(r.kind) &&
      !universal_.OnEvent(e, r.kind, *r.definition->metadata, ordinal, ProcessOfCurrent()))
    ++malformed_;
  if (!tpl_.idle() && !tpl_.OnEvent(e, ordinal)) ++malformed_;  // idle: a rundown's records skip the call
  if (!startTypes_.empty() && startInfo_.size() < kMaxStartInfo) DecodeStartInfo(e, ordinal);
  if (IsProcessInfo(e.metadataId)) {
    const DecodedPayload p = DecodePayload(types_->MetadataOf(e.metadataId), e.payload, pointerSize_, 5);
    if (!p.fields.empty() && p.fields[0].value.kind() == PayloadValue::Kind::kString)
      commandLines_.try_emplace(ProcessOfCurrent(), p.fields[0].value.text());  // the first one, as TraceLog keeps
  }
  const ResolvedType& t = *types_->current().definition;
  bool ok = true;
  switch (RoleByTable(t.kind)) {
    case Role::kMethod:
      return OnMethod(e);
    case Role::kModule:
      ok = DecodeModule(e, t);
      break;
    case Role::kAllocation:
      ok = AddAllocation(ordinal);
      break;
    case Role::kSample:
      // Type: 1 external (PerfView's "External" frame), 2 managed.
      if (TemplateFields(e, t).UInt(fields_.sampleType) == 1) externalSamples_.push_back(ordinal);
      break;
    case Role::kThreadPoolWork: {
      // The work item: WorkID (61/62), NativeOverlapped (63/64/65); pointers both.
      const bool io = t.kind != EventKind::kThreadPoolEnqueue && t.kind != EventKind::kThreadPoolDequeue;
      const std::optional<uint64_t> id = TemplateFields(e, t).FindUInt(io ? fields_.nativeOverlapped : fields_.workId);
      if ((ok = id.has_value())) workIds_.push_back({ordinal, *id});
      break;
    }
    case Role::kNone:
      break;
  }
  if (!ok) ++malformed_;
  return Status::Ok();
}

void SymbolCollector::NoteRuntimeProcess() {
  if (std::optional<uint64_t> pid = ProcessOfCurrent();
      pid && std::find(runtimePids_.begin(), runtimePids_.end(), *pid) == runtimePids_.end())
    runtimePids_.push_back(*pid);
}

Status SymbolCollector::OnEndOfStream() {
  Finish();
  return Status::Ok();
}

bool SymbolCollector::DecodeMethod(const EventRecord& e, const ResolvedType& t) {
  // The fields by the offsets the manifest's template gives them (MethodFieldPlan), found
  // again only when the definition changes: consecutive method events share theirs.
  // Metadata that describes its fields is read by the template too, as TraceEvent does.
  if (t.clrTemplate != planOf_) plan_ = MethodFieldPlan::Of(t.clrTemplate), planOf_ = t.clrTemplate;
  // The fixed fields in one bounds check: a rundown is a hundred thousand of these.
  if (!plan_.ok || e.payload.size() < plan_.fixedEnd) return false;
  const uint8_t* p = e.payload.data();
  MethodRange r;
  std::memcpy(&r.methodId, p + plan_.methodId, 8);
  std::memcpy(&r.moduleId, p + plan_.moduleId, 8);
  std::memcpy(&r.start, p + plan_.start, 8);
  std::memcpy(&r.size, p + plan_.size, 4);
  if (IsVerboseMethod(t.kind)) {
    if (plan_.names < 0) return false;
    ByteCursor c(e.payload.subspan(static_cast<size_t>(plan_.names)), e.payloadOffset + static_cast<uint64_t>(plan_.names));
    // Names that are not terminated: the range is still the method's code, kept without
    // names (as a MethodLoad announces it). Kept in source, a record's names are checked
    // only when loaded, and the range then loses them (MethodMap::TakeLoadedNames): both
    // ways give the same map.
    if (methods_.names().Read(&c, &r.names, t.version >= 2)) {
      r.verbose = true;
      // After the names, in the template's order: ClrInstanceID, then (V2+) ReJITID.
      uint16_t clrInstance = 0;
      if (t.version >= 2 && c.ReadU16(&clrInstance)) c.ReadU64(&r.rejitId);
    } else {
      ++malformed_;
    }
  } else if (plan_.rejit >= 0 && e.payload.size() >= static_cast<size_t>(plan_.rejit) + 8) {
    std::memcpy(&r.rejitId, p + plan_.rejit, 8);
  }
  if (t.kind == EventKind::kMethodUnload || t.kind == EventKind::kMethodUnloadVerbose) {
    methods_.AddUnload(r.methodId, r.start, e.timestamp);
    return true;
  }
  // Rundown ranges describe code that exists for the whole session (see MethodMap).
  r.loadTime = IsRundownMethod(t.kind) ? 0 : e.timestamp;
  methods_.AddLoad(r);
  return true;
}

bool SymbolCollector::DecodeModule(const EventRecord& e, const ResolvedType& t) {
  // ModuleID, AssemblyID, [DomainModule: AppDomainID], ModuleFlags, Reserved1, then the
  // paths: a module is malformed for symbols when either path is missing.
  ClrPayloadFields p = TemplateFields(e, t);
  const std::optional<uint64_t> moduleId = p.FindUInt(fields_.moduleId);
  if (!moduleId || !p.Text("ModuleILPath", &ilPath_) || !p.Text("ModuleNativePath", &nativePath_)) return false;
  modules_.AddModule(*moduleId, ilPath_, nativePath_);
  return true;
}

ClrPayloadFields SymbolCollector::Fields(const EventRecord& e, const ResolvedType& t,
                                         const ClrFieldLayout* layout) const {
  return ClrPayloadFields(t.metadata ? *t.metadata : types_->MetadataOf(e.metadataId), layout, e.payload,
                          pointerSize_, formatMajor_);
}

bool SymbolCollector::AddAllocation(uint32_t ordinal) {
  // The allocated bytes by TraceEvent's rule (allocation_tick.h: the resolver read them),
  // clamped in file order. An event without AllocationAmount or AllocationKind is malformed.
  const AllocationTickValue& tick = types_->current().allocationTick;
  if (!tick.complete) return false;
  allocations_.push_back({ordinal, static_cast<uint64_t>(ClampAllocationAmount(tick, &seenBadTick_))});
  return true;
}

std::optional<uint64_t> SymbolCollector::Find(const ChunkedVector<OrdinalValue>& column, uint32_t ordinal) {
  const size_t at = column.LowerBound(ordinal, [](const OrdinalValue& v, uint32_t o) { return v.ordinal < o; });
  if (at == column.size() || column[at].ordinal != ordinal) return std::nullopt;
  return column[at].value;
}

std::optional<uint64_t> SymbolCollector::AllocationBytes(uint32_t ordinal) const { return Find(allocations_, ordinal); }

std::optional<uint64_t> SymbolCollector::ThreadPoolWorkId(uint32_t ordinal) const { return Find(workIds_, ordinal); }

bool SymbolCollector::IsExternalSample(uint32_t ordinal) const {
  const size_t at = externalSamples_.LowerBound(ordinal, std::less<uint32_t>());
  return at != externalSamples_.size() && externalSamples_[at] == ordinal;
}

}  // namespace nettrace
