// Method names kept as written and decoded when asked (symbols/method_names.h).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "symbols/method_names.h"

namespace nettrace {
namespace {

void PutUtf16(const std::u16string& s, std::vector<uint8_t>* out) {
  for (char16_t u : s) out->push_back(static_cast<uint8_t>(u & 0xFF)), out->push_back(static_cast<uint8_t>(u >> 8));
  out->push_back(0), out->push_back(0);
}

std::vector<uint8_t> Names(const std::u16string& ns, const std::u16string& name, const std::u16string& sig) {
  std::vector<uint8_t> b;
  PutUtf16(ns, &b), PutUtf16(name, &b), PutUtf16(sig, &b);
  b.push_back(7);  // ClrInstanceID follows the signature
  return b;
}

}  // namespace

TEST_CASE("method names: kept as written, decoded on request, compared without decoding", "[stacks]") {
  MethodNamePool pool;
  std::vector<uint8_t> a = Names(u"System.Threading.Tasks.Task", u"Wait\u00e9\U0001F600", u"instance bool (int32)");
  ByteCursor c(a, 100);
  MethodNamesRef ra;
  REQUIRE(pool.Read(&c, &ra));
  CHECK(c.remaining() == 1);  // the signature was read past, not kept
  CHECK(pool.NameSpace(ra) == "System.Threading.Tasks.Task");
  CHECK(pool.Name(ra) == "Wait\xC3\xA9\xF0\x9F\x98\x80");

  std::vector<uint8_t> same = Names(u"System.Threading.Tasks.Task", u"Wait\u00e9\U0001F600", u"other signature");
  std::vector<uint8_t> moved = Names(u"System.Threading.Tasks", u"TaskWait\u00e9\U0001F600", u"");
  MethodNamesRef rs, rm, re;
  ByteCursor cs(same, 0), cm(moved, 0);
  REQUIRE(pool.Read(&cs, &rs));
  REQUIRE(pool.Read(&cm, &rm));
  CHECK(pool.Same(ra, rs));
  CHECK_FALSE(pool.Same(ra, rm));  // same bytes in all, split differently

  std::vector<uint8_t> empty = Names(u"", u"", u"sig");
  ByteCursor ce(empty, 0);
  REQUIRE(pool.Read(&ce, &re));
  CHECK(pool.Name(re).empty());
  CHECK(pool.NameSpace(re).empty());
  CHECK(pool.Same(re, MethodNamesRef{}));

  std::vector<uint8_t> unterminated = Names(u"NS", u"M", u"");
  unterminated.resize(unterminated.size() - 2);  // the signature's terminator is cut
  ByteCursor cu(unterminated, 0);
  MethodNamesRef ru;
  CHECK_FALSE(pool.Read(&cu, &ru));
}

TEST_CASE("method names: a signature nothing follows is checked, not scanned; the same payloads are accepted", "[stacks]") {
  MethodNamePool pool;
  std::vector<uint8_t> a = Names(u"NS.Type", u"Method", u"instance void (int32)");
  ByteCursor c(a, 0);
  MethodNamesRef r;
  REQUIRE(pool.Read(&c, &r, false));
  CHECK(c.position() == 2 * (7 + 1) + 2 * (6 + 1));  // at the signature's start
  CHECK(pool.NameSpace(r) == "NS.Type");
  CHECK(pool.Name(r) == "Method");
  // Every cut of the payload: accepted without the scan exactly when accepted with it, and
  // the cursor does not move when refused.
  for (size_t n = 0; n <= a.size(); ++n) {
    std::vector<uint8_t> cut(a.begin(), a.begin() + static_cast<ptrdiff_t>(n));
    ByteCursor scanned(cut, 0), checked(cut, 0);
    MethodNamesRef x, y;
    const bool withScan = pool.Read(&scanned, &x, true);
    const bool withCheck = pool.Read(&checked, &y, false);
    CHECK(withScan == withCheck);
    if (!withScan) CHECK(scanned.position() == 0);
    if (!withCheck) CHECK(checked.position() == 0);
  }
}

TEST_CASE("method names: refs stay valid as the pool grows past one block", "[stacks]") {
  MethodNamePool pool;
  std::vector<MethodNamesRef> refs;
  const std::u16string longName(70000, u'x');  // 140 KB each: 20 of them need a third block
  for (int i = 0; i < 20; ++i) {
    std::vector<uint8_t> b = Names(u"NS" + std::u16string(1, static_cast<char16_t>(u'a' + i)), longName, u"");
    ByteCursor c(b, 0);
    refs.emplace_back();
    REQUIRE(pool.Read(&c, &refs.back()));
  }
  CHECK(pool.residentBytes() > 20 * 140000);
  for (int i = 0; i < 20; ++i) {
    CHECK(pool.NameSpace(refs[i]) == std::string("NS") + static_cast<char>('a' + i));
    CHECK(pool.Name(refs[i]) == std::string(70000, 'x'));
  }
  CHECK((refs.back().at >> 32) > 0);  // a later block
}

}  // namespace nettrace

