// core/verdict — a budget check (budget_check.h) written out: as text lines for a terminal,
// as JSON (its shape: CheckResult in `nettrace schema --json`), as JUnit XML for CI test
// reports, and as Markdown for a CI job's summary.
//
// The JUnit document follows the Apache Ant JUnit task's format as the published schema most
// CI tools cite describes it (windyroad/JUnit-Schema, JUnit.xsd; docs/ci.md lists its rules):
// <testsuites> holding one <testsuite> per checked trace (and one for the relative budgets),
// each with the required package, id, name, timestamp (no zone), hostname, tests, failures,
// errors and time attributes, then <properties>, its <testcase>s (name, classname, time; a
// <failure type message> when the budget fails) and the required <system-out>/<system-err>.
#pragma once

#include <string>

#include "verdict/budget_check.h"

namespace nettrace::verdict {

std::string CheckText(const CheckReport& report);
std::string CheckJson(const CheckReport& report);
// `timestamp`: "YYYY-MM-DDTHH:MM:SS" (UTC, no zone), the time of the check.
std::string CheckJUnit(const CheckReport& report, const std::string& timestamp);
std::string CheckMarkdown(const CheckReport& report);

// The report in a `check --format` value: "json" (with its final newline), "junit", "markdown",
// anything else as text. The native CLI and the wasm bindings print through it alike.
std::string CheckOutput(const CheckReport& report, const std::string& format, const std::string& timestamp);

}  // namespace nettrace::verdict
