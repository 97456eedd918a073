// The Policy page: each decision of the current run with its action probabilities, and a policy's
// greedy sequences ranked on one or several tables against the baselines (the paper's figs. 10-11).
#pragma once

#include "core/model/spec.h"
#include "core/table/results.h"
#include "core/transfer/study.h"
#include "widgets/job_tracker.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

class QPushButton;
class QSplitter;
class QTabWidget;

namespace rlda::widgets {
class DecisionView;
class LineupView;
class RankView;
class TransferView;
struct RankedTable;
} // namespace rlda::widgets

namespace rlda::app {

class PolicyPage : public QWidget {
    Q_OBJECT
public:
    explicit PolicyPage(QWidget* parent = nullptr);

    widgets::DecisionView* decisions() const { return decisions_; }
    widgets::RankView* ranks() const { return ranks_; }
    // The model (and its sample shape) of tables that no index.csv names.
    void setDefaultModel(const QString& model, const core::model::Shape& input, qint64 classes);
    // Evaluates `policy` on each table off the GUI thread, then shows the ranks and emits
    // evaluated() with an empty string, or the reason it could not.
    void evaluate(const QString& policy, const QStringList& tables);
    // Shows an evaluation already made (the end of a learning run) on its table, read off the GUI
    // thread; ranked() when it is shown.
    void showRanked(const QString& table, const QString& fallbackModel, const QString& agent,
                    const core::sim::Evaluation& evaluation);
    // Reads a transfer run's folds.csv and ranks.csv (rlda transfer --out) off the GUI thread and
    // shows its table and figure on the Transfer tab; transferOpened() with "" or the reason.
    void openTransfer(const QString& folder);
    // Reads another transfer run the same way and shows it beside those open (TransferView::setRuns),
    // every held-out model across the runs first; a run that judged a model on other tables is
    // refused in transferOpened(reason).
    void compareTransfer(const QString& folder);
    // Opens the transfer study that ships with the program (core::transfer_study_runs), its runs
    // side by side, the comparison shown.
    void openStudy();
    widgets::TransferView* transfer() const { return transfer_; }
    // Judges every agent on `table` off the GUI thread (the policy last evaluated here among them,
    // if any) and shows them on the Every agent tab; lineupShown() with "" or the reason. An
    // evaluation of a policy on tables does this for its first table.
    void judgeEveryAgent(const QString& table);
    widgets::LineupView* lineup() const { return lineup_; }
    QString policy() const { return policy_; } // the policy last evaluated, for the recent policies

Q_SIGNALS:
    void statusMessage(const QString& text);
    void evaluated(const QString& error);
    void ranked(const QString& error);
    void transferOpened(const QString& error);
    void lineupShown(const QString& error);

private:
    void evaluateWithDialogs();
    QPushButton* button(const QString& name, const QString& text);
    // A tab of the lower half: a hint and its buttons in a bar above `view`, which takes the rest.
    void addLowerTab(const QString& title, const QString& hint, const QList<QPushButton*>& buttons,
                     QWidget* view);
    void giveRanksTheRoom();
    // judgeEveryAgent; without `announce` the status bar is left alone (a failure shows in the tab).
    void judgeAgents(const QString& table, bool announce);
    void setBusy(bool busy);
    // Reads `folders` off the GUI thread and shows them after `runs` (none: they replace what is
    // open); with `showStudy`, every held-out model across the runs is shown first.
    void readTransfers(std::vector<core::run::StudyRun> runs, const QStringList& folders, bool showStudy);

    QSplitter* splitter_ = nullptr;
    widgets::DecisionView* decisions_ = nullptr;
    widgets::RankView* ranks_ = nullptr;
    QPushButton* evaluate_ = nullptr;
    QTabWidget* lowerTabs_ = nullptr;
    widgets::TransferView* transfer_ = nullptr;
    widgets::LineupView* lineup_ = nullptr;
    QString policy_;
    QString model_ = QStringLiteral("ConvNet2");
    core::model::Shape input_ = core::model::kCifar10Input;
    qint64 classes_ = core::model::kCifar10Classes;
    widgets::JobTracker jobs_{this};     // the latest evaluation asked for
    widgets::JobTracker transfers_{this}; // the latest transfer run asked for
    widgets::JobTracker lineups_{this};   // the latest table every agent is judged on
};

} // namespace rlda::app
