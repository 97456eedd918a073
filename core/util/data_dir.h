// Where the files shipped with the project (data/, config/, the docs in the source tree) are found
// at run time.
#pragma once

#include <filesystem>
#include <vector>

namespace rlda::core {

// Each kind of shipped file has three places, tried in this order:
//   1. under $RLDA_DATA_DIR, when set and not empty;
//   2. under <folder of the running program>/.., an installed package (the layout that
//      packaging/CMakeLists.txt installs);
//   3. in the source tree, fixed at compile time (binaries in a build tree).
//
//   kind            $RLDA_DATA_DIR/   <bin>/../                    source tree
//   data (paper/, fashion-mnist/)
//                   .                 share/rlda-workbench         data/
//   examples        examples          share/rlda-workbench/examples config/
//   documentation   doc               share/doc/rlda-workbench     . (README.md, docs/)
// Any thread; each call reads the environment and /proc/self/exe.

// The folders that may hold the shipped data (paper/), in that order.
std::vector<std::filesystem::path> data_dirs();
// The folders that may hold the example experiments (*.toml, their models in models/).
std::vector<std::filesystem::path> example_dirs();
// The folders that may hold the documentation (README.md, docs/*.md, docs/screenshots/).
std::vector<std::filesystem::path> documentation_dirs();

// `relative` (a file) under the first of `dirs` that holds it. Throws core::Error, one line naming
// every place looked at, when none does.
std::filesystem::path find_data_file(const std::filesystem::path& relative,
                                     const std::vector<std::filesystem::path>& dirs);

// The folder holding the paper's simulation tables and their index.csv (data/paper/tables).
// Throws core::Error when no folder of data_dirs() holds paper/tables/index.csv.
std::filesystem::path paper_tables_dir();

// This project's Fashion-MNIST simulation tables (data/fashion-mnist/tables, index.csv and one
// X.json of metadata per table), found the same way; the earlier one-seed-a-file tables are in the
// folder's sibling single-seed/. Throws core::Error like paper_tables_dir().
std::filesystem::path fashion_mnist_tables_dir();

// The transfer study of docs/agent.md (data/fashion-mnist/study): one `rlda transfer` run folder
// per encoder, state first, then structural (its CSV files; the policies are not shipped), found
// the same way. Throws core::Error like paper_tables_dir().
std::vector<std::filesystem::path> transfer_study_runs();

// The original agent's published ranks (data/paper/ranks.csv), found the same way.
std::filesystem::path paper_ranks_file();

// The example experiments' folder: the first of example_dirs() holding the experiment the
// workbench opens (default.toml). Throws core::Error naming every place looked at.
std::filesystem::path examples_dir();

// The example experiments (*.toml of examples_dir(), not its models/), sorted by name.
std::vector<std::filesystem::path> example_files();

// The documentation's folder: the first of documentation_dirs() holding README.md, with the
// other pages in its docs/. Throws core::Error naming every place looked at.
std::filesystem::path documentation_dir();

} // namespace rlda::core
