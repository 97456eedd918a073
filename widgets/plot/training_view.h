// The live training view: accuracy, loss, lr and parameter count over scheduler time, with the
// allocation and adaptation events as markers; also reopens a finished run and overlays others.
//
// One run: a colour per quantity, its events in their kinds' colours. Several runs compared
// (addOverlay(), setRuns()): a colour per run and a dash pattern per quantity, every run named in
// the legend (a row of runs, a row of the quantities shown), and every run's allocations and
// adaptations marked in its colour.
#pragma once

#include "core/io/run_reader.h"
#include "core/job/events.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <filesystem>
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
    // Every run shown, the base run (setRun()'s, or "this run" for a live one) first.
    QStringList runNames() const;
    // The i-th run's colour while runs are compared (0 = the base run).
    static QColor runColor(int index);
    // The legend's name of each of `runs` compared: its folder's, made unique with " (2)", ... (two
    // runs/x and other/x). The Learning page names its overlaid runs the same way.
    static QStringList legendNames(const QList<rlda::core::io::RunData>& runs);

public Q_SLOTS:
    void addEpoch(const rlda::core::train::EpochMetrics& m);
    void addEpochs(const std::vector<rlda::core::train::EpochMetrics>& ms);
    void addAllocation(const rlda::core::train::AllocationRecord& r);
    void addAdaptation(const rlda::core::train::AdaptationEvent& e);
    void clear(); // data, markers and overlays
    void setRun(const rlda::core::io::RunData& run);
    // Compares runs: the first as the base run, the others overlaid, each named by its folder
    // (made unique with " (2)", ...). One run is setRun().
    void setRuns(const QList<rlda::core::io::RunData>& runs);
    void addOverlay(const QString& runName, const rlda::core::io::RunData& run);
    // Records appended to the run setRun() showed (widgets::RunFollower): its points, events and
    // final marker added to the base run. Ignored for another run's folder, or once clear() or a
    // live run replaced it.
    void appendRun(const rlda::core::io::RunData& more);
    std::filesystem::path runPath() const { return runPath_; } // setRun()'s; empty for a live run
    void clearOverlays();
    void fitAll();

private:
    struct Event {
        double x = 0.0;
        QString label;
        int kind = 0; // MarkerKind
    };
    void addEvent(std::vector<Event>& into, double x, const QString& label, int kind, int run);
    void addParameterStep(const QString& series, const rlda::core::train::AdaptationEvent& e);
    void restyle(); // one run or several: series looks, legend, axis colours and markers
    void updateLegend();

    SeriesPlot* plot_ = nullptr;
    QSpinBox* smoothing_ = nullptr;
    QHash<QString, QCheckBox*> visibility_;
    QStringList overlays_;
    QString baseName_;                            // setRun()'s run; empty for a live run
    std::filesystem::path runPath_;               // its folder, which appendRun() follows
    std::vector<Event> baseEvents_;               // the base run's markers
    QHash<QString, std::vector<Event>> overlayEvents_; // by overlay name
};

} // namespace rlda::widgets
