// core/cli — the diagnostics port's transport (POSIX Unix domain sockets), for the native
// CLI only: core/diag encodes and decodes the messages, this file moves them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "diag/ipc_message.h"

namespace nettrace::cli {

struct DiagSocket {
  int pid = 0;
  std::string path;
};

/// $TMPDIR, or /tmp: where runtimes create dotnet-diagnostic-{pid}-{key}-socket.
std::string DiagnosticSocketDir();
/// Every dotnet-diagnostic-{pid}-{key}-socket in that folder whose process is alive (a
/// socket file left by a process that died is skipped), newest per pid, by pid.
std::vector<DiagSocket> FindDiagnosticSockets();
/// The socket of one process; an error saying why there is none (no such process, or a
/// process without a diagnostics port).
Status FindDiagnosticSocket(int pid, std::string* path);

/// Connects to a Unix socket; errors name the cause (permission = another user's process).
Status ConnectUnix(const std::string& path, int* fd);
Status WriteAll(int fd, const std::vector<uint8_t>& bytes);
/// Reads exactly n bytes (fails when the peer closes first).
Status ReadExactly(int fd, size_t n, std::vector<uint8_t>* out);
/// Sends a request on an open connection and reads the whole reply.
Status SendAndReceive(int fd, const std::vector<uint8_t>& request, diag::Reply* reply);
/// Opens a connection to `path`, sends one request, reads the reply, closes.
Status Exchange(const std::string& path, const std::vector<uint8_t>& request, diag::Reply* reply);

/// ProcessInfo3, else 2, else 1 (older runtimes answer UnknownCommand to the newer ones).
Status QueryProcessInfo(const std::string& path, diag::ProcessInfo* info);

/// A listening socket at `path` (a stale file there is replaced), for reverse connects.
Status ListenUnix(const std::string& path, int* fd);
/// Accepts one runtime connection and reads its ADVR_V1 advertise.
Status AcceptAdvertised(int listenFd, int* fd, diag::Advertise* advertise);

}  // namespace nettrace::cli
