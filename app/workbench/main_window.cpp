// The main window: the parts made and connected (main_window.h). The pages' signals, the docks'
// and the menus' actions are routed here to whoever acts on them; opening a file, a table, a run or
// a policy fills the pages that show it.
#include "app/workbench/main_window.h"

#include "app/workbench/close_guard.h"
#include "app/workbench/drop_receiver.h"
#include "app/workbench/export_dialog.h"
#include "app/workbench/file_dialogs.h"
#include "app/workbench/help_menu.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/models_page.h"
#include "app/workbench/paper_figures_dialog.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/recent_menus.h"
#include "app/workbench/reproduce_dialog.h"
#include "app/workbench/run_feed.h"
#include "app/workbench/shipped_tables.h"
#include "app/workbench/sweep_page.h"
#include "core/config/dataset_shape.h"
#include "core/config/experiment_io.h"
#include "core/io/run_reader.h"
#include "core/run/experiment.h"
#include "core/sim/table.h"
#include "core/util/error_text.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_control.h"
#include "widgets/run/sweep_panel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTime>
#include <QVBoxLayout>

#include <chrono>
#include <cstdio>
#include <exception>

namespace rlda::app {
namespace {

// The sample shape and class count a config's dataset gives the model: what tables of this job
// were built with, what a policy for it sees and what its parameters are counted at. The dataset
// config says (core::config::sample_shape); a kind it does not know (the editor marks it) leaves the
// configured shape, so that a half-edited experiment never throws here.
core::config::SampleShape sampleOf(const core::config::DatasetConfig& d)
{
    try {
        return core::config::sample_shape(d);
    } catch (const std::exception&) {
        return {d.shape, d.classes};
    }
}

core::model::Shape inputOf(const core::config::DatasetConfig& d) { return sampleOf(d).input; }

qint64 classesOf(const core::config::DatasetConfig& d) { return sampleOf(d).classes; }

// The window's size at start and after View -> Reset layout, as far as its screen has room.
constexpr QSize kDefaultSize(1440, 900);

// The default size on the screen the window is on, centred in its free area (no panel under it).
void placeOnScreen(QWidget& window)
{
    const QScreen* screen = window.screen();
    if (!screen) {
        window.resize(kDefaultSize);
        return;
    }
    const QRect free = screen->availableGeometry();
    // Room for a window manager's frame and title bar around the window's own size.
    const QSize size = kDefaultSize.boundedTo(free.size() - QSize(16, 48)).expandedTo(window.minimumSizeHint());
    window.resize(size);
    window.move(free.center() - QPoint(size.width() / 2, size.height() / 2));
}

} // namespace

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
    // eventFilter: the export shortcut over a text field's own Ctrl+E, watched on the widget that has
    // the focus (where Qt sends a shortcut's claim) rather than on every event of the program.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget* old, QWidget* now) {
        if (old)
            old->removeEventFilter(this);
        if (now && now->window() == this)
            now->installEventFilter(this);
    });
    // A path only: main() and restoreWorkspace() choose the folder the user's runs go into.
    setRunsRoot(workspace::dataRunsFolder());
    statusBar()->showMessage(tr("Ready"));
    placeOnScreen(*this);
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

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // A text field claims Ctrl+E (end of line, as in Emacs) before any shortcut sees it, so that
    // File → Export plot would do nothing while the Tables filter or a spin box has the focus.
    // Refusing the claim for this window's fields lets the shortcut go on to the action.
    if (event->type() == QEvent::ShortcutOverride && exportAction_) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (watched->isWidgetType() && QKeySequence(key->keyCombination()) == exportAction_->shortcut()) {
            event->ignore(); // unclaimed: the shortcut map goes on to the action
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
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
                if (!editor_->isValid()) {
                    statusBar()->showMessage(tr("Fix the experiment first"));
                    return;
                }
                sweeps->submit(editor_->config(), backend, parts);
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
        pages_->training->setRuns(overlaid); // a colour and a legend entry per run, the first included
        showPage(Page::Training);
    });
}

