// The tour is a chain of steps driven by the worker's state changes; each screenshot is taken
// after the event loop has had time to replot.
#include "app/workbench/tour.h"

#include "app/workbench/learning_page.h"
#include "app/workbench/main_window.h"
#include "app/workbench/models_page.h"
#include "app/workbench/policy_page.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/run/run_browser.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

namespace rlda::app {
namespace {
constexpr int kSettleMs = 400; // past the plots' replot timers and a layout pass
}

Tour::Tour(MainWindow& window, const QString& outDir, const QString& table, QObject* parent)
    : QObject(parent), window_(window), out_(outDir), table_(table)
{
}

void Tour::shoot(const QString& name)
{
    QCoreApplication::processEvents();
    const QString file = out_.filePath(name + QStringLiteral(".png"));
    if (!window_.grab().save(file, "PNG"))
        return fail(QStringLiteral("%1: cannot write the screenshot").arg(file));
    ++shots_;
    std::printf("screenshot: %s\n", qPrintable(file));
    std::fflush(stdout);
}

void Tour::fail(const QString& why)
{
    std::fprintf(stderr, "rlda-workbench --tour: %s\n", qPrintable(why));
    Q_EMIT finished(1);
}

void Tour::start()
{
    if (!out_.mkpath(QStringLiteral(".")))
        return fail(QStringLiteral("%1: cannot create the folder").arg(out_.path()));
    window_.showPage(MainWindow::Page::Training);
    shoot(QStringLiteral("01-experiment"));
    auto& controller = window_.controller();
    // The live shot: some epochs after the first adaptation, while the run goes on.
    connect(controller.worker(), &Worker::adaptation, this, [this] {
        if (liveShot_)
            return;
        liveShot_ = true;
        QTimer::singleShot(6000, this, [this] {
            if (window_.controller().state() == RunState::Running)
                shoot(QStringLiteral("02-training-live"));
        });
    });
    connect(&controller, &RunController::stateChanged, this, [this](RunState s) {
        if (s == RunState::Failed)
            fail(QStringLiteral("the training run failed"));
        else if (s == RunState::Finished || s == RunState::Cancelled)
            QTimer::singleShot(kSettleMs, this, &Tour::onTrainingDone);
    }, Qt::SingleShotConnection);
    if (!window_.startTraining())
        fail(QStringLiteral("the experiment did not start"));
}

void Tour::onTrainingDone()
{
    shoot(QStringLiteral("03-training"));
    auto* arch = window_.architecture();
    arch->setCurrentStep(arch->stepCount() - 1);
    arch->setDiffSteps(0, arch->stepCount() - 1);
    window_.showPage(MainWindow::Page::Architecture);
    QTimer::singleShot(kSettleMs, this, [this] {
        shoot(QStringLiteral("04-architecture"));
        auto* decisions = window_.policy()->decisions();
        decisions->setCurrentDecision(0);
        window_.showPage(MainWindow::Page::Policy);
        QTimer::singleShot(kSettleMs, this, [this] {
            shoot(QStringLiteral("05-policy-decisions"));
            if (table_.isEmpty())
                return finishWithRuns();
            // Learning: a real run against the table, long enough to see the curves settle.
            window_.openTable(table_);
            QTimer::singleShot(kSettleMs, this, [this] {
                shoot(QStringLiteral("06-table-explorer"));
                window_.learning()->setTable(table_);
                window_.learning()->setEpisodes(30000);
                auto& controller = window_.controller();
                connect(controller.worker(), &Worker::greedy, this, [this](qint64 episode) {
                    if (!learningLiveShot_ && episode >= 10000) {
                        learningLiveShot_ = true;
                        QTimer::singleShot(100, this, [this] { shoot(QStringLiteral("07-learning-live")); });
                    }
                });
                connect(&controller, &RunController::stateChanged, this, [this](RunState s) {
                    if (s == RunState::Failed)
                        fail(QStringLiteral("the learning run failed"));
                    else if (s == RunState::Finished || s == RunState::Cancelled)
                        QTimer::singleShot(kSettleMs, this, &Tour::onLearningDone);
                }, Qt::SingleShotConnection);
                if (!window_.startLearning())
                    fail(QStringLiteral("learning did not start"));
            });
        });
    });
}

void Tour::onLearningDone()
{
    shoot(QStringLiteral("08-learning"));
    // The learned policy on every table beside the one it learned from (figs. 10-11).
    QStringList tables;
    for (QDirIterator it(QFileInfo(table_).absolutePath(), {QStringLiteral("*.csv")}, QDir::Files); it.hasNext();) {
        const QString path = it.next();
        if (QFileInfo(path).fileName() != QLatin1String("index.csv"))
            tables << path;
    }
    tables.sort();
    const QString policy = QDir(window_.currentRun()).filePath(QStringLiteral("policy.pt"));
    if (const QString e = window_.policy()->evaluate(policy, tables); !e.isEmpty())
        return fail(e);
    window_.showPage(MainWindow::Page::Policy);
    QTimer::singleShot(kSettleMs, this, [this] {
        shoot(QStringLiteral("09-policy-ranks"));
        finishWithRuns();
    });
}

void Tour::finishWithRuns()
{
    window_.showPage(MainWindow::Page::Runs); // lists the runs
    auto* runs = window_.runs();
    runs->refresh();
    if (!runs->runs().isEmpty()) {
        runs->selectRuns({0});
        runs->openRun(0);
        window_.showPage(MainWindow::Page::Runs); // opening a run shows its pages
    }
    QTimer::singleShot(kSettleMs, this, [this] {
        shoot(QStringLiteral("10-run-browser"));
        window_.showPage(MainWindow::Page::Models);
        QTimer::singleShot(kSettleMs, this, [this] {
            shoot(QStringLiteral("11-models"));
            std::printf("tour: %d screenshots in %s\n", shots_, qPrintable(out_.path()));
            Q_EMIT finished(0);
        });
    });
}

} // namespace rlda::app
