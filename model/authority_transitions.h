// The legal transitions of an authority record (spec §6.1). Reserve, Commit, Abort, Preserve,
// NewOwner and Delete are the framework's internal operation names, built from conditional
// writes; this table is what a checker holds every observed authority change against.
//
//   Operation  From      To        Notes
//   Reserve    Missing   Reserved  issues ObjectGeneration, the first AuthorityOwnerGeneration
//   Commit     Reserved  Active    that reservation's
//   Abort      Reserved  Missing   that reservation's
//   Preserve   Active    Active    same owner, generation and capacity
//   NewOwner   Active    Active    new owner; AuthorityOwnerGeneration increases
//   Delete     Active    Missing   also returns capacity
// Preserve, NewOwner or Delete on a Reserved record is Conflict and changes nothing; so is any
// operation on a state not listed for it.
#pragma once

#include <optional>

namespace spotcheck::model {

enum class AuthorityState { kMissing, kReserved, kActive };
enum class AuthorityOp { kReserve, kCommit, kAbort, kPreserve, kNewOwner, kDelete };

inline constexpr AuthorityState kAllAuthorityStates[] = {AuthorityState::kMissing, AuthorityState::kReserved,
                                                        AuthorityState::kActive};
inline constexpr AuthorityOp kAllAuthorityOps[] = {AuthorityOp::kReserve,  AuthorityOp::kCommit,
                                                  AuthorityOp::kAbort,    AuthorityOp::kPreserve,
                                                  AuthorityOp::kNewOwner, AuthorityOp::kDelete};

// The state `op` leads to from `from`, or nullopt when the store must answer Conflict (and
// change nothing).
std::optional<AuthorityState> authority_next_state(AuthorityState from, AuthorityOp op);

// Whether a record may go from `from` to `to` by `op`.
bool legal(AuthorityState from, AuthorityState to, AuthorityOp op);

// Whether `op` hands the object to a different owner (only NewOwner does).
bool changes_owner(AuthorityOp op);

const char* to_string(AuthorityState state);
const char* to_string(AuthorityOp op);

}  // namespace spotcheck::model
