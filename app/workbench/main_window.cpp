// The main window: the parts made and connected (main_window.h). The pages' signals, the docks'
// and the menus' actions are routed here to whoever acts on them; opening a file, a table, a run or
// a policy fills the pages that show it.
#include "app/workbench/main_window.h"

#include "app/workbench/close_guard.h"
#include "app/workbench/drop_receiver.h"
#include "app/workbench/experiment_dock.h"
#include "app/workbench/help_menu.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/models_page.h"
#include "app/workbench/paper_figures_dialog.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/recent_menus.h"
#include "app/workbench/reproduce_dialog.h"
#include "app/workbench/run_feed.h"
#include "app/workbench/shipped_tables.h"
#include "app/workbench/shortcut_over_fields.h"
#include "app/workbench/sweep_page.h"
#include "core/io/comparison.h"
#include "core/io/run_reader.h"
#include "core/table/table.h"
#include "core/util/error_text.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_control.h"
#include "widgets/run/seed_list.h"
#include "widgets/run/sweep_panel.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStatusBar>
#include <QTime>

#include <chrono>
#include <cstdio>

namespace rlda::app {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    // Before any page reads a setting (the Runs page's columns): a FIFO there would block it.
    (void)workspace::guardSettingsFile();
    setWindowTitle(tr("RLDA Workbench"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    pages_ = new PageTabs(this);
    setCentralWidget(pages_);
    connectPages();
    buildExperimentDock();
    buildLogDock();
    buildMenus();
    connectParts();
    // A path only: main() and restoreWorkspace() choose the folder the user's runs go into.
    setRunsRoot(workspace::dataRunsFolder());
    statusBar()->showMessage(tr("Ready"));
    workspace::placeOnScreen(*this);
    defaultLayout_ = saveState(workspace::kStateVersion);
}

MainWindow::~MainWindow()
{
    controller_.shutdown();
    // Reads still in flight answer nobody now (their trackers go with the window); they are
    // given a bounded time to end before the program goes on to exit.
    if (!widgets::waitForJobs(std::chrono::seconds(5)))
        qWarning("rlda-workbench: a background read is still running after 5 s; not waiting for it");
}

void MainWindow::connectPages()
{
    connect(pages_, &PageTabs::exported, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(pages_, &PageTabs::exportProblems, this, &MainWindow::log);
    auto* models = pages_->models;
    auto* policy = pages_->policy;
    auto* sweeps = pages_->sweeps;
    auto* runs = pages_->runs;
    connect(models, &ModelsPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m); });
    connect(policy, &PolicyPage::statusMessage, this, &MainWindow::log);
    connect(policy, &PolicyPage::evaluated, this, [this, policy](const QString& error) {
        if (error.isEmpty())
            recent_->add(workspace::Recent::Policies, policy->policy());
    });
    connect(pages_->learning, &LearningPage::learnRequested, this, &MainWindow::startLearning);
    connect(sweeps->panel(), &widgets::SweepPanel::submitRequested, this,
            [this, sweeps](core::config::SweepBackend backend, int parts) {
                if (!editor()->isValid()) {
                    statusBar()->showMessage(tr("Fix the experiment first"));
                    return;
                }
                sweeps->submit(editor()->config(), backend, parts);
            });
    connect(sweeps, &SweepPage::statusMessage, this, &MainWindow::log);
    connect(sweeps, &SweepPage::finished, this, [this](const QString& folder) {
        const QString table = QDir(folder).filePath(QStringLiteral("table.csv"));
        log(tr("Sweep done: %1").arg(table));
        // The table a user built is what they look at next: on the Tables page, in File → Recent
        // tables, and on the Learning page (openTable does all three).
        openTable(table);
    });
    connect(sweeps->panel(), &widgets::SweepPanel::openTableRequested, this,
            [this, sweeps] { openTable(QDir(sweeps->folder()).filePath(QStringLiteral("table.csv"))); });
    connect(runs, &widgets::RunBrowser::runOpened, this, &MainWindow::showRun);
    connect(runs->follower(), &widgets::RunFollower::appended, this, [this](const core::io::RunData& more) {
        pages_->training->appendRun(more); // each view takes only the run it shows
        pages_->learning->view()->appendRun(more);
    });
    connect(runs->follower(), &widgets::RunFollower::rewritten, this, &MainWindow::showRun);
    connect(runs, &widgets::RunBrowser::tableOpened, this, &MainWindow::openTable);
    connect(runs, &widgets::RunBrowser::rootChosen, this, &MainWindow::useRunsFolder);
    connect(pages_, &QTabWidget::currentChanged, this, [this, runs] {
        // Only a new runs root moves the Runs page; a folder chosen there stays chosen.
        if (currentPage() == Page::Runs && runsListed_ != runsRoot_) {
            runsListed_ = runsRoot_;
            runs->setRoot(runsRoot_);
        }
    });
    connect(runs, &widgets::RunBrowser::overlayRequested, this, [this](const QList<core::io::RunData>& overlaid) {
        if (overlaid.isEmpty())
            return;
        if (overlaid.front().kind == core::io::RunKind::Learning) { // a colour and a legend entry per run
            pages_->learning->view()->setRuns(overlaid);
            showPage(Page::Learning);
            return;
        }
        pages_->training->setRuns(overlaid); // a colour and a legend entry per run, the first included
        showPage(Page::Training);
    });
}

void MainWindow::buildExperimentDock()
{
    experiment_ = new ExperimentDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, experiment_);
    connect(experiment_, &ExperimentDock::opened, this, [this](const QString& path) {
        recent_->add(workspace::Recent::Experiments, path);
    });
    connect(experiment_, &ExperimentDock::note, this, &MainWindow::log);
    connect(experiment_, &ExperimentDock::problem, this, &MainWindow::say);
    connect(experiment_, &ExperimentDock::status, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(editor(), &widgets::ExperimentEditor::changed, this, [this] { pages_->followExperiment(editor()->config()); });
    connect(runControl(), &widgets::RunControl::startRequested, this, &MainWindow::startTraining);
    connect(runControl(), &widgets::RunControl::pauseRequested, &controller_, &RunController::pause);
    connect(runControl(), &widgets::RunControl::resumeRequested, &controller_, &RunController::resume);
    connect(runControl(), &widgets::RunControl::cancelRequested, &controller_, &RunController::cancel);
}

void MainWindow::buildLogDock()
{
    auto* dock = new QDockWidget(tr("Log"), this);
    dock->setObjectName(QStringLiteral("logDock"));
    log_ = new QPlainTextEdit(dock);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    log_->setPlaceholderText(tr("Warnings, errors and run events appear here."));
    dock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {110}, Qt::Vertical);
}

