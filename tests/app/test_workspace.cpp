// The workbench people keep open: the workspace restored across two windows (geometry, docks,
// page, plot settings, recent files), the File -> Recent menus, each kind of drop and a refused
// one, the three answers to closing during a run, the Help menu, and rlda-workbench answering
// --version and --help with no display. Settings live in a throw-away folder, cleared per test.
#include "app/workbench/close_guard.h"
#include "app/workbench/documentation_window.h"
#include "app/workbench/drops.h"
#include "app/workbench/help_menu.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/main_window.h"
#include "app/workbench/models_page.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/recent_menus.h"
#include "app/workbench/sweep_page.h"
#include "app/workbench/torch_engine.h"
#include "app/workbench/workspace.h"
#include "core/io/run_reader.h"
#include "core/train/device.h"
#include "core/util/data_dir.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/synthetic_table.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/sweep_panel.h"

#include "tests/common/throwaway_settings.h"

#include <sys/stat.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest/QtTest>

#include <memory>

using namespace rlda;
using app::CloseGuard;
using app::MainWindow;
using app::RecentMenus;
using app::RunState;
using app::workspace::Recent;

namespace {

const QString kQuick = QStringLiteral(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QLatin1String(name)); }

// The entries of a Recent submenu: the paths they open, and which are enabled.
QStringList entries(QMenu* menu)
{
    QStringList paths;
    for (QAction* a : menu->actions())
        if (!a->data().toString().isEmpty())
            paths << a->data().toString();
    return paths;
}

QAction* entry(QMenu* menu, const QString& path)
{
    for (QAction* a : menu->actions())
        if (a->data().toString() == path)
            return a;
    return nullptr;
}

QAction* named(QMenu* menu, const char* objectName)
{
    for (QAction* a : menu->actions())
        if (a->objectName() == QLatin1String(objectName))
            return a;
    return nullptr;
}

QMenu* topMenu(MainWindow& w, const QString& title)
{
    for (QAction* a : w.menuBar()->actions())
        if (a->text().remove(QLatin1Char('&')) == title)
            return a->menu();
    return nullptr;
}

// The menus are filled by a check off the GUI thread; this waits for it.
bool recentChecked(MainWindow& w)
{
    QSignalSpy checked(w.recent(), &RecentMenus::checked);
    w.recent()->refresh();
    return checked.wait(10000);
}

QString copyOf(const QString& from, const QString& to)
{
    QFile::remove(to);
    return QFile::copy(from, to) ? to : QString();
}

// A drop as the window gets one: drag-enter, then the drop, carrying `urls`. Returns what the
// window took it for (dropHandled's kind) and, for a refusal, its reason after a '|'.
QString drop(MainWindow& w, const QList<QUrl>& urls)
{
    QMimeData mime;
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    if (!enter.isAccepted())
        return QStringLiteral("drag not accepted");
    QSignalSpy handled(&w, &MainWindow::dropHandled);
    QDropEvent event(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &event);
    if (handled.isEmpty() && !handled.wait(20000))
        return QStringLiteral("no answer within 20 s");
    const QString kind = handled.at(0).at(1).toString(), error = handled.at(0).at(2).toString();
    return error.isEmpty() ? kind : kind + QLatin1Char('|') + error;
}
QString drop(MainWindow& w, const QString& path) { return drop(w, {QUrl::fromLocalFile(path)}); }

// A window on the quick experiment with a budget far longer than any test, two epochs in.
void startLongRun(MainWindow& w, const QString& runs, double budget = 1000.0)
{
    w.setRunsRoot(runs);
    QVERIFY(w.openExperiment(kQuick));
    auto config = w.editor()->config();
    config.scheduler.budget = budget;
    w.editor()->setConfig(config);
    w.show();
    QSignalSpy epochs(w.controller().worker(), &app::Worker::epoch);
    QVERIFY(w.startTraining());
    QTRY_VERIFY_WITH_TIMEOUT(epochs.count() >= 2, 60000);
}

