#include "model/authority_transitions.h"

namespace spotcheck::model {

std::optional<AuthorityState> authority_next_state(AuthorityState from, AuthorityOp op) {
  switch (op) {
    case AuthorityOp::kReserve:
      return from == AuthorityState::kMissing ? std::optional(AuthorityState::kReserved) : std::nullopt;
    case AuthorityOp::kCommit:
      return from == AuthorityState::kReserved ? std::optional(AuthorityState::kActive) : std::nullopt;
    case AuthorityOp::kAbort:
      return from == AuthorityState::kReserved ? std::optional(AuthorityState::kMissing) : std::nullopt;
    case AuthorityOp::kPreserve:
    case AuthorityOp::kNewOwner:
      return from == AuthorityState::kActive ? std::optional(AuthorityState::kActive) : std::nullopt;
    case AuthorityOp::kDelete:
      return from == AuthorityState::kActive ? std::optional(AuthorityState::kMissing) : std::nullopt;
  }
  return std::nullopt;
}

bool legal(AuthorityState from, AuthorityState to, AuthorityOp op) {
  const std::optional<AuthorityState> next = authority_next_state(from, op);
  return next.has_value() && *next == to;
}

bool changes_owner(AuthorityOp op) { return op == AuthorityOp::kNewOwner; }

const char* to_string(AuthorityState state) {
  switch (state) {
    case AuthorityState::kMissing:
      return "Missing";
    case AuthorityState::kReserved:
      return "Reserved";
    case AuthorityState::kActive:
      return "Active";
  }
  return "?";
}

const char* to_string(AuthorityOp op) {
  switch (op) {
    case AuthorityOp::kReserve:
      return "Reserve";
    case AuthorityOp::kCommit:
      return "Commit";
    case AuthorityOp::kAbort:
      return "Abort";
    case AuthorityOp::kPreserve:
      return "Preserve";
    case AuthorityOp::kNewOwner:
      return "NewOwner";
    case AuthorityOp::kDelete:
      return "Delete";
  }
  return "?";
}

}  // namespace spotcheck::model
