// The paper's figures for a program that does not compile against Qt: plain C++ in, files out, for
// `rlda figures`, `rlda reproduce` and `rlda transfer`. rlda links the figures
// library without its usage requirements (Qt's include paths and -fPIC; app/CMakeLists.txt), so
// that its own sources stay free of Qt: this header names no Qt type, and no LibTorch type either
// (no source of app/cli includes a LibTorch header).
#pragma once

#include "core/table/results.h"
#include "core/table/table.h"
#include "core/transfer/study.h"
#include "core/transfer/summary.h"
#include "core/util/rolling_mean.h"

#include <string>
#include <vector>

namespace rlda::widgets {

struct FigureJob {
    struct Table {
        std::string model;
        std::string scenario;
        std::string agent; // where the evaluated policy came from
        std::vector<core::sim::TableRow> rows;
        core::sim::Evaluation evaluation;
        std::vector<int> no_adaptation; // SimulationTable::no_adaptation_sequence (fig. 12's error bar)
    };
    std::vector<std::string> runs; // learning run folders (metrics/episodes.csv): figures 7-9
    std::vector<Table> tables;     // evaluated tables: figures 10-12
    std::vector<core::run::TransferSummary> transfers; // held-out models of `rlda transfer`: transfer_<model>
    std::vector<core::run::StudyRow> study;            // `rlda transfer-compare`: transfer_study
    std::vector<std::string> study_labels;             // its runs' names
    std::string out_dir;
    std::vector<std::string> formats{"png"}; // "png", "pdf", "svg"
    int width = 1200;
    int height = 700;
    int dpi = 150;
    int window = core::kPaperRollingWindow; // rolling mean of the learning curves, in episodes
};

// Renders every figure the job allows (see paper_figures.h for the list) and returns the files
// written, in order. Creates a QApplication on the "offscreen" platform (unless QT_QPA_PLATFORM
// says otherwise) when the program has none. Throws core::Error with a one-line message naming the
// run folder, format or file at fault.
std::vector<std::string> renderFigureJob(const FigureJob& job);

} // namespace rlda::widgets
