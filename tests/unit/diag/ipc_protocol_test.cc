// The diagnostics IPC protocol (core/diag) against real byte sequences: what the reference
// client and dotnet-trace 10 send, and what a .NET 10 runtime answers, captured by
// tests/apps/IpcCapture into tests/data/diag/ipc_capture.txt. No dotnet needed here.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "diag/collect_request.h"
#include "diag/ipc_message.h"
#include "diag/provider_spec.h"
#include "test_support.h"

using namespace nettrace::diag;
using nettrace::ErrorCode;

namespace {

const std::map<std::string, std::vector<uint8_t>>& Captured() {
  static const std::map<std::string, std::vector<uint8_t>> messages = [] {
    std::map<std::string, std::vector<uint8_t>> m;
    std::ifstream in(nettrace::test::DataPath("diag/ipc_capture.txt"));
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string name, hex;
      fields >> name >> hex;
      std::vector<uint8_t> bytes;
      for (size_t i = 0; i + 1 < hex.size(); i += 2) bytes.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
      m[name] = bytes;
    }
    return m;
  }();
  return messages;
}

const std::vector<uint8_t>& Msg(const std::string& name) {
  INFO("captured message " << name);
  REQUIRE(Captured().count(name) == 1);
  return Captured().at(name);
}

ProviderConfig P(const char* name, uint64_t keywords, uint32_t level, const char* filter = "") {
  ProviderConfig p;
  p.name = name;
  p.keywords = keywords;
  p.level = level;
  p.filterData = filter;
  return p;
}

// The two providers IpcCapture gives the reference client in every session it opens.
CollectRequest ClientRequest() {
  CollectRequest r;
  r.providers = {P("Microsoft-Windows-DotNETRuntime", 0x8001, 5), P("Microsoft-DotNETCore-SampleProfiler", 0xF00000000000, 4)};
  return r;
}

std::vector<uint8_t> Encoded(const CollectRequest& r, EventPipeCommand expectedVersion) {
  CHECK(MinimumCollectVersion(r) == expectedVersion);
  std::vector<uint8_t> m;
  const nettrace::Status st = EncodeCollect(r, expectedVersion, &m);
  REQUIRE(st.ok());
  return m;
}

// Header + reply of a captured runtime answer.
Reply ReplyOf(const std::string& name) {
  const std::vector<uint8_t>& bytes = Msg(name);
  Header h;
  REQUIRE(ParseHeader(bytes, &h).ok());
  REQUIRE(h.size == bytes.size());
  Reply r;
  REQUIRE(ParseReply(h, std::span<const uint8_t>(bytes).subspan(kHeaderSize), &r).ok());
  return r;
}

}  // namespace

TEST_CASE("CollectTracing 2-6 requests equal the reference client's bytes", "[diag]") {
  CollectRequest r = ClientRequest();
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing2) == Msg("client_collect2"));
  r.circularBufferMB = 64;
  r.rundownKeyword = 0;
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing2) == Msg("client_collect2_norundown"));
  r = ClientRequest();
  r.requestStackwalk = false;
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing3) == Msg("client_collect3_nostackwalk"));
  r = ClientRequest();
  r.rundownKeyword = 0x1;
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing4) == Msg("client_collect4_rundown_gc"));
  r = ClientRequest();
  r.providers[0] = P("Microsoft-Windows-DotNETRuntime", 0x1, 4, "a=1;b=\"x;y\"");
  r.providers[0].eventFilter = EventIdFilter{true, true, {1, 2}};
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing5) == Msg("client_collect5_filter"));
  r = ClientRequest();
  r.bufferMode = 1;
  CHECK(Encoded(r, EventPipeCommand::kCollectTracing6) == Msg("client_collect6_block"));
}

TEST_CASE("StopTracing, ResumeRuntime and ProcessInfo requests equal the reference client's", "[diag]") {
  for (const char* name : {"client_collect2_stop", "client_collect4_rundown_gc_stop", "client_collect6_block_stop"}) {
    CHECK(EncodeStopTracing(0x1122334455667788) == Msg(name));
  }
  CHECK(EncodeProcessCommand(ProcessCommand::kResumeRuntime) == Msg("client_resume_runtime"));
  CHECK(EncodeProcessCommand(ProcessCommand::kProcessInfo3) == Msg("client_process_info_0x08"));
  CHECK(EncodeProcessCommand(ProcessCommand::kProcessInfo2) == Msg("client_process_info_0x04"));
  CHECK(EncodeProcessCommand(ProcessCommand::kProcessInfo) == Msg("client_process_info_0x00"));
}

