// The files of a transfer folder, written as the protocol goes and read back: folds.csv (one line
// per held-out model, written first), references.csv (each held-out table's references) and
// ranks.csv (a flushed line per greedy evaluation, so that a killed run keeps what it judged). Their
// columns are declared once, in files.cpp.
#pragma once

#include "core/transfer/results.h"
#include "core/util/line_appender.h"

#include <filesystem>
#include <vector>

namespace rlda::core::run {

// Appends to a transfer folder's files, each line one write (core/util/line_appender.h). The three
// files are created with their headers at once, so that a run stopped before its first rank still
// reads back. Error naming the file that cannot be written.
class TransferFiles {
public:
    explicit TransferFiles(const std::filesystem::path& folder);

    void add_folds(const std::vector<TransferFold>& folds);
    void add_reference(const TransferReference& reference);
    void add_rank(const TransferRank& rank);

private:
    LineAppender folds_, references_, ranks_;
};

// folds.csv, ranks.csv and references.csv (absent in a folder written before it: none) of a
// transfer folder, read back (the workbench's Policy page, figures). Error naming the file and line.
TransferResult read_transfer(const std::filesystem::path& folder);

} // namespace rlda::core::run
