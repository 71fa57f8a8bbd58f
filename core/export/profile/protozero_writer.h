// core/export/profile — mapbox protozero's writer (Debian's libprotozero-dev 1.7.1, header only;
// CMakeLists.txt copies its headers into the build tree) for a core/ built without C++
// exceptions (the wasm build). protozero throws only where it decodes (varint.hpp,
// pbf_reader.hpp) and in its fixed-size buffer, none of which a writer into a std::string
// reaches; its writer's destructor wraps a call that cannot throw in try/catch to be noexcept.
// Without exceptions, `try` and `catch` become plain blocks (the catch never runs) and `throw`
// aborts, for this include only.
#pragma once

#if defined(__cpp_exceptions)
#include <protozero/pbf_writer.hpp>
#include <protozero/varint.hpp>
#else
#include <cstdlib>
#define try if (true)
#define catch(...) if (false)
#define throw std::abort(), (void)
#include <protozero/pbf_writer.hpp>
#include <protozero/varint.hpp>
#undef try
#undef catch
#undef throw
#endif
