// The tour is a chain of steps driven by the worker's state changes; each screenshot is taken
// after the event loop has had time to replot.
#include "app/tour/tour.h"

#include "app/workbench/learning_page.h"
#include "app/workbench/main_window.h"
#include "app/workbench/paper_figures_dialog.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/reproduce_dialog.h"
#include "app/workbench/sweep_page.h"
#include "core/table/table.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/sweep_panel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace rlda::app {
namespace {
constexpr int kSettleMs = 500; // past the plots' replot timers and a layout pass
using Page = MainWindow::Page;
} // namespace

Tour::Tour(MainWindow& window, const QString& outDir, QString table, QObject* parent)
    : QObject(parent), window_(window), out_(outDir), table_(std::move(table))
{
}

void Tour::shoot(const QString& name) { shootWidget(window_, name); }

void Tour::fail(const QString& why)
{
    if (failed_)
        return;
    failed_ = true;
    std::fprintf(stderr, "rlda-workbench --tour: %s\n", qPrintable(why));
    Q_EMIT finished(1);
}

void Tour::shootPage(int page, const QString& name, const std::function<void()>& next)
{
    window_.showPage(static_cast<Page>(page));
    QTimer::singleShot(kSettleMs, this, [this, name, next] {
        shoot(name);
        if (!failed_ && next)
            next();
    });
}

void Tour::runThen(const std::function<bool()>& begin, const std::function<void()>& then)
{
    // Lives until the run ends; the connection goes with it.
    auto* watch = new QObject(this);
    connect(&window_.controller(), &RunController::stateChanged, watch, [this, watch, then](RunState s) {
        if (s != RunState::Failed && s != RunState::Finished && s != RunState::Cancelled)
            return;
        watch->deleteLater();
        if (s != RunState::Finished)
            return fail(QStringLiteral("the run in %1 did not finish").arg(window_.currentRun()));
        QTimer::singleShot(kSettleMs, this, then);
    });
    if (!begin()) {
        watch->deleteLater();
        fail(QStringLiteral("a run did not start"));
    }
}

void Tour::start()
{
    if (!out_.mkpath(QStringLiteral(".")))
        return fail(QStringLiteral("%1: cannot create the folder").arg(out_.path()));
    window_.showPage(Page::Training);
    shoot(QStringLiteral("01-experiment"));
    // The live shot: some epochs after the first adaptation, while the run goes on.
    auto* live = new QObject(this);
    connect(window_.controller().worker(), &Worker::adaptation, live, [this, live] {
        live->deleteLater();
        QTimer::singleShot(6000, this, [this] {
            if (window_.controller().state() == RunState::Running)
                shoot(QStringLiteral("02-training-live"));
        });
    });
    runThen([this] { return window_.startTraining(); }, [this] { afterFirstTraining(); });
}

void Tour::afterFirstTraining()
{
    shoot(QStringLiteral("03-training"));
    auto* arch = window_.architecture();
    arch->setCurrentStep(arch->stepCount() - 1);
    arch->setDiffSteps(0, arch->stepCount() - 1);
    shootPage(static_cast<int>(Page::Architecture), QStringLiteral("04-architecture"), [this] {
        if (table_.isEmpty()) {
            window_.policy()->decisions()->setCurrentDecision(0);
            return shootPage(static_cast<int>(Page::Policy), QStringLiteral("09-policy"), [this] { compareRuns(); });
        }
        connect(&window_, &MainWindow::tableShown, this, [this](const QString& error) {
            if (!error.isEmpty())
                return fail(QStringLiteral("%1: cannot open the table: %2").arg(table_, error));
            shootPage(static_cast<int>(Page::Tables), QStringLiteral("05-table-explorer"), [this] { learn(); });
        }, Qt::SingleShotConnection);
        window_.openTable(table_); // read off the GUI thread
    });
}

void Tour::learn()
{
    auto* page = window_.learning();
    page->setTable(table_);
    page->setInput(QString::fromStdString(core::model::shape_string(core::model::kCifar10Input))); // the paper's tables
    page->setEpisodes(30000);
    auto* live = new QObject(this);
    connect(window_.controller().worker(), &Worker::greedy, live, [this, live](qint64 episode) {
        if (episode < 10000)
            return;
        live->deleteLater();
        QTimer::singleShot(100, this, [this] { shoot(QStringLiteral("06-learning-live")); });
    });
    runThen([this] { return window_.startLearning(); }, [this] {
        shoot(QStringLiteral("07-learning"));
        policy_ = QDir(window_.currentRun()).filePath(QStringLiteral("policy.pt"));
        // The learned policy on every scenario of its model (the paper's figs. 10-11).
        QStringList tables;
        const QString index = QFileInfo(table_).dir().filePath(QStringLiteral("index.csv"));
        const QString model = QString::fromStdString(window_.learning()->settings().model);
        if (QFileInfo::exists(index))
            for (const auto& e : core::sim::load_table_index(index.toStdString()))
                if (QString::fromStdString(e.model) == model)
                    tables << QString::fromStdString(e.file);
        if (tables.isEmpty())
            tables << table_;
        window_.policy()->setDefaultModel(model, core::model::kCifar10Input, core::model::kCifar10Classes);
        // Evaluated off the GUI thread: the shot waits for the ranks.
        connect(window_.policy(), &PolicyPage::evaluated, this, [this](const QString& e) {
            if (!e.isEmpty())
                return fail(e);
            shootPage(static_cast<int>(Page::Policy), QStringLiteral("08-policy-ranks"), [this] { trainWithPolicy(); });
        }, Qt::SingleShotConnection);
        window_.policy()->evaluate(policy_, tables);
    });
}

