// Transfer runs on screen (the Policy page): per held-out model the table `rlda transfer` prints
// and the figure it writes, from core::run::summarize_transfer; and, as the last entry, every
// held-out model across the runs (core::run::compare_transfers, the figure of `rlda
// transfer-compare`).
#pragma once

#include "core/transfer/study.h"
#include "core/transfer/summary.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTableWidget;

namespace rlda::widgets {

class TransferView : public QWidget {
    Q_OBJECT
public:
    explicit TransferView(QWidget* parent = nullptr);

    // Replaces what is shown with one run; the first held-out model is selected.
    void setSummaries(std::vector<core::run::TransferSummary> summaries);
    // Replaces what is shown with `runs` side by side (`study`: compare_transfers of them): an
    // entry per run and held-out model, then "every held-out model". The first entry is selected,
    // or the study when `showStudy`.
    // `tests`: test_study of them, whose lines the study's entry shows under its table.
    void setRuns(std::vector<core::run::StudyRun> runs, std::vector<core::run::StudyRow> study,
                 core::run::StudyTests tests, bool showStudy);
    const std::vector<core::run::StudyRun>& runs() const { return runs_; }
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    QComboBox* models() const { return models_; }
    QLabel* summary() const { return summary_; }
    QPlainTextEdit* tests() const { return tests_; } // study_test_lines; shown with the study only

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // The figure beside the table while both fit, the figure at a width it is read at
    // (kReadableChartWidth); under the table otherwise (a laptop's window with its docks shown).
    void layOutSplit();
    void showEntry(int index);
    void showModel(const core::run::TransferSummary& s);
    void showStudy();
    void fitTable(); // the table's whole width beside the figure, up to a limit
    QString averagesText() const; // study_averages as a line under the study's summary

    std::vector<core::run::StudyRun> runs_;
    std::vector<core::run::StudyRow> study_;
    core::run::StudyTests tests_results_;
    std::vector<std::pair<std::size_t, std::size_t>> entries_; // the combo's models: (run, summary)
    QComboBox* models_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QSplitter* split_ = nullptr;
    QPlainTextEdit* tests_ = nullptr;
};

} // namespace rlda::widgets
