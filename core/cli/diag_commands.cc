// core/cli — `nettrace ps` and `nettrace collect`: live sessions over a .NET process's
// diagnostics port. The bytes received are written to the output file and fed, as they
// arrive, through the same TraceSession every other reader uses (no second parser); the
// live summary lines on stderr are that session's counts.
#include "cli/diag_commands.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "api/query_options.h"
#include "base/human_units.h"
#include "base/json_writer.h"
#include "cli/diag_transport.h"
#include "diag/collect_request.h"
#include "diag/provider_spec.h"
#include "trace_session.h"

namespace nettrace::cli {
namespace {

volatile sig_atomic_t g_stopRequested = 0;
void OnSignal(int) { g_stopRequested = 1; }

int Fail(const Status& s) {
  std::fprintf(stderr, "nettrace: %s\n", s.message().c_str());
  return 1;
}

using Clock = std::chrono::steady_clock;
double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// "10", "10s", "500ms", "2m", or dotnet-trace's "hh:mm:ss" → seconds; negative on error.
double ParseDuration(const std::string& text) {
  if (text.find(':') != std::string::npos) {
    double total = 0;
    size_t start = 0;
    while (start <= text.size()) {
      const size_t colon = std::min(text.find(':', start), text.size());
      char* end = nullptr;
      const std::string part = text.substr(start, colon - start);
      const double v = std::strtod(part.c_str(), &end);
      if (part.empty() || *end) return -1;
      total = total * 60 + v;
      start = colon + 1;
    }
    return total;
  }
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || v < 0) return -1;
  const std::string unit = end;
  if (unit.empty() || unit == "s") return v;
  if (unit == "ms") return v / 1000;
  if (unit == "m") return v * 60;
  return -1;
}

struct CollectOptions {
  int pid = 0;
  std::string diagnosticPort;
  std::string providers, profile, output;
  double duration = 0;  // 0 = until Ctrl-C or the process ends
  uint32_t bufferMB = 256;
};

// Opens a session on `fd` (one connection per command), falling back to older
// CollectTracing versions while the runtime answers UnknownCommand. `reconnect` opens the
// connection for the next attempt (the runtime closes a connection after an error).
template <typename Reconnect>
Status StartSession(diag::CollectRequest request, int* fd, Reconnect reconnect, uint64_t* sessionId) {
  diag::EventPipeCommand version = diag::MinimumCollectVersion(request);
  while (true) {
    std::vector<uint8_t> message;
    NETTRACE_RETURN_IF_ERROR(diag::EncodeCollect(request, version, &message));
    diag::Reply reply;
    NETTRACE_RETURN_IF_ERROR(SendAndReceive(*fd, message, &reply));
    if (reply.ok) return diag::ParseSessionId(reply, sessionId);
    std::string lost;
    diag::EventPipeCommand older;
    if (reply.hresult != diag::kUnknownCommand || !diag::FallbackCollect(version, &request, &older, &lost)) {
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                           std::string(diag::EventPipeCommandName(version)) + ": the runtime answered " +
                               diag::HresultName(reply.hresult));
    }
    std::fprintf(stderr, "nettrace: the runtime does not know %s; retrying with %s%s%s\n",
                 diag::EventPipeCommandName(version), diag::EventPipeCommandName(older), lost.empty() ? "" : ": ",
                 lost.c_str());
    version = older;
    ::close(*fd);
    NETTRACE_RETURN_IF_ERROR(reconnect(fd));
  }
}

void PrintLive(const TraceSession& session, uint64_t bytes, double elapsed, uint64_t eventsBefore, double window,
               const char* prefix) {
  const uint64_t events = session.eventCount();
  const double rate = window > 0 ? static_cast<double>(events - eventsBefore) / window : 0;
  std::fprintf(stderr, "nettrace: %s%.1f s  events %llu  %s  events/s %.0f  dropped %llu\n", prefix, elapsed,
               static_cast<unsigned long long>(events), FormatBytes(bytes).c_str(), rate,
               static_cast<unsigned long long>(session.droppedEventCount()));
}

// The options of `command` (argv[2] on) through the query table (core/api/query_table.cc), as
// every other command's; an error is printed, naming the command.
bool ParseTableOptions(const char* command, int argc, char** argv, api::Request* request) {
  const Status parsed =
      api::ParseCliArgs(*api::FindQuery(command), std::vector<std::string>(argv + std::min(argc, 2), argv + argc), request);
  if (!parsed.ok()) std::fprintf(stderr, "nettrace: %s: %s\n", command, parsed.message().c_str());
  return parsed.ok();
}

