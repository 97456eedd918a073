// A list of seeds as a person types it ("42 43 44"): the one reading of the Sweeps page's seed
// values and of Run → Train and compare over seeds….
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace rlda::widgets {

// The seeds of `text`, separated by spaces, in order; empty for blank text. On a word that is no
// whole number from 0 to 2^63 - 1, or a seed given twice, the list is empty and `problem` says so
// ("Seeds: "x" is not a whole number of 0 or more", "Seeds: 7 is given twice").
std::vector<std::uint64_t> parseSeeds(const QString& text, QString* problem);

} // namespace rlda::widgets
