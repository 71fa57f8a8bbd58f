// A command's argv as both CLIs read it (core/api/command_line.h): options before or after
// the positional arguments, --help anywhere, and the usage and help texts from the table.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api/command_line.h"

using namespace nettrace;
using namespace nettrace::api;

namespace {
const QuerySpec& Query(const char* name) {
  const QuerySpec* q = FindQuery(name);
  REQUIRE(q != nullptr);
  return *q;
}
}  // namespace

TEST_CASE("options go before, between or after the positional arguments", "[cli]") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-n", "10", "app.nettrace"}, {"app.nettrace", "-n", "10"}}) {
    Request r;
    CommandLine line;
    REQUIRE(ParseCommandLine(Query("top"), args, &line, &r).ok());
    CHECK(line.positional == std::vector<std::string>{"app.nettrace"});
    CHECK(r.count == 10u);
    CHECK_FALSE(line.help);
  }
  Request r;
  CommandLine line;
  REQUIRE(ParseCommandLine(Query("sandwich"), {"--weight", "count", "a.nettrace", "--inverted", "Main", "--from", "-5"},
                           &line, &r)
              .ok());
  CHECK(line.positional == std::vector<std::string>{"a.nettrace", "Main"});
  CHECK(r.stack.inverted);
  CHECK(r.stack.fromMs == -5);  // a value-taking option takes the next argument whatever it looks like
  CHECK(r.stack.weight == WeightKind::kCount);
}

TEST_CASE("'-' is standard input and '--' ends the options", "[cli]") {
  Request r;
  CommandLine line;
  REQUIRE(ParseCommandLine(Query("diff"), {"-", "--", "--odd-name.nettrace"}, &line, &r).ok());
  CHECK(line.positional == std::vector<std::string>{"-", "--odd-name.nettrace"});
}

TEST_CASE("a wrong command line is one message naming what is wrong", "[cli]") {
  const auto message = [](const char* query, const std::vector<std::string>& args) {
    Request r;
    CommandLine line;
    return ParseCommandLine(Query(query), args, &line, &r).message();
  };
  CHECK(message("top", {"FILE", "--bogus"}) == "unknown option '--bogus'");
  CHECK(message("top", {"FILE", "-n"}) == "-n takes a value");
  CHECK(message("stack", {"FILE"}) == "stack needs FILE ROW");
  CHECK(message("summary", {}) == "summary needs FILE");
  CHECK(message("top", {"a", "10"}) == "unexpected argument '10' (top takes FILE)");
  CHECK(message("ps", {"x"}) == "unexpected argument 'x' (ps takes none)");
  // A bad option is reported before a missing FILE: the first problem on the line.
  CHECK(message("flame", {"--weight", "bogus"}).rfind("--weight takes", 0) == 0);
}

TEST_CASE("--help anywhere asks for the command's help, whatever else the line holds", "[cli]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"FILE", "--bogus", "--help"}, {"--weight", "x", "-h"}}) {
    Request r;
    CommandLine line;
    CHECK(ParseCommandLine(Query("flame"), args, &line, &r).ok());
    CHECK(line.help);
  }
  Request r;
  CommandLine line;
  REQUIRE(ParseCommandLine(Query("events"), {"FILE", "--text", "--help"}, &line, &r).ok());  // a value, not a flag
  CHECK_FALSE(line.help);
  CHECK(r.events.text == "--help");
}

TEST_CASE("positional arguments, usage line and help come from the table", "[cli]") {
  CHECK(PositionalNames(Query("stack")) == std::vector<std::string>{"FILE", "ROW"});
  CHECK(PositionalNames(Query("diff")) == std::vector<std::string>{"A", "B"});
  CHECK(PositionalNames(Query("write-sample-universal")) == std::vector<std::string>{"OUT"});
  CHECK(PositionalNames(Query("collect")).empty());
  CHECK(PositionalNames(Query("ps")).empty());
  CHECK(CommandUsage(Query("top"), "nettrace") == "usage: nettrace top FILE [options]   (nettrace top --help: the options)");
  CHECK(CommandUsage(Query("ps"), "nettrace-analyzer") ==
        "usage: nettrace-analyzer ps [--json]   (nettrace-analyzer ps --help: the options)");
  for (const QuerySpec& q : Queries()) {
    INFO(q.name);
    const std::string help = CommandHelp(q, "nettrace");
    CHECK(help.rfind("usage: nettrace " + std::string(q.name), 0) == 0);
    CHECK(help.find(q.doc) != std::string::npos);
    for (const OptionSpec& o : Options()) {
      if (!(o.queries & q.bit)) continue;
      CHECK(help.find(std::string("  ") + o.flag + (o.negation ? std::string(" / ") + o.negation : std::string())) !=
            std::string::npos);
      CHECK(help.find(o.doc) != std::string::npos);
    }
  }
}
