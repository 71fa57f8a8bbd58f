#include "write/payload_builder.h"

namespace nettrace {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one UTF-8 sequence at s[i] and advances i past it. A bad lead byte, a
// truncated sequence, an overlong form or a surrogate decodes as U+FFFD and consumes
// one byte, so decoding always advances.
char32_t DecodeUtf8(std::string_view s, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t lead = byte(i);
  size_t extra;
  char32_t cp, min;
  if (lead < 0x80) {
    ++i;
    return lead;
  } else if ((lead & 0xE0) == 0xC0) {
    extra = 1, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3, cp = lead & 0x07, min = 0x10000;
  } else {
    ++i;
    return kReplacement;
  }
  bool valid = i + extra < s.size();
  for (size_t k = 1; valid && k <= extra; ++k) {
    valid = (byte(i + k) & 0xC0) == 0x80;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (!valid || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += extra + 1;
  return cp;
}

}  // namespace

std::u16string Utf8ToUtf16(std::string_view utf8) {
  std::u16string out;
  out.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) {
    const char32_t cp = DecodeUtf8(utf8, i);
    if (cp >= 0x10000) {
      out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

PayloadBuilder& PayloadBuilder::AppendDateTime(const SystemTime& t) {
  for (int16_t v : {t.year, t.month, t.dayOfWeek, t.day, t.hour, t.minute, t.second, t.millisecond}) Put(v);
  return *this;
}

PayloadBuilder& PayloadBuilder::AppendNullTerminatedUtf16(std::u16string_view s) {
  for (char16_t c : s) Put(static_cast<uint16_t>(c));
  return Put(uint16_t{0});
}

PayloadBuilder& PayloadBuilder::AppendArrayCount(size_t count) {
  if (count > 0xFFFF) ok_ = false;  // §TypeCode Array: "a UInt16 length-prefixed" array
  return Put(static_cast<uint16_t>(count));
}

PayloadBuilder& PayloadBuilder::AppendUtf8Array(std::string_view s) {
  AppendArrayCount(s.size());
  for (char c : s) Put(static_cast<uint8_t>(c));
  return *this;
}

PayloadBuilder& PayloadBuilder::AppendUtf16Array(std::u16string_view s) {
  AppendArrayCount(s.size());
  for (char16_t c : s) Put(static_cast<uint16_t>(c));
  return *this;
}

}  // namespace nettrace
