// core/cli — live-session commands of the native CLI (POSIX): `nettrace ps` lists .NET
// processes with a diagnostics port, `nettrace collect` records a session from one.
#pragma once

namespace nettrace::cli {

/// nettrace ps [--json]
int RunPs(int argc, char** argv);
/// nettrace collect (--pid N | --diagnostic-port PATH) [--providers …|--profile …] [--duration D] -o OUT
int RunCollect(int argc, char** argv);

}  // namespace nettrace::cli
