// Where the data shipped with the project (data/ in the source tree) is found at run time.
#pragma once

#include <filesystem>
#include <vector>

namespace rlda::core {

// The folders that may hold the shipped data, in the order they are tried:
//   1. $RLDA_DATA_DIR, when set and not empty;
//   2. <folder of the running program>/../share/rlda-workbench (an installed package);
//   3. the source tree's data/ folder, fixed at compile time (binaries in a build tree).
// Any thread; reads the environment and /proc/self/exe on each call.
std::vector<std::filesystem::path> data_dirs();

// `relative` (a file) under the first of `dirs` that holds it. Throws core::Error, one line naming
// every place looked at, when none does.
std::filesystem::path find_data_file(const std::filesystem::path& relative,
                                     const std::vector<std::filesystem::path>& dirs);

// The folder holding the paper's simulation tables and their index.csv (data/paper/tables).
// Throws core::Error when no folder of data_dirs() holds paper/tables/index.csv.
std::filesystem::path paper_tables_dir();

// The original agent's published ranks (data/paper/ranks.csv), found the same way.
std::filesystem::path paper_ranks_file();

} // namespace rlda::core