void MainWindow::buildFileMenu()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open experiment…"), QKeySequence::Open, experiment_, &ExperimentDock::openWithDialog);
    file->addAction(tr("Open the &default experiment"), this, &MainWindow::openDefaultExperiment);
    file->addAction(tr("&Save experiment"), QKeySequence::Save, this, [this] { experiment_->save(false); });
    file->addAction(tr("Save experiment &as…"), QKeySequence::SaveAs, this, [this] { experiment_->save(true); });
    file->addSeparator();
    file->addAction(tr("Open &run folder…"), this, [this] {
        const QString dir = widgets::existingFolder(this, widgets::FileKind::RunFolder, tr("Open run folder"), runsRoot_);
        if (!dir.isEmpty())
            openRun(dir);
    });
    file->addAction(tr("Runs &folder…"), this, [this] {
        const QString dir = widgets::existingFolder(this, widgets::FileKind::RunsRoot, tr("Folder new runs go into"), runsRoot_);
        if (dir.isEmpty())
            return;
        useRunsFolder(dir);
        showPage(Page::Runs);
    });
    file->addAction(tr("Open simulation &table…"), this, [this] {
        const QString path = widgets::openFileName(this, widgets::FileKind::Table, tr("Open simulation table"),
                                          tr("Simulation tables (*.csv);;All files (*)"));
        if (!path.isEmpty())
            openTable(path);
    });
    shipped_ = new ShippedTables(*file, this);
    connect(shipped_, &ShippedTables::openRequested, this, &MainWindow::openTable);
    file->addSeparator();
    recent_ = new RecentMenus(*file, this);
    connect(recent_, &RecentMenus::openRequested, this, &MainWindow::openRecent);
    file->addSeparator();
    const QAction* exportPlot = file->addAction(tr("&Export plot…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                                                [this] { pages_->exportCurrentWithDialog(runsRoot_); });
    new ShortcutOverFields(*exportPlot, *this);
    file->addAction(tr("Export &all plots and data…"), this,
                    [this] { pages_->exportAllWithDialog(currentRun().isEmpty() ? runsRoot_ : currentRun()); });
    file->addAction(tr("&Paper figures…"), this, &MainWindow::paperFiguresWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildMenus()
{
    buildFileMenu();
    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Train the experiment"), QKeySequence(Qt::Key_F5), this, &MainWindow::startTraining);
    run->addAction(tr("Train and &compare with no adaptation"), QKeySequence(Qt::CTRL | Qt::Key_F5), this,
                   &MainWindow::startComparison);
    run->addAction(tr("Train and compare over &seeds…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5),
                   this, &MainWindow::seedComparisonWithDialog);
    run->addAction(tr("&Learn from the table"), QKeySequence(Qt::Key_F6), this, &MainWindow::startLearning);
    run->addAction(tr("&Pause / resume"), QKeySequence(Qt::Key_F7), runControl(),
                   &widgets::RunControl::togglePause);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::SHIFT | Qt::Key_F5), &controller_, &RunController::cancel);
    run->addSeparator();
    run->addAction(tr("&Reproduce the paper…"), this, &MainWindow::reproduceWithDialog);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < pages_->count(); ++i)
        view->addAction(pages_->tabText(i), QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)), this,
                        [this, i] { pages_->setCurrentIndex(i); });
    // Every dock, shown and hidden from here: a closed Log comes back without a right-click.
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    auto* help = new HelpMenu(*this, *helpMenu);
    connect(help, &HelpMenu::documentationOpened, this, [this](const QString& file, const QString& error) {
        const QString text = error.isEmpty() ? tr("Opened the documentation: %1").arg(file) : error;
        statusBar()->showMessage(text);
        if (!error.isEmpty())
            log(error);
    });
}