int ParseCollectOptions(int argc, char** argv, CollectOptions* o) {
  api::Request request;
  if (!ParseTableOptions("collect", argc, argv, &request)) return 2;
  const api::Request::Live& live = request.live;
  o->pid = live.pid > 0x7fffffff ? -1 : static_cast<int>(live.pid);
  o->diagnosticPort = live.diagnosticPort;
  o->providers = live.providers;
  o->profile = live.profile;
  o->output = request.out;
  o->bufferMB = static_cast<uint32_t>(std::min<uint64_t>(live.bufferMB, 0xffffffff));
  if (api::Given(request, "duration")) {
    o->duration = ParseDuration(live.duration);
    if (o->duration < 0) {
      std::fprintf(stderr, "nettrace: --duration: '%s' is not a duration (10, 10s, 500ms, 2m, hh:mm:ss)\n",
                   live.duration.c_str());
      return 2;
    }
  }
  if ((o->pid > 0) == !o->diagnosticPort.empty() || o->output.empty()) {
    std::fprintf(stderr, "usage: nettrace collect (--pid N | --diagnostic-port PATH) [--providers SPEC,… | --profile NAME,…]\n"
                         "                        [--duration D] [--buffer-mb 256] -o OUT.nettrace\n");
    return 2;
  }
  return 0;
}

// Streams the session's bytes from `fd` into `out` and `session` until the runtime ends the
// stream; asks for the stop (once) when the duration passes or on SIGINT/SIGTERM.
Status Stream(int fd, FILE* out, TraceSession* session, double duration, const std::function<Status()>& stop,
              uint64_t* bytes) {
  const Clock::time_point start = Clock::now();
  Clock::time_point lastPrint = start;
  uint64_t eventsAtLastPrint = 0;
  bool stopSent = false;
  std::thread stopper;
  std::vector<uint8_t> buffer(1 << 16);
  while (true) {
    if (!stopSent && (g_stopRequested || (duration > 0 && Seconds(Clock::now() - start) >= duration))) {
      stopSent = true;
      std::fprintf(stderr, "nettrace: stopping the session (StopTracing); waiting for the rundown\n");
      // On its own thread: the runtime answers StopTracing only after writing the rundown
      // into this stream, which must keep being read meanwhile or both sides wait forever.
      stopper = std::thread([&stop] {
        const Status s = stop();
        if (!s.ok()) std::fprintf(stderr, "nettrace: StopTracing failed (%s); reading what the runtime still sends\n", s.message().c_str());
      });
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready > 0) {
      const ssize_t n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the runtime ended the stream (stopped, or the process exited)
      if (std::fwrite(buffer.data(), 1, static_cast<size_t>(n), out) != static_cast<size_t>(n)) {
        if (stopper.joinable()) stopper.join();
        return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "cannot write the output file");
      }
      *bytes += static_cast<uint64_t>(n);
      (void)session->PushChunk(buffer.data(), static_cast<size_t>(n));  // an error stays in status()
    }
    const Clock::time_point now = Clock::now();
    if (Seconds(now - lastPrint) >= 1.0) {
      PrintLive(*session, *bytes, Seconds(now - start), eventsAtLastPrint, Seconds(now - lastPrint), "");
      lastPrint = now;
      eventsAtLastPrint = session->eventCount();
    }
  }
  if (stopper.joinable()) stopper.join();
  PrintLive(*session, *bytes, Seconds(Clock::now() - start), 0, Seconds(Clock::now() - start), "end ");
  return Status::Ok();
}

// ResumeRuntime on a fresh connection (a reverse port's next advertised one).
Status ResumeRuntime(const std::function<Status(int*)>& reconnect) {
  int fd = -1;
  NETTRACE_RETURN_IF_ERROR(reconnect(&fd));
  diag::Reply reply;
  Status s = SendAndReceive(fd, diag::EncodeProcessCommand(diag::ProcessCommand::kResumeRuntime), &reply);
  ::close(fd);
  if (s.ok() && !reply.ok) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "ResumeRuntime: " + diag::HresultName(reply.hresult));
  return s;
}

}  // namespace

int RunPs(int argc, char** argv) {
  api::Request request;
  if (!ParseTableOptions("ps", argc, argv, &request)) return 2;
  const bool json = request.live.json;
  JsonWriter w;
  if (json) w.BeginArray();
  for (const DiagSocket& s : FindDiagnosticSockets()) {
    diag::ProcessInfo info;
    const Status st = QueryProcessInfo(s.path, &info);
    if (!st.ok()) {
      // A socket whose runtime no longer answers (exiting) is not listed; say why on stderr.
      std::fprintf(stderr, "nettrace: pid %d: %s\n", s.pid, st.message().c_str());
      continue;
    }
    if (json) {
      w.BeginObject();
      w.Key("pid").UInt(static_cast<uint64_t>(s.pid));
      w.Key("name").String(info.entrypointAssembly);
      w.Key("runtimeVersion").String(info.clrProductVersion);
      w.Key("os").String(info.os);
      w.Key("arch").String(info.arch);
      w.Key("commandLine").String(info.commandLine);
      w.Key("socket").String(s.path);
      w.EndObject();
    } else {
      std::printf("%7d  %-24s %-10s %s\n", s.pid, info.entrypointAssembly.c_str(), info.clrProductVersion.c_str(),
                  info.commandLine.c_str());
    }
  }
  if (json) {
    w.EndArray();
    std::printf("%s\n", w.str().c_str());
  }
  return 0;
}

