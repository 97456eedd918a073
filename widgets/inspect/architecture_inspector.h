// Architecture inspector: how a job's model grew, step by step, and what changed between two steps.
#pragma once

#include "core/job/events.h"
#include "core/model/spec.h"
#include "widgets/plot_export.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QSlider;
class QSpinBox;
class QTreeWidget;

namespace rlda::widgets {

class ModelGraph;

class ArchitectureInspector : public QWidget {
    Q_OBJECT
public:
    enum Column { UnitColumn = 0, KindColumn = 1, LayersColumn = 2, ParametersColumn = 3 };
    // Item data roles of the unit tree, so that code (and tests) need not parse display text.
    enum Role {
        KindRole = Qt::UserRole, // QString: "block" (original), "added", "layer"; "leaf" for child rows;
                                 // in the diff: "added", "removed"; in the check list: "check"
        ActionRole,              // int: action index of an original block, -1 otherwise
        ValueRole,               // qint64 in ParametersColumn: the raw parameter count
        NewRole,                 // bool: the unit appeared at the current step
    };

    // Below this max |Δ| a deepening counts as function-preserving (float32 outputs, eval mode).
    static constexpr double kPreservationTolerance = 1e-4;

    // The function-preservation check of one step.
    struct StepCheck {
        int step = 0;
        int action = 0;
        bool did_nothing = false;
        double max_abs_diff = -1.0; // -1 = not measured
        std::string operation = "deepen"; // what the action did: "deepen", "widen"
        int block = 0;                    // the original block it acted on
        bool measured() const { return max_abs_diff >= 0.0; }
        bool passed() const { return measured() && max_abs_diff <= kPreservationTolerance; }
    };

    // What changed from step `from` to step `to` (either order).
    struct StepDiff {
        int from = 0;
        int to = 0;
        std::vector<core::model::BlockSummary> added;   // units of `to` that `from` lacks, as in `to`
        std::vector<core::model::BlockSummary> removed; // units of `from` that `to` lacks, as in `from`
        // Original blocks in both with other sizes (a widening), as in `from` and as in `to`.
        std::vector<std::pair<core::model::BlockSummary, core::model::BlockSummary>> resized;
        std::int64_t parameters_from = 0;
        std::int64_t parameters_to = 0;
        std::int64_t parameter_delta = 0;  // to - from
        std::vector<StepCheck> checks;     // the steps in (min, max], in order
    };

    explicit ArchitectureInspector(QWidget* parent = nullptr);

    // Step 0; drops any earlier steps.
    void setInitial(const core::model::ModelSummary& initial);
    // One more step: the model after the event (a Do Nothing decision is a step too). Without an
    // initial model the event's `before` becomes step 0. The slider follows when it was at the end.
    void addAdaptation(const core::train::AdaptationEvent& event);
    void setSteps(const core::model::ModelSummary& initial, const std::vector<core::train::AdaptationEvent>& events);
    void clear();

    // Steps including step 0 (0 when empty).
    int stepCount() const { return static_cast<int>(summaries_.size()); }
    // The step shown is the QSlider named "stepSlider"'s value; currentStepChanged() follows it.
    void setCurrentStep(int step);
    const core::model::ModelSummary& summaryAt(int step) const;
    // The event that led to `step` (1..stepCount()-1).
    const core::train::AdaptationEvent& eventAt(int step) const;

    // The two steps compared below the tree.
    void setDiffSteps(int a, int b);
    int diffFrom() const;
    int diffTo() const;
    StepDiff diff() const { return diffBetween(diffFrom(), diffTo()); }

    // "preserved: max |Δ| = 3.1e-07 ✓", "NOT preserved: max |Δ| = 0.02 ✗", "not measured".
    static QString preservationText(double maxAbsDiff);
    // "step 2/3: deepen block 1 at t=140.0 s", "step 0/3: starting model".
    QString stepText(int step) const;
    // Locale-formatted count with group separators.
    QString formatCount(qint64 value) const;

    // The graph beside the table: the current step, with the units that the earlier of the two
    // compared steps lacks marked new when it is before the current step, else those of the step before.
    ModelGraph* graph() const { return graph_; }
    // The step the graph marks new units against; -1 when none.
    int graphReference() const;
    QString exportGraph(const QString& path, const ExportSettings& settings = {}) const;

Q_SIGNALS:
    void currentStepChanged(int step);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitTreeColumns();
    StepDiff diffBetween(int a, int b) const;
    // stepText plus the step's preservation check, for the label next to the slider.
    QString stepLine(int step) const;
    void refreshControls();
    void rebuildTree();
    void rebuildDiff();
    void refreshGraph();

    std::vector<core::model::ModelSummary> summaries_;
    std::vector<core::train::AdaptationEvent> events_; // events_[s-1] led to step s
    int current_ = 0;

    QLabel* header_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    QLabel* total_ = nullptr;
    QSpinBox* fromBox_ = nullptr;
    QSpinBox* toBox_ = nullptr;
    QLabel* diffSummary_ = nullptr;
    QTreeWidget* diffTree_ = nullptr;  // units added / removed
    QTreeWidget* checkTree_ = nullptr; // one row per decision between the steps
    ModelGraph* graph_ = nullptr;
};

} // namespace rlda::widgets
