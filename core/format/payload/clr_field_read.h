// core/format/payload — one integer or string field of a CLR event read where the manifest
// template puts it, without decoding the payload. DecodePayload builds every field (names, values,
// nested arrays) and costs thousands of instructions an event; summaries read one or three
// integers of a few thousand GC events, and those lie behind fixed-size fields only.
// The answer is DecodePayload's whenever this one gives one; kNotFixed means "decode".
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "format/records.h"

namespace nettrace {

struct ClrFieldRead {
  enum class Result : uint8_t {
    kValue,     // `value` is the field, as DecodePayload's PayloadValue::asUInt would give it
    kAbsent,    // the payload ends before the field ends: DecodePayload has no integer there
    kNotFixed,  // not answerable here (metadata-described fields, no template, a field of
                // variable size before it, not an integer): call DecodePayload
  };
  Result result = Result::kNotFixed;
  uint64_t value = 0;
};

namespace clr {
enum class FieldKind : uint8_t;
}

// One top-level field of a CLR template, placed for in-place reads.
struct ClrFieldSlot {
  const char* name = nullptr;  // the generated table's
  uint32_t offset = 0;         // from the payload's start, or see stringsBefore
  uint8_t nameLength = 0;
  uint8_t size = 0;  // 0: of variable size (nothing after it is placed unless it is a plain string)
  // > 0: the field follows a run of plain strings (the method events' Namespace, Name and
  // Signature): `offset` counts from the end of the first `stringsBefore` strings of the run
  // that starts at ClrFieldLayout::stringsStart, found by walking them.
  uint8_t stringsBefore = 0;
  clr::FieldKind kind{};
  bool plainString = false;  // a NUL-terminated UTF-16 string (not counted, not an array)
};

// Where the top-level fields of the CLR template DecodePayload would use for events with
// this metadata lie in their payloads: the fields of fixed size up to the first of variable
// size; when that one is a plain string, also the strings right after it, and the fields of
// fixed size after those, up to and including the next field of variable size.
// Empty when DecodePayload must decode them (metadata that describes its fields, no
// template, GC/DynamicEvent, ExceptionThrown). Building it compares provider names, searches
// the table and sizes every field: the resolver interns it once per metadata definition
// (ResolvedType::clrLayout), so that a field read is a short scan of names.
struct ClrFieldLayout {
  std::vector<ClrFieldSlot> fields;
  uint32_t stringsStart = 0;  // the first plain string's offset (slots with stringsBefore > 0)
  // Every top-level field of the template is placed (none is an array or a struct): a name
  // not among them is a field DecodePayload does not have either (MethodLoadVerbose_V1 has
  // no ReJITID), answered without decoding.
  bool complete = false;
  // When the first field of variable size is a counted array of structs whose members are
  // all integers of fixed size, at a fixed offset (GC/PerHeapHistory's Values, one GenData
  // per generation): that field's name, its count field's, the members placed within one
  // element, and an element's size (0: no such array).
  const char* arrayName = nullptr;
  const char* arrayCountName = nullptr;
  std::vector<ClrFieldSlot> elementMembers;
  uint32_t elementSize = 0;
  // The first top-level field named `name`, if it is placed.
  const ClrFieldSlot* Find(std::string_view name) const;
};
// templateEvenIfDescribed: the template's layout even when the metadata describes the fields
// (for readers that read method events by the manifest's layout whatever the metadata says).
ClrFieldLayout BuildClrFieldLayout(const EventMetadata& metadata, uint32_t pointerSize,
                                   bool templateEvenIfDescribed = false);

// The first top-level field named `name`, when every field before it has a fixed size.
// layout may be null (no template: kNotFixed). The metadata form builds the layout first
// (for tests and one-off reads).
ClrFieldRead ReadClrIntegerField(const ClrFieldLayout* layout, std::span<const uint8_t> payload,
                                 std::string_view name);
ClrFieldRead ReadClrIntegerField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name);