int RunCollect(int argc, char** argv) {
  CollectOptions o;
  if (int rc = ParseCollectOptions(argc, argv, &o)) return rc;
  diag::CollectRequest request;
  if (Status s = diag::BuildCollectRequest(o.profile, o.providers, &request); !s.ok()) return Fail(s);
  request.circularBufferMB = o.bufferMB;

  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // The reverse port's listening socket: closed and its file removed on every way out.
  struct ListenPort {
    int fd = -1;
    std::string path;
    ~ListenPort() {
      if (fd >= 0) {
        ::close(fd);
        ::unlink(path.c_str());
      }
    }
  } port;
  int& listenFd = port.fd;
  port.path = o.diagnosticPort;
  int fd = -1;
  std::string socketPath;
  std::function<Status(int*)> reconnect;
  if (!o.diagnosticPort.empty()) {
    if (Status s = ListenUnix(o.diagnosticPort, &listenFd); !s.ok()) return Fail(s);
    std::fprintf(stderr, "nettrace: waiting for a runtime on %s (start it with DOTNET_DiagnosticPorts=%s)\n",
                 o.diagnosticPort.c_str(), o.diagnosticPort.c_str());
    reconnect = [&](int* f) {
      diag::Advertise adv;
      Status s = AcceptAdvertised(listenFd, f, &adv);
      if (s.ok() && o.pid == 0) {
        o.pid = static_cast<int>(adv.processId);
        std::fprintf(stderr, "nettrace: runtime of pid %d connected\n", o.pid);
      }
      return s;
    };
  } else {
    if (Status s = FindDiagnosticSocket(o.pid, &socketPath); !s.ok()) return Fail(s);
    reconnect = [&](int* f) { return ConnectUnix(socketPath, f); };
  }
  if (Status s = reconnect(&fd); !s.ok()) return Fail(s);
  uint64_t sessionId = 0;
  if (Status s = StartSession(request, &fd, reconnect, &sessionId); !s.ok()) return Fail(s);
  if (listenFd >= 0) {
    // The runtime waits, suspended, for ResumeRuntime on its next connection.
    if (Status s = ResumeRuntime(reconnect); !s.ok()) {
      std::fprintf(stderr, "nettrace: could not resume the runtime: %s\n", s.message().c_str());
    }
  }
  std::fprintf(stderr, "nettrace: session %llu on pid %d; writing %s (Ctrl-C stops)\n",
               static_cast<unsigned long long>(sessionId), o.pid, o.output.c_str());

  FILE* out = std::fopen(o.output.c_str(), "wb");
  if (!out) return Fail(Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "cannot write " + o.output));
  TraceSession session;
  uint64_t bytes = 0;
  auto stop = [&]() -> Status {
    int stopFd = -1;
    NETTRACE_RETURN_IF_ERROR(reconnect(&stopFd));
    diag::Reply reply;
    Status s = SendAndReceive(stopFd, diag::EncodeStopTracing(sessionId), &reply);
    ::close(stopFd);
    if (s.ok() && !reply.ok) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, diag::HresultName(reply.hresult));
    return s;
  };
  const Status streamed = Stream(fd, out, &session, o.duration, stop, &bytes);
  ::close(fd);
  const bool closed = std::fclose(out) == 0;
  if (!streamed.ok() || !closed) return Fail(streamed.ok() ? Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "cannot write " + o.output) : streamed);
  const Status finished = session.Finish();
  if (!finished.ok()) {
    std::fprintf(stderr, "nettrace: the stream ended early: %s; %s keeps the %llu events read before that\n",
                 finished.ToString().c_str(), o.output.c_str(), static_cast<unsigned long long>(session.eventCount()));
    return 3;
  }
  // The size in words and exactly: "1.2 MB (1234567 bytes)".
  std::fprintf(stderr, "nettrace: wrote %s: %llu events, %s (%llu bytes), %llu dropped\n", o.output.c_str(),
               static_cast<unsigned long long>(session.eventCount()), FormatBytes(bytes).c_str(),
               static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(session.droppedEventCount()));
  return 0;
}

}  // namespace nettrace::cli
