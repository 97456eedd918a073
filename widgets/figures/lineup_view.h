// LineupView: every agent on one table side by side (core/transfer/lineup.h), as `rlda evaluate
// --agent all` prints it: a caption with the table's best set, one row per agent with its rank,
// interval, P(best) and verdict, and export as CSV or Markdown (written off the GUI thread).
#pragma once

#include "core/transfer/lineup.h"
#include "widgets/job_tracker.h"

#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace rlda::widgets {

class LineupView : public QWidget {
    Q_OBJECT
public:
    enum class Format { Csv, Markdown };

    explicit LineupView(QWidget* parent = nullptr);

    // Shows `lineup`; `note` (a warning, or "") goes under its caption.
    void setLineup(core::run::Lineup lineup, const QString& note = {});
    // No lineup: `message` says how to get one.
    void clear(const QString& message);
    bool hasLineup() const { return shown_; }
    const core::run::Lineup& lineup() const { return lineup_; }
    QTableWidget* table() const { return table_; }
    QLabel* caption() const { return caption_; }

    // Writes the lineup to `path` in `format` off the GUI thread (atomically: a file already there is
    // replaced whole or not at all); exported(path, "" or the reason) when done.
    void exportTo(const QString& path, Format format);

Q_SIGNALS:
    void exported(const QString& path, const QString& error);

private:
    void exportWithDialog(Format format);

    QLabel* caption_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* csv_ = nullptr;
    QPushButton* markdown_ = nullptr;
    core::run::Lineup lineup_;
    bool shown_ = false;
    JobTracker exports_{this};
};

} // namespace rlda::widgets
