// The item models behind the workbench dialogs' lists under QAbstractItemModelTester while the
// dialog fills and changes them: the Paper figures dialog's tables, runs and policies (added,
// added again, unchecked, removed by Del). The Reproduce dialog's ranks table fills only from a
// real `rlda reproduce`'s output, so its model is not watched here.
#include "app/workbench/paper_figures_dialog.h"
#include "core/table/table.h"
#include "core/util/data_dir.h"
#include "tests/common/suite.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QListWidget>
#include <QTemporaryDir>
#include <QTest>

using rlda::app::PaperFiguresDialog;

namespace {

// What Del does in a list: its Delete action removes the selected entries.
void pressDelete(QListWidget* list)
{
    for (QAction* a : list->actions())
        if (a->shortcut() == QKeySequence(QKeySequence::Delete))
            a->trigger();
}

// The shipped tables the index names, as addPaperTables() reads them.
QStringList paperTableFiles()
{
    QStringList files;
    for (const auto& e : rlda::core::sim::load_table_index((rlda::core::paper_tables_dir() / "index.csv").string()))
        files << QString::fromStdString(e.file);
    return files;
}

} // namespace

class TestDialogModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void paperFiguresLists()
    {
        PaperFiguresDialog dialog;
        auto* tables = dialog.findChild<QListWidget*>(QStringLiteral("figureTables"));
        auto* runs = dialog.findChild<QListWidget*>(QStringLiteral("figureRuns"));
        auto* policies = dialog.findChild<QListWidget*>(QStringLiteral("figurePolicies"));
        QVERIFY(tables && runs && policies);
        constexpr auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
        QAbstractItemModelTester tablesTester(tables->model(), mode);
        QAbstractItemModelTester runsTester(runs->model(), mode);
        QAbstractItemModelTester policiesTester(policies->model(), mode);

        dialog.addPaperTables();
        QTRY_COMPARE(tables->count(), 10); // whether the index is read here or on a worker thread
        const QStringList paper = paperTableFiles();
        dialog.addTables(paper); // listed already: nothing added
        QCOMPARE(tables->count(), 10);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        dialog.addRuns({dir.filePath(QStringLiteral("run-a")), dir.filePath(QStringLiteral("run-b")), QString()});
        dialog.addPolicies({dir.filePath(QStringLiteral("policy.pt"))});
        QCOMPARE(runs->count(), 2);
        QCOMPARE(policies->count(), 1);

        tables->item(3)->setCheckState(Qt::Unchecked);
        QCOMPARE(dialog.checkedTables().size(), 9);
        // Del removes the selected entries.
        for (int row : {0, 4, 9})
            tables->item(row)->setSelected(true);
        pressDelete(tables);
        QCOMPARE(tables->count(), 7);
        runs->item(1)->setSelected(true);
        pressDelete(runs);
        QCOMPARE(runs->count(), 1);
        dialog.addTables(paper); // the removed ones come back, the others stay once
        QCOMPARE(tables->count(), 10);
    }
};

RLDA_SUITE_MAIN(TestDialogModels)
#include "test_dialog_models.moc"
