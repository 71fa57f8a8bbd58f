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
  CHECK(refs.back().block > 0);
}

}  // namespace nettrace
