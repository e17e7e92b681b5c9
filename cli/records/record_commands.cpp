#include "cli/records/record_commands.h"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "impl/check/check.h"
#include "impl/json_guard/json_guard.h"
#include "impl/records/json_scan.h"
#include "impl/records/records.h"

namespace spotcheck::cli {
namespace {

using records::RecordError;
using records::RecordErrorKind;
using records::RecordResult;

constexpr std::string_view kUsage =
    "usage: spotcheck key mesh-node <MeshName> <routingIdHex> | owner-lease <OwnerId> | "
    "client-server <ChannelName> <routingIdHex> | fanout-publisher <ChannelName> <routingIdHex> | "
    "authority <actor|spot> <Id>";

// Bytes cap for stdin: one record is at most 1 MiB; pretty-printed input may be larger.
constexpr std::size_t kInputBytesMax = 8 * records::kRecordBytesMax;

// The one line of every error: "spotcheck: <kind>: <message>", control characters escaped.
int bad_input(std::ostream& err, std::string_view line) {
  err << "spotcheck: " << json_guard::one_line(line, 1000) << '\n';
  return kExitBadInput;
}

int bad_input(std::ostream& err, const RecordError& error) {
  return bad_input(err, records::describe(error));
}

std::optional<RecordError> check_part_count(const std::vector<std::string>& parts,
                                            std::size_t expected) {
  if (parts.size() != expected) {
    return RecordError{RecordErrorKind::kMissingField,
                       parts[0] + " takes " + std::to_string(expected - 1) + " part(s), got " +
                           std::to_string(parts.size() - 1) + "; " + std::string(kUsage)};
  }
  return std::nullopt;
}

// The preimage for `parts`, or the first reason it cannot be built.
RecordResult<std::string> preimage_for(const std::vector<std::string>& parts) {
  SPOTCHECK_ASSERT_ABORT(!parts.empty());
  const std::string& record = parts[0];
  if (record == "owner-lease") {
    if (auto error = check_part_count(parts, 2)) {
      return *error;
    }
    if (auto error = records::check_identity("OwnerId", parts[1])) {
      return *error;
    }
    return records::owner_lease_preimage(parts[1]);
  }
  if (record == "authority") {
    if (auto error = check_part_count(parts, 3)) {
      return *error;
    }
    if (parts[1] != "actor" && parts[1] != "spot") {
      return RecordError{RecordErrorKind::kInvalidEnum,
                         "authority kind must be actor or spot, got \"" + parts[1] + "\""};
    }
    if (auto error = records::check_identity("Id", parts[2])) {
      return *error;
    }
    const auto kind =
        parts[1] == "actor" ? records::AuthorityKind::kActor : records::AuthorityKind::kSpot;
    return records::authority_preimage(kind, parts[2]);
  }
  const bool mesh_node = record == "mesh-node";
  const bool client_server = record == "client-server";
  const bool fanout_publisher = record == "fanout-publisher";
  if (!mesh_node && !client_server && !fanout_publisher) {
    return RecordError{RecordErrorKind::kInvalidEnum,
                       "unknown record \"" + record + "\"; " + std::string(kUsage)};
  }
  if (auto error = check_part_count(parts, 3)) {
    return *error;
  }
  if (auto error = records::check_identity(mesh_node ? "MeshName" : "ChannelName", parts[1])) {
    return *error;
  }
  if (auto error = records::check_routing_id_hex("routingIdHex", parts[2])) {
    return *error;
  }
  if (mesh_node) {
    return records::mesh_node_preimage(parts[1], parts[2]);
  }
  if (client_server) {
    return records::client_server_preimage(parts[1], parts[2]);
  }
  return records::fanout_publisher_preimage(parts[1], parts[2]);
}

template <class Record>
RecordResult<std::string> canonical_of(const RecordResult<Record>& decoded) {
  if (!decoded.ok()) {
    return decoded.error();
  }
  return records::encode(decoded.value());
}

RecordResult<std::string> canonicalize_as(std::string_view type, std::string_view bytes) {
  if (type == "mesh-node") {
    return canonical_of(records::decode_mesh_node_descriptor_record(bytes));
  }
  if (type == "owner-lease") {
    return canonical_of(records::decode_owner_lease_record(bytes));
  }
  if (type == "client-server") {
    return canonical_of(records::decode_client_server_descriptor_record(bytes));
  }
  if (type == "fanout-publisher") {
    return canonical_of(records::decode_fanout_publisher_descriptor_record(bytes));
  }
  if (type == "authority") {
    return canonical_of(records::decode_authority_record(bytes));
  }
  return RecordError{RecordErrorKind::kInvalidEnum,
                     "unknown --type \"" + std::string(type) +
                         "\" (mesh-node | owner-lease | client-server | fanout-publisher | "
                         "authority)"};
}

// A Redis key namespace is printed on one line and sent as part of a key: no control characters.
std::optional<RecordError> check_namespace(std::string_view ns) {
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const auto c = static_cast<unsigned char>(ns[i]);
    if (c < 0x20 || c == 0x7f) {
      return RecordError{RecordErrorKind::kInvalidIdentity,
                         "--namespace must not contain control characters (byte " +
                             std::to_string(c) + " at offset " + std::to_string(i) + ")"};
    }
  }
  return std::nullopt;
}

// -?(0|[1-9][0-9]*)
bool is_integer_token(std::string_view text) {
  if (!text.empty() && text.front() == '-') {
    text.remove_prefix(1);
  }
  if (text.empty() || (text.front() == '0' && text.size() > 1)) {
    return false;
  }
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Relaxed mode: nlohmann reads an integer beyond 64 bits as a double, which the strict codec
// would call "a fraction or exponent". A top-level recordVersion written as such an integer is
// an unknown version (spec §3.4), like any other integer but 1.
std::optional<RecordError> huge_record_version(const nlohmann::json& doc, std::string_view input) {
  const auto version = doc.is_object() ? doc.find("recordVersion") : doc.end();
  if (!doc.is_object() || version == doc.end() || !version->is_number_float()) {
    return std::nullopt;
  }
  const std::size_t start = records::json_scan::skip_whitespace(input, 0);
  if (start >= input.size() || input[start] != '{') {
    return std::nullopt;
  }
  const auto raw = records::json_scan::find_member(input, start + 1, "recordVersion");
  if (!raw || !is_integer_token(*raw)) {
    return std::nullopt;
  }
  return RecordError{RecordErrorKind::kUnknownRecordVersion,
                     "recordVersion " + std::string(raw->substr(0, 40)) +
                         " is not 1, the only version this reads"};
}

// The record type by the shape of the top-level object.
RecordResult<std::string> detect_type(const nlohmann::json& doc) {
  if (!doc.is_object()) {
    return RecordError{RecordErrorKind::kWrongType, "a record is a JSON object"};
  }
  if (doc.contains("allocation") || doc.contains("payload") || doc.contains("objectGeneration")) {
    return std::string("authority");
  }
  if (doc.contains("expiresAtEpochMs")) {
    return std::string("owner-lease");
  }
  const auto descriptor = doc.find("descriptor");
  if (descriptor != doc.end() && descriptor->is_object()) {
    if (descriptor->contains("meshName") || descriptor->contains("routingIdHex")) {
      return std::string("mesh-node");
    }
    if (descriptor->contains("serverRoutingIdHex") || descriptor->contains("weight")) {
      return std::string("client-server");
    }
    if (descriptor->contains("publisherRoutingIdHex")) {
      return std::string("fanout-publisher");
    }
  }
  return RecordError{RecordErrorKind::kMissingField,
                     "cannot tell the record type from its fields; pass --type"};
}

}  // namespace

int run_key_command(const std::vector<std::string>& parts, std::string_view ns, std::ostream& out,
                    std::ostream& err) {
  if (parts.empty()) {
    return bad_input(err, kUsage);
  }
  if (auto error = check_namespace(ns)) {
    return bad_input(err, *error);
  }
  const RecordResult<std::string> preimage = preimage_for(parts);
  if (!preimage.ok()) {
    return bad_input(err, preimage.error());
  }
  out << "preimageHex: " << records::to_hex(preimage.value()) << '\n';
  out << "sha256Hex: " << records::sha256_hex(preimage.value()) << '\n';
  out << "redisKey: " << records::redis_key(preimage.value(), ns) << '\n';
  return kExitOk;
}

int run_record_canon(std::istream& in, const RecordCanonOptions& options, std::ostream& out,
                     std::ostream& err) {
  json_guard::BoundedText bounded = json_guard::read_bounded(in, kInputBytesMax);
  if (bounded.too_large) {
    return bad_input(err, RecordError{RecordErrorKind::kTooLarge,
                                      "input exceeds " + std::to_string(kInputBytesMax) +
                                          " bytes (the record canon input limit)"});
  }
  std::string input = std::move(bounded.text);
  if (options.strict && !input.empty() && input.back() == '\n') {
    input.pop_back();  // the newline redis-cli --raw and echo add
  }
  // Depth is bounded before anything recursive (dump) sees the tree. Relaxed mode refuses
  // duplicate keys here; strict mode leaves them to the codec, which names them kNotCanonical.
  json_guard::GuardOptions guard_options;
  guard_options.reject_duplicate_keys = !options.strict;
  if (const auto guard_error = json_guard::check(input, guard_options)) {
    const bool too_deep = guard_error->kind == json_guard::GuardErrorKind::kTooDeep;
    return bad_input(err, RecordError{too_deep ? RecordErrorKind::kTooLarge
                                               : RecordErrorKind::kNotCanonical,
                                      guard_error->message});
  }
  nlohmann::json doc;
  std::string relaxed;
  try {
    doc = nlohmann::json::parse(input);
    relaxed = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::exception& e) {
    return bad_input(err, RecordError{RecordErrorKind::kMalformedJson, e.what()});
  }
  if (!options.strict) {
    if (auto error = huge_record_version(doc, input)) {
      return bad_input(err, *error);
    }
  }
  std::string type = options.type;
  if (type.empty()) {
    RecordResult<std::string> detected = detect_type(doc);
    if (!detected.ok()) {
      return bad_input(err, detected.error());
    }
    type = std::move(detected).value();
  }
  // Strict: the exact bytes must already be canonical. Relaxed: any JSON layout, key order and
  // escaping; nlohmann re-serializes it (sorted keys, no whitespace, raw UTF-8), then the strict
  // codec judges the values.
  const RecordResult<std::string> canonical =
      canonicalize_as(type, options.strict ? std::string_view(input) : std::string_view(relaxed));
  if (!canonical.ok()) {
    return bad_input(err, canonical.error());
  }
  out << (options.hex ? records::to_hex(canonical.value()) : canonical.value()) << '\n';
  return kExitOk;
}

void add_record_commands(CLI::App& app, int& exit_code) {
  CLI::App* key = app.add_subcommand(
      "key", "Print the logical key preimage (hex), its SHA-256 and the Redis key of a record");
  auto key_parts = std::make_shared<std::vector<std::string>>();
  auto key_namespace = std::make_shared<std::string>(records::kDefaultNamespace);
  key->add_option("parts", *key_parts,
                  "<record> <parts...>: mesh-node <MeshName> <routingIdHex> | owner-lease "
                  "<OwnerId> | client-server <ChannelName> <routingIdHex> | fanout-publisher "
                  "<ChannelName> <routingIdHex> | authority <actor|spot> <Id>; put -- before them when one "
                  "starts with '-' (spotcheck key -- authority actor -x)")
      ->required()
      ->expected(-1);
  key->add_option("--namespace,-n", *key_namespace, "Redis key namespace")
      ->capture_default_str();
  // The error line is printed by run_key_command; the exit code goes back through main.
  key->callback([key_parts, key_namespace, &exit_code] {
    exit_code = run_key_command(*key_parts, *key_namespace, std::cout, std::cerr);
  });

  CLI::App* record = app.add_subcommand("record", "Public record tools");
  record->require_subcommand(1);
  CLI::App* canon = record->add_subcommand(
      "canon", "Read a record as JSON on stdin and print its canonical value bytes");
  auto options = std::make_shared<RecordCanonOptions>();
  canon->add_option("--type,-t", options->type,
                    "mesh-node | owner-lease | client-server | fanout-publisher | authority "
                    "(default: by the record's fields)");
  canon->add_flag("--strict", options->strict,
                  "require the input bytes to be canonical already (e.g. a value read from Redis)");
  canon->add_flag("--hex", options->hex, "print the canonical bytes as lowercase hex");
  canon->callback([options, &exit_code] {
    exit_code = run_record_canon(std::cin, *options, std::cout, std::cerr);
  });
}

}  // namespace spotcheck::cli
