// Policy inspector, per decision: the agent's action probabilities as bars, the chosen action marked.
#pragma once

#include "core/job/events.h"
#include "widgets/plot_export.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCPBars;
class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace rlda::widgets {

class DecisionView : public QWidget {
    Q_OBJECT
public:
    // PreservedColumn: the function-preservation check of the operation, max |Δ| of the outputs.
    enum Column { DecisionColumn = 0, TimeColumn = 1, ActionColumn = 2, AgentColumn = 3, PreservedColumn = 4 };
    // Item data roles of the decision list, so that code (and tests) need not parse display text.
    enum Role {
        IndexRole = Qt::UserRole, // int: index into decisions() (in DecisionColumn)
        ActionRole,               // int: the chosen action (in ActionColumn)
        HasProbabilitiesRole,     // bool (in AgentColumn)
    };

    explicit DecisionView(QWidget* parent = nullptr);

    // Appends one decision; the view follows it when it was showing the latest one (or none).
    void addDecision(const core::train::AdaptationEvent& event);
    void setDecisions(const std::vector<core::train::AdaptationEvent>& events);
    void clear();

    int decisionCount() const { return static_cast<int>(events_.size()); }
    const std::vector<core::train::AdaptationEvent>& decisions() const { return events_; }
    // The list's current row (a QTreeWidget named "decisionList", its rows' IndexRole) is the
    // decision shown; currentDecisionChanged() follows it.
    void setCurrentDecision(int index);

    // What the plot shows for the current decision.
    int actionCount() const { return static_cast<int>(labels_.size()); }
    QStringList actionLabels() const { return labels_; } // "block 0", ..., "do nothing"
    bool hasProbabilities() const;

    // The drawing surface: the probabilities as two QCPBars, the chosen action's alone named
    // (objectName) "chosen"; a QCPItemRect "chosenBand" behind the chosen column. The line above
    // the plot is a QLabel named "decisionNote".
    QCustomPlot* plot() const { return plot_; }
    // Through the workbench's one export path; empty on success, else a reason naming the file.
    QString exportPlot(const QString& path, const ExportSettings& settings = {});

    // "block 2" or "do nothing" when `action` is the last of `actionCount`.
    static QString actionLabel(int action, int actionCount);
    // Every action of the event's decision by name: the paper's "block 2", or "deepen 2" and
    // "widen 0" when its run's actions are of several operations; "do nothing" last.
    static QStringList actionLabels(const core::train::AdaptationEvent& event);
    // "1.2e-07", or "—" when the check was not made (Do Nothing, or the check turned off).
    static QString preservationText(const core::train::AdaptationEvent& event);

Q_SIGNALS:
    void currentDecisionChanged(int index);

private:
    void appendRow(int index);
    void showCurrent();

    std::vector<core::train::AdaptationEvent> events_;
    int current_ = -1;
    QStringList labels_;

    QTreeWidget* list_ = nullptr;
    QLabel* note_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPBars* bars_ = nullptr;   // every action not chosen
    QCPBars* chosen_ = nullptr; // the chosen action alone, in the highlight colour
};

} // namespace rlda::widgets
