// The main window: pages in tabs, the experiment and its run control in a dock, the worker's
// signals routed to the pages that show them. Panels own their widgets and state; this file only
// connects them.
#include "app/workbench/main_window.h"

#include "app/workbench/drops.h"
#include "app/workbench/export_dialog.h"
#include "app/workbench/file_dialogs.h"
#include "app/workbench/help_menu.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/models_page.h"
#include "app/workbench/paper_figures_dialog.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/reproduce_dialog.h"
#include "app/workbench/sweep_page.h"
#include "core/config/experiment_io.h"
#include "core/config/dataset_shape.h"
#include "core/io/run_reader.h"
#include "core/sim/table.h"
#include "core/sim/table_meta.h"
#include "core/run/experiment.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "widgets/figures/rank_view.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_control.h"
#include "widgets/run/sweep_panel.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontMetrics>
#include <QKeyEvent>
#include <QKeySequence>
#include <QApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScrollArea>
#include <QScreen>
#include <QScrollBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>

namespace rlda::app {
namespace {

using widgets::RunControl;

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

// A page in a scroll area: on a small screen the page scrolls instead of widening the window.
QScrollArea* scrolled(QWidget* page)
{
    auto* area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

// The pages as the settings name them (workspace::key::kPage), in Page order: not the tabs'
// translated titles, so that a page is found again in another language.
constexpr const char* kPageNames[] = {"training", "architecture", "policy", "learning",
                                      "tables",   "sweeps",       "runs",   "models"};

// A path as a menu entry: '&' is not a mnemonic in it, and a long one loses its middle.
QString menuEntry(int index, const QString& path, const QFont& font)
{
    QString shown = QFontMetrics(font).elidedText(path, Qt::ElideMiddle, 560);
    shown.replace(QLatin1Char('&'), QStringLiteral("&&"));
    // 1 to 9, then 10 with its 0 as the mnemonic, as editors number their recent files.
    const QString number = index < 9 ? QStringLiteral("&%1").arg(index + 1)
                                     : index == 9 ? QStringLiteral("1&0") : QString::number(index + 1);
    return number + QStringLiteral("  ") + shown;
}


} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    // Before any page reads a setting (the Runs page's columns): a FIFO there would block it.
    (void)workspace::guardSettingsFile();
    setWindowTitle(tr("RLDA Workbench"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setAcceptDrops(true);
    buildPages();
    buildExperimentDock();
    buildLogDock();
    buildMenus();
    connectWorker();
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
    closePrompt_ = [this](const QString& run) {
        const std::unique_ptr<QMessageBox> box(closePromptBox(this, run));
        box->exec();
        return closeChoiceOf(*box);
    };
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

void MainWindow::buildPages()
{
    pages_ = new QTabWidget(this);
    pages_->setDocumentMode(true);
    training_ = new widgets::TrainingView(pages_);
    architecture_ = new widgets::ArchitectureInspector(pages_);
    policy_ = new PolicyPage(pages_);
    learning_ = new LearningPage(pages_);
    tables_ = new widgets::TableExplorer(pages_);
    sweeps_ = new SweepPage(pages_);
    runs_ = new widgets::RunBrowser(QLatin1String(workspace::key::kRunColumns), pages_);
    models_ = new ModelsPage(pages_);
    // In Page order.
    pages_->setUsesScrollButtons(true);
    pages_->addTab(scrolled(training_), tr("Training"));
    pages_->addTab(scrolled(architecture_), tr("Architecture"));
    pages_->addTab(scrolled(policy_), tr("Policy"));
    pages_->addTab(scrolled(learning_), tr("Learning"));
    pages_->addTab(scrolled(tables_), tr("Tables"));
    pages_->addTab(scrolled(sweeps_), tr("Sweeps"));
    pages_->addTab(scrolled(runs_), tr("Runs"));
    pages_->addTab(scrolled(models_), tr("Models"));
    setCentralWidget(pages_);

    connect(models_, &ModelsPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m); });
    connect(policy_, &PolicyPage::statusMessage, this, [this](const QString& m) { log(m); });
    connect(policy_, &PolicyPage::evaluated, this, [this](const QString& error) {
        if (error.isEmpty())
            addRecent(workspace::Recent::Policies, policy_->policy());
    });
    connect(learning_, &LearningPage::learnRequested, this, &MainWindow::startLearning);
    connect(sweeps_->panel(), &widgets::SweepPanel::submitRequested, this, [this](core::config::SweepBackend backend, int parts) {
        if (!editor_->isValid()) {
            statusBar()->showMessage(tr("Fix the experiment first"));
            return;
        }
        sweeps_->submit(editor_->config(), backend, parts);
    });
    connect(sweeps_, &SweepPage::statusMessage, this, &MainWindow::log);
    connect(sweeps_, &SweepPage::finished, this, [this](const QString& folder) {
        const QString table = QDir(folder).filePath(QStringLiteral("table.csv"));
        log(tr("Sweep done: %1").arg(table));
        // The table a user built is what they look at next: on the Tables page, in File → Recent
        // tables, and on the Learning page (openTable does all three).
        openTable(table);
    });
    connect(sweeps_->panel(), &widgets::SweepPanel::openTableRequested, this,
            [this] { openTable(QDir(sweeps_->folder()).filePath(QStringLiteral("table.csv"))); });
    connect(runs_, &widgets::RunBrowser::runOpened, this, &MainWindow::showRun);
    connect(runs_->follower(), &widgets::RunFollower::appended, this, [this](const core::io::RunData& more) {
        training_->appendRun(more); // each view takes only the run it shows
        learning_->view()->appendRun(more);
    });
    connect(runs_->follower(), &widgets::RunFollower::rewritten, this, &MainWindow::showRun);
    connect(runs_, &widgets::RunBrowser::tableOpened, this, &MainWindow::openTable);
    connect(pages_, &QTabWidget::currentChanged, this, [this] {
        // Only a new runs root moves the Runs page; a folder chosen there stays chosen.
        if (currentPage() == Page::Runs && runsListed_ != runsRoot_) {
            runsListed_ = runsRoot_;
            runs_->setRoot(runsRoot_);
        }
    });
    connect(runs_, &widgets::RunBrowser::overlayRequested, this, &MainWindow::overlayRuns);
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
    runControl_ = new RunControl(content);
    layout->addWidget(scroll, 1);
    layout->addWidget(runControl_);
    dock->setWidget(content);
    // Wide enough for the form without a horizontal scroll bar.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    dock->setMinimumWidth(editor_->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 16);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    connect(editor_, &widgets::ExperimentEditor::changed, this, &MainWindow::syncModelFromExperiment);
    connect(runControl_, &RunControl::startRequested, this, &MainWindow::startTraining);
    connect(runControl_, &RunControl::pauseRequested, &controller_, &RunController::pause);
    connect(runControl_, &RunControl::resumeRequested, &controller_, &RunController::resume);
    connect(runControl_, &RunControl::cancelRequested, &controller_, &RunController::cancel);
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

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open experiment…"), QKeySequence::Open, this, [this] {
        const QString path =
            openFileName(this, FileKind::Experiment, tr("Open experiment"), tr("Experiments (*.toml);;All files (*)"));
        if (!path.isEmpty())
            openExperiment(path);
    });
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
    // Tables that ship with the program, the original system's (data/paper/tables) and this
    // project's Fashion-MNIST ones (data/fashion-mnist/tables): each index is read off the GUI
    // thread and fills its menu when it answers.
    const auto shippedTables = [this, file](const QString& title, const QString& name, widgets::JobTracker& job,
                                            std::string (*index)(), QStringList* paths) {
        auto* menu = file->addMenu(title);
        menu->setObjectName(name);
        menu->setEnabled(false);
        job.startJob([index] { return core::sim::load_table_index(index()); },
                     [this, menu, paths](std::vector<core::sim::TableIndexEntry> entries) {
                         for (const auto& e : entries) {
                             const QString path = QString::fromStdString(e.file);
                             if (paths)
                                 *paths << path;
                             menu->addAction(tr("%1 %2 (up at %3 s of %4 s)")
                                                 .arg(QString::fromStdString(e.model), QString::fromStdString(e.scenario))
                                                 .arg(e.adaptation_start)
                                                 .arg(e.budget),
                                             this, [this, path] { openTable(path); });
                         }
                         menu->setEnabled(!entries.empty());
                     },
                     [menu](const QString& error) { menu->setToolTip(error); });
    };
    shippedTables(tr("Open the &paper's tables"), QStringLiteral("paperTablesMenu"), indexJob_,
                  [] { return (core::paper_tables_dir() / "index.csv").string(); }, &paperTables_);
    shippedTables(tr("Open the &Fashion-MNIST tables"), QStringLiteral("fashionTablesMenu"), fashionIndexJob_,
                  [] { return (core::fashion_mnist_tables_dir() / "index.csv").string(); }, nullptr);
    file->addSeparator();
    buildRecentMenus(*file);
    file->addSeparator();
    exportAction_ =
        file->addAction(tr("&Export plot…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportPlotWithDialog);
    file->addAction(tr("Export &all plots and data…"), this, &MainWindow::exportAllWithDialog);
    file->addAction(tr("&Paper figures…"), this, &MainWindow::paperFiguresWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Train the experiment"), QKeySequence(Qt::Key_F5), this, &MainWindow::startTraining);
    run->addAction(tr("Train and &compare with no adaptation"), QKeySequence(Qt::CTRL | Qt::Key_F5), this,
                   &MainWindow::startComparison);
    run->addAction(tr("&Learn from the table"), QKeySequence(Qt::Key_F6), this, &MainWindow::startLearning);
    pauseAction_ = run->addAction(tr("&Pause / resume"), QKeySequence(Qt::Key_F7), this, [this] {
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
    help_ = new HelpMenu(*this, *helpMenu);
    connect(help_, &HelpMenu::documentationOpened, this, [this](const QString& file, const QString& error) {
        const QString text = error.isEmpty() ? tr("Opened the documentation: %1").arg(file) : error;
        statusBar()->showMessage(text);
        if (!error.isEmpty())
            log(error);
    });
}

void MainWindow::buildRecentMenus(QMenu& file)
{
    for (const workspace::Recent kind : workspace::kRecentKinds) {
        QMenu* menu = file.addMenu(workspace::recentTitle(kind));
        menu->setObjectName(QStringLiteral("recent-") + workspace::recentName(kind));
        recentMenus_[static_cast<std::size_t>(kind)] = menu;
        // Whether each file is still there is asked each time a list opens, off the GUI thread.
        connect(menu, &QMenu::aboutToShow, this, &MainWindow::refreshRecentMenus);
        fillRecentMenu(kind, {}, {});
    }
}

void MainWindow::refreshRecentMenus()
{
    struct Lists {
        std::array<QStringList, std::size(workspace::kRecentKinds)> files;
        std::array<QList<bool>, std::size(workspace::kRecentKinds)> exist;
    };
    Lists lists;
    if (workspace_)
        for (const workspace::Recent kind : workspace::kRecentKinds)
            lists.files[static_cast<std::size_t>(kind)] = workspace::recentFiles(kind);
    recentJob_.startJob(
        [lists]() mutable {
            for (std::size_t k = 0; k < lists.files.size(); ++k)
                for (const QString& f : lists.files[k])
                    lists.exist[k] << QFileInfo::exists(f);
            return lists;
        },
        [this](Lists checked) {
            for (const workspace::Recent kind : workspace::kRecentKinds)
                fillRecentMenu(kind, checked.files[static_cast<std::size_t>(kind)],
                               checked.exist[static_cast<std::size_t>(kind)]);
            Q_EMIT recentMenusChecked();
        });
}

void MainWindow::fillRecentMenu(workspace::Recent kind, const QStringList& files, const QList<bool>& exist)
{
    QMenu* menu = recentMenu(kind);
    menu->clear();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* a = menu->addAction(menuEntry(i, path, menu->font()), this, [this, kind, path] { openRecent(kind, path); });
        a->setData(path);
        a->setToolTip(path);
        if (i < exist.size() && !exist[i]) {
            // Greyed, not dropped: a folder on a disk not mounted now comes back.
            a->setEnabled(false);
            a->setText(a->text() + tr("  (not found)"));
            a->setToolTip(tr("%1: not found").arg(path));
        }
    }
    if (files.isEmpty())
        menu->addAction(tr("(none yet)"))->setEnabled(false);
    menu->addSeparator();
    QAction* clear = menu->addAction(tr("&Clear this list"), this, [this, kind] {
        workspace::clearRecent(kind);
        refreshRecentMenus();
    });
    clear->setObjectName(QStringLiteral("clearRecent"));
    clear->setEnabled(workspace_ && !files.isEmpty());
    menu->menuAction()->setToolTip(tr("The last %1 opened, newest first").arg(workspace::kMaxRecent));
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

void MainWindow::addRecent(workspace::Recent kind, const QString& path)
{
    if (!workspace_ || path.isEmpty())
        return;
    workspace::addRecent(kind, path);
    refreshRecentMenus();
}

void MainWindow::restoreWorkspace()
{
    namespace key = workspace::key;
    workspace_ = true;
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
    const QString page = s.value(key::kPage).toString();
    for (int i = 0; i < int(std::size(kPageNames)); ++i)
        if (page == QLatin1String(kPageNames[i]))
            showPage(static_cast<Page>(i));
    if (const int span = s.value(key::kTrainingSmoothing).toInt(); span >= 1)
        training_->setSmoothingSpan(span);
    if (const int window = s.value(key::kLearningWindow).toInt(); window >= 1)
        learning_->view()->setWindow(window);
    refreshRecentMenus();
}

void MainWindow::saveWorkspace() const
{
    namespace key = workspace::key;
    if (!workspace_)
        return;
    QSettings s;
    s.setValue(key::kGeometry, saveGeometry());
    s.setValue(key::kState, saveState(workspace::kStateVersion));
    s.setValue(key::kPage, QLatin1String(kPageNames[static_cast<int>(currentPage())]));
    s.setValue(key::kTrainingSmoothing, training_->smoothingSpan());
    s.setValue(key::kLearningWindow, learning_->view()->window());
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

void MainWindow::connectWorker()
{
    Worker* w = controller_.worker();
    connect(&controller_, &RunController::stateChanged, this, &MainWindow::onStateChanged);
    connect(w, &Worker::started, this, [this](const core::train::RunStart& s) {
        architecture_->setInitial(s.model);
        log(tr("Training %1 in %2").arg(QString::fromStdString(s.model.name), QString::fromStdString(s.run_dir)));
    });
    connect(w, &Worker::epoch, training_, &widgets::TrainingView::addEpoch);
    connect(w, &Worker::progress, runControl_, &RunControl::setTrainingProgress);
    connect(w, &Worker::adaptation, this, [this](const core::train::AdaptationEvent& e) {
        training_->addAdaptation(e);
        architecture_->addAdaptation(e);
        policy_->decisions()->addDecision(e);
    });
    connect(w, &Worker::allocation, this, [this](const core::train::AllocationRecord& r) {
        training_->addAllocation(r);
        log(tr("t = %1 s: allocation %2: %3")
                .arg(r.time, 0, 'f', 1)
                .arg(QString::fromStdString(core::train::to_string(r.change)), QString::fromStdString(r.effect)));
    });
    connect(w, &Worker::message, this, &MainWindow::log);
    connect(w, &Worker::stageStarted, this, [this](const core::run::StageStart& s) {
        stageFirstEpisode_ = s.first_episode;
        stageEpisodes_ = s.stage.episodes;
        learningTable_ = QString::fromStdString(s.stage.table);
        log(tr("Learning stage %1/%2: %3 for %L4 episodes at temperature %5")
                .arg(s.index + 1)
                .arg(s.count)
                .arg(learningTable_)
                .arg(s.stage.episodes)
                .arg(s.temperature));
    });
    connect(w, &Worker::episodes, this, [this](const std::vector<core::sim::EpisodeRecord>& batch) {
        learning_->addEpisodes(batch);
        if (!batch.empty())
            runControl_->setLearningProgress(batch.back().episode - stageFirstEpisode_, stageEpisodes_);
    });
    connect(w, &Worker::greedy, learning_, &LearningPage::showGreedy);
    connect(w, &Worker::learningFinished, this, [this](const core::run::LearnRunResult& r) {
        // The table is read off the GUI thread; a failure reaches the log as a status message.
        policy_->showRanked(learningTable_, QString::fromStdString(learning_->settings().model),
                            QFileInfo(currentRun_).fileName(), r.evaluation);
        log(tr("Learning ended after %L1 episodes: greedy [%2], rank %3/%4")
                .arg(r.episodes)
                .arg(QString::fromStdString(core::sim::sequence_string(r.evaluation.greedy)))
                .arg(r.evaluation.rank)
                .arg(r.evaluation.sequences));
    });
}

void MainWindow::onStateChanged(RunState state, const QString& message)
{
    runControl_->setState(state, message); // one enum: app::RunState is RunControl::State
    const bool active = controller_.isActive();
    learning_->setRunning(active);
    editor_->setEnabled(!active);
    statusBar()->showMessage(message.isEmpty() ? tr("Run %1").arg(runStateName(state))
                                               : tr("Run %1: %2").arg(runStateName(state), message));
    if (state == RunState::Failed)
        log(tr("Run failed: %1").arg(message));
    if (state == RunState::Finished || state == RunState::Cancelled || state == RunState::Failed) {
        log(tr("Run %1: %2").arg(runStateName(state), currentRun_));
        if (runs_->root() == runsRoot_)
            runs_->refresh();
        if (comparison_)
            continueComparison(state);
        // Closing was answered "keep running": the window closes once the last run has ended.
        if (closeAfterRun_ && !controller_.isActive() && !comparison_)
            QTimer::singleShot(0, this, &QWidget::close);
    }
}

void MainWindow::showPage(Page page) { pages_->setCurrentIndex(static_cast<int>(page)); }
MainWindow::Page MainWindow::currentPage() const { return static_cast<Page>(pages_->currentIndex()); }

void MainWindow::openDefaultExperiment()
{
    QFile file(QStringLiteral(":/config/default.toml"));
    if (!file.open(QIODevice::ReadOnly)) {
        log(tr("The built-in default experiment is missing"));
        return;
    }
    try {
        editor_->setConfig(core::config::parse_experiment(file.readAll().toStdString(), "default.toml"));
        syncModelFromExperiment();
        log(tr("Opened the default experiment: ConvNet2 on a Fashion-MNIST subset, one more GPU at 20 s"));
    } catch (const std::exception& e) {
        log(QString::fromUtf8(e.what()));
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
    syncModelFromExperiment();
    log(tr("Opened %1").arg(path));
    addRecent(workspace::Recent::Experiments, path);
    return true;
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
        addRecent(workspace::Recent::Experiments, path);
    }
}

void MainWindow::syncModelFromExperiment()
{
    const auto c = editor_->config();
    const QString model = QString::fromStdString(c.job.model);
    if (learning_->table().isEmpty()) // a chosen table names its own model
        learning_->setModel(model, inputOf(c.dataset), classesOf(c.dataset));
    policy_->setDefaultModel(model, inputOf(c.dataset), classesOf(c.dataset));
    if (!c.simulation.table.empty() && learning_->table().isEmpty())
        learning_->setTable(QString::fromStdString(c.simulation.table));
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

void MainWindow::reattachSweeps() { sweeps_->reattach(); }

void MainWindow::setRunsRoot(const QString& dir)
{
    runsRoot_ = dir;
    sweeps_->setRunsRoot(dir);
    // Listing reads every run, which takes a while under a folder of long runs: it waits until
    // the Runs page is shown.
    if (currentPage() == Page::Runs) {
        runsListed_ = dir;
        runs_->setRoot(dir);
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
    const auto config = editor_->config();
    currentRun_ = newRunFolder(QString::fromStdString(config.name));
    training_->clear();
    architecture_->clear();
    policy_->decisions()->clear();
    runControl_->reset();
    showPage(Page::Training);
    if (!controller_.startTraining(config, currentRun_))
        return false;
    runControl_->setState(RunControl::State::Running); // at once; the worker confirms when it starts
    return true;
}

bool MainWindow::startComparison()
{
    if (!startTraining())
        return false;
    comparison_ = PendingComparison{editor_->config(), currentRun_, false};
    log(tr("Comparing: %1 with adaptation, then the same job without it in %2")
            .arg(currentRun_, QString::fromStdString(core::run::baseline_folder(currentRun_.toStdString()).string())));
    return true;
}

void MainWindow::continueComparison(RunState state)
{
    if (state != RunState::Finished) {
        log(tr("Comparison stopped: the run did not finish"));
        comparison_.reset();
        return;
    }
    if (!comparison_->baseline) {
        comparison_->baseline = true;
        const QString baseline =
            QString::fromStdString(core::run::baseline_folder(comparison_->adapted.toStdString()).string());
        const auto config = core::run::without_adaptation(comparison_->config);
        // After this state change has reached everyone: the controller starts the next run from Idle.
        QTimer::singleShot(0, this, [this, config, baseline] {
            currentRun_ = baseline;
            training_->clear();
            runControl_->reset();
            if (controller_.startTraining(config, baseline))
                runControl_->setState(RunControl::State::Running);
            else
                comparison_.reset();
        });
        return;
    }
    const QString adapted = comparison_->adapted;
    comparison_.reset();
    struct Pair {
        core::io::RunData with, without;
    };
    comparisonJob_.startJob(
        [adapted] {
            return Pair{core::io::read_run(adapted.toStdString()),
                        core::io::read_run(core::run::baseline_folder(adapted.toStdString()))};
        },
        [this](Pair runs) {
            overlayRuns({runs.with, runs.without});
            const auto a = core::io::final_accuracy(runs.with), b = core::io::final_accuracy(runs.without);
            if (!a || !b) {
                log(tr("Comparison: a run of the comparison has no final test accuracy"));
                return;
            }
            comparisonSummary_ = tr("adaptation: %1 final test accuracy; no adaptation: %2; difference: %3%4")
                                     .arg(*a, 0, 'f', 4)
                                     .arg(*b, 0, 'f', 4)
                                     .arg(*a - *b >= 0 ? QStringLiteral("+") : QString())
                                     .arg(*a - *b, 0, 'f', 4);
            log(comparisonSummary_);
            statusBar()->showMessage(comparisonSummary_);
        },
        [this](const QString& error) { log(tr("Comparison: %1").arg(error)); });
}

bool MainWindow::startLearning()
{
    if (controller_.isActive()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first"));
        return false;
    }
    if (const QString problem = learning_->problem(); !problem.isEmpty()) {
        statusBar()->showMessage(problem);
        showPage(Page::Learning);
        return false;
    }
    currentRun_ = newRunFolder(QStringLiteral("learn-%1").arg(QFileInfo(learning_->table()).completeBaseName()));
    learningRun_ = currentRun_;
    learning_->clear();
    runControl_->reset();
    showPage(Page::Learning);
    if (!controller_.startLearning(learning_->settings(), currentRun_))
        return false;
    runControl_->setState(RunControl::State::Running);
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
            tables_->setTable(t.table, t.complete() ? name
                                                    : tr("%1 (incomplete: %2 of %3 rows)")
                                                          .arg(name)
                                                          .arg(t.table.rows().size())
                                                          .arg(t.table.sequences()),
                              t.actions, std::move(trust));
            tablePath_ = QString::fromStdString(t.file.string());
            if (learning_->table().isEmpty() || !controller_.isActive())
                learning_->setTable(tablePath_);
            showPage(Page::Tables);
            addRecent(workspace::Recent::Tables, path);
            Q_EMIT tableShown(QString());
        },
        failed);
}

void MainWindow::openRun(const QString& dir)
{
    runJob_.startJob([dir] { return core::io::read_run(dir.toStdString()); },
                     [this, dir](core::io::RunData run) {
                         showRun(run);
                         addRecent(workspace::Recent::Runs, dir);
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
    models_->setInputShape(input.isEmpty() ? QString::fromStdString(core::model::shape_string(sample.input)) : input);
    models_->setClasses(classes > 0 ? classes : int(sample.classes));
    models_->showModel(nameOrPath);
}

void MainWindow::showRun(const core::io::RunData& run)
{
    for (const auto& p : run.problems)
        log(QString::fromStdString(p));
    if (run.kind == core::io::RunKind::Learning) {
        learning_->view()->setRun(run);
        showPage(Page::Learning);
    } else {
        training_->setRun(run);
        if (!run.adaptations.empty())
            architecture_->setSteps(run.adaptations.front().before, run.adaptations);
        else if (run.final_model)
            architecture_->setSteps(*run.final_model, {});
        policy_->decisions()->setDecisions(run.adaptations);
        showPage(Page::Training);
    }
    runs_->follower()->follow(run); // a run still being written keeps growing in its page
    statusBar()->showMessage(tr("Opened %1 (read-only)").arg(QString::fromStdString(run.path.string())));
}

void MainWindow::overlayRuns(const QList<core::io::RunData>& runs)
{
    if (runs.isEmpty())
        return;
    training_->setRuns(runs); // a colour and a legend entry per run, the first included
    showPage(Page::Training);
}

void MainWindow::log(const QString& text)
{
    log_->appendPlainText(QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
}

QString MainWindow::exportPlot(Page page, const QString& path, const widgets::ExportSettings& settings)
{
    switch (page) {
    case Page::Training: return training_->plot()->exportTo(path, settings);
    case Page::Learning: return learning_->view()->plot()->exportTo(path, settings);
    case Page::Policy:
        return policy_->ranks()->tables().empty() ? policy_->decisions()->exportPlot(path, settings)
                                                  : policy_->ranks()->exportTo(path, settings);
    case Page::Tables: return tables_->exportHeatmap(path, settings);
    case Page::Architecture: return architecture_->exportGraph(path, settings);
    case Page::Models: return models_->exportGraph(path, settings);
    default: return tr("%1: this page has no plot to export").arg(pages_->tabText(static_cast<int>(page)));
    }
}

QString MainWindow::exportAll(const QString& dir, const widgets::ExportSettings& settings)
{
    if (!QDir().mkpath(dir))
        return tr("%1: cannot create the folder").arg(dir);
    const QDir out(dir);
    struct Item {
        Page page;
        QString name;
    };
    const Item items[] = {{Page::Training, QStringLiteral("training")},
                          {Page::Learning, QStringLiteral("learning")},
                          {Page::Policy, QStringLiteral("policy")},
                          {Page::Tables, QStringLiteral("table")},
                          {Page::Architecture, QStringLiteral("architecture")},
                          {Page::Models, QStringLiteral("model")}};
    QStringList problems;
    for (const auto& item : items)
        for (const QString& suffix : widgets::exportSuffixes())
            if (const QString e = exportPlot(item.page, out.filePath(item.name + QLatin1Char('.') + suffix), settings);
                !e.isEmpty())
                problems << e;
    for (const auto& [name, plot] : {std::pair{QStringLiteral("training"), training_->plot()},
                                     std::pair{QStringLiteral("learning"), learning_->view()->plot()}})
        if (const QString e = plot->exportCsv(out.filePath(name + QStringLiteral(".csv"))); !e.isEmpty())
            problems << e;
    return problems.join(QLatin1Char('\n'));
}

void MainWindow::exportPlotWithDialog()
{
    const Page page = currentPage();
    const QString name = pages_->tabText(static_cast<int>(page)).toLower();
    const auto request =
        ExportDialog::ask(this, QDir(lastFolder(FileKind::Export, runsRoot_)).filePath(name + QStringLiteral(".png")));
    if (!request)
        return;
    const QString error = exportPlot(page, request->path, request->settings);
    error.isEmpty() ? statusBar()->showMessage(tr("Wrote %1").arg(request->path)) : log(error);
}

void MainWindow::exportAllWithDialog()
{
    const QString dir = existingFolder(this, FileKind::Export, tr("Export every plot and its data into"),
                                       currentRun_.isEmpty() ? runsRoot_ : currentRun_);
    if (dir.isEmpty())
        return;
    const QString problems = exportAll(QDir(dir).filePath(QStringLiteral("export")), workspace::exportSettings());
    if (!problems.isEmpty())
        log(problems);
    statusBar()->showMessage(tr("Exported the plots and data to %1/export").arg(dir));
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
    QStringList tables{tablePath_, learning_->table()};
    tables.removeAll(QString());
    dialog->addTables(tables);
    QStringList runs;
    for (const auto& run : runs_->selectedRuns())
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

QMessageBox* MainWindow::closePromptBox(QWidget* parent, const QString& runFolder)
{
    auto* box = new QMessageBox(QMessageBox::Question, tr("A run is in progress"),
                                tr("A run is writing into %1.").arg(runFolder), QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("closePrompt"));
    box->setInformativeText(tr("Cancel it and close: the run stops at its next step, and its folder keeps everything "
                               "written so far.\n\nKeep it running: the window closes, the run goes on to its end in "
                               "the background, and then the program exits."));
    auto* keep = box->addButton(tr("&Keep running in the background"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    auto* cancel = box->addButton(tr("&Cancel the run and close"), QMessageBox::DestructiveRole);
    cancel->setObjectName(QStringLiteral("cancelAndClose"));
    auto* stay = box->addButton(tr("&Stay"), QMessageBox::RejectRole);
    stay->setObjectName(QStringLiteral("stay"));
    box->setDefaultButton(cancel); // what closing did before it asked
    box->setEscapeButton(stay);
    return box;
}

MainWindow::CloseChoice MainWindow::closeChoiceOf(const QMessageBox& answered)
{
    const QAbstractButton* b = answered.clickedButton();
    if (b && b->objectName() == QStringLiteral("keepRunning"))
        return CloseChoice::KeepRunning;
    if (b && b->objectName() == QStringLiteral("cancelAndClose"))
        return CloseChoice::CancelAndClose;
    return CloseChoice::Stay;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // The run stops at its next batch or episode, well within this; a step it cannot leave (loading
    // a dataset, a long evaluation) must not freeze the window.
    constexpr auto kStopBound = std::chrono::seconds(5);
    if (closeAfterRun_ && controller_.isActive()) {
        event->ignore(); // kept running: the close comes when it has ended
        return;
    }
    if (controller_.isActive() && !closeAfterRun_) {
        switch (closePrompt_ ? closePrompt_(currentRun_) : CloseChoice::CancelAndClose) {
        case CloseChoice::Stay: event->ignore(); return;
        case CloseChoice::KeepRunning: {
            event->ignore();
            closeAfterRun_ = true;
            saveWorkspace(); // the layout as it was on screen
            const QString text = tr("The run goes on in the background into %1; the program exits when it ends")
                                     .arg(currentRun_);
            log(text);
            std::fprintf(stderr, "rlda-workbench: %s\n", qPrintable(text));
            hide();
            return;
        }
        case CloseChoice::CancelAndClose: break;
        }
    }
    if (controller_.isActive()) {
        statusBar()->showMessage(tr("Cancelling the run before closing…"));
        log(tr("Closing: the run is cancelled; its folder keeps everything written so far"));
    }
    if (controller_.shutdown(kStopBound)) {
        if (!closeAfterRun_) // saved already, while it was on screen
            saveWorkspace();
        event->accept();
        Q_EMIT closed();
        return;
    }
    // Nothing is killed: the run stops at its next check and writes its end; the window waits open.
    event->ignore();
    const QString text = tr("Closing: the run did not stop within %1 s (it is inside one step); the window "
                            "closes when it stops, with everything written kept")
                             .arg(kStopBound.count());
    statusBar()->showMessage(text);
    log(text);
    connect(&controller_, &RunController::stopped, this, &QWidget::close, Qt::SingleShotConnection);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    // Anything with URLs is taken, so that what cannot be opened is told why on the drop.
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = droppedFiles(event->mimeData()->urls());
    event->acceptProposedAction();
    if (files.isEmpty()) {
        const QString reason = tr("Only files and folders on this computer can be dropped here");
        statusBar()->showMessage(reason);
        Q_EMIT dropHandled(QString(), dropKindName(DropKind::Refused), reason);
        return;
    }
    openDropped(files);
}

void MainWindow::openDropped(const QStringList& paths)
{
    statusBar()->showMessage(tr("Looking at what was dropped…"));
    dropJob_.startJob(
        [paths] { return classifyDrops(paths); },
        [this](std::vector<DropTarget> targets) {
            for (const DropTarget& t : targets) {
                switch (t.kind) {
                case DropKind::Experiment: openExperiment(t.open); break;
                case DropKind::Model:
                    showPage(Page::Models);
                    previewModel(t.open);
                    break;
                case DropKind::Table: openTable(t.open); break;
                case DropKind::TablesFolder:
                    log(tr("%1: a folder of tables; opening its first, %2").arg(t.path, QFileInfo(t.open).fileName()));
                    openTable(t.open);
                    break;
                case DropKind::Policy: openPolicy(t.open); break;
                case DropKind::RunFolder:
                    showRunInBrowser(t.open);
                    addRecent(workspace::Recent::Runs, t.open);
                    break;
                case DropKind::RunsFolder:
                    runsListed_ = runsRoot_; // showing the page must not move it back to the runs root
                    showPage(Page::Runs);
                    runs_->setRoot(t.open);
                    statusBar()->showMessage(tr("Runs under %1").arg(t.open));
                    break;
                case DropKind::Refused:
                    log(t.reason);
                    statusBar()->showMessage(t.reason);
                    break;
                }
                Q_EMIT dropHandled(t.path, dropKindName(t.kind), t.reason);
            }
        },
        [this, paths](const QString& error) {
            log(error);
            statusBar()->showMessage(error);
            for (const QString& p : paths)
                Q_EMIT dropHandled(p, dropKindName(DropKind::Refused), error);
        });
}

void MainWindow::openPolicy(const QString& policy)
{
    QStringList tables{tablePath_, learning_->table()};
    tables.removeAll(QString());
    tables.removeDuplicates();
    if (tables.isEmpty())
        tables = paperTables_; // the index the File menu read; empty until it has answered
    if (tables.isEmpty()) {
        const QString reason = tr("%1: open a simulation table first, to evaluate the policy on").arg(policy);
        statusBar()->showMessage(reason);
        log(reason);
        return;
    }
    showPage(Page::Policy);
    policy_->evaluate(policy, tables);
}

void MainWindow::showRunInBrowser(const QString& dir)
{
    const QString run = QDir::cleanPath(QDir::current().absoluteFilePath(dir));
    runsListed_ = runsRoot_; // showing the page must not move it back to the runs root
    showPage(Page::Runs);
    connect(
        runs_, &widgets::RunBrowser::listed, this,
        [this, run] {
            for (int i = 0; i < runs_->runs().size(); ++i)
                if (QDir::cleanPath(QString::fromStdString(runs_->runs()[i].path.string())) == run)
                    runs_->selectRuns({i});
        },
        Qt::SingleShotConnection);
    runs_->setRoot(QFileInfo(run).absolutePath());
    statusBar()->showMessage(tr("Run %1, among the runs beside it").arg(run));
}

} // namespace rlda::app
