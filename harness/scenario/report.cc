// harness/scenario/report.cc: the HTML timeline of a run.
#include "harness/scenario/report.h"

#include <map>
#include <nlohmann/json.hpp>

namespace ddblab::harness::scenario {
namespace {

using json = nlohmann::json;

std::string Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

constexpr const char* kStyle = R"(
body { font: 13px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .2em; }
.meta { color: #555; margin-bottom: 1em; }
.timeline { display: grid; gap: 2px 6px; align-items: start; }
.lane { font-weight: 600; border-bottom: 2px solid #888; padding: 2px 4px;
        position: sticky; top: 0; background: #fff; }
.time { color: #666; font-family: monospace; white-space: nowrap; }
.step { background: #eef4ff; border-left: 3px solid #4a78c2;
        padding: 2px 6px; border-radius: 3px; }
.step.fault { background: #fdecec; border-left-color: #c62828; }
.op { font-family: monospace; }
.result { color: #333; }
.call { font-family: monospace; font-size: 11px; color: #555;
        word-break: break-all; }
.call.delivery { color: #2e6b2e; }
.call.fault, .fault .result { color: #c62828; font-weight: 600; }
.clock, .event { grid-column: 1 / -1; color: #6a4c00; background: #fff7e0;
                 font-family: monospace; padding: 1px 6px; }
.invariant { margin-top: .4em; padding: 4px 8px; border-radius: 3px;
             background: #e9f6ec; }
.violation { background: #c62828; color: #fff; font-weight: 600; }
.violation li { font-weight: 400; }
)";

}  // namespace

std::string RenderReport(const std::string& title,
                         const std::vector<std::string>& actors,
                         const std::vector<std::string>& trace) {
  std::map<std::string, size_t> lane;
  for (size_t i = 0; i < actors.size(); ++i) lane[actors[i]] = i;
  std::string grid;
  std::string invariants;
  std::string meta;
  std::string verdict = "?";
  // Steps are written when their next line arrives (their calls first).
  std::string open_step;
  bool open_fault = false;
  size_t open_lane = 0;
  std::string open_time;
  std::string open_calls;
  const auto flush = [&]() {
    if (open_step.empty()) return;
    grid += "<div class=\"time\">" + Escape(open_time) + "</div>";
    for (size_t i = 0; i < actors.size(); ++i) {
      if (i != open_lane) {
        grid += "<div></div>";
        continue;
      }
      grid += std::string("<div class=\"step") + (open_fault ? " fault" : "") +
              "\" data-actor=\"" + Escape(actors[i]) + "\">" + open_step +
              open_calls + "</div>";
    }
    open_step.clear();
    open_calls.clear();
    open_fault = false;
  };
  for (const std::string& line : trace) {
    json event = json::parse(line, nullptr, false);
    if (!event.is_object()) continue;
    if (event.contains("step") && event.contains("actor")) {
      flush();
      auto it = lane.find(Text(event["actor"]));
      open_lane = it == lane.end() ? 0 : it->second;
      open_time = Text(event.value("t", json("")));
      const std::string result = Text(event.value("result", json("")));
      open_fault = result.starts_with("error");
      open_step = "<div class=\"op\">" + Escape(Text(event["step"])) + ". " +
                  Escape(Text(event.value("op", json("")))) +
                  "</div><div class=\"result\">" + Escape(result) + "</div>";
      continue;
    }
    if (event.contains("step") && event.contains("call")) {
      const bool bad =
          event.contains("error") ||
          (event.contains("response") && event["response"].is_object() &&
           ((event["response"].contains("UnprocessedItems") &&
             !event["response"]["UnprocessedItems"].empty()) ||
            (event["response"].contains("UnprocessedKeys") &&
             !event["response"]["UnprocessedKeys"].empty())));
      if (bad) open_fault = true;
      open_calls += std::string("<div class=\"call") + (bad ? " fault" : "") +
                    "\">" + Escape(Text(event["call"])) + " &rarr; " +
                    Escape(Text(event.contains("error") ? event["error"]
                                                        : event["response"])) +
                    "</div>";
      continue;
    }
    if (event.contains("step") && event.contains("fault")) {
      // A consumer fault fired inside the open step.
      open_fault = true;
      open_calls += "<div class=\"call fault consumer-fault\">fault " +
                    Escape(Text(event["fault"])) + ": " +
                    Escape(Text(event.value("effect", json("")))) +
                    " on record " + Escape(Text(event.value("key", json("")))) +
                    "</div>";
      continue;
    }
    if (event.contains("step") && event.contains("delivery")) {
      const json& d = event["delivery"];
      const std::string result = Text(d.value("result", json("")));
      const bool bad = result != "ok";
      if (bad) open_fault = true;
      open_calls += std::string("<div class=\"call delivery") +
                    (bad ? " fault" : "") + "\">delivery " +
                    Escape(d.value("keys", json::array()).dump()) + " &rarr; " +
                    Escape(result) + "</div>";
      continue;
    }
    flush();
    const std::string kind = Text(event.value("event", json("")));
    if (kind == "start") {
      meta = "seed " + Escape(Text(event.value("seed", json(0)))) +
             " &middot; backend " +
             Escape(Text(event.value("backend", json("")))) +
             " &middot; start " + Escape(Text(event.value("t", json(""))));
      if (event.contains("faults")) {
        meta += " &middot; faults " + Escape(event["faults"].dump());
      }
      if (event.contains("consumer_faults")) {
        meta += " &middot; consumer faults " +
                Escape(event["consumer_faults"].dump());
      }
    } else if (kind == "clock") {
      grid += "<div class=\"clock\">" + Escape(Text(event["t"])) + " clock +" +
              Escape(Text(event.value("advance", json("")))) + "</div>";
    } else if (kind == "invariant") {
      const bool holds = event.value("holds", true);
      invariants +=
          std::string("<div class=\"invariant") + (holds ? "" : " violation") +
          "\">" + Escape(Text(event["id"])) + " " +
          Escape(Text(event.value("check", json("")))) +
          (event.contains("step") ? " after step " + Escape(Text(event["step"]))
                                  : std::string()) +
          (holds ? ": holds" : ": broken");
      if (!holds) {
        invariants += "<ul>";
        for (const json& p : event.value("problems", json::array())) {
          invariants += "<li>" + Escape(Text(p)) + "</li>";
        }
        invariants += "</ul>";
      }
      invariants += "</div>";
    } else if (kind == "end") {
      verdict = Text(event.value("verdict", json("?")));
    } else {
      json shown = event;
      shown.erase("event");
      shown.erase("t");
      grid += "<div class=\"event\">" +
              Escape(Text(event.value("t", json("")))) + " " + Escape(kind) +
              " " + Escape(shown.dump()) + "</div>";
    }
  }
  flush();
  std::string columns = "max-content";
  std::string header = "<div class=\"lane time\">time</div>";
  for (const std::string& actor : actors) {
    columns += " minmax(12em, 1fr)";
    header += "<div class=\"lane\" data-actor=\"" + Escape(actor) + "\">" +
              Escape(actor) + "</div>";
  }
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<title>" +
         Escape(title) + " &middot; ddblab run</title><style>" + kStyle +
         "</style></head><body><h1>" + Escape(title) + " &mdash; " +
         Escape(verdict) + "</h1><div class=\"meta\">" + meta +
         "</div><div class=\"timeline\" style=\"grid-template-columns: " +
         columns + "\">" + header + grid + "</div>" + invariants +
         "</body></html>\n";
}

}  // namespace ddblab::harness::scenario
