#pragma once
// "Did you mean" hints for misspelled keys, ids and choices.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucast {

// Edit distance (insertions, deletions, substitutions, adjacent transpositions).
[[nodiscard]] int edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a plausible typo, else nullopt.
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word,
                                                       const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" — ready to append to an error message.
[[nodiscard]] std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gpucast
