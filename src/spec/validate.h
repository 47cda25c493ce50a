// Spec + Catalog -> ValidSpec, or every diagnostic at once: unknown catalog models, non-positive
// counts, a plane count the NIC cannot split into, a port speed the switch cannot run, a design
// that needs more ports than the switch has, a tier count too small for the node count, links
// across planes in a multi-plane design.
#pragma once

#include "catalog/catalog.h"
#include "core/result.h"
#include "spec/spec.h"
#include "spec/spec_parser.h"
#include "spec/valid_spec.h"

namespace ct {

Result<ValidSpec> validate(const Spec& spec, const Catalog& catalog);

// A spec file's problems all at once: those found reading it and, when its YAML is readable, those
// validate() finds in the rest, in file order (line, then column). A validate() diagnostic on a
// field the reading already reported (or inside it) is dropped: it would repeat the same mistake.
// A problem with no field (syntax, an empty file) stops there.
Result<ValidSpec> validate_reading(const SpecReading& reading, const Catalog& catalog);

// Largest number of endpoint ports one plane reaches with this switch radix, down/up split and
// tier count (2 tiers: radix leaves x down[0]; 3 tiers: radix pods x down[1] leaves x down[0]).
long long max_endpoints(int radix, const std::vector<int>& down, int tiers);

}  // namespace ct
