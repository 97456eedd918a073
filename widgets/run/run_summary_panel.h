// The Runs page's details of one run: its summary, config, problems and adaptations, read-only.
#pragma once

#include "widgets/run/run_listing.h"

#include <QTabWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTableWidget;

namespace rlda::widgets {

// Tabs Summary, Config, Problems and Adaptations; the Runs page adds its Notes tab after them.
class RunSummaryPanel : public QTabWidget {
    Q_OBJECT
public:
    explicit RunSummaryPanel(QWidget* parent = nullptr);

    // One run as listed or opened.
    void showRun(const core::io::RunData& run, const RunFacts& facts);
    // No run: `text` (rich text) in the Summary tab, the others emptied.
    void showNone(const QString& text);
    // A line in the Summary tab (a run that cannot be opened or compared), the rest left as it is.
    void showMessage(const QString& text);

private:
    QString summaryOf(const core::io::RunData& run, const RunFacts& facts) const;
    void showAdaptations(const core::io::RunData& run);

    QLabel* summary_;
    QPlainTextEdit* config_;
    QListWidget* problems_;
    QTableWidget* adaptations_;
};

} // namespace rlda::widgets