QProcess::ExitStatus runWorkbench(const QStringList& args, QProcess& p)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(name));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RLDA_BIN_DIR "/rlda-workbench"), args);
    p.waitForFinished(60000);
    return p.exitStatus();
}

} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT

    QTemporaryDir settings_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(settings_.isValid());
        // Before any QSettings is made: never the user's settings.
        rlda::test::use_throwaway_settings(settings_);
        QCoreApplication::setOrganizationName(QStringLiteral("rlda-test"));
        app::installEngine(app::makeTorchEngine()); // runs are closed mid-training, and About names LibTorch
    }

    void init() { app::workspace::resetSettings(); }

    void settings_are_restored_in_a_second_window()
    {
        QSize size;
        {
            MainWindow w;
            w.restoreWorkspace();
            w.show();
            w.resize(1700, 820); // not the default size, and above the window's minimum
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            size = w.size();
            QVERIFY(size != QSize(1440, 900));
            dock(w, "logDock")->hide();
            w.showPage(MainWindow::Page::Tables);
            w.training()->setSmoothingSpan(5);
            w.learning()->view()->setWindow(30);
            // The Sweeps page's choices (issue 43, item 22).
            auto* panel = w.sweeps()->panel();
            panel->setBackend(core::config::SweepBackend::Slurm);
            panel->setWorkers(6);
            panel->setReplicates(3);
            panel->setSeedValuesText(QStringLiteral("5 9"));
            panel->setFused(QStringLiteral("on"));
            QVERIFY(w.openExperiment(kQuick));
            QVERIFY(w.close());
        }
        MainWindow w;
        QCOMPARE(w.currentPage(), MainWindow::Page::Training); // nothing read without the workspace
        w.restoreWorkspace();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.size(), size);
        QCOMPARE(w.currentPage(), MainWindow::Page::Tables);
        QVERIFY(dock(w, "logDock")->isHidden());
        QVERIFY(!dock(w, "experimentDock")->isHidden());
        QCOMPARE(w.training()->smoothingSpan(), 5);
        QCOMPARE(w.learning()->view()->window(), 30);
        const auto* panel = w.sweeps()->panel();
        QCOMPARE(panel->backend(), core::config::SweepBackend::Slurm);
        QCOMPARE(panel->workers(), 6);
        QCOMPARE(panel->replicates(), 3);
        QCOMPARE(panel->seedValuesText(), QStringLiteral("5 9"));
        QCOMPARE(panel->fused(), QStringLiteral("on"));
        QVERIFY(recentChecked(w));
        QCOMPARE(entries(w.recent()->menu(Recent::Experiments)), QStringList{QFileInfo(kQuick).absoluteFilePath()});

        // Every dock has its entry in View, and Reset layout brings a hidden one back.
        QMenu* view = topMenu(w, QStringLiteral("View"));
        QVERIFY(view);
        QAction* logToggle = dock(w, "logDock")->toggleViewAction();
        QVERIFY(view->actions().contains(logToggle));
        QVERIFY(view->actions().contains(dock(w, "experimentDock")->toggleViewAction()));
        QVERIFY(dock(w, "experimentDock")->toggleViewAction()->isEnabled());
        logToggle->trigger();
        QVERIFY(!dock(w, "logDock")->isHidden());
        logToggle->trigger();
        QVERIFY(dock(w, "logDock")->isHidden());
        w.resetLayout();
        QVERIFY(!dock(w, "logDock")->isHidden());
        // Issue 43, item 2: a maximised window stays maximised.
        w.showMaximized();
        QTRY_VERIFY(w.isMaximized());
        logToggle->trigger();
        w.resetLayout();
        QVERIFY(!dock(w, "logDock")->isHidden());
        QVERIFY(w.isMaximized());

        // --reset-settings: nothing is left to restore.
        app::workspace::resetSettings();
        MainWindow fresh;
        fresh.restoreWorkspace();
        QCOMPARE(fresh.currentPage(), MainWindow::Page::Training);
        QVERIFY(app::workspace::recentFiles(Recent::Experiments).isEmpty());
    }

    void unsaved_edits_are_kept_at_close()
    {
        // Issue 43, item 4: Ctrl+Q dropped an edited experiment, and the next start showed the
        // default one. The edits are kept, as editors keep a draft, and opened at the next start
        // with the file they came from; once saved, there is no draft.
        QTemporaryDir dir;
        const QString file = dir.filePath("mine.toml");
        QVERIFY(QFile::copy(kQuick, file));
        {
            MainWindow w;
            w.restoreWorkspace();
            QVERIFY(w.openExperiment(file));
            QVERIFY(!w.experimentDock()->edited());
            auto c = w.editor()->config();
            c.job.lr = 0.0123;
            w.editor()->setConfig(c);
            QVERIFY(w.experimentDock()->edited());
            QVERIFY(w.close());
        }
        {
            MainWindow w;
            w.restoreWorkspace();
            QVERIFY(w.openDraftExperiment());
            QCOMPARE(w.editor()->config().job.lr, 0.0123);
            QCOMPARE(w.editor()->fileName(), file);
            QVERIFY(w.experimentDock()->edited());
            w.experimentDock()->save(false); // File -> Save: into the file it came from
            QVERIFY(!w.experimentDock()->edited());
            QVERIFY(w.close());
        }
        MainWindow w;
        w.restoreWorkspace();
        QVERIFY(!w.openDraftExperiment());
        QVERIFY(w.openExperiment(file));
        QCOMPARE(w.editor()->config().job.lr, 0.0123);
    }

    void recent_menus()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.restoreWorkspace();
        QVERIFY(recentChecked(w));
        QMenu* menu = w.recent()->menu(Recent::Experiments);
        QVERIFY(entries(menu).isEmpty());
        QVERIFY(!named(menu, "clearRecent")->isEnabled());
        QStringList files;
        for (int i = 1; i <= 12; ++i) {
            files << copyOf(kQuick, tmp.filePath(QStringLiteral("e%1.toml").arg(i)));
            QVERIFY(w.openExperiment(files.back()));
        }
        QVERIFY(recentChecked(w));
        // Newest first, at most kMaxRecent: e12 .. e3.
        QStringList expected;
        for (int i = 12; i > 12 - app::workspace::kMaxRecent; --i)
            expected << files[i - 1];
        QCOMPARE(entries(menu), expected);
        // Opened again: first, and once.
        QVERIFY(w.openExperiment(files[4]));
        QVERIFY(recentChecked(w));
        QCOMPARE(entries(menu).front(), files[4]);
        QCOMPARE(entries(menu).count(files[4]), 1);
        QCOMPARE(entries(menu).size(), app::workspace::kMaxRecent);
        // An entry opens its file.
        entry(menu, files[11])->trigger();
        QCOMPARE(w.editor()->fileName(), files[11]);
        QVERIFY(recentChecked(w));
        QCOMPARE(entries(menu).front(), files[11]);
        // A file gone is greyed and says so; the others stay enabled.
        QVERIFY(QFile::remove(files[10]));
        QVERIFY(recentChecked(w));
        QVERIFY(!entry(menu, files[10])->isEnabled());
        QVERIFY(entry(menu, files[10])->text().contains(QStringLiteral("not found")));
        QVERIFY(entry(menu, files[11])->isEnabled());
        w.show();
        menu->popup(w.mapToGlobal(QPoint(0, 0)));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        test::shot(*menu, QStringLiteral("workspace-recent-missing"));
        menu->hide();

        // Each kind has its own list: a table opened goes to Recent tables only.
        const QString table = QString::fromStdString(test::write_synthetic_table(tmp.filePath("t.csv").toStdString()));
        QSignalSpy shown(&w, &MainWindow::tableShown);
        w.openTable(table);
        QVERIFY(shown.wait(30000));
        QVERIFY(recentChecked(w));
        QCOMPARE(entries(w.recent()->menu(Recent::Tables)), QStringList{table});
        QVERIFY(!entries(menu).contains(table));
        QVERIFY(entries(w.recent()->menu(Recent::Policies)).isEmpty());

        // Clear empties that list only.
        named(menu, "clearRecent")->trigger();
        QVERIFY(recentChecked(w));
        QVERIFY(entries(menu).isEmpty());
        QVERIFY(app::workspace::recentFiles(Recent::Experiments).isEmpty());
        QCOMPARE(entries(w.recent()->menu(Recent::Tables)), QStringList{table});

        // A window made without the workspace records nothing.
        MainWindow plain;
        QVERIFY(plain.openExperiment(files[0]));
        QVERIFY(app::workspace::recentFiles(Recent::Experiments).isEmpty());
    }

    void each_kind_of_drop()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        w.show();

        // An experiment: the editor.
        const QString experiment = copyOf(kQuick, tmp.filePath(QStringLiteral("dropped.toml")));
        QCOMPARE(drop(w, experiment), QStringLiteral("experiment"));
        QCOMPARE(w.editor()->fileName(), experiment);

        // A model file, told from an experiment by its content: the Models page.
        QSignalSpy modelSaid(w.models(), &app::ModelsPage::statusMessage);
        QCOMPARE(drop(w, QStringLiteral(RLDA_SOURCE_DIR "/config/models/small_convnet.toml")), QStringLiteral("model"));
        QCOMPARE(w.currentPage(), MainWindow::Page::Models);
        QVERIFY(!modelSaid.isEmpty());
        QVERIFY2(modelSaid.last().at(0).toString().contains(QStringLiteral("small_convnet.toml: ")),
                 qPrintable(modelSaid.last().at(0).toString()));

        // A table CSV: the Tables page.
        const QString table =
            QString::fromStdString(test::write_synthetic_table(tmp.filePath("table.csv").toStdString()));
        {
            QSignalSpy shown(&w, &MainWindow::tableShown);
            QCOMPARE(drop(w, table), QStringLiteral("table"));
            QVERIFY(shown.count() == 1 || shown.wait(30000));
            QCOMPARE(shown.at(0).at(0).toString(), QString());
            QCOMPARE(w.currentPage(), MainWindow::Page::Tables);
        }
        // A folder of tables: its first.
        QDir().mkpath(tmp.filePath(QStringLiteral("tables")));
        test::write_synthetic_table(tmp.filePath("tables/a.csv").toStdString());
        test::write_synthetic_table(tmp.filePath("tables/b.csv").toStdString());
        {
            QSignalSpy shown(&w, &MainWindow::tableShown);
            QCOMPARE(drop(w, tmp.filePath(QStringLiteral("tables"))), QStringLiteral("tables folder"));
            QVERIFY(shown.count() == 1 || shown.wait(30000));
            QCOMPARE(shown.at(0).at(0).toString(), QString());
        }

        // A policy: evaluated on the table open. It comes from a short learning run on that table.
        {
            QSignalSpy shown(&w, &MainWindow::tableShown);
            w.openTable(table);
            QVERIFY(shown.wait(30000));
        }
        w.learning()->setTable(table);
        w.learning()->setEpisodes(300);
        QSignalSpy ranked(w.policy(), &app::PolicyPage::ranked); // the end-of-learning ranks
        QVERIFY(w.startLearning());
        QTRY_COMPARE_WITH_TIMEOUT(w.controller().state(), RunState::Finished, 60000);
        const QString run = w.currentRun();
        const QString policy = run + QStringLiteral("/policy.pt");
        QVERIFY(QFileInfo::exists(policy));
        QVERIFY(ranked.count() == 1 || ranked.wait(30000));
        {
            QSignalSpy evaluated(w.policy(), &app::PolicyPage::evaluated);
            QCOMPARE(drop(w, policy), QStringLiteral("policy"));
            QVERIFY(evaluated.count() == 1 || evaluated.wait(60000));
            QCOMPARE(evaluated.at(0).at(0).toString(), QString());
            QCOMPARE(w.currentPage(), MainWindow::Page::Policy);
            QCOMPARE(w.policy()->policy(), policy);
        }

        // A run folder: the Runs page, listing its siblings, with it selected.
        QCOMPARE(drop(w, run), QStringLiteral("run folder"));
        QCOMPARE(w.currentPage(), MainWindow::Page::Runs);
        QCOMPARE(w.runs()->root(), QFileInfo(run).absolutePath());
        QTRY_COMPARE_WITH_TIMEOUT(w.runs()->selectedRuns().size(), qsizetype(1), 30000);
        QCOMPARE(QString::fromStdString(w.runs()->selectedRuns().front().path.string()), run);
        // A folder of runs: the Runs page's root.
        QCOMPARE(drop(w, tmp.filePath(QStringLiteral("runs"))), QStringLiteral("runs folder"));
        QCOMPARE(w.runs()->root(), tmp.filePath(QStringLiteral("runs")));

        // Refused, each with its one line in the status bar.
        QFile text(tmp.filePath(QStringLiteral("notes.txt")));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("hello\n");
        text.close();
        const QString notes = drop(w, text.fileName());
        QVERIFY2(notes.startsWith(QStringLiteral("refused|notes.txt: not a file to open here")), qPrintable(notes));
        QCOMPARE(w.statusBar()->currentMessage(), notes.section(QLatin1Char('|'), 1));
        QFile other(tmp.filePath(QStringLiteral("other.toml")));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("[colours]\nsky = \"blue\"\n");
        other.close();
        QVERIFY2(drop(w, other.fileName()).contains(QStringLiteral("neither an experiment")), "other.toml");
        QVERIFY(drop(w, run + QStringLiteral("/metrics/episodes.csv")).contains(QStringLiteral("not a simulation table")));
        QVERIFY(drop(w, {QUrl(QStringLiteral("https://example.org/x.toml"))})
                    .startsWith(QStringLiteral("refused|Only files and folders")));
        QCOMPARE(app::classifyDrop(tmp.filePath(QStringLiteral("gone"))).kind, app::DropKind::Refused);
        // A replicated table (accuracy_seed<S> columns after the mean) is a table too.
        const QString replicated = QStringLiteral(RLDA_SOURCE_DIR "/data/fashion-mnist/tables/feedforwardnet2_early.csv");
        QCOMPARE(app::classifyDrop(replicated).kind, app::DropKind::Table);
    }

    void closing_during_a_run_stay_then_cancel()
    {
        QTemporaryDir tmp;
        MainWindow w;
        startLongRun(w, tmp.path());
        const QString run = w.currentRun();
        QSignalSpy closed(&w, &MainWindow::closed);
        int asked = 0;
        w.closeGuard()->setPrompt([&asked, run](const QString& folder) {
            ++asked;
            return folder == run ? CloseGuard::Choice::Stay : CloseGuard::Choice::CancelAndClose;
        });
        QVERIFY(!w.close()); // stays
        QCOMPARE(asked, 1);
        QVERIFY(w.isVisible());
        QVERIFY(w.controller().isActive());
        QCOMPARE(closed.count(), 0);

        // The default prompt, answered as a user would: its default button, which cancels and closes.
        w.closeGuard()->setPrompt([&w](const QString& folder) {
            const std::unique_ptr<QMessageBox> box(CloseGuard::promptBox(&w, folder));
            QTimer::singleShot(0, box.get(), [b = box.get()] {
                test::shot(*b, QStringLiteral("workspace-close-prompt"));
                b->defaultButton()->click();
            });
            box->exec();
            return CloseGuard::choiceOf(*box);
        });
        QVERIFY(w.close()); // returns once the worker has stopped
        QCOMPARE(closed.count(), 1);
        QVERIFY(!w.controller().isActive());
        const auto data = core::io::read_run(run.toStdString());
        QVERIFY(data.finished.has_value() && data.finished->cancelled);
        QVERIFY(data.problems.empty());
    }

    void closing_during_a_run_keeps_it_running()
    {
        QTemporaryDir tmp;
        MainWindow w;
        startLongRun(w, tmp.path(), 4.0); // the quick experiment's own budget: it ends soon
        const QString run = w.currentRun();
        QSignalSpy closed(&w, &MainWindow::closed);
        w.closeGuard()->setPrompt([](const QString&) { return CloseGuard::Choice::KeepRunning; });
        QVERIFY(!w.close());
        QVERIFY(!w.isVisible());
        QVERIFY(w.controller().isActive()); // goes on, hidden
        QVERIFY(closed.wait(60000));        // and the window closes when it has ended
        QCOMPARE(w.controller().state(), RunState::Finished);
        const auto data = core::io::read_run(run.toStdString());
        QVERIFY(data.finished.has_value() && !data.finished->cancelled);
    }

    void the_close_prompt_box()
    {
        const std::unique_ptr<QMessageBox> box(CloseGuard::promptBox(nullptr, QStringLiteral("runs/x")));
        QCOMPARE(box->defaultButton()->objectName(), QStringLiteral("cancelAndClose"));
        QCOMPARE(box->escapeButton()->objectName(), QStringLiteral("stay"));
        QCOMPARE(box->buttons().size(), qsizetype(3));
        QCOMPARE(CloseGuard::choiceOf(*box), CloseGuard::Choice::Stay); // not answered
    }

    void help_menu()
    {
        const QString about = app::aboutText();
        QVERIFY(about.contains(QStringLiteral(RLDA_VERSION)));
        QVERIFY(about.contains(QString::fromStdString(rlda::core::train::libtorch_version())));
        QVERIFY(about.contains(QString::fromLatin1(qVersion())));
        QVERIFY(about.contains(QStringLiteral("MIT")));
        QVERIFY(about.contains(QStringLiteral("CUDA")));
        {
            QMessageBox* box = app::makeAboutBox(nullptr);
            box->show();
            QVERIFY(QTest::qWaitForWindowExposed(box));
            test::shot(*box, QStringLiteral("workspace-about"));
            box->close(); // deletes it
        }
        // The documentation shipped in the source tree is found.
        QCOMPARE(QString::fromStdString((core::documentation_dir() / "README.md").string()),
                 QDir::cleanPath(QStringLiteral(RLDA_SOURCE_DIR "/README.md")));

        // The shortcuts dialog lists the menus' real shortcuts.
        MainWindow w;
        w.show();
        QDialog* dialog = app::makeShortcutsDialog(w);
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
        QVERIFY(table);
        QStringList keys;
        for (int r = 0; r < table->rowCount(); ++r)
            keys << table->item(r, 2)->text();
        QVERIFY(keys.contains(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
        QVERIFY(keys.contains(QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText)));
        QVERIFY(keys.contains(QKeySequence(Qt::ALT | Qt::Key_1).toString(QKeySequence::NativeText)));
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        test::shot(*dialog, QStringLiteral("workspace-shortcuts"));
        dialog->close();
        QMenu* help = topMenu(w, QStringLiteral("Help"));
        QVERIFY(help);
        QCOMPARE(help->actions().size(), qsizetype(4)); // Documentation, Keyboard shortcuts, a separator, About
    }

    // Issue 42, item 14: a page's pictures are read with a bound. `![x](/dev/zero)` took 5.9 GB, and
    // a FIFO blocked open(2) forever; both are skipped, and the page reads at once.
    void a_page_s_pictures_are_read_with_a_bound()
    {
        QTemporaryDir dir;
        QVERIFY(::mkfifo(QFile::encodeName(dir.filePath("fifo.png")).constData(), 0644) == 0);
        QFile page(dir.filePath("page.md"));
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("# A page\n\n![zero](/dev/zero) ![fifo](fifo.png) ![ours](" RLDA_SOURCE_DIR
                   "/docs/screenshots/03-training.png)\n");
        page.close();
        const auto read = app::readDocumentationPage(dir.filePath("page.md"));
        QCOMPARE(read.images.size(), qsizetype(1)); // the real picture alone
        QVERIFY(read.markdown.contains(QStringLiteral("A page")));
    }

    // Help → Documentation draws the README itself (issue 27: "no program to open it with" on a
    // machine with no Markdown viewer), and its links to docs/ open in the same window.
    void the_documentation_renders_without_a_viewer()
    {
        QMainWindow window;
        auto* menu = window.menuBar()->addMenu(QStringLiteral("Help"));
        app::HelpMenu help(window, *menu);
        QSignalSpy opened(&help, &app::HelpMenu::documentationOpened);
        menu->actions().front()->trigger(); // Documentation (F1)
        QVERIFY(opened.wait(30000));
        QCOMPARE(opened.at(0).at(1).toString(), QString());
        const QString readme = QDir::cleanPath(QStringLiteral(RLDA_SOURCE_DIR "/README.md"));
        QCOMPARE(opened.at(0).at(0).toString(), readme);
        app::DocumentationWindow* docs = help.documentation();
        QVERIFY(docs->isVisible());
        const QString text = docs->browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("RLDA Workbench")), qPrintable(text.left(200)));
        QVERIFY(!text.contains(QStringLiteral("```"))); // drawn, not shown as source
        // Its picture was read with the page, not by the document on the GUI thread: it is there
        // already, scaled to the window.
        const QVariant picture = docs->browser()->document()->resource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("docs/screenshots/03-training.png")));
        QVERIFY(picture.canConvert<QImage>());
        QVERIFY(picture.value<QImage>().width() <= 760);
        docs->resize(900, 680);
        test::shot(*docs, QStringLiteral("workspace-documentation"));
        // A link to a page of docs/ opens here, and Back returns.
        docs->openPage(QStringLiteral(RLDA_SOURCE_DIR "/docs/architecture.md"));
        QVERIFY(opened.wait(30000));
        QCOMPARE(opened.last().at(0).toString(), QDir::cleanPath(QStringLiteral(RLDA_SOURCE_DIR "/docs/architecture.md")));
        QVERIFY(docs->browser()->toPlainText().startsWith(QStringLiteral("Architecture")));
        auto* back = docs->findChild<QPushButton*>(QStringLiteral("documentationBack"));
        QVERIFY(back && back->isEnabled());
        back->click();
        QVERIFY(opened.wait(30000));
        QCOMPARE(opened.last().at(0).toString(), readme);
        // A page that is not there is said, and the window keeps what it showed.
        docs->openPage(QStringLiteral(RLDA_SOURCE_DIR "/docs/no-such-page.md"));
        QVERIFY(opened.wait(30000));
        QVERIFY(opened.last().at(1).toString().contains(QStringLiteral("no-such-page.md")));
        QCOMPARE(docs->file(), readme);
    }

    // Ctrl+F finds text in the page shown, round past its end, and says which of how many; a line of
    // the Markdown that starts with "+" is not drawn as a bullet in mid-sentence (issue 43, item 23).
    void the_documentation_finds_text()
    {
        app::DocumentationWindow docs;
        QSignalSpy shown(&docs, &app::DocumentationWindow::pageShown);
        docs.openPage(QStringLiteral(RLDA_SOURCE_DIR "/docs/building.md"));
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.last().at(1).toString(), QString());
        const QString text = docs.browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("(AddressSanitizer + UBSan;")), qPrintable(text.left(600)));
        const int places = static_cast<int>(text.count(QStringLiteral("UBSan"), Qt::CaseInsensitive));
        QVERIFY(places >= 2);

        auto* find = docs.findChild<QLineEdit*>(QStringLiteral("documentationFind"));
        QVERIFY(find);
        docs.activateWindow();
        QTest::keyClick(&docs, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(find->hasFocus());
        QTest::keyClicks(find, QStringLiteral("UBSan"));
        QCOMPARE(docs.browser()->textCursor().selectedText(), QStringLiteral("UBSan"));
        QCOMPARE(docs.findStatus(), QStringLiteral("1 of %1").arg(places));
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(docs.findStatus(), QStringLiteral("2 of %1").arg(places));
        QVERIFY(docs.find(QStringLiteral("UBSan"), /*backward=*/true));
        QCOMPARE(docs.findStatus(), QStringLiteral("1 of %1").arg(places));
        QVERIFY(docs.find(QStringLiteral("UBSan"), /*backward=*/true)); // round to the last
        QCOMPARE(docs.findStatus(), QStringLiteral("%1 of %1").arg(places));
        QVERIFY(!docs.find(QStringLiteral("no page says zqxj")));
        QCOMPARE(docs.findStatus(), QStringLiteral("not found"));
    }

    // Where new runs go (issue 27): ./runs in the root folder of a clone, runs/ in the user's data
    // folder anywhere else (not the folder the workbench was started in), and the folder chosen
    // with File → Runs folder… once there is one.
    void the_runs_folder()
    {
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QStringLiteral(RLDA_SOURCE_DIR)));
        const bool clone = QFileInfo::exists(QStringLiteral(RLDA_SOURCE_DIR "/.git"));
        const QString inClone = app::workspace::defaultRunsFolder();
        QTemporaryDir elsewhere;
        QVERIFY(QDir::setCurrent(elsewhere.path()));
        const QString outside = app::workspace::defaultRunsFolder();
        QVERIFY(QDir::setCurrent(before));
        if (clone)
            QCOMPARE(QDir::cleanPath(inClone), QDir::cleanPath(QStringLiteral(RLDA_SOURCE_DIR "/runs")));
        QCOMPARE(outside, app::workspace::dataRunsFolder());
        QVERIFY(!outside.startsWith(elsewhere.path()));
        QVERIFY(outside.endsWith(QStringLiteral("/runs")));

        QTemporaryDir chosen;
        app::workspace::setRunsFolder(chosen.path());
        QCOMPARE(app::workspace::runsFolder(), chosen.path());
        MainWindow w;
        w.restoreWorkspace();
        QCOMPARE(w.runsRoot(), chosen.path());

        // One setting (issue 43, item 10): a folder chosen on the Runs page is where new runs go,
        // now and at the next start, as File → Runs folder… makes it.
        QTemporaryDir browsed;
        auto* root = w.findChild<QLineEdit*>(QStringLiteral("rootEdit"));
        QVERIFY(root);
        root->setText(browsed.path());
        QTest::keyClick(root, Qt::Key_Return);
        QCOMPARE(w.runsRoot(), browsed.path());
        QCOMPARE(app::workspace::runsFolder(), browsed.path());
        QCOMPARE(w.sweeps()->runsRoot(), browsed.path()); // where a sweep's table goes
    }

    void version_and_help_need_no_display()
    {
        QProcess version;
        runWorkbench({QStringLiteral("--version")}, version);
        QCOMPARE(version.exitStatus(), QProcess::NormalExit);
        QCOMPARE(version.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(version.readAllStandardOutput()).trimmed(),
                 QStringLiteral("rlda-workbench " RLDA_VERSION));
        QProcess help;
        runWorkbench({QStringLiteral("--help")}, help);
        QCOMPARE(help.exitStatus(), QProcess::NormalExit);
        QCOMPARE(help.exitCode(), 0);
        const QString text = QString::fromUtf8(help.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("--reset-settings")), qPrintable(text));
        // A command line that does not parse says so, instead of aborting for want of a display.
        QProcess bad;
        runWorkbench({QStringLiteral("--no-such-option")}, bad);
        QCOMPARE(bad.exitStatus(), QProcess::NormalExit);
        QCOMPARE(bad.exitCode(), 1);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("no-such-option")));
    }

    void a_run_with_a_deep_key_config_in_the_runs_folder()
    {
        // Runs was the last page, and a run's config.toml holds a key of 40,000 parts: it used to
        // overflow toml++'s stack on every start (the probe's crash loop). Now the run is listed.
        QTemporaryDir dir;
        QString key = QStringLiteral("a");
        for (int i = 0; i < 40000; ++i)
            key += QStringLiteral(".a");
        const QString runs = dir.filePath("runs");
        QVERIFY(QDir().mkpath(runs + "/deep"));
        QFile config(runs + "/deep/config.toml");
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write((key + " = 1\n").toUtf8());
        config.close();
        QFile events(runs + "/deep/events.jsonl");
        QVERIFY(events.open(QIODevice::WriteOnly));
        events.close();
        QSettings().setValue(QLatin1String(app::workspace::key::kPage), QStringLiteral("runs"));
        app::workspace::setRunsFolder(runs); // File → Runs folder… chose it in an earlier session

        MainWindow w;
        QSignalSpy listed(w.runs(), &widgets::RunBrowser::listed);
        w.restoreWorkspace(); // as the program starts: the Runs page, which lists its root
        QCOMPARE(w.currentPage(), MainWindow::Page::Runs);
        QVERIFY(listed.wait(30000));
        auto* table = w.runs()->findChild<QTableView*>(QStringLiteral("runTable"));
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), 1);
        // Selected, it says why its settings are missing.
        table->selectRow(0);
        const auto* summary = w.runs()->findChild<QLabel*>(QStringLiteral("summaryLabel"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("a key nested deeper than 64 levels")), qPrintable(summary->text()));
        w.resize(1440, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        test::shot(w, QStringLiteral("runs-deep-key-config"));
    }

    void menus_for_the_record()
    {
        // Screenshots of the File, View and Help menus as a user opens them (RLDA_SCREENSHOT_DIR); the
        // Recent submenu's is recent_menus' (workspace-recent-missing).
        MainWindow w;
        w.restoreWorkspace();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const auto& [title, name] : {std::pair{QStringLiteral("File"), QStringLiteral("workspace-file-menu")},
                                          std::pair{QStringLiteral("View"), QStringLiteral("workspace-view-menu")},
                                          std::pair{QStringLiteral("Help"), QStringLiteral("workspace-help-menu")}}) {
            QMenu* menu = topMenu(w, title);
            QVERIFY(menu);
            menu->popup(w.mapToGlobal(QPoint(0, 0)));
            QVERIFY(QTest::qWaitForWindowExposed(menu));
            test::shot(*menu, name);
            menu->hide();
        }
    }
};

RLDA_SUITE_MAIN(TestWorkspace)
#include "test_workspace.moc"