TEST_CASE("profiles give exactly the requests dotnet-trace 10 sends", "[diag]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"dotnet-common", "dotnet_trace_dotnet-common"},
      {"dotnet-sampled-thread-time", "dotnet_trace_dotnet-sampled-thread-time"},
      {"cpu-sampling", "dotnet_trace_dotnet-sampled-thread-time"},  // our alias, see provider_spec.h
      {"gc-verbose", "dotnet_trace_gc-verbose"},
      {"gc-collect", "dotnet_trace_gc-collect"},
      {"database", "dotnet_trace_database"},
      {"dotnet-common,dotnet-sampled-thread-time", "dotnet_trace_dotnet-common+dotnet-sampled-thread-time"},
      {"", "dotnet_trace_dotnet-common+dotnet-sampled-thread-time"},  // no profile, no providers: the default
  };
  for (const auto& [profile, captured] : cases) {
    INFO(profile);
    CollectRequest r;
    REQUIRE(BuildCollectRequest(profile, "", &r).ok());
    std::vector<uint8_t> m;
    REQUIRE(EncodeCollect(r, MinimumCollectVersion(r), &m).ok());
    CHECK(m == Msg(captured));
  }
}

TEST_CASE("a --providers entry overrides a profile's provider of the same name", "[diag]") {
  CollectRequest r;
  REQUIRE(BuildCollectRequest("gc-verbose,dotnet-sampled-thread-time", "microsoft-windows-dotnetruntime:0x10:verbose", &r).ok());
  REQUIRE(r.providers.size() == 2);
  CHECK(r.providers[0].name == "microsoft-windows-dotnetruntime");
  CHECK(r.providers[0].keywords == 0x10);
  CHECK(r.providers[1].name == "Microsoft-DotNETCore-SampleProfiler");
  CHECK(r.rundownKeyword == kDefaultRundownKeyword);
  CHECK(BuildCollectRequest("no-such-profile", "", &r).message() == "unknown profile 'no-such-profile'");
}

TEST_CASE("provider specs: name[:keywords[:level[:filter]]] as dotnet-trace reads them", "[diag]") {
  ProviderConfig p;
  REQUIRE(ParseProviderSpec("My-Source", &p).ok());
  CHECK((p.keywords == 0 && p.level == 4 && p.filterData.empty()));
  REQUIRE(ParseProviderSpec("Microsoft-Windows-DotNETRuntime:0x4c14fccbd:5", &p).ok());
  CHECK((p.keywords == 0x4c14fccbd && p.level == 5));
  REQUIRE(ParseProviderSpec("X:FF:Verbose:EventCounterIntervalSec=1;a=b:c", &p).ok());
  CHECK((p.keywords == 0xFF && p.level == 5 && p.filterData == "EventCounterIntervalSec=1;a=b:c"));
  REQUIRE(ParseProviderSpec("X::9", &p).ok());
  CHECK((p.keywords == 0 && p.level == 5));  // above Verbose: Verbose, as dotnet-trace clamps
  REQUIRE(ParseProviderSpec("X:1:logalways", &p).ok());
  CHECK(p.level == 0);
  CHECK(ParseProviderSpec(":1:4", &p).message() == "provider spec ':1:4': no provider name");
  CHECK(ParseProviderSpec("X:0xZZ", &p).message() == "provider spec 'X:0xZZ': keywords must be hexadecimal");
  CHECK(ParseProviderSpec("X:1:loud", &p).message() == "provider spec 'X:1:loud': unknown level 'loud'");
  std::vector<ProviderConfig> list;
  REQUIRE(ParseProviderList("A:1:4:k=\"x,y\",B", &list).ok());
  REQUIRE(list.size() == 2);
  CHECK(list[0].filterData == "k=\"x,y\"");
  CHECK(list[1].name == "B");
}

TEST_CASE("a real runtime's ProcessInfo 1, 2 and 3 replies decode", "[diag]") {
  ProcessInfo v1, v2, v3;
  const Reply r1 = ReplyOf("runtime_process_info"), r2 = ReplyOf("runtime_process_info2"), r3 = ReplyOf("runtime_process_info3");
  REQUIRE((r1.ok && r2.ok && r3.ok));
  REQUIRE(ParseProcessInfo(ProcessCommand::kProcessInfo, r1.payload, &v1).ok());
  REQUIRE(ParseProcessInfo(ProcessCommand::kProcessInfo2, r2.payload, &v2).ok());
  REQUIRE(ParseProcessInfo(ProcessCommand::kProcessInfo3, r3.payload, &v3).ok());
  for (const ProcessInfo* p : {&v1, &v2, &v3}) {
    CHECK(p->processId == v1.processId);
    CHECK(p->runtimeCookie == v1.runtimeCookie);
    CHECK(p->commandLine.find("IpcCapture.dll") != std::string::npos);
    CHECK(p->os == "Linux");
    CHECK(p->arch == "x64");
  }
  CHECK(v1.processId != 0);
  CHECK(v1.runtimeCookie.size() == 36);
  CHECK(v2.entrypointAssembly == "IpcCapture");
  CHECK(v2.clrProductVersion.rfind("10.0.", 0) == 0);
  CHECK(v3.version == 1);
  CHECK(v3.clrProductVersion == v2.clrProductVersion);
  CHECK(v3.runtimeIdentifier == "linux-x64");
  // The same payload cut short: a truncation error naming the offset in the message.
  ProcessInfo cut;
  const nettrace::Status st = ParseProcessInfo(ProcessCommand::kProcessInfo2, std::span<const uint8_t>(r2.payload).first(30), &cut);
  CHECK(st.code() == ErrorCode::kTruncated);
  CHECK(st.offset() == kHeaderSize + 24);  // the command line's length field
}

