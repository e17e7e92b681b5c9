// Lazy rendering of kept trace events (nothing is formatted while a run records).
#include <cstdio>
#include <string>

#include "sim/trace/trace.h"

namespace spotcheck::sim {
namespace {

void append_text(std::string& out, std::string_view text) {
  out.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20 || byte >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", byte);
      out += escaped;
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

}  // namespace

std::string Trace::render(std::uint64_t index) const {
  if (index >= size()) {
    return "<end of trace>";
  }
  std::string out = "#" + std::to_string(index) + " ";
  if (!config_.keep_events) {
    char hash[32];
    std::snprintf(hash, sizeof(hash), "hash=%016llx", static_cast<unsigned long long>(event_hashes_[index]));
    out += hash;
    out += " (events not kept; rerun with keep_events)";
    return out;
  }
  const TraceEvent ev = event(index);
  out += "t=" + std::to_string(ev.time_us) + "us ";
  out += node_name(ev.node);
  if (ev.task != 0) {
    out += " task=" + std::to_string(ev.task);
  }
  out += " ";
  out += ev.kind;
  for (const platform::Field& field : ev.fields) {
    out += " ";
    out += field.key;
    out += "=";
    if (field.is_text) {
      append_text(out, field.text);
    } else {
      out += std::to_string(field.number);
    }
  }
  return out;
}

std::string Trace::render_range(std::uint64_t first, std::uint64_t count) const {
  std::string out;
  for (std::uint64_t index = first; index < size() && index - first < count; ++index) {
    out += render(index);
    out += "\n";
  }
  return out;
}

}  // namespace spotcheck::sim
