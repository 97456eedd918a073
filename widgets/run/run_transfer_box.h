// The Runs page's transfer metrics of two learning runs, one against the other.
#pragma once

#include "core/io/run_reader.h"
#include "core/io/transfer_metrics.h"

#include <QGroupBox>
#include <QList>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace rlda::widgets {

// Shown when exactly two learning runs are selected: which of them started from a trained policy
// (guessed, the user may change it), the series, window and threshold, and core::sim's jumpstart,
// episodes to the threshold and episodes saved.
class RunTransferBox : public QGroupBox {
    Q_OBJECT
public:
    explicit RunTransferBox(QWidget* parent = nullptr);

    // The runs selected: the box shows itself for two learning runs and hides otherwise.
    void setRuns(const QList<core::io::RunData>& runs);
    // The metrics shown; nullopt while hidden.
    std::optional<core::sim::TransferMetrics> metrics() const { return metrics_; }

private:
    void update();

    QList<core::io::RunData> runs_; // the pair, while shown
    std::optional<core::sim::TransferMetrics> metrics_;
    QComboBox* run_;    // which of the two started from a trained policy
    QComboBox* series_;
    QSpinBox* window_;
    QDoubleSpinBox* threshold_;
    QLabel* result_;
};

} // namespace rlda::widgets
