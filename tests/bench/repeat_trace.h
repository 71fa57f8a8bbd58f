// nettrace_bench repeat IN OUT N: a NetTrace v4/v5 trace written N times back to back.
#pragma once

int RepeatTrace(const char* in, const char* out, int times);
