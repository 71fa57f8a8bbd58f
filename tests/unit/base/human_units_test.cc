// FormatBytes (base/human_units.h): the CLI's human text writes bytes as the page and the npm
// CLI do (web/src/ui/units.ts formatBytes; tests/browser/page_text_checks.mjs checks the same
// values there): B, then KB/MB with one decimal, GB with two, decimal multiples.
#include <catch2/catch.hpp>

#include "base/human_units.h"

using namespace nettrace;

TEST_CASE("FormatBytes writes B, KB, MB, GB with decimal multiples", "[base]") {
  CHECK(FormatBytes(0) == "0 B");
  CHECK(FormatBytes(999) == "999 B");
  CHECK(FormatBytes(1000) == "1.0 KB");
  CHECK(FormatBytes(102'400) == "102.4 KB");
  CHECK(FormatBytes(999'960) == "1.0 MB");  // not "1000.0 KB"
  CHECK(FormatBytes(4'512'000) == "4.5 MB");
  CHECK(FormatBytes(29'633'114) == "29.6 MB");
  CHECK(FormatBytes(2'500'000'000) == "2.50 GB");
}
