#include "cli/otlp_push.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "export/otlp/otlp_writer.h"

namespace nettrace::cli {

namespace {

Status Fail(const std::string& what) { return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, what); }

bool SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n, size -= static_cast<size_t>(n);
  }
  return true;
}

Status Connect(const HttpTarget& t, int* fd) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(t.host.c_str(), t.port.c_str(), &hints, &found); rc != 0)
    return Fail("cannot resolve " + t.host + ": " + ::gai_strerror(rc));
  int last = 0;
  *fd = -1;
  for (addrinfo* a = found; a && *fd < 0; a = a->ai_next) {
    const int s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (s < 0) continue;
    if (::connect(s, a->ai_addr, a->ai_addrlen) == 0) *fd = s;
    else last = errno, ::close(s);
  }
  ::freeaddrinfo(found);
  if (*fd < 0) return Fail("cannot connect to " + t.host + ":" + t.port + ": " + std::strerror(last));
  return Status::Ok();
}

}  // namespace

Status ParseOtlpEndpoint(const std::string& url, HttpTarget* target) {
  const std::string scheme = "http://";
  if (url.rfind("https://", 0) == 0)
    return Fail("--otlp-endpoint " + url + ": the native tool speaks plain http:// only; https needs the npm CLI "
                "(npx nettrace-analyzer export … --otlp-endpoint)");
  if (url.rfind(scheme, 0) != 0) return Fail("--otlp-endpoint takes an http:// URL, not '" + url + "'");
  const std::string rest = url.substr(scheme.size());
  const size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  target->path = slash == std::string::npos ? "" : rest.substr(slash);
  if (authority.empty()) return Fail("--otlp-endpoint " + url + " names no host");
  // host, host:port, [v6], [v6]:port
  size_t colon = authority.rfind(':');
  if (authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string::npos) return Fail("--otlp-endpoint " + url + ": unclosed '['");
    target->host = authority.substr(1, close - 1);
    colon = close + 1 < authority.size() && authority[close + 1] == ':' ? close + 1 : std::string::npos;
  } else {
    target->host = authority.substr(0, colon);
  }
  if (colon != std::string::npos) target->port = authority.substr(colon + 1);
  if (target->port.empty() || target->port.find_first_not_of("0123456789") != std::string::npos)
    return Fail("--otlp-endpoint " + url + ": bad port");
  const std::string signal = kOtlpProfilesPath;
  while (!target->path.empty() && target->path.back() == '/') target->path.pop_back();
  if (target->path.size() < signal.size() || target->path.compare(target->path.size() - signal.size(), signal.size(), signal) != 0)
    target->path += signal;
  return Status::Ok();
}

Status PostProtobuf(const HttpTarget& t, std::FILE* body, uint64_t size, std::string* statusLine) {
  int fd = -1;
  Status st = Connect(t, &fd);
  if (!st.ok()) return st;
  const std::string host = t.host.find(':') != std::string::npos ? "[" + t.host + "]" : t.host;
  const std::string head = "POST " + t.path + " HTTP/1.1\r\nHost: " + host + (t.port == "80" ? "" : ":" + t.port) +
                           "\r\nContent-Type: application/x-protobuf\r\nContent-Length: " + std::to_string(size) +
                           "\r\nUser-Agent: nettrace-analyzer\r\nConnection: close\r\n\r\n";
  bool sent = SendAll(fd, head.data(), head.size());
  std::vector<char> buffer(size_t{1} << 16);
  for (uint64_t left = size; sent && left > 0;) {
    const size_t n = std::fread(buffer.data(), 1, std::min<uint64_t>(left, buffer.size()), body);
    if (n == 0) break;
    sent = SendAll(fd, buffer.data(), n);
    left -= n;
  }
  // The answer: its status line and, on failure, the start of its body (the collector's reason).
  std::string response;
  for (ssize_t n; response.size() < 65536 && (n = ::recv(fd, buffer.data(), buffer.size(), 0)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    response.append(buffer.data(), static_cast<size_t>(n));
  }
  ::close(fd);
  if (response.empty())
    return Fail("POST " + t.path + " to " + t.host + ":" + t.port + ": " + (sent ? "no answer" : "the connection closed"));
  *statusLine = response.substr(0, response.find("\r\n"));
  const size_t code = statusLine->find(' ');
  if (code == std::string::npos || statusLine->compare(code + 1, 1, "2") != 0) {
    const size_t bodyAt = response.find("\r\n\r\n");
    const std::string detail = bodyAt == std::string::npos ? "" : response.substr(bodyAt + 4, 300);
    return Fail("the collector answered '" + *statusLine + "'" + (detail.empty() ? "" : ": " + detail));
  }
  return Status::Ok();
}

}  // namespace nettrace::cli
