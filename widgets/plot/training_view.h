// The live training view: accuracy, loss, lr and parameter count over scheduler time, with the
// allocation and adaptation events as markers; also reopens a finished run and overlays others.
#pragma once

#include "core/io/run_reader.h"
#include "core/train/events.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QSpinBox;

namespace rlda::widgets {

class SeriesPlot;

class TrainingView : public QWidget {
    Q_OBJECT
public:
    explicit TrainingView(QWidget* parent = nullptr);

    SeriesPlot* plot() const { return plot_; }

    // EMA smoothing as a span in epochs (alpha = 2 / (span + 1)); 1 = off.
    void setSmoothingSpan(int epochs);
    int smoothingSpan() const;

    // Series ids, one per quantity: train_acc, test_acc, train_loss, lr, params.
    static QStringList seriesIds();
    void setQuantityVisible(const QString& id, bool visible); // base run and overlays alike
    QStringList overlays() const { return overlays_; }

public Q_SLOTS:
    void addEpoch(const rlda::core::train::EpochMetrics& m);
    void addEpochs(const std::vector<rlda::core::train::EpochMetrics>& ms);
    void addAllocation(const rlda::core::train::AllocationRecord& r);
    void addAdaptation(const rlda::core::train::AdaptationEvent& e);
    void clear(); // data, markers and overlays
    void setRun(const rlda::core::io::RunData& run);
    void addOverlay(const QString& runName, const rlda::core::io::RunData& run);
    void clearOverlays();
    void fitAll();

private:
    SeriesPlot* plot_ = nullptr;
    QSpinBox* smoothing_ = nullptr;
    QHash<QString, QCheckBox*> visibility_;
    QStringList overlays_;
};

} // namespace rlda::widgets
