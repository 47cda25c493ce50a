// Who owns a lab: one machine, several people (or a test and a person), one namespace list.
//
// Names: a lab's namespaces are "<prefix>s<vertex>" and "<prefix>h<vertex>" (lab_plan.h), and a
// lab touches only names of exactly that shape: the prefix, one of s/h, then digits. For two
// different prefixes these sets are disjoint (a name of prefix P continues after P with s or h and
// then only digits, so no longer prefix P + x can also produce it), so "ctlab-1" never removes
// "ctlab-1000-s3", as a plain starts-with test did.
// Default prefix: "ctlab-<uid>-", the uid of the person running it (under sudo, SUDO_UID), so two
// users of one machine get two labs without choosing prefixes.
// Ownership mark: `lab up` writes kLabRegistry/<prefix> ("uid N") before it creates anything; every
// later step (up again, run, counters, fail, down) reads it first and refuses a lab marked by
// another uid, and refuses namespaces of its shape that exist with no mark (built by something
// else: they are left alone, and the message says how to remove them by hand). `down` removes the
// mark after the namespaces. The registry lives under /run, so it is cleared at boot with the
// namespaces themselves (ip netns keeps them in /run/netns).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ct {

inline constexpr const char* kLabRegistry = "/run/clustertwin-lab";

// The person running the lab: SUDO_UID under sudo as root, else the real uid.
std::uint32_t lab_user();
// "ctlab-<uid>-" for lab_user().
std::string lab_default_prefix();
// Whether `name` is one of the prefix's lab namespaces: prefix, 's' or 'h', then 1 or more digits.
bool lab_namespace_of(std::string_view name, std::string_view prefix);

// The uid that marked the prefix's lab, or nullopt when there is no (readable) mark.
std::optional<std::uint32_t> lab_owner(const std::string& prefix, const std::string& registry = kLabRegistry);
// Unit when `user` may touch the prefix's namespaces (marked by `user`, or no mark and none of
// the prefix's shape exists); else why not, located "lab: error: --prefix: ...".
Result<Unit> lab_check_owner(const std::string& prefix, std::uint32_t user, const std::string& registry = kLabRegistry);
// Writes the mark for `user`. PRECONDITION: lab_check_owner passed.
Result<Unit> lab_mark(const std::string& prefix, std::uint32_t user, const std::string& registry = kLabRegistry);
// Removes the mark (none is fine).
void lab_unmark(const std::string& prefix, const std::string& registry = kLabRegistry);

}  // namespace ct