namespace nettrace {

TEST_CASE("method names kept in source: located without a scan, read back in coalesced ranges, loaded as copied", "[stacks]") {
  // A file of three records' names at known offsets, with gaps between them.
  std::vector<uint8_t> file(300000, 0xEE);
  const std::vector<uint8_t> a = Names(u"NS.A", u"First", u"sig"), b = Names(u"NS.B", u"Second", u""),
                             far = Names(u"NS.C", u"Far", u"x");
  std::vector<uint8_t> bad = Names(u"NS.D", u"Bad", u"");
  bad.assign(bad.size(), 0x41);  // no terminator at all
  const size_t atA = 1000, atB = 1000 + a.size() + 500, atFar = 150000, atBad = 260000;
  std::copy(a.begin(), a.end(), file.begin() + atA);
  std::copy(b.begin(), b.end(), file.begin() + atB);
  std::copy(far.begin(), far.end(), file.begin() + atFar);
  std::copy(bad.begin(), bad.end(), file.begin() + atBad);

  MethodNamePool pool;
  pool.KeepInSource(true);
  std::vector<MethodNamesRef> refs;
  for (auto [at, n] : {std::pair{atA, a.size()}, {atB, b.size()}, {atFar, far.size()}, {atBad, bad.size()}}) {
    ByteCursor c({file.data() + at, n}, at);
    refs.emplace_back();
    REQUIRE(pool.Read(&c, &refs.back(), false));  // accepted unread, even the unterminated one
    CHECK(c.position() == 0);
    CHECK(refs.back().inSource());
    CHECK(refs.back().at == at);
  }
  CHECK(pool.residentBytes() == 0);

  // a and b are less than kGap apart: one range; the others their own.
  const std::vector<ByteRange> ranges = MethodNamePool::InSourceRanges(refs);
  REQUIRE(ranges.size() == 3);
  CHECK(ranges[0].offset == atA);
  CHECK(ranges[0].size == atB + b.size() - atA);
  CHECK(ranges[1].offset == atFar);
  CHECK(ranges[2].offset == atBad);

  for (const ByteRange& r : ranges) {
    pool.Load(r.offset, {file.data() + r.offset, r.size}, refs);
  }
  MethodNamePool copied;
  for (size_t i = 0; i < 3; ++i) {
    REQUIRE(pool.IsLoaded(refs[i]));
    CHECK_FALSE(pool.Unterminated(refs[i]));
    const MethodNamesRef loaded = pool.Resolve(refs[i]);
    CHECK_FALSE(loaded.inSource());
    const std::vector<uint8_t>& bytes = i == 0 ? a : i == 1 ? b : far;
    ByteCursor c(bytes, 0);
    MethodNamesRef copy;
    REQUIRE(copied.Read(&c, &copy, false));
    CHECK(pool.NameSpace(loaded) == copied.NameSpace(copy));
    CHECK(pool.Name(loaded) == copied.Name(copy));
  }
  CHECK(pool.Name(pool.Resolve(refs[1])) == "Second");
  CHECK(pool.IsLoaded(refs[3]));
  CHECK(pool.Unterminated(refs[3]));
  CHECK(pool.Resolve(refs[3]).nameBytes == 0);
}

}  // namespace nettrace
