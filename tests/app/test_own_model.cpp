// A new user's own model, the whole loop in the GUI (issue 27), with the files and steps the new
// user took: an experiment whose model is a TOML file, simulated from the Sweeps page (local, one
// part), its table opened in Tables by itself, learned from on the Learning page with no field
// cleared by hand, the policy evaluated, and the figures exported with Ctrl+E from a text field at
// exactly the size the export dialog shows.
#include "app/workbench/export_dialog.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/main_window.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/sweep_page.h"
#include "app/workbench/torch_engine.h"
#include "app/workbench/workspace.h"
#include "tests/common/run_state.h"
#include "tests/common/suite.h"
#include "tests/common/throwaway_settings.h"
#include "widgets/figures/rank_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/sweep_panel.h"

#include <QApplication>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

using namespace rlda;
using app::MainWindow;
using app::RunState;

namespace {

const QString kExperiment = QStringLiteral(RLDA_SOURCE_DIR "/tests/fixtures/own-model/experiment.toml");

// Answers the Export plot dialog as a user does, once it shows: reads what it offers, sets the
// size, resolution and file, and presses OK. `seen` gets the size the dialog showed when it opened.
void answerExportDialog(const QString& path, QSize size, int dpi, QSize* seen, bool* answered)
{
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [=] {
        auto* dialog = qobject_cast<app::ExportDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        auto* width = dialog->findChild<QSpinBox*>(QStringLiteral("exportWidth"));
        auto* height = dialog->findChild<QSpinBox*>(QStringLiteral("exportHeight"));
        *seen = QSize(width->value(), height->value());
        width->setValue(size.width());
        height->setValue(size.height());
        dialog->findChild<QSpinBox*>(QStringLiteral("exportDpi"))->setValue(dpi);
        dialog->findChild<QLineEdit*>(QStringLiteral("exportPath"))->setText(path);
        *answered = true;
        dialog->accept();
        poll->deleteLater();
    });
    poll->start();
}

} // namespace

class TestOwnModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::use_throwaway_settings(settings_);
        app::installEngine(app::makeTorchEngine()); // the suite learns and evaluates in the window
    }

    void the_own_model_loop_in_the_gui()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.restoreWorkspace(); // as the program starts: Recent lists are kept
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        QVERIFY(w.openExperiment(kExperiment));
        QVERIFY2(w.editor()->isValid(),
                 w.editor()->problems().isEmpty() ? "" : w.editor()->problems().front().reason.c_str());
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));

        // Simulate the experiment: local, one part, from the Sweeps page's own button.
        w.showPage(MainWindow::Page::Sweeps);
        widgets::SweepPanel* panel = w.sweeps()->panel();
        panel->setBackend(core::config::SweepBackend::Local);
        panel->setWorkers(1);
        QSignalSpy tableShown(&w, &MainWindow::tableShown);
        QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("submitSweep")), Qt::LeftButton);
        QVERIFY(w.sweeps()->isActive());
        // When it completes its table opens in Tables by itself, and File → Recent tables has it.
        QTRY_COMPARE_WITH_TIMEOUT(tableShown.count(), 1, 240000);
        QCOMPARE(tableShown.at(0).at(0).toString(), QString());
        const QString table = QDir(w.sweeps()->folder()).filePath(QStringLiteral("table.csv"));
        QCOMPARE(w.currentPage(), MainWindow::Page::Tables);
        QCOMPARE(w.tables()->visibleRowCount(), 9); // TinyNet: 3 actions, 2 decisions
        QVERIFY(app::workspace::recentFiles(app::workspace::Recent::Tables).contains(QFileInfo(table).absoluteFilePath()));
        QVERIFY(panel->findChild<QPushButton*>(QStringLiteral("openSweepTable"))->isEnabled());

        // Learn: the Learning page has the table and shows its model, TinyNet, from the metadata.
        app::LearningPage* learning = w.learning();
        QCOMPARE(QFileInfo(learning->table()).absoluteFilePath(), QFileInfo(table).absoluteFilePath());
        auto* model = learning->findChild<QLineEdit*>(QStringLiteral("learnModel"));
        QTRY_COMPARE(model->text(), QStringLiteral("TinyNet"));
        QCOMPARE(learning->findChild<QLineEdit*>(QStringLiteral("learnInput"))->text(), QStringLiteral("1x28x28"));
        learning->setEpisodes(400);
        w.showPage(MainWindow::Page::Learning);
        QTest::mouseClick(learning->findChild<QPushButton*>(QStringLiteral("learnButton")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(w.controller().state(), RunState::Finished, 120000);
        QCOMPARE(learning->view()->plot()->pointCount(QStringLiteral("objective")), 400); // a point per episode
        const QString policy = w.currentRun() + QStringLiteral("/policy.pt");
        QVERIFY(QFileInfo(policy).isFile());

        // Evaluate the learned policy on the table.
        QSignalSpy evaluated(w.policy(), &app::PolicyPage::evaluated);
        w.policy()->evaluate(policy, {table});
        QVERIFY(evaluated.wait(60000));
        QCOMPARE(evaluated.at(0).at(0).toString(), QString());
        QCOMPARE(w.policy()->ranks()->tables().size(), std::size_t{1});
        QCOMPARE(w.policy()->ranks()->tables().front().model, QStringLiteral("TinyNet"));
        QCOMPARE(w.policy()->ranks()->tables().front().evaluation.sequences, 9);

        // Export: Ctrl+E with the focus in the Tables page's filter (a text field, which would
        // take Ctrl+E for itself) opens the dialog; the PNG is exactly the size it shows.
        w.showPage(MainWindow::Page::Tables);
        auto* filter = w.tables()->findChild<QLineEdit*>(QStringLiteral("sequenceFilter"));
        filter->setFocus();
        QTRY_VERIFY(filter->hasFocus());
        const QString png = tmp.filePath(QStringLiteral("figures/heatmap.png"));
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("figures"))));
        QSize offered;
        bool answered = false;
        answerExportDialog(png, QSize(1200, 700), 150, &offered, &answered);
        QTest::keyClick(filter, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(answered);
        QCOMPARE(QImage(png).size(), QSize(1200, 700));
        QCOMPARE(qRound(QImage(png).dotsPerMeterX() * 0.0254), 150);
        QCOMPARE(filter->text(), QString()); // the shortcut, not the field, had the key

        // Again from the Learning page's plot, the dialog now offering what was used last.
        w.showPage(MainWindow::Page::Learning);
        const QString curve = tmp.filePath(QStringLiteral("figures/learning.png"));
        answered = false;
        answerExportDialog(curve, QSize(1000, 600), 96, &offered, &answered);
        w.activateWindow(); // back from the dialog (the offscreen platform does not do it)
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(answered);
        QCOMPARE(offered, QSize(1200, 700));
        QCOMPARE(QImage(curve).size(), QSize(1000, 600));

        // At 1366 x 768, with everything the loop filled in (long greedy lines, a sweep folder,
        // ranks), no page is wider than the window: none scrolls sideways.
        auto* pages = w.findChild<QTabWidget*>();
        for (int i = 0; i < pages->count(); ++i) {
            pages->setCurrentIndex(i);
            QCoreApplication::processEvents();
            auto* area = qobject_cast<QScrollArea*>(pages->currentWidget());
            QVERIFY(area);
            QVERIFY2(area->horizontalScrollBar()->maximum() == 0,
                     qPrintable(pages->tabText(i) + QStringLiteral(": %1 px too wide").arg(area->horizontalScrollBar()->maximum())));
        }
    }

private:
    QTemporaryDir settings_;
};

RLDA_SUITE_MAIN(TestOwnModel)
#include "test_own_model.moc"
