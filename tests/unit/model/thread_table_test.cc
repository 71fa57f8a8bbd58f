// ThreadTable (model/trace_tables.h): v4/v5 OS thread ids and v6 thread indexes each name
// one entry until the trace says otherwise; a v6 index forgotten (a thread removed, a flush)
// means nothing until a row defines it again, as a new entry.
#include <catch2/catch.hpp>

#include "model/trace_tables.h"

using namespace nettrace;

TEST_CASE("ThreadTable: an OS thread id keeps its entry, whatever its size", "[model]") {
  ThreadTable table;
  const uint64_t ids[] = {12, 4095, 4096, 0x7fff'1234, 12};
  ThreadIndex first[4];
  for (int i = 0; i < 4; ++i) first[i] = *table.ForThreadId(ids[i], 42);
  CHECK(table.size() == 4);
  CHECK(*table.ForThreadId(12, 42) == first[0]);
  CHECK(*table.ForThreadId(0x7fff'1234, 42) == first[3]);
  CHECK(table.size() == 4);
  CHECK(table[first[3]].osThreadId == 0x7fff'1234);
  CHECK(table[first[3]].processId == 42);
}

TEST_CASE("ThreadTable: a v6 index names its defined entry until forgotten", "[model]") {
  ThreadTable table;
  CHECK_FALSE(table.ForIndex(1).has_value());
  ThreadInfo a;
  a.index = 1, a.osThreadId = 100, a.osProcessId = 7, a.name = "main";
  ThreadInfo b;
  b.index = 70'000, b.osThreadId = 200;  // beyond the dense range
  const ThreadIndex ia = *table.Define(a);
  const ThreadIndex ib = *table.Define(b);
  CHECK(*table.ForIndex(1) == ia);
  CHECK(*table.ForIndex(70'000) == ib);
  CHECK_FALSE(table.ForIndex(2).has_value());
  CHECK(table[ia].name == "main");

  table.Forget(1);
  CHECK_FALSE(table.ForIndex(1).has_value());
  CHECK(*table.ForIndex(70'000) == ib);
  a.osThreadId = 101;  // the index reused by another thread: a new entry
  const ThreadIndex again = *table.Define(a);
  CHECK(again != ia);
  CHECK(table[again].osThreadId == 101);
  CHECK(table[ia].osThreadId == 100);  // the old entry stays for the rows that named it

  table.ForgetAll();
  CHECK_FALSE(table.ForIndex(1).has_value());
  CHECK_FALSE(table.ForIndex(70'000).has_value());
  CHECK(table.size() == 3);
}