// An array of structs of fixed-size integers (ClrFieldLayout::elementMembers) in one payload.
// Decoding GC/PerHeapHistory whole, for its Values, cost ~50,000 instructions an event.
struct ClrStructArray {
  const ClrFieldLayout* layout = nullptr;
  const uint8_t* data = nullptr;  // the first element
  uint32_t count = 0;
  // Member `name` of element i < count, as DecodePayload's asUInt gives it; 0 when the
  // struct has no such member (as a missing field reads in the decoded payload).
  uint64_t UInt(uint32_t i, std::string_view name) const;
};
// The array field `name`, read in place; false when DecodePayload must decode it (no
// such array in the layout, its count not in place, or a payload that ends inside it).
// Every element then lies within the payload, so the decoder's value budget (four values
// per payload byte) is never what stops it: the answers are the decoder's.
bool ReadClrStructArray(const ClrFieldLayout* layout, std::span<const uint8_t> payload, std::string_view name,
                        ClrStructArray* out);

// One integer field read by name at one call site (a member of the reader), over events of
// any layout: the slot is found once per layout, and a read of a field at a fixed offset is
// then a bounds check and a load. A name scan per read was ~125 instructions, and the GC
// statistics read a field of every suspension a sample-heavy trace's sampler makes. The
// answers are ReadClrIntegerField's. Layouts must outlive the reader (the resolver keeps them for
// the session).
class ClrIntegerField {
 public:
  explicit ClrIntegerField(std::string_view name) : name_(name) {}
  std::string_view name() const { return name_; }
  ClrFieldRead Read(const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
    if (layout != layout_) Bind(layout);
    if (!direct_) return absent_ ? ClrFieldRead{ClrFieldRead::Result::kAbsent, 0} : ReadClrIntegerField(layout, payload, name_);
    if (payload.size() < offset_ + size_) return {ClrFieldRead::Result::kAbsent, 0};
    const uint8_t* at = payload.data() + offset_;
    uint64_t raw = 0;  // little-endian hosts only, as everywhere here; a constant size each (no call)
    if (size_ == 8) std::memcpy(&raw, at, 8);
    else if (size_ == 4) std::memcpy(&raw, at, 4);
    else if (size_ == 2) std::memcpy(&raw, at, 2);
    else raw = at[0];
    if (signShift_ != 0) raw = static_cast<uint64_t>(static_cast<int64_t>(raw << signShift_) >> signShift_);
    return {ClrFieldRead::Result::kValue, raw};
  }

 private:
  void Bind(const ClrFieldLayout* layout);
  std::string_view name_;
  const ClrFieldLayout* layout_ = nullptr;  // the layout the fields below describe
  bool direct_ = false;  // an integer at a fixed offset: offset_, size_, signShift_
  bool absent_ = false;  // the layout places every field, and none has this name
  uint32_t offset_ = 0;
  uint8_t size_ = 0;
  uint8_t signShift_ = 0;  // 64 - bits for a signed kind (sign-extended as DecodePayload does), else 0
};

// A NUL-terminated UTF-16 string field the same way: its code units (without the
// terminator) when it lies behind fixed-size fields and ends within the payload; kNotFixed
// in every other case (DecodePayload then gives the answer, or its error value).
struct ClrStringRead {
  ClrFieldRead::Result result = ClrFieldRead::Result::kNotFixed;
  std::span<const uint8_t> utf16;
};
ClrStringRead ReadClrStringField(const ClrFieldLayout* layout, std::span<const uint8_t> payload,
                                 std::string_view name);
ClrStringRead ReadClrStringField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name);
// The same for a slot of `layout` already found (ClrStringField keeps it).
ClrStringRead ReadClrStringSlot(const ClrFieldLayout& layout, const ClrFieldSlot& slot, std::span<const uint8_t> payload);

// One string field read by name at one call site, as ClrIntegerField reads integers: the
// slot is found once per layout (an AllocationTick's TypeName was found by a scan of names
// on every tick). The answers are ReadClrStringField's.
class ClrStringField {
 public:
  explicit ClrStringField(std::string_view name) : name_(name) {}
  std::string_view name() const { return name_; }
  ClrStringRead Read(const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
    if (layout != layout_) Bind(layout);
    return slot_ ? ReadClrStringSlot(*layout, *slot_, payload) : ClrStringRead{};
  }

 private:
  void Bind(const ClrFieldLayout* layout);
  std::string_view name_;
  const ClrFieldLayout* layout_ = nullptr;  // the layout slot_ belongs to
  const ClrFieldSlot* slot_ = nullptr;      // its plain string of that name (null: none)
};

}  // namespace nettrace
