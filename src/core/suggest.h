// "Did you mean" for misspelt field names and catalog ids: the candidate at the smallest
// Levenshtein edit distance (insertions, deletions, substitutions, each cost 1; Wagner & Fischer,
// JACM 1974), accepted only when the distance is at most a third of the word's length (at least 1),
// so that unrelated words are not suggested.
#pragma once

#include <string>
#include <vector>

namespace ct {

std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate within the distance limit above, or "" when none is close enough. Ties go
// to the candidate listed first.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ct
