// The Policy page: decisions above, ranks below; evaluations (a policy loaded, tables read, three
// forward passes a table) run off the GUI thread, the latest one asked for shown.
#include "app/workbench/policy_page.h"

#include "app/workbench/evaluations.h"
#include "core/transfer/summary.h"
#include "core/util/data_dir.h"
#include "widgets/counted.h"
#include "widgets/figures/lineup_view.h"
#include "widgets/figures/rank_view.h"
#include "widgets/figures/transfer_view.h"
#include "widgets/file_dialogs.h"
#include "widgets/inspect/decision_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <exception>

namespace rlda::app {

PolicyPage::PolicyPage(QWidget* parent) : QWidget(parent)
{
    auto* splitter = splitter_ = new QSplitter(Qt::Vertical, this);
    decisions_ = new widgets::DecisionView(splitter);
    lowerTabs_ = new QTabWidget(splitter);
    evaluate_ = button(QStringLiteral("evaluatePolicyButton"), QString());
    ranks_ = new widgets::RankView;
    addLowerTab(tr("Ranks"),
                tr("A policy's greedy sequence among all sequences of each table, with the optimal, "
                   "no-adaptation and random baselines."),
                {evaluate_}, ranks_);

    auto* studyButton = button(QStringLiteral("openStudyButton"), tr("Open the study"));
    studyButton->setToolTip(tr("The transfer study that ships with the program (docs/agent.md): the six Fashion-MNIST "
                               "models, each left out, learned by the state-aware and the structural policy"));
    auto* openTransferButton = button(QStringLiteral("openTransferButton"), tr("Open a transfer run…"));
    auto* compareTransferButton = button(QStringLiteral("compareTransferButton"), tr("Compare with a run…"));
    compareTransferButton->setToolTip(tr("Add another transfer run that left the same models out (another encoder, "
                                         "say): every held-out model's mean rank per run, side by side"));
    transfer_ = new widgets::TransferView;
    addLowerTab(
        tr("Transfer"),
        tr("A policy learned without any table of one model, judged on that model's tables (rlda "
           "transfer), beside random, no adaptation and the best fixed sequence chosen in hindsight."),
        {studyButton, openTransferButton, compareTransferButton}, transfer_);

    auto* lineupButton = button(QStringLiteral("judgeEveryAgentButton"), tr("Judge every agent on a table…"));
    lineup_ = new widgets::LineupView;
    lineup_->clear(tr("No table judged yet: choose one, or evaluate a policy on tables (its first table is "
                      "judged here with the policy among the agents)."));
    addLowerTab(tr("Every agent"),
                tr("Every agent on one table: the policy last evaluated here, each growth heuristic, no "
                   "adaptation, the optimal and a random sequence, each with its rank, 95 % interval and a "
                   "verdict against the best (rlda evaluate --agent all)."),
                {lineupButton}, lineup_);
    connect(lineupButton, &QPushButton::clicked, this, [this] {
        const QString table =
            widgets::openFileName(this, widgets::FileKind::Table, tr("Table to judge every agent on"),
                                  tr("Simulation tables (*.csv);;All files (*)"));
        if (!table.isEmpty())
            judgeEveryAgent(table);
    });
    connect(lineup_, &widgets::LineupView::exported, this, [this](const QString& path, const QString& error) {
        Q_EMIT statusMessage(error.isEmpty() ? tr("Every agent exported to %1").arg(path) : error);
    });
    connect(openTransferButton, &QPushButton::clicked, this, [this] {
        const QString folder = widgets::existingFolder(this, widgets::FileKind::RunFolder, tr("Transfer run folder"));
        if (!folder.isEmpty())
            openTransfer(folder);
    });
    connect(studyButton, &QPushButton::clicked, this, &PolicyPage::openStudy);
    connect(compareTransferButton, &QPushButton::clicked, this, [this] {
        const QString folder = widgets::existingFolder(this, widgets::FileKind::RunFolder, tr("Transfer run to compare"));
        if (!folder.isEmpty())
            compareTransfer(folder);
    });
    splitter->addWidget(decisions_);
    splitter->addWidget(lowerTabs_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    connect(evaluate_, &QPushButton::clicked, this, &PolicyPage::evaluateWithDialogs);
    setBusy(false);
}

QPushButton* PolicyPage::button(const QString& name, const QString& text)
{
    auto* b = new QPushButton(text, this);
    b->setObjectName(name);
    return b;
}

void PolicyPage::addLowerTab(const QString& title, const QString& hint, const QList<QPushButton*>& buttons,
                             QWidget* view)
{
    auto* tab = new QWidget(lowerTabs_);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* label = new QLabel(hint, tab);
    label->setWordWrap(true);
    bar->addWidget(label, 1);
    for (QPushButton* b : buttons)
        bar->addWidget(b);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    lowerTabs_->addTab(tab, title);
}

void PolicyPage::setDefaultModel(const QString& model, const core::model::Shape& input, qint64 classes)
{
    model_ = model;
    input_ = input;
    classes_ = classes;
}

void PolicyPage::evaluate(const QString& policy, const QStringList& tables)
{
    setBusy(true);
    Q_EMIT statusMessage(tr("Evaluating %1 on %n table(s)…", nullptr, static_cast<int>(tables.size())).arg(policy));
    jobs_.startJob([policy, tables, model = model_, input = input_,
                    classes = classes_] { return evaluatePolicy(policy, tables, model, input, classes); },
                   [this, policy, tables](const PolicyEvaluation& result) {
                       setBusy(false);
                       policy_ = policy;
                       const int n = static_cast<int>(tables.size());
                       ranks_->setTables(result.ranked);
                       giveRanksTheRoom();
                       const QString done = tr("%1 evaluated on %2").arg(policy, widgets::counted(n, tr("table"), tr("tables")));
                       Q_EMIT statusMessage(result.warning.isEmpty() ? done
                                                                     : tr("%1 (warning: %2)").arg(done, result.warning));
                       Q_EMIT evaluated(QString());
                       if (!tables.isEmpty())
                           judgeAgents(tables.front(), false); // the status bar keeps the evaluation's line
                   },
                   [this](const QString& reason) {
                       setBusy(false);
                       Q_EMIT statusMessage(reason);
                       Q_EMIT evaluated(reason);
                   });
}

void PolicyPage::showRanked(const QString& table, const QString& fallbackModel, const QString& agent,
                            const core::sim::Evaluation& evaluation)
{
    jobs_.startJob([table, fallbackModel, agent, evaluation] { return rankedTable(table, fallbackModel, agent, evaluation); },
                   [this](widgets::RankedTable table) {
                       setBusy(false);
                       ranks_->setTables({std::move(table)});
                       giveRanksTheRoom();
                       Q_EMIT ranked(QString());
                   },
                   [this](const QString& reason) {
                       setBusy(false);
                       Q_EMIT statusMessage(reason);
                       Q_EMIT ranked(reason);
                   });
}

void PolicyPage::judgeEveryAgent(const QString& table)
{
    judgeAgents(table, true);
}

void PolicyPage::judgeAgents(const QString& table, bool announce)
{
    if (announce)
        Q_EMIT statusMessage(tr("Judging every agent on %1…").arg(table));
    lineups_.startJob([table, policy = policy_, model = model_, input = input_,
                       classes = classes_] { return judgeAgentsOn(table, policy, model, input, classes); },
                      [this, table, announce](AgentLineup result) {
                          lineup_->setLineup(std::move(result.lineup), result.note);
                          if (announce)
                              Q_EMIT statusMessage(tr("Every agent judged on %1").arg(table));
                          Q_EMIT lineupShown(QString());
                      },
                      [this, announce](const QString& reason) {
                          if (announce)
                              Q_EMIT statusMessage(reason);
                          else
                              lineup_->clear(reason);
                          Q_EMIT lineupShown(reason);
                      });
}

void PolicyPage::openTransfer(const QString& folder)
{
    readTransfers({}, {folder}, false);
}

void PolicyPage::compareTransfer(const QString& folder)
{
    readTransfers(transfer_->runs(), {folder}, true);
}

void PolicyPage::openStudy()
{
    QStringList folders;
    try {
        for (const auto& run : core::transfer_study_runs())
            folders << QString::fromStdString(run.string());
    } catch (const std::exception& e) {
        const QString reason = QString::fromStdString(e.what());
        Q_EMIT statusMessage(reason);
        Q_EMIT transferOpened(reason);
        return;
    }
    readTransfers({}, folders, true);
}

void PolicyPage::readTransfers(std::vector<core::run::StudyRun> runs, const QStringList& folders, bool showStudy)
{
    const QString named = folders.join(QStringLiteral(", "));
    Q_EMIT statusMessage(tr("Reading the transfer run %1…").arg(named));
    struct Read {
        std::vector<core::run::StudyRun> runs;
        std::vector<core::run::StudyRow> study;
        core::run::StudyTests tests;
    };
    transfers_.startJob(
        [runs = std::move(runs), folders]() mutable {
            for (const auto& folder : folders)
                runs.push_back(core::run::read_study_run(folder.toStdString()));
            Read read;
            read.study = core::run::compare_transfers(runs); // throws when the runs judged different tables
            read.tests = core::run::test_study(runs, read.study, core::run::read_study_tables(read.study));
            read.runs = std::move(runs);
            return read;
        },
        [this, named, showStudy](Read read) {
            transfer_->setRuns(std::move(read.runs), std::move(read.study), std::move(read.tests), showStudy);
            lowerTabs_->setCurrentWidget(transfer_->parentWidget());
            giveRanksTheRoom();
            Q_EMIT statusMessage(tr("Transfer run %1").arg(named));
            Q_EMIT transferOpened(QString());
        },
        [this](const QString& reason) {
            Q_EMIT statusMessage(reason);
            Q_EMIT transferOpened(reason);
        });
}

void PolicyPage::setBusy(bool busy)
{
    evaluate_->setEnabled(!busy);
    evaluate_->setText(busy ? tr("Evaluating…") : tr("Evaluate a policy on tables…"));
}

void PolicyPage::giveRanksTheRoom()
{
    // A grid of rank charts needs most of the height; the decisions keep a strip.
    // Proportions, so that it holds before the page was ever shown (then the height is 0).
    splitter_->setSizes({1000, 4000});
}

void PolicyPage::evaluateWithDialogs()
{
    const QString policy =
        widgets::openFileName(this, widgets::FileKind::Policy, tr("Policy to evaluate"), tr("Policies (*.pt);;All files (*)"));
    if (policy.isEmpty())
        return;
    const QStringList tables = widgets::openFileNames(this, widgets::FileKind::Table, tr("Tables to evaluate it on"),
                                             tr("Simulation tables (*.csv);;All files (*)"));
    if (!tables.isEmpty())
        evaluate(policy, tables);
}

} // namespace rlda::app