void MainWindow::openRecent(workspace::Recent kind, const QString& path)
{
    switch (kind) {
    case workspace::Recent::Experiments: openExperiment(path); break;
    case workspace::Recent::Tables: openTable(path); break;
    case workspace::Recent::Policies: openPolicy(path); break;
    case workspace::Recent::Runs: openRun(path); break;
    }
}

void MainWindow::restoreWorkspace()
{
    namespace key = workspace::key;
    workspace_ = true;
    recent_->setInUse(true);
    if (const QString warning = workspace::guardSettingsFile(); !warning.isEmpty())
        say(warning);
    const QSettings s;
    setRunsRoot(workspace::runsFolder());
    if (const QByteArray geometry = s.value(key::kGeometry).toByteArray(); !geometry.isEmpty())
        restoreGeometry(geometry);
    if (const QByteArray state = s.value(key::kState).toByteArray(); !state.isEmpty())
        restoreState(state, workspace::kStateVersion);
    pages_->restoreSettings(s);
    recent_->refresh();
}

void MainWindow::saveWorkspace() const
{
    namespace key = workspace::key;
    if (!workspace_)
        return;
    QSettings s;
    s.setValue(key::kGeometry, saveGeometry());
    s.setValue(key::kState, saveState(workspace::kStateVersion));
    pages_->saveSettings(s);
    if (experiment_->edited()) { // unsaved edits are kept, not lost, as editors keep a draft
        s.setValue(key::kDraft, experiment_->draft());
        s.setValue(key::kDraftOrigin, experiment_->origin());
    } else {
        s.remove(key::kDraft);
        s.remove(key::kDraftOrigin);
    }
}

bool MainWindow::openDraftExperiment()
{
    namespace key = workspace::key;
    const QSettings s;
    const QString draft = s.value(key::kDraft).toString();
    return !draft.isEmpty() && experiment_->openDraft(draft, s.value(key::kDraftOrigin).toString());
}

void MainWindow::resetLayout()
{
    restoreState(defaultLayout_, workspace::kStateVersion);
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        dock->show();
    // The docks as the workbench starts with them; a maximised window stays so (issue 43, item 2).
    if (!isMaximized() && !isFullScreen())
        workspace::placeOnScreen(*this);
    statusBar()->showMessage(tr("The layout is the one the workbench starts with"));
}

