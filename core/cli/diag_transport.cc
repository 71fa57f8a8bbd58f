#include "cli/diag_transport.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>

#include "diag/collect_request.h"

namespace nettrace::cli {
namespace {

Status Io(const std::string& what) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, what + ": " + std::strerror(errno));
}

bool ProcessAlive(int pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

// "dotnet-diagnostic-{pid}-{key}-socket" → pid, or 0.
int PidOfSocketName(const std::string& name) {
  const std::string prefix = "dotnet-diagnostic-", suffix = "-socket";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return 0;
  }
  const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const size_t dash = middle.find('-');
  if (dash == 0 || dash == std::string::npos || dash + 1 == middle.size()) return 0;
  for (size_t i = 0; i < middle.size(); ++i) {
    if (i != dash && (middle[i] < '0' || middle[i] > '9')) return 0;
  }
  const long pid = std::strtol(middle.substr(0, dash).c_str(), nullptr, 10);
  return pid > 0 && pid < 1 << 30 ? static_cast<int>(pid) : 0;
}

Status UnixAddress(const std::string& path, sockaddr_un* addr) {
  std::memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  if (path.size() >= sizeof addr->sun_path) {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "socket path longer than 107 bytes: " + path);
  }
  std::memcpy(addr->sun_path, path.c_str(), path.size());
  return Status::Ok();
}

}  // namespace

std::string DiagnosticSocketDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

std::vector<DiagSocket> FindDiagnosticSockets() {
  std::map<int, std::pair<long long, std::string>> newest;  // pid → (mtime ns, path)
  const std::string dir = DiagnosticSocketDir();
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const int pid = PidOfSocketName(e->d_name);
      if (pid == 0 || !ProcessAlive(pid)) continue;
      const std::string path = dir + "/" + e->d_name;
      struct stat st;
      if (::stat(path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
      const long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
      auto it = newest.find(pid);
      if (it == newest.end() || it->second.first < mtime) newest[pid] = {mtime, path};
    }
    ::closedir(d);
  }
  std::vector<DiagSocket> out;
  for (const auto& [pid, entry] : newest) out.push_back({pid, entry.second});
  return out;
}

Status FindDiagnosticSocket(int pid, std::string* path) {
  for (const DiagSocket& s : FindDiagnosticSockets()) {
    if (s.pid == pid) {
      *path = s.path;
      return Status::Ok();
    }
  }
  const std::string where = DiagnosticSocketDir() + "/dotnet-diagnostic-" + std::to_string(pid) + "-*-socket";
  if (!ProcessAlive(pid)) {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "no process with pid " + std::to_string(pid));
  }
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                       "process " + std::to_string(pid) + " has no .NET diagnostics port (" + where +
                           " not found: not a .NET process, DOTNET_EnableDiagnostics=0, or another TMPDIR)");
}

Status ConnectUnix(const std::string& path, int* fd) {
  sockaddr_un addr;
  NETTRACE_RETURN_IF_ERROR(UnixAddress(path, &addr));
  *fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (*fd < 0) return Io("socket");
  if (::connect(*fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(*fd);
    *fd = -1;
    errno = err;
    if (err == EACCES || err == EPERM) {
      return Io("cannot connect to " + path + " (a process of another user? run as that user or root)");
    }
    if (err == ECONNREFUSED) return Io("cannot connect to " + path + " (the process is exiting or gone)");
    return Io("cannot connect to " + path);
  }
  return Status::Ok();
}

Status WriteAll(int fd, const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Io("sending to the runtime");
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status ReadExactly(int fd, size_t n, std::vector<uint8_t>* out) {
  out->resize(n);
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd, out->data() + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Io("reading from the runtime");
    if (r == 0) {
      return Status::Error(ErrorCode::kTruncated, done,
                           "the runtime closed the connection after " + std::to_string(done) + " of " +
                               std::to_string(n) + " bytes");
    }
    done += static_cast<size_t>(r);
  }
  return Status::Ok();
}

Status SendAndReceive(int fd, const std::vector<uint8_t>& request, diag::Reply* reply) {
  NETTRACE_RETURN_IF_ERROR(WriteAll(fd, request));
  std::vector<uint8_t> header, payload;
  NETTRACE_RETURN_IF_ERROR(ReadExactly(fd, diag::kHeaderSize, &header));
  diag::Header h;
  NETTRACE_RETURN_IF_ERROR(diag::ParseHeader(header, &h));
  NETTRACE_RETURN_IF_ERROR(ReadExactly(fd, h.size - diag::kHeaderSize, &payload));
  return diag::ParseReply(h, payload, reply);
}

Status Exchange(const std::string& path, const std::vector<uint8_t>& request, diag::Reply* reply) {
  int fd = -1;
  NETTRACE_RETURN_IF_ERROR(ConnectUnix(path, &fd));
  Status s = SendAndReceive(fd, request, reply);
  ::close(fd);
  return s;
}

Status QueryProcessInfo(const std::string& path, diag::ProcessInfo* info) {
  using diag::ProcessCommand;
  for (ProcessCommand c : {ProcessCommand::kProcessInfo3, ProcessCommand::kProcessInfo2, ProcessCommand::kProcessInfo}) {
    diag::Reply reply;
    NETTRACE_RETURN_IF_ERROR(Exchange(path, diag::EncodeProcessCommand(c), &reply));
    if (reply.ok) return diag::ParseProcessInfo(c, reply.payload, info);
    if (reply.hresult != diag::kUnknownCommand) {
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "ProcessInfo: runtime answered " + diag::HresultName(reply.hresult));
    }
  }
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "the runtime knows no ProcessInfo command");
}

Status ListenUnix(const std::string& path, int* fd) {
  sockaddr_un addr;
  NETTRACE_RETURN_IF_ERROR(UnixAddress(path, &addr));
  ::unlink(path.c_str());
  *fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (*fd < 0) return Io("socket");
  if (::bind(*fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(*fd, 8) != 0) {
    Status s = Io("cannot listen on " + path);
    ::close(*fd);
    *fd = -1;
    return s;
  }
  return Status::Ok();
}

Status AcceptAdvertised(int listenFd, int* fd, diag::Advertise* advertise) {
  // No retry on EINTR: Ctrl-C while waiting for a runtime ends the wait.
  *fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
  if (*fd < 0 && errno == EINTR) {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "interrupted while waiting for a runtime to connect");
  }
  if (*fd < 0) return Io("accepting a runtime connection");
  std::vector<uint8_t> bytes;
  Status s = ReadExactly(*fd, diag::kAdvertiseSize, &bytes);
  if (s.ok()) s = diag::ParseAdvertise(bytes, advertise);
  if (!s.ok()) {
    ::close(*fd);
    *fd = -1;
  }
  return s;
}

}  // namespace nettrace::cli
