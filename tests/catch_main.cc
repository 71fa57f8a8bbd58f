// Catch2's runner, alone in its file so it compiles once (and at -O0: see CMakeLists).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
