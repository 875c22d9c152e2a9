// The contestant protocol (docs/PROTOCOL.md, version 2) for C++ contestants, so that a
// contestant's main.cpp is only its scenarios: reads the command line, runs the unmeasured
// warm-up iterations, then the M measured ones, each timed with std::chrono::steady_clock
// and the process CPU clock (CLOCK_PROCESS_CPUTIME_ID: every thread, nanoseconds) and
// followed by its JSON line on stdout. It knows nothing of any runtime: a scenario is a
// function that runs one iteration to the end and returns its outcome.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace protocol {

// Every parameter of a scenario by its command-line name (`delay-ms`).
using params = std::map<std::string, std::int64_t>;

// What one iteration produced: its checksum and scenario-specific figures ("extra").
struct outcome {
  std::int64_t checksum;
  std::vector<std::pair<const char*, std::int64_t>> extra = {};
};

using iteration = std::function<outcome(const params&)>;

// The parameters of every scenario, in catalogue order (PROTOCOL.md §1, §4).
inline const std::map<std::string, std::vector<std::string>> catalogue = {
    {"spawn", {"tasks"}},
    {"sleep", {"tasks", "delay-ms"}},
    {"timer", {"step-us", "total-ms"}},
    {"doxbee", {"requests", "io-ms"}},
    {"parallel", {"requests", "fanout", "io-ms"}},
    {"skynet", {"size"}},
    {"pingpong", {"pairs", "rounds"}},
    {"chain", {"length"}},
    {"yield", {"tasks", "yields"}},
    {"echo", {"connections", "rounds", "bytes"}},
    {"connections", {"connections"}},
};

constexpr int exit_usage = 2;
constexpr int exit_not_implemented = 69;

[[noreturn]] inline void usage(const std::string& message) {
  std::fprintf(stderr, "taskbench protocol: %s\n", message.c_str());
  std::exit(exit_usage);
}

// The timer scenario's outcome from the measured length of every sleep: the checksum is
// the number of sleeps, the extras the nearest-rank percentiles of how much longer than
// the step each sleep took, clamped at 0.
inline outcome oversleep(const std::vector<std::chrono::nanoseconds>& slept,
                         std::chrono::nanoseconds step) {
  std::vector<std::int64_t> over;
  for (auto ns : slept) over.push_back(std::max<std::int64_t>(0, (ns - step).count()));
  std::sort(over.begin(), over.end());
  auto rank = [&](double q) -> std::int64_t {
    if (over.empty()) return 0;
    auto index = static_cast<std::size_t>(std::ceil(q * static_cast<double>(over.size())));
    return over[std::clamp<std::size_t>(index, 1, over.size()) - 1];
  };
  return {static_cast<std::int64_t>(slept.size()),
          {{"oversleep_p50_ns", rank(0.50)},
           {"oversleep_p99_ns", rank(0.99)},
           {"oversleep_max_ns", rank(1.0)}}};
}

// Runs `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
// --iterations M` with the contestant's `scenarios` and returns the exit status: 0, 2 for
// a command line not understood, 69 for a scenario the contestant does not implement.
// The CPU time (user + system, every thread) the process has used so far; 0 if unreadable.
inline long long process_cpu_ns() {
  timespec now{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return 0;
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

inline int serve(int argc, char** argv, const std::map<std::string, iteration>& scenarios) {
  if (argc < 2 || !catalogue.contains(argv[1])) usage("expected a scenario of the catalogue");
  const std::string name = argv[1];
  const auto& names = catalogue.at(name);
  auto takes = [&](const std::string& param) {
    return std::find(names.begin(), names.end(), param) != names.end();
  };
  params values, overrides;
  for (int k = 2; k < argc; k += 2) {
    std::string flag = argv[k];
    if (flag.rfind("--", 0) != 0 || k + 1 == argc) usage("expected --<param> <value>: " + flag);
    std::string key = flag.substr(2), text = argv[k + 1];
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
      usage(flag + " needs a whole number, got '" + text + "'");
    auto value = std::strtoll(text.c_str(), nullptr, 10);
    if (key.rfind("warmup-", 0) == 0 && takes(key.substr(7))) {
      overrides[key.substr(7)] = value;
    } else if (takes(key) || key == "inner-warmup" || key == "iterations") {
      values[key] = value;
    } else {
      usage(name + " has no parameter " + flag);
    }
  }
  for (const auto& key : names)
    if (!values.contains(key)) usage(name + " needs --" + key);
  if (!values.contains("inner-warmup") || !values.contains("iterations"))
    usage(name + " needs --inner-warmup and --iterations");
  const auto warmups = values.extract("inner-warmup").mapped();
  const auto iterations = values.extract("iterations").mapped();
  if (iterations < 1) usage("--iterations must be at least 1");

  auto found = scenarios.find(name);
  if (found == scenarios.end()) {
    std::fprintf(stderr, "%s not implemented: this contestant has no %s scenario\n",
                 name.c_str(), name.c_str());
    return exit_not_implemented;
  }
  auto warm_values = values;
  for (const auto& [key, value] : overrides) warm_values[key] = value;
  for (std::int64_t k = 0; k < warmups; ++k) found->second(warm_values);
  for (std::int64_t k = 0; k < iterations; ++k) {
    const long long cpu_start = process_cpu_ns();
    const auto start = std::chrono::steady_clock::now();
    const auto out = found->second(values);
    const std::chrono::nanoseconds elapsed = std::chrono::steady_clock::now() - start;
    const long long cpu = process_cpu_ns() - cpu_start;
    std::printf("{\"elapsed_ns\":%lld,\"cpu_ns\":%lld,\"checksum\":%lld,\"extra\":{",
                static_cast<long long>(elapsed.count()), cpu, static_cast<long long>(out.checksum));
    for (std::size_t f = 0; f < out.extra.size(); ++f)
      std::printf("%s\"%s\":%lld", f ? "," : "", out.extra[f].first,
                  static_cast<long long>(out.extra[f].second));
    std::printf("}}\n");
    std::fflush(stdout);  // the line is out before the next iteration starts
  }
  return 0;
}

}  // namespace protocol
