// nettrace_bench repeat IN OUT N: a NetTrace v4/v5 trace written N times back to back.
#pragma once

#include <cstdint>
#include <vector>

int RepeatTrace(const char* in, const char* out, int times);
// The whole file at `path` into *out; false (and perror) when it cannot be opened.
bool ReadWholeFile(const char* path, std::vector<uint8_t>* out);
