// The one rule for "did you mean ...?": the name of a list nearest to a word that names none of it,
// for an unknown command or option of `rlda` (app/cli/unknown_command.h) and an unknown key or
// section of an experiment file or a --set (core/config/experiment_reader.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core {

// The edit distance of `a` and `b` counting an insertion, a deletion, a substitution and a swap of
// two neighbouring letters as one each (optimal string alignment): trian -> train is 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `names` nearest to `word`: a unique one that `word` begins, else the one at the
// smallest edit distance when that is at most a third of the longer word (rounded up; ties: the
// first); empty when none is that near.
std::string nearest_name(std::string_view word, const std::vector<std::string>& names);

} // namespace rlda::core
