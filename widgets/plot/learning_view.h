// The live view of simulation-driven learning: per-episode objective and accuracy with a rolling
// mean, and the sampling temperature and lr on axes of their own.
#pragma once

#include "core/io/run_reader.h"
#include "core/table/results.h"
#include "widgets/rolling_series.h"

#include <QString>
#include <QWidget>

#include <array>
#include <filesystem>
#include <vector>

class QCheckBox;
class QSpinBox;

namespace rlda::widgets {

class SeriesPlot;

class LearningView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDefaultWindow = core::kPaperRollingWindow;

    explicit LearningView(QWidget* parent = nullptr);

    SeriesPlot* plot() const { return plot_; }
    int window() const { return objective_.window(); }

public Q_SLOTS:
    void addEpisode(const rlda::core::sim::EpisodeRecord& e);
    void addEpisodes(const std::vector<rlda::core::sim::EpisodeRecord>& es);
    void setWindow(int window);
    void clear();
    void fitAll();
    // A learning run read from its folder: clear(), then its episodes; appendRun() follows it.
    void setRun(const rlda::core::io::RunData& run);
    // Episodes appended to the run setRun() showed (widgets::RunFollower); ignored for another
    // folder, or once clear() (a live run) replaced it.
    void appendRun(const rlda::core::io::RunData& more);
    // Learning runs overlaid (the Runs page's Overlay): clear(), then each run's rolling means of
    // the objective (solid) and accuracy (dashed) in a colour of its own (TrainingView::runColor),
    // named by its folder in the legend; the window recomputes them all. One run is setRun().
    void setRuns(const QList<rlda::core::io::RunData>& runs);
    // The runs setRuns() overlays, by legend name; empty for one run or a live one.
    QStringList overlayNames() const;

private:
    void relabel();
    void applyVisibility();

    SeriesPlot* plot_ = nullptr;
    QSpinBox* window_ = nullptr;
    std::array<QCheckBox*, 5> boxes_{}; // raw, objective, accuracy, temperature, lr
    RollingSeries objective_{kDefaultWindow};
    RollingSeries accuracy_{kDefaultWindow};
    std::vector<double> episodes_; // the x of every mean
    std::filesystem::path runPath_; // setRun()'s folder
    struct Overlay {
        QString name;                 // its series' prefix and legend label
        std::vector<double> episodes; // x
        std::vector<double> objective, accuracy;
    };
    std::vector<Overlay> overlays_;
    void drawOverlayMeans();
};

} // namespace rlda::widgets
