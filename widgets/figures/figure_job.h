// The paper's figures for programs that do not compile against Qt (`rlda figures`): plain C++ in,
// files out. Qt's flags (-fPIC, its include paths) would void the LibTorch precompiled header
// that `rlda` shares with rlda_core, so this header names no Qt and no LibTorch type.
#pragma once

#include "core/run/transfer_protocol.h"
#include "core/run/transfer_study.h"
#include "core/sim/results.h"
#include "core/sim/table.h"
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