void MainWindow::buildExperimentDock()
{
    auto* dock = new QDockWidget(tr("Experiment"), this);
    dock->setObjectName(QStringLiteral("experimentDock"));
    // Closable too: View brings it back (its toggle action is disabled on a dock that cannot close).
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    auto* content = new QWidget(dock);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    editor_ = new widgets::ExperimentEditor(content);
    auto* scroll = new QScrollArea(content);
    scroll->setWidget(editor_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    runControl_ = new widgets::RunControl(content);
    layout->addWidget(scroll, 1);
    layout->addWidget(runControl_);
    dock->setWidget(content);
    // Wide enough for the form without a horizontal scroll bar.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    dock->setMinimumWidth(editor_->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 16);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    connect(editor_, &widgets::ExperimentEditor::changed, this, &MainWindow::syncModelFromExperiment);
    connect(editor_, &widgets::ExperimentEditor::openRequested, this, &MainWindow::openExperimentWithDialog);
    connect(editor_, &widgets::ExperimentEditor::saveAsRequested, this, [this] { saveExperiment(true); });
    connect(runControl_, &widgets::RunControl::startRequested, this, &MainWindow::startTraining);
    connect(runControl_, &widgets::RunControl::pauseRequested, &controller_, &RunController::pause);
    connect(runControl_, &widgets::RunControl::resumeRequested, &controller_, &RunController::resume);
    connect(runControl_, &widgets::RunControl::cancelRequested, &controller_, &RunController::cancel);
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
    file->addAction(tr("&Open experiment…"), QKeySequence::Open, this, &MainWindow::openExperimentWithDialog);
    file->addAction(tr("Open the &default experiment"), this, &MainWindow::openDefaultExperiment);
    file->addAction(tr("&Save experiment"), QKeySequence::Save, this, [this] { saveExperiment(false); });
    file->addAction(tr("Save experiment &as…"), QKeySequence::SaveAs, this, [this] { saveExperiment(true); });
    file->addSeparator();
    file->addAction(tr("Open &run folder…"), this, [this] {
        const QString dir = existingFolder(this, FileKind::RunFolder, tr("Open run folder"), runsRoot_);
        if (!dir.isEmpty())
            openRun(dir);
    });
    file->addAction(tr("Runs &folder…"), this, [this] {
        const QString dir = existingFolder(this, FileKind::RunsRoot, tr("Folder new runs go into"), runsRoot_);
        if (dir.isEmpty())
            return;
        setRunsRoot(dir);
        if (workspace_)
            workspace::setRunsFolder(dir); // and at the next start
        statusBar()->showMessage(tr("New runs go into %1").arg(dir));
        showPage(Page::Runs);
    });
    file->addAction(tr("Open simulation &table…"), this, [this] {
        const QString path = openFileName(this, FileKind::Table, tr("Open simulation table"),
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
    exportAction_ =
        file->addAction(tr("&Export plot…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                        [this] { pages_->exportCurrentWithDialog(runsRoot_); });
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
    run->addAction(tr("&Learn from the table"), QKeySequence(Qt::Key_F6), this, &MainWindow::startLearning);
    run->addAction(tr("&Pause / resume"), QKeySequence(Qt::Key_F7), this, [this] {
        if (controller_.state() == RunState::Paused)
            controller_.resume();
        else
            controller_.pause();
    });
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
    if (const QString warning = workspace::guardSettingsFile(); !warning.isEmpty()) {
        log(warning);
        statusBar()->showMessage(warning);
    }
    const QSettings s;
    setRunsRoot(workspace::runsFolder());
    if (const QByteArray geometry = s.value(key::kGeometry).toByteArray(); !geometry.isEmpty())
        restoreGeometry(geometry);
    if (const QByteArray state = s.value(key::kState).toByteArray(); !state.isEmpty())
        restoreState(state, workspace::kStateVersion);
    if (const auto page = PageTabs::fromName(s.value(key::kPage).toString()))
        showPage(*page);
    if (const int span = s.value(key::kTrainingSmoothing).toInt(); span >= 1)
        pages_->training->setSmoothingSpan(span);
    if (const int window = s.value(key::kLearningWindow).toInt(); window >= 1)
        pages_->learning->view()->setWindow(window);
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
    s.setValue(key::kPage, PageTabs::name(currentPage()));
    s.setValue(key::kTrainingSmoothing, pages_->training->smoothingSpan());
    s.setValue(key::kLearningWindow, pages_->learning->view()->window());
}

void MainWindow::resetLayout()
{
    restoreState(defaultLayout_, workspace::kStateVersion);
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        dock->show();
    if (isMaximized() || isFullScreen())
        showNormal();
    placeOnScreen(*this);
    statusBar()->showMessage(tr("The layout is the one the workbench starts with"));
}

void MainWindow::connectParts()
{
    feed_ = new RunFeed(controller_, *pages_, *runControl_, this);
    connect(feed_, &RunFeed::log, this, &MainWindow::log);
    connect(feed_, &RunFeed::status, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(feed_, &RunFeed::activeChanged, editor_, [this](bool active) { editor_->setEnabled(!active); });
    connect(feed_, &RunFeed::ended, this, [this] {
        if (pages_->runs->root() == runsRoot_)
            pages_->runs->refresh();
    });

    closeGuard_ = new CloseGuard(controller_, *this);
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

void MainWindow::openDefaultExperiment()
{
    QFile file(QStringLiteral(":/config/default.toml"));
    if (!file.open(QIODevice::ReadOnly)) {
        log(tr("The built-in default experiment is missing"));
        return;
    }
    try {
        editor_->setConfig(core::config::parse_experiment(file.readAll().toStdString(), "default.toml"));
        log(tr("Opened the default experiment: ConvNet2 on a Fashion-MNIST subset, one more GPU at 20 s"));
    } catch (const std::exception& e) {
        log(QString::fromStdString(core::error_line(e)));
    }
}

bool MainWindow::openExperiment(const QString& path)
{
    QString error;
    if (!editor_->loadFile(path, &error)) {
        log(error);
        statusBar()->showMessage(error);
        return false;
    }
    log(tr("Opened %1").arg(path));
    recent_->add(workspace::Recent::Experiments, path);
    return true;
}

void MainWindow::openExperimentWithDialog()
{
    const QString path =
        openFileName(this, FileKind::Experiment, tr("Open experiment"), tr("Experiments (*.toml);;All files (*)"));
    if (!path.isEmpty())
        openExperiment(path);
}

void MainWindow::saveExperiment(bool askForName)
{
    QString path = editor_->fileName();
    if (askForName || path.isEmpty() || path.startsWith(QLatin1Char(':')))
        path = saveFileName(this, FileKind::Experiment, tr("Save experiment"),
                            path.isEmpty() ? QStringLiteral("experiment.toml") : path, tr("Experiments (*.toml)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!editor_->saveFile(path, &error)) {
        log(error);
    } else {
        statusBar()->showMessage(tr("Saved %1").arg(path));
        recent_->add(workspace::Recent::Experiments, path);
    }
}

void MainWindow::syncModelFromExperiment()
{
    const auto c = editor_->config();
    const QString model = QString::fromStdString(c.job.model);
    if (pages_->learning->table().isEmpty()) // a chosen table names its own model
        pages_->learning->setModel(model, inputOf(c.dataset), classesOf(c.dataset));
    pages_->policy->setDefaultModel(model, inputOf(c.dataset), classesOf(c.dataset));
    if (!c.simulation.table.empty() && pages_->learning->table().isEmpty())
        pages_->learning->setTable(QString::fromStdString(c.simulation.table));
    // The Models page (and the status bar's parameter count) follow the experiment's model and
    // input when either changes; a model picked there meanwhile stays until then.
    const QString key = model + QLatin1Char('|') +
                        QString::fromStdString(core::model::shape_string(inputOf(c.dataset))) + QLatin1Char('|') +
                        QString::number(classesOf(c.dataset)) + QLatin1Char('|') +
                        QString::fromStdString(core::model::to_string(c.job.head));
    if (key != modelSynced_) {
        modelSynced_ = key;
        previewModel(model);
    }
}

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
        pages_->runs->setRoot(dir);
    }
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

bool MainWindow::startTraining()
{
    if (controller_.isActive()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first"));
        return false;
    }
    if (!editor_->isValid()) {
        const auto problems = editor_->problems();
        const QString first = problems.isEmpty() ? QString()
                                                 : QString::fromStdString(problems.front().key + ": " +
                                                                          problems.front().reason);
        statusBar()->showMessage(tr("Fix the experiment first: %1").arg(first));
        return false;
    }
    const QString folder = newRunFolder(QString::fromStdString(editor_->config().name));
    feed_->beginTraining(folder);
    showPage(Page::Training);
    if (!controller_.startTraining(editor_->config(), folder))
        return false;
    runControl_->setState(RunState::Running); // at once; the worker confirms when it starts
    return true;
}

bool MainWindow::startComparison()
{
    if (controller_.isActive() || !editor_->isValid())
        return startTraining(); // which says why it cannot start
    const QString folder = newRunFolder(QString::fromStdString(editor_->config().name));
    feed_->beginTraining(folder);
    showPage(Page::Training);
    if (!controller_.startComparison(editor_->config(), folder))
        return false;
    runControl_->setState(RunState::Running);
    log(tr("Comparing: %1 with adaptation, then the same job without it in %2")
            .arg(folder, QString::fromStdString(core::run::baseline_folder(folder.toStdString()).string())));
    return true;
}

bool MainWindow::startLearning()
{
    if (controller_.isActive()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first"));
        return false;
    }
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
    runControl_->setState(RunState::Running);
    return true;
}

void MainWindow::openTable(const QString& path)
{
    const auto failed = [this](const QString& error) {
        log(error);
        statusBar()->showMessage(error);
        Q_EMIT tableShown(error);
    };
    tableJob_.startJob(
        // A table folder means its table.csv; its metadata names it, and a partial one still shows.
        [path] {
            // What its seeds say is computed here, off the GUI thread, with the table.
            auto t = core::sim::open_table(path.toStdString(), {}, /*allow_incomplete=*/true);
            auto trust = core::sim::table_trust(t.table);
            return std::make_pair(std::move(t), std::move(trust));
        },
        [this, path](std::pair<core::sim::OpenedTable, core::sim::TableTrust> opened) {
            auto& [t, trust] = opened;
            const QString name = t.described ? QStringLiteral("%1 %2").arg(QString::fromStdString(t.meta.model),
                                                                            QString::fromStdString(t.meta.scenario))
                                             : QFileInfo(path).completeBaseName();
            pages_->tables->setTable(t.table, t.complete() ? name
                                                    : tr("%1 (incomplete: %2 of %3 rows)")
                                                          .arg(name)
                                                          .arg(t.table.rows().size())
                                                          .arg(t.table.sequences()),
                              t.actions, std::move(trust));
            tablePath_ = QString::fromStdString(t.file.string());
            if (pages_->learning->table().isEmpty() || !controller_.isActive())
                pages_->learning->setTable(tablePath_);
            showPage(Page::Tables);
            recent_->add(workspace::Recent::Tables, path);
            Q_EMIT tableShown(QString());
        },
        failed);
}

void MainWindow::openRun(const QString& dir)
{
    runJob_.startJob([dir] { return core::io::read_run(dir.toStdString()); },
                     [this, dir](core::io::RunData run) {
                         showRun(run);
                         recent_->add(workspace::Recent::Runs, dir);
                         Q_EMIT runShown(QString());
                     },
                     [this](const QString& error) {
                         log(error);
                         statusBar()->showMessage(error);
                         Q_EMIT runShown(error);
                     });
}

void MainWindow::previewModel(const QString& nameOrPath, const QString& input, int classes)
{
    const auto sample = sampleOf(editor_->config().dataset);
    pages_->models->setInputShape(input.isEmpty() ? QString::fromStdString(core::model::shape_string(sample.input)) : input);
    pages_->models->setClasses(classes > 0 ? classes : int(sample.classes));
    pages_->models->showModel(nameOrPath);
}

void MainWindow::showRun(const core::io::RunData& run)
{
    for (const auto& p : run.problems)
        log(QString::fromStdString(p));
    if (run.kind == core::io::RunKind::Learning) {
        pages_->learning->view()->setRun(run);
        showPage(Page::Learning);
    } else {
        pages_->training->setRun(run);
        if (!run.adaptations.empty())
            pages_->architecture->setSteps(run.adaptations.front().before, run.adaptations);
        else if (run.final_model)
            pages_->architecture->setSteps(*run.final_model, {});
        pages_->policy->decisions()->setDecisions(run.adaptations);
        showPage(Page::Training);
    }
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
    if (dialog->outputFolder().isEmpty())
        dialog->setOutputFolder(QDir(runsRoot_).filePath(QStringLiteral("figures")));
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
        const QString reason = tr("%1: open a simulation table first, to evaluate the policy on").arg(policy);
        statusBar()->showMessage(reason);
        log(reason);
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
