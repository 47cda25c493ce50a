// "Did you mean" for every name a user types: commands, options, option values, field names,
// catalog ids and element names, all through these functions so that the CLI suggests one way.
//
// The distance is the optimal string alignment distance (Damerau, CACM 1964; the restricted
// edit distance of Boytsov, ACM JEA 2011): insertions, deletions, substitutions and transpositions
// of two adjacent characters, each cost 1, no substring edited twice. A swapped pair ("plna" for
// "plan") is thus one edit, as it is one slip of the fingers. Computed with the Wagner-Fischer
// table (JACM 1974) and its transposition term.
//
// A candidate is suggested when its distance is at most a third of the word's length (at least
// 1), so that unrelated words are not suggested; failing that, when it is the only candidate that
// begins with the word (at least 2 characters: "cut" for "cut-through").
#pragma once

#include <string>
#include <vector>

namespace ct {

std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate within the distance limit above, else the only one the word begins, else
// "". Ties go to the candidate listed first.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ct
