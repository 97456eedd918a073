// The workbench's Paper figures and Reproduce dialogs, driven as a user would: the shipped tables,
// a learning run, Draw; a failure read in the dialog; a quick reproduction with its ranks beside
// the paper's; and the paper's tables in the File menu.
#include "app/workbench/main_window.h"
#include "app/workbench/paper_figures_dialog.h"
#include "app/workbench/reproduce_dialog.h"
#include "core/run/learn_run.h"
#include "core/util/data_dir.h"
#include "tests/common/suite.h"
#include "widgets/inspect/table_explorer.h"

#include <QAbstractItemModelTester>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QtTest/QtTest>

using namespace rlda;

class TestFigureDialogs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        // A short learning run on the paper's ConvNet2 early table (seed 1, 40 episodes).
        core::run::LearnRunSettings s;
        s.stages = {{(core::paper_tables_dir() / "convnet2_early.csv").string(), 40, 0.0}};
        s.seed = 1;
        run_ = dir_.filePath("learn-early");
        (void)core::run::run_learning(s, run_.toStdString(), false);
    }

    void draws_every_figure_from_the_shipped_tables()
    {
        app::PaperFiguresDialog dialog;
        QSignalSpy added(&dialog, &app::PaperFiguresDialog::paperTablesAdded);
        dialog.addPaperTables(); // the index is read off the GUI thread
        QVERIFY(added.wait(10000));
        QCOMPARE(dialog.checkedTables().size(), 10);
        dialog.addPaperTables(); // listed once
        QVERIFY(added.wait(10000));
        QCOMPARE(dialog.checkedTables().size(), 10);
        dialog.addRuns({run_});
        dialog.setOutputFolder(dir_.filePath("figures"));
        QSignalSpy done(&dialog, &app::PaperFiguresDialog::finished);
        QVERIFY(dialog.draw());
        QVERIFY(done.wait(180000));
        QVERIFY2(done.front().front().toBool(), qPrintable(dialog.status()));
        // The files the log names as rlda wrote them ("wrote FILE").
        QStringList written;
        for (const QString& line : dialog.findChild<QPlainTextEdit*>("drawLog")->toPlainText().split('\n'))
            if (line.startsWith("wrote "))
                written << line.mid(6);
        QStringList names;
        for (const auto& f : written)
            names << QFileInfo(f).fileName();
        QCOMPARE(names, (QStringList{"fig07_objective.png", "fig08_accuracy.png", "fig09_runs.png",
                                     "fig10_ranks_ConvNet2.png", "fig11_ranks_ConvNet3.png", "fig12_accuracy.png"}));
        for (const auto& f : written)
            QVERIFY(QFileInfo(f).size() > 1000);
        QVERIFY(dialog.status().contains("6 files written"));
    }

    void says_what_is_missing_and_shows_a_failure()
    {
        app::PaperFiguresDialog dialog;
        QString why;
        QVERIFY(dialog.arguments(&why).isEmpty());
        QVERIFY(why.contains("learning run or a policy"));
        QVERIFY(!dialog.draw());
        // A table that is not one: rlda's one-line error ends up in the dialog.
        const QString bad = dir_.filePath("bad.csv");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not,a,table\n1,2,3\n");
        f.close();
        dialog.addTables({bad});
        dialog.addRuns({run_});
        dialog.setOutputFolder(dir_.filePath("figures-bad"));
        QSignalSpy done(&dialog, &app::PaperFiguresDialog::finished);
        QVERIFY(dialog.draw());
        QVERIFY(done.wait(60000));
        QVERIFY(!done.front().front().toBool());
        QVERIFY2(dialog.status().startsWith("Failed: ") && dialog.status().contains("bad.csv"),
                 qPrintable(dialog.status()));
    }

    void reproduces_the_paper_quickly_with_its_ranks_beside()
    {
        app::ReproduceDialog dialog;
        // The ranks table's model is checked while the ranks arrive line by line.
        QAbstractItemModelTester tester(dialog.ranks()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dialog.setEpisodes(40);
        dialog.setOutputFolder(dir_.filePath("reproduce"));
        QSignalSpy done(&dialog, &app::ReproduceDialog::finished);
        QVERIFY(dialog.start());
        QVERIFY(done.wait(180000));
        QVERIFY2(done.front().front().toBool(), qPrintable(dialog.status()));
        QCOMPARE(dialog.fraction(), 1.0);
        auto* ranks = dialog.ranks();
        QCOMPARE(ranks->rowCount(), 16);
        QCOMPARE(ranks->item(0, 0)->text(), QString("scratch"));
        QCOMPARE(ranks->item(0, 1)->text(), QString("ConvNet2"));
        QCOMPARE(ranks->item(0, 4)->text(), QString("1")); // the paper's ConvNet2 early
        QCOMPARE(ranks->item(15, 4)->text(), QString("47")); // the curriculum's ConvNet3 late
        QVERIFY(ranks->item(0, 3)->text().endsWith("/64"));
        QVERIFY(!ranks->item(0, 5)->text().isEmpty()); // the greedy sequence
        QVERIFY(QFileInfo::exists(dir_.filePath("reproduce/figures/fig12_accuracy.png")));
        QVERIFY(dialog.status().contains("ranks as good as the paper's"));
    }

    void the_file_menu_opens_the_papers_tables()
    {
        app::MainWindow window;
        auto* menu = window.menuBar()->findChild<QMenu*>("paperTablesMenu");
        QVERIFY(menu);
        QTRY_COMPARE(menu->actions().size(), 10); // the index is read off the GUI thread
        QVERIFY(menu->isEnabled());
        QAction* late = nullptr;
        for (auto* a : menu->actions())
            if (a->text().startsWith("ConvNet3 late"))
                late = a;
        QVERIFY(late);
        QSignalSpy shown(&window, &app::MainWindow::tableShown);
        late->trigger(); // the table is read off the GUI thread
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.at(0).at(0).toString(), QString());
        QCOMPARE(window.currentPage(), app::MainWindow::Page::Tables);
        QCOMPARE(window.tables()->visibleRowCount(), 64);

        // This project's Fashion-MNIST tables have a menu of their own, filled the same way.
        auto* fashion = window.menuBar()->findChild<QMenu*>("fashionTablesMenu");
        QVERIFY(fashion);
        QTRY_VERIFY(fashion->actions().size() >= 12);
        QAction* slim = nullptr;
        for (auto* a : fashion->actions())
            if (a->text().startsWith("SlimConvNet5 middle"))
                slim = a;
        QVERIFY(slim);
        slim->trigger();
        QVERIFY(shown.wait(30000));
        QCOMPARE(window.tables()->visibleRowCount(), 36); // 2 decisions over 5 blocks and Do Nothing
    }
};

RLDA_SUITE_MAIN(TestFigureDialogs)
#include "test_figure_dialogs.moc"
