// SHA-256 against the FIPS 180-4 examples (csrc.nist.gov "SHA256.pdf": "abc", the 448-bit
// two-block message) and the empty and million-'a' vectors, one-shot and in odd chunks.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "dataset/sha256.h"

namespace nettrace {
namespace {

std::string HashOf(const std::string& text, size_t chunk) {
  Sha256 h;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t at = 0; at < text.size(); at += chunk) h.Update(p + at, std::min(chunk, text.size() - at));
  return h.Hex();
}

TEST_CASE("sha256: the standard vectors, whole and in chunks", "[dataset]") {
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  const std::string million(1000000, 'a');
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{63}, size_t{64}, size_t{65}, size_t{1} << 20}) {
    CHECK(HashOf("", chunk) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(HashOf("abc", chunk) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(HashOf(two, chunk) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    if (chunk >= 63) {
      CHECK(HashOf(million, chunk) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }
  }
}

TEST_CASE("sha256: the padding boundary (55, 56, 64 bytes)", "[dataset]") {
  // Worked with `printf '%55s' | tr ' ' a | sha256sum` and the like.
  CHECK(HashOf(std::string(55, 'a'), 55) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(HashOf(std::string(56, 'a'), 56) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(HashOf(std::string(64, 'a'), 64) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

}  // namespace
}  // namespace nettrace
