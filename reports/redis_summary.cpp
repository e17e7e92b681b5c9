#include "reports/redis_summary.h"

#include <ostream>
#include <sstream>

#include "sim/time/time_text.h"

namespace spotcheck::reports {

using scenarios::integration::IntegrationReport;
using scenarios::integration::signal_name;

namespace {

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) {
      out += separator;
    }
    out += part;
  }
  return out;
}

// "name count, name count" of a map of counts.
template <typename Counts>
std::string counts_text(const Counts& counts) {
  std::vector<std::string> parts;
  for (const auto& [name, count] : counts) {
    parts.push_back(name + " " + std::to_string(count));
  }
  return join(parts, ", ");
}

void write_run(std::ostream& out, const IntegrationReport& report) {
  out << "scenario " << report.scenario << " on " << report.url << ", namespace '" << report.key_namespace << "'\n";
  out << "  seed " << report.seed << ", " << report.node_count << " nodes, traffic " << sim::duration_text(report.duration_us)
      << ", ran " << sim::duration_text(report.run.end_time_us) << " (" << report.run.steps << " steps, "
      << report.run.events << " events)\n";
}

void write_activity(std::ostream& out, const properties::ActivityCounts& a) {
  out << "requests: " << a.requests_started << " started, " << a.requests_ended << " ended";
  if (!a.request_outcomes.empty()) {
    out << " (" << counts_text(a.request_outcomes) << ")";
  }
  out << "\n";
  out << "protocol: leases registered " << a.leases_registered << ", renewed " << a.leases_renewed << ", lost "
      << a.leases_lost << "; objects reserved " << a.reserves << ", created " << a.commits << ", aborted " << a.aborts
      << ", used " << a.object_work << ", deleted " << a.deletes << "; takeovers " << a.takeovers << "; conflicts "
      << a.conflicts << "\n";
  out << "store replies: lost " << a.indeterminate_replies;
  if (!a.indeterminate_by_op.empty()) {
    out << " (" << counts_text(a.indeterminate_by_op) << ")";
  }
  out << ", resolved by re-read " << a.resolved_by_reread
      << ", left indeterminate " << a.indeterminate_outcomes << ", store errors " << a.store_errors << "\n";
  out << "host runs " << a.host_runs << ", kills " << a.kills << ", pauses " << a.pauses << "\n";
}

void write_properties(std::ostream& out, const IntegrationReport& report) {
  if (report.violation.has_value()) {
    out << "properties: VIOLATED " << report.violation->property << ": " << report.violation->message << "\n";
  } else if (!report.run.ok()) {
    out << "properties: run failed: " << report.run.problem << "\n";
  } else if (report.stopped()) {
    out << "properties: no violation until stopped (" << join(report.properties, ", ") << ")\n";
  } else {
    out << "properties: pass (" << join(report.properties, ", ") << ")\n";
  }
  for (const std::string& line : report.problem_context) {
    out << "  | " << line << "\n";
  }
}

void write_store_audit(std::ostream& out, const IntegrationReport& report) {
  if (auto text = report.capacity.violation()) {
    out << "store audit: " << *text << "\n";
  } else {
    out << "store audit: capacity counters pass (" << report.capacity.stored.size() << " counters, "
        << report.capacity.rows << " rows)";
  }
  if (auto text = report.owners.violation()) {
    out << "\nstore audit: " << *text << "\n";
  } else {
    out << "; owners pass (" << report.owners.active_rows << " Active, " << report.owners.reserved_rows
        << " Reserved rows, one owner host run each)\n";
  }
  for (const std::string& line : report.owners.unresolved) {
    out << "  unresolved (a lost reply): " << line << "\n";
  }
}

void write_store_clock(std::ostream& out, const IntegrationReport& report) {
  out << "store clock: StoreNow = " << report.store_clock.epoch_ms << " + t/1000 (from Redis TIME); at the end "
      << (report.store_clock.end_lead_ms ? std::to_string(*report.store_clock.end_lead_ms) + " ms ahead of Redis"
                                         : std::string("unknown"))
      << (report.store_clock.consistent ? " (consistent)"
                                        : " (INCONSISTENT: allowed 0.." + std::to_string(report.store_clock.lead_max_ms) +
                                              " ms)")
      << "\n";
}

}  // namespace

std::string format_redis_summary(const IntegrationReport& report) {
  std::ostringstream out;
  write_run(out, report);
  write_activity(out, report.activity);
  for (const std::string& fault : report.fault_log) {
    out << "  fault: " << fault << "\n";
  }
  if (report.stopped()) {
    out << "interrupted: " << signal_name(report.stopped_by) << " at t=" << sim::duration_text(report.stopped_at_us)
        << "; the run stopped there (no end-of-run checks, no store audit)\n";
  }
  write_properties(out, report);
  if (report.stopped()) {
    out << "namespace: " << report.namespace_outcome << "\n";
    out << "verdict: INTERRUPTED (" << signal_name(report.stopped_by) << ")\n";
    return out.str();
  }
  write_store_audit(out, report);
  write_store_clock(out, report);
  for (const std::string& missing : report.missing_activity) {
    out << "warning: " << missing << "\n";
  }
  for (const std::string& broken : report.out_of_contract) {
    out << "out of contract: " << broken << "\n";
  }
  out << "namespace: " << report.namespace_outcome << "\n";
  const std::string reason = report.failure_reason();
  if (report.failed_only_out_of_contract()) {
    out << "verdict: FAIL, OUT OF CONTRACT (an assumption above was broken; what failed may depend on it): "
        << reason << "\n";
    return out.str();
  }
  out << "verdict: " << (reason.empty() ? "PASS" : "FAIL: " + reason) << "\n";
  return out.str();
}

}  // namespace spotcheck::reports
