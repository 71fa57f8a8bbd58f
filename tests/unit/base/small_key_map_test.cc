// SmallKeyMap (base/small_key_map.h): keys below its dense bound index a vector, others go to
// a hash map; both must answer alike — At adds, Find never does, Erase and Clear forget.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "base/small_key_map.h"

using namespace nettrace;

TEST_CASE("SmallKeyMap answers the same for small and large keys; Find adds nothing", "[base]") {
  SmallKeyMap<uint32_t> map;
  for (uint64_t key : {uint64_t{0}, uint64_t{7}, uint64_t{4095}, uint64_t{4096}, uint64_t{0x1234'5678'9abc}, ~uint64_t{0}}) {
    INFO("key " << key);
    CHECK(map.Find(key) == nullptr);
    CHECK_FALSE(map.Contains(key));  // Find did not add it
    bool added = false;
    map.At(key, &added) = static_cast<uint32_t>(key % 1000 + 1);
    CHECK(added);
    REQUIRE(map.Find(key) != nullptr);
    CHECK(*map.Find(key) == key % 1000 + 1);
    map.At(key, &added);
    CHECK_FALSE(added);
    *map.Find(key) += 1;  // Find's pointer writes the stored value
    CHECK(*static_cast<const SmallKeyMap<uint32_t>&>(map).Find(key) == key % 1000 + 2);
  }
  CHECK(map.Find(8) == nullptr);  // inside the dense vector's size, never added
  CHECK(map.Erase(7));
  CHECK(map.Find(7) == nullptr);
  CHECK(map.Erase(4096));
  CHECK(map.Find(4096) == nullptr);
  CHECK_FALSE(map.Erase(4096));
  REQUIRE(map.Find(4095) != nullptr);
  map.Clear();
  CHECK(map.Find(0) == nullptr);
  CHECK(map.Find(~uint64_t{0}) == nullptr);
  bool added = false;
  CHECK(map.At(0, &added) == 0);  // added again, value-initialised
  CHECK(added);
}

TEST_CASE("SmallKeyMap keeps keys counting up past its first bound dense, and answers as a hash map", "[base]") {
  SmallKeyMap<uint32_t> map;
  bool added = false;
  // v6 thread indexes of a trace with a million threads: 1, 2, 3, …
  for (uint64_t key = 1; key <= 1'000'000; ++key) map.At(key, &added) = static_cast<uint32_t>(key);
  CHECK(map.SparseSize() == 0);
  CHECK(*map.Find(999'999) == 999'999);
  CHECK(map.Find(1'000'001) == nullptr);

  // Random adds, finds and erases over small, growing and far keys answer as std::unordered_map.
  SmallKeyMap<uint32_t> mixed;
  std::unordered_map<uint64_t, uint32_t> reference;
  std::mt19937_64 random(12345);
  for (int step = 0; step < 200'000; ++step) {
    uint64_t key = random() % 3 == 0 ? random() : random() % (16 + step / 4);
    switch (random() % 4) {
      case 0:
        CHECK(mixed.Erase(key) == (reference.erase(key) != 0));
        break;
      case 1: {
        const uint32_t* got = mixed.Find(key);
        auto it = reference.find(key);
        REQUIRE((got == nullptr) == (it == reference.end()));
        if (got) CHECK(*got == it->second);
        break;
      }
      default: {
        uint32_t& value = mixed.At(key, &added);
        CHECK(added == (reference.count(key) == 0));
        value = reference[key] = static_cast<uint32_t>(step);
      }
    }
  }
  for (auto [key, value] : reference) REQUIRE(*mixed.Find(key) == value);
}