void MainWindow::connectParts()
{
    feed_ = new RunFeed(controller_, *pages_, *runControl(), this);
    connect(feed_, &RunFeed::log, this, &MainWindow::log);
    connect(feed_, &RunFeed::status, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(feed_, &RunFeed::activeChanged, editor(), [this](bool active) { editor()->setEnabled(!active); });
    connect(feed_, &RunFeed::ended, this, [this] {
        if (pages_->runs->root() == runsRoot_)
            pages_->runs->refresh();
    });

    closeGuard_ = new CloseGuard(controller_, *this);
    closeGuard_->setSweepFolder(
        [this] { return pages_->sweeps->isActive() ? pages_->sweeps->folder() : QString(); });
    connect(closeGuard_, &CloseGuard::saveRequested, this, &MainWindow::saveWorkspace);
    connect(closeGuard_, &CloseGuard::message, this, &MainWindow::say);
    connect(closeGuard_, &CloseGuard::keptRunning, this, [this](const QString& text) {
        log(text);
        std::fprintf(stderr, "rlda-workbench: %s\n", qPrintable(text));
        hide();
    });

    drops_ = new DropReceiver(*this);
    connect(drops_, &DropReceiver::status, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(drops_, &DropReceiver::problem, this, &MainWindow::say);
    connect(drops_, &DropReceiver::note, this, &MainWindow::log);
    connect(drops_, &DropReceiver::experimentDropped, this, &MainWindow::openExperiment);
    connect(drops_, &DropReceiver::modelDropped, this, [this](const QString& model) {
        showPage(Page::Models);
        previewModel(model);
    });
    connect(drops_, &DropReceiver::tableDropped, this, &MainWindow::openTable);
    connect(drops_, &DropReceiver::policyDropped, this, &MainWindow::openPolicy);
    connect(drops_, &DropReceiver::runDropped, this, [this](const QString& run) {
        showRunInBrowser(run);
        recent_->add(workspace::Recent::Runs, run);
    });
    connect(drops_, &DropReceiver::runsFolderDropped, this, [this](const QString& folder) {
        runsListed_ = runsRoot_; // showing the page must not move it back to the runs root
        showPage(Page::Runs);
        pages_->runs->setRoot(folder);
        statusBar()->showMessage(tr("Runs under %1").arg(folder));
    });
    connect(drops_, &DropReceiver::handled, this, &MainWindow::dropHandled);
}

void MainWindow::openDefaultExperiment() { experiment_->openDefault(); }

bool MainWindow::openExperiment(const QString& path) { return experiment_->open(path); }

void MainWindow::reattachSweeps() { pages_->sweeps->reattach(); }

QString MainWindow::currentRun() const { return feed_->currentRun(); }

QString MainWindow::comparisonSummary() const { return feed_->comparisonSummary(); }

void MainWindow::setRunsRoot(const QString& dir)
{
    runsRoot_ = dir;
    pages_->sweeps->setRunsRoot(dir);
    // Listing reads every run, which takes a while under a folder of long runs: it waits until
    // the Runs page is shown.
    if (currentPage() == Page::Runs) {
        runsListed_ = dir;
        if (pages_->runs->root() != dir) // chosen on the page itself: listed already
            pages_->runs->setRoot(dir);
    }
}

void MainWindow::useRunsFolder(const QString& dir)
{
    setRunsRoot(dir);
    if (workspace_)
        workspace::setRunsFolder(dir); // and at the next start
    statusBar()->showMessage(tr("New runs go into %1").arg(dir));
}

QString MainWindow::newRunFolder(const QString& name) const
{
    const QString stem = QStringLiteral("%1-%2").arg(
        name.isEmpty() ? QStringLiteral("run") : name, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString path = QDir(runsRoot_).filePath(stem);
    for (int i = 2; QFileInfo::exists(path); ++i)
        path = QDir(runsRoot_).filePath(QStringLiteral("%1-%2").arg(stem).arg(i));
    return path;
}

bool MainWindow::startTraining() { return startExperiment(false); }

bool MainWindow::startComparison() { return startExperiment(true); }

bool MainWindow::startSeedComparisons(const std::vector<std::uint64_t>& seeds)
{
    return startExperiment(true, seeds);
}

void MainWindow::seedComparisonWithDialog()
{
    if (refusedWhileActive())
        return;
    QSettings settings;
    const QString last =
        settings.value(QLatin1String(workspace::key::kComparisonSeeds), QStringLiteral("42 43 44"))
            .toString();
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Train and compare over seeds"),
                              tr("Seeds (job.seed), separated by spaces: each trains with and "
                                 "without adaptation, and the mean difference is stated with its "
                                 "95 % interval (two or more seeds give one)"),
                              QLineEdit::Normal, last, &ok);
    if (!ok)
        return;
    QString problem;
    const auto seeds = widgets::parseSeeds(text, &problem);
    if (seeds.empty()) {
        say(problem.isEmpty() ? tr("Seeds: give at least one") : problem);
        return;
    }
    settings.setValue(QLatin1String(workspace::key::kComparisonSeeds), text.simplified());
    startSeedComparisons(seeds);
}

bool MainWindow::refusedWhileActive()
{
    if (controller_.isActive())
        statusBar()->showMessage(tr("A run is in progress: cancel it first"));
    return controller_.isActive();
}

bool MainWindow::startExperiment(bool compare, const std::vector<std::uint64_t>& seeds)
{
    if (refusedWhileActive())
        return false;
    if (!editor()->isValid()) {
        const auto problems = editor()->problems();
        const QString first = problems.isEmpty() ? QString()
                                                 : QString::fromStdString(problems.front().key + ": " +
                                                                          problems.front().reason);
        statusBar()->showMessage(tr("Fix the experiment first: %1").arg(first));
        return false;
    }
    const auto config = editor()->config();
    const QString folder = newRunFolder(QString::fromStdString(config.name));
    if (!seeds.empty()) {
        try { // a seed given twice is refused here, before the pages are cleared (the folders: on the worker)
            core::run::check_seeds(seeds);
        } catch (const std::exception& e) {
            say(QString::fromStdString(core::error_line(e)));
            return false;
        }
    }
    feed_->beginTraining(folder);
    showPage(Page::Training);
    const bool started = !seeds.empty() ? controller_.startSeedComparisons(config, folder, seeds)
                         : compare      ? controller_.startComparison(config, folder)
                                        : controller_.startTraining(config, folder);
    if (!started)
        return false;
    runControl()->setState(RunState::Running); // at once; the worker confirms when it starts
    if (!seeds.empty())
        log(tr("Comparing over %n seed(s): each with adaptation in %1/seed-S, then without it in "
               "%1/seed-S-none",
               nullptr, static_cast<int>(seeds.size()))
                .arg(folder));
    else if (compare)
        log(tr("Comparing: %1 with adaptation, then the same job without it in %2")
                .arg(folder, QString::fromStdString(core::run::baseline_folder(folder.toStdString()).string())));
    return true;
}

bool MainWindow::startLearning()
{
    if (refusedWhileActive())
        return false;
    if (const QString problem = pages_->learning->problem(); !problem.isEmpty()) {
        statusBar()->showMessage(problem);
        showPage(Page::Learning);
        return false;
    }
    learningRun_ = newRunFolder(QStringLiteral("learn-%1").arg(QFileInfo(pages_->learning->table()).completeBaseName()));
    feed_->beginLearning(learningRun_);
    showPage(Page::Learning);
    if (!controller_.startLearning(pages_->learning->settings(), learningRun_))
        return false;
    runControl()->setState(RunState::Running);
    return true;
}

void MainWindow::openTable(const QString& path)
{
    tableJob_.startJob(
        // A table folder means its table.csv; its metadata names it, and a partial one still shows.
        [path] {
            // What its seeds say is computed here, off the GUI thread, with the table.
            auto t = core::sim::open_table(path.toStdString(), {}, /*allow_incomplete=*/true);
            auto trust = core::sim::table_trust(t.table);
            return std::make_pair(std::move(t), std::move(trust));
        },
        [this, path](std::pair<core::sim::OpenedTable, core::sim::TableTrust> opened) {
            tablePath_ = QString::fromStdString(opened.first.file.string());
            pages_->showTable(opened.first, std::move(opened.second), QFileInfo(path).completeBaseName());
            if (pages_->learning->table().isEmpty() || !controller_.isActive())
                pages_->learning->setTable(tablePath_);
            recent_->add(workspace::Recent::Tables, path);
            Q_EMIT tableShown(QString());
        },
        [this](const QString& error) {
            say(error);
            Q_EMIT tableShown(error);
        });
}

void MainWindow::openRun(const QString& dir)
{
    runJob_.startJob([dir] { return core::io::read_run(dir.toStdString()); },
                     [this, dir](const core::io::RunData& run) {
                         showRun(run);
                         recent_->add(workspace::Recent::Runs, dir);
                         Q_EMIT runShown(QString());
                     },
                     [this](const QString& error) {
                         say(error);
                         Q_EMIT runShown(error);
                     });
}

void MainWindow::previewModel(const QString& nameOrPath, const QString& input, int classes)
{
    pages_->previewModel(nameOrPath, input, classes, editor()->config().dataset);
}

void MainWindow::showRun(const core::io::RunData& run)
{
    for (const auto& p : run.problems)
        log(QString::fromStdString(p));
    pages_->showRun(run);
    pages_->runs->follower()->follow(run); // a run still being written keeps growing in its page
    statusBar()->showMessage(tr("Opened %1 (read-only)").arg(QString::fromStdString(run.path.string())));
}

void MainWindow::log(const QString& text)
{
    log_->appendPlainText(QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
}

void MainWindow::say(const QString& text)
{
    statusBar()->showMessage(text);
    log(text);
}

PaperFiguresDialog* MainWindow::paperFiguresDialog()
{
    if (!paperFigures_) {
        paperFigures_ = new PaperFiguresDialog(this);
        connect(paperFigures_, &PaperFiguresDialog::finished, this, [this](bool ok) {
            log(ok ? tr("Paper figures written to %1").arg(paperFigures_->outputFolder())
                   : tr("Paper figures: %1").arg(paperFigures_->status()));
        });
    }
    return paperFigures_;
}

void MainWindow::paperFiguresWithDialog()
{
    // What is open now is what a user most likely wants drawn: preselected, the rest one click away.
    auto* dialog = paperFiguresDialog();
    QStringList tables{tablePath_, pages_->learning->table()};
    tables.removeAll(QString());
    dialog->addTables(tables);
    QStringList runs;
    for (const auto& run : pages_->runs->selectedRuns())
        if (run.kind == core::io::RunKind::Learning)
            runs << QString::fromStdString(run.path.string());
    if (!learningRun_.isEmpty() && QFileInfo::exists(learningRun_ + QStringLiteral("/policy.pt")))
        runs << learningRun_;
    dialog->addRuns(runs);
    // A new folder, as `rlda figures --out` wants one: figures drawn before are never replaced.
    if (dialog->outputFolder().isEmpty() || !QDir(dialog->outputFolder()).isEmpty())
        dialog->setOutputFolder(newRunFolder(QStringLiteral("figures")));
    dialog->show();
    dialog->raise();
}

ReproduceDialog* MainWindow::reproduceDialog()
{
    if (!reproduce_) {
        reproduce_ = new ReproduceDialog(this);
        connect(reproduce_, &ReproduceDialog::finished, this, [this](bool) { log(reproduce_->status()); });
    }
    return reproduce_;
}

void MainWindow::reproduceWithDialog()
{
    auto* dialog = reproduceDialog();
    if (!dialog->isRunning())
        dialog->setOutputFolder(newRunFolder(QStringLiteral("reproduce")));
    dialog->show();
    dialog->raise();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (closeGuard_->mayClose(currentRun())) {
        event->accept();
        Q_EMIT closed();
    } else {
        event->ignore();
    }
}

void MainWindow::openPolicy(const QString& policy)
{
    QStringList tables{tablePath_, pages_->learning->table()};
    tables.removeAll(QString());
    tables.removeDuplicates();
    if (tables.isEmpty())
        tables = shipped_->paperTables(); // empty until the File menu's index has answered
    if (tables.isEmpty()) {
        say(tr("%1: open a simulation table first, to evaluate the policy on").arg(policy));
        return;
    }
    showPage(Page::Policy);
    pages_->policy->evaluate(policy, tables);
}

void MainWindow::showRunInBrowser(const QString& dir)
{
    const QString run = QDir::cleanPath(QDir::current().absoluteFilePath(dir));
    runsListed_ = runsRoot_; // showing the page must not move it back to the runs root
    showPage(Page::Runs);
    connect(
        pages_->runs, &widgets::RunBrowser::listed, this,
        [this, run] {
            for (int i = 0; i < pages_->runs->runs().size(); ++i)
                if (QDir::cleanPath(QString::fromStdString(pages_->runs->runs()[i].path.string())) == run)
                    pages_->runs->selectRuns({i});
        },
        Qt::SingleShotConnection);
    pages_->runs->setRoot(QFileInfo(run).absolutePath());
    statusBar()->showMessage(tr("Run %1, among the runs beside it").arg(run));
}

} // namespace rlda::app