void Tour::trainWithPolicy()
{
    // The same experiment with the learned policy as its agent: decisions with probabilities.
    auto config = window_.editor()->config();
    config.name = "default-policy";
    config.agent.kind = core::config::AgentKind::Policy;
    config.agent.policy = policy_.toStdString();
    window_.editor()->setConfig(config);
    runThen([this] { return window_.startTraining(); }, [this] {
        window_.policy()->decisions()->setCurrentDecision(0);
        shootPage(static_cast<int>(Page::Policy), QStringLiteral("09-policy-decisions"), [this] { compareRuns(); });
    });
}

void Tour::compareRuns()
{
    window_.showPage(Page::Runs); // lists the runs
    auto* runs = window_.runs();
    // The listing is read off the GUI thread: the rest waits for it.
    connect(runs, &widgets::RunBrowser::listed, this, [this, runs] {
        QList<int> training;
        for (int i = 0; i < runs->runs().size(); ++i)
            if (runs->runs()[i].kind == core::io::RunKind::Training)
                training << i;
        auto last = [this] {
            sweep([this] {
                window_.showPage(Page::Runs);
                connect(window_.runs(), &widgets::RunBrowser::listed, this, [this] {
                    shootPage(static_cast<int>(Page::Runs), QStringLiteral("12-run-browser"), [this] {
                        shootPage(static_cast<int>(Page::Models), QStringLiteral("13-models"), [this] {
                            dialogs([this] {
                                std::printf("tour: %d screenshots in %s\n", shots_, qPrintable(out_.path()));
                                Q_EMIT finished(0);
                            });
                        });
                    });
                }, Qt::SingleShotConnection);
                window_.runs()->refresh();
            });
        };
        if (training.size() < 2)
            return last();
        runs->selectRuns(training);
        Q_EMIT runs->overlayRequested(runs->selectedRuns()); // what the Overlay button does
        shootPage(static_cast<int>(Page::Training), QStringLiteral("10-overlay"), last);
    }, Qt::SingleShotConnection);
    runs->refresh();
}

void Tour::dialogs(const std::function<void()>& next)
{
    // File -> Paper figures…: what is open preselected, the paper's tables added, drawn.
    window_.paperFiguresWithDialog();
    auto* figures = window_.paperFiguresDialog();
    figures->setOutputFolder(QFileInfo(window_.currentRun()).dir().filePath(QStringLiteral("figures")));
    connect(figures, &PaperFiguresDialog::finished, this, [this, figures, next](bool ok) {
        if (!ok)
            return fail(QStringLiteral("paper figures: %1").arg(figures->status()));
        QTimer::singleShot(kSettleMs, this, [this, figures, next] {
            shootWidget(*figures, QStringLiteral("14-paper-figures"));
            figures->hide();
            // Run -> Reproduce the paper…, a quick look at 3,000 episodes a run.
            window_.reproduceWithDialog();
            auto* reproduce = window_.reproduceDialog();
            reproduce->setEpisodes(3000);
            connect(reproduce, &ReproduceDialog::finished, this, [this, reproduce, next](bool done) {
                if (!done)
                    return fail(QStringLiteral("reproduce: %1").arg(reproduce->status()));
                QTimer::singleShot(kSettleMs, this, [this, reproduce, next] {
                    shootWidget(*reproduce, QStringLiteral("15-reproduce"));
                    reproduce->hide();
                    next();
                });
            });
            if (!reproduce->start())
                fail(QStringLiteral("reproduce did not start: %1").arg(reproduce->status()));
        });
    });
    // The index is read off the GUI thread: drawing starts once the tables are listed.
    connect(figures, &PaperFiguresDialog::paperTablesAdded, this, [this, figures] {
        if (!figures->draw())
            fail(QStringLiteral("paper figures did not start: %1").arg(figures->status()));
    }, Qt::SingleShotConnection);
    figures->addPaperTables();
}

void Tour::shootWidget(QWidget& widget, const QString& name)
{
    if (failed_)
        return;
    QCoreApplication::processEvents();
    const QString file = out_.filePath(name + QStringLiteral(".png"));
    if (!widget.grab().save(file, "PNG"))
        return fail(QStringLiteral("%1: cannot write the screenshot").arg(file));
    ++shots_;
    std::printf("screenshot: %s\n", qPrintable(file));
    std::fflush(stdout);
}

void Tour::sweep(const std::function<void()>& next)
{
    auto config = window_.editor()->config();
    config.name = "default";
    config.agent = {};
    window_.showPage(Page::Sweeps);
    if (!window_.sweeps()->submit(config, core::config::SweepBackend::Local, 2))
        return fail(QStringLiteral("the sweep did not start"));
    // Until a row is on disk (the warm start comes first), at most 3 minutes.
    auto* timer = new QTimer(this);
    auto waited = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, waited, next] {
        window_.sweeps()->poll();
        const bool rows = !window_.sweeps()->panel()->summaryText().startsWith(QStringLiteral("0 of")) &&
                          !window_.sweeps()->panel()->summaryText().isEmpty();
        if (!rows && ++*waited < 180)
            return;
        timer->deleteLater();
        shoot(QStringLiteral("11-sweeps"));
        window_.sweeps()->cancel();
        auto* stopped = new QTimer(this);
        connect(stopped, &QTimer::timeout, this, [this, stopped, next] {
            if (window_.sweeps()->isActive())
                return;
            stopped->deleteLater();
            next();
        });
        stopped->start(200);
    });
    timer->start(1000);
}

} // namespace rlda::app