TEST_CASE("a real runtime's error replies carry the HRESULTs the reference client names", "[diag]") {
  const Reply unknown = ReplyOf("runtime_unknown_command");
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.hresult == kUnknownCommand);
  CHECK(HresultName(unknown.hresult) == "UnknownCommand (0x80131385)");
  const Reply bad = ReplyOf("runtime_bad_encoding");
  CHECK(bad.hresult == kBadEncoding);
  CHECK(HresultName(bad.hresult) == "BadEncoding (0x80131384)");
  CHECK(HresultName(0x12345678) == "0x12345678");
  uint64_t session = 0;
  CHECK(ParseSessionId(bad, &session).message() == "runtime answered error BadEncoding (0x80131384)");
  // StopTracing of a session that does not exist is answered OK with the id echoed.
  REQUIRE(ParseSessionId(ReplyOf("runtime_stop_unknown_session"), &session).ok());
  CHECK(session == 0x42);
  // ResumeRuntime's OK carries a 4-byte payload (S_OK), on the default and on a reverse port.
  CHECK(ReplyOf("runtime_resume_runtime").payload == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(ReplyOf("runtime_advertised_resume_reply").ok);
}

TEST_CASE("the ADVR_V1 advertise of a reverse-connecting runtime decodes; bad input is refused", "[diag]") {
  Advertise a;
  REQUIRE(ParseAdvertise(Msg("runtime_advertise"), &a).ok());
  CHECK(a.processId != 0);
  CHECK(a.runtimeCookie.size() == 36);
  CHECK(ParseAdvertise(Msg("runtime_process_info"), &a).code() == ErrorCode::kBadMagic);
  CHECK(ParseAdvertise(std::span<const uint8_t>(Msg("runtime_advertise")).first(20), &a).code() == ErrorCode::kTruncated);
  Header h;
  CHECK(ParseHeader(Msg("runtime_advertise"), &h).code() == ErrorCode::kBadMagic);
  CHECK(ParseHeader(std::span<const uint8_t>(Msg("runtime_unknown_command")).first(19), &h).code() == ErrorCode::kTruncated);
}

TEST_CASE("an unknown CollectTracing falls back version by version, saying what is lost", "[diag]") {
  CollectRequest r;
  REQUIRE(BuildCollectRequest("gc-collect", "", &r).ok());
  EventPipeCommand v = MinimumCollectVersion(r);
  CHECK(v == EventPipeCommand::kCollectTracing4);
  std::string lost;
  REQUIRE(FallbackCollect(v, &r, &v, &lost));
  CHECK(v == EventPipeCommand::kCollectTracing3);
  CHECK(r.rundownKeyword == 0);  // gc-collect: DropKeywordDropRundown
  CHECK(lost == "custom rundown dropped (no rundown)");
  std::vector<uint8_t> m;
  REQUIRE(EncodeCollect(r, v, &m).ok());
  REQUIRE(FallbackCollect(v, &r, &v, &lost));
  CHECK(v == EventPipeCommand::kCollectTracing2);
  CHECK(lost.empty());
  REQUIRE(FallbackCollect(v, &r, &v, &lost));
  CHECK(v == EventPipeCommand::kCollectTracing);
  CHECK(lost == "rundown cannot be turned off");
  REQUIRE(EncodeCollect(r, v, &m).ok());
  // CollectTracing: buffer size, format, then at once the provider count (no rundown field).
  CHECK(std::vector<uint8_t>(m.begin() + 28, m.begin() + 32) == std::vector<uint8_t>{2, 0, 0, 0});
  CHECK_FALSE(FallbackCollect(v, &r, &v, &lost));

  CollectRequest custom = ClientRequest();
  custom.rundownKeyword = 0x8;
  custom.requestStackwalk = false;
  custom.providers[0].eventFilter = EventIdFilter{true, false, {7}};
  CHECK(EncodeCollect(custom, EventPipeCommand::kCollectTracing4, &m).message() == "CollectTracing4 cannot express event-id filters");
  v = EventPipeCommand::kCollectTracing5;
  REQUIRE(FallbackCollect(v, &custom, &v, &lost));
  CHECK(lost == "event-id filters dropped (all of each provider's events are collected)");
  REQUIRE(FallbackCollect(v, &custom, &v, &lost));
  CHECK(lost == "custom rundown replaced by the default rundown");
  CHECK(custom.rundownKeyword == kDefaultRundownKeyword);
  REQUIRE(FallbackCollect(v, &custom, &v, &lost));
  CHECK(lost == "stacks cannot be turned off (events carry stacks)");
}
