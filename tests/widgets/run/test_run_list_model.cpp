// RunListModel, RunColumns and RunSortFilter without a folder on disk: runs of each kind and state
// built in memory, their cells column by column, sorting and filtering through the proxy, and the
// signals a new listing, a reopened run and saved notes send, all under QAbstractItemModelTester.
#include "tests/common/suite.h"
#include "widgets/run/run_columns.h"
#include "widgets/run/run_list_model.h"
#include "widgets/run/run_sort_filter.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using rlda::core::io::RunData;
using rlda::core::io::RunKind;
using rlda::widgets::RunColumns;
using rlda::widgets::RunListModel;
using rlda::widgets::RunRead;
using rlda::widgets::RunSortFilter;

namespace {

const QString kRoot = QStringLiteral("/runs");
constexpr auto kQtTest = QAbstractItemModelTester::FailureReportingMode::QtTest;
const QColor kRunning(0x1f, 0x77, 0xb4);
const QColor kUnfinished(0xb2, 0x4a, 0x00);

// The states a run of the Runs page can be in, each built as a listing would read it.
enum class State { Finished, Cancelled, Killed, Running, Incomplete, Learning, Table, TableCut, TableBroken };

RunRead runOf(const QString& name, State state, const std::string& config = "name = \"x\"\n[job]\nlr = 0.01\n")
{
    RunRead r;
    r.run.name = name.toStdString();
    r.run.path = (kRoot + QLatin1Char('/') + name).toStdString();
    r.run.kind = RunKind::Training;
    r.run.config_text = config;
    r.facts.modified = QDateTime::currentDateTime().addSecs(state == State::Running ? -5 : -3600);
    switch (state) {
    case State::Finished:
    case State::Cancelled:
        r.run.finished = rlda::core::train::RunResult{};
        r.run.finished->final_test_acc = 0.81;
        r.run.finished->cancelled = state == State::Cancelled;
        break;
    case State::Killed:
        r.run.truncated = true;
        r.run.problems = {"events.jsonl:3: partial last line skipped"};
        break;
    case State::Learning:
        r.run.kind = RunKind::Learning;
        r.run.episodes.resize(3);
        for (int i = 0; i < 3; ++i)
            r.run.episodes[std::size_t(i)] = {75001 + i, -1.0, 0.5 + 0.1 * i};
        break;
    case State::Table:
    case State::TableCut:
        r.run.kind = RunKind::Simulation;
        r.facts.tableFolder = true;
        r.facts.table = rlda::core::sim::TableStatus{state == State::Table ? 16 : 3, 16, {}, {}};
        r.facts.table->best = rlda::core::sim::TableRow{{0, 3}, {40, 20}, 60, 0.875, {}};
        break;
    case State::TableBroken:
        r.run.kind = RunKind::Simulation;
        r.facts.tableFolder = true;
        break;
    default:
        break;
    }
    r.facts.fields = rlda::core::io::run_fields(r.run, r.facts.table ? &*r.facts.table : nullptr);
    r.facts.notes = {{"baseline", "paper"}, "first line\nsecond line"};
    r.facts.signature = QStringLiteral("v1");
    return r;
}

QList<RunRead> listingOf(const QStringList& names, const QStringList& changed = {})
{
    QList<RunRead> reads;
    for (const QString& name : names) {
        RunRead r = runOf(name, State::Finished);
        r.unchanged = !changed.isEmpty() && !changed.contains(name);
        if (r.unchanged)
            r.run = RunData{r.run.path};
        reads << r;
    }
    return reads;
}

QStringList namesOf(const QAbstractItemModel& model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, RunColumns::Name).data().toString();
    return out;
}

// Every structural signal of `model`, in order, as a line.
struct Recorder {
    QStringList events;
    explicit Recorder(QAbstractItemModel& model)
    {
        QObject::connect(&model, &QAbstractItemModel::rowsInserted, [this](const QModelIndex&, int a, int b) {
            events << QStringLiteral("inserted %1-%2").arg(a).arg(b);
        });
        QObject::connect(&model, &QAbstractItemModel::rowsRemoved, [this](const QModelIndex&, int a, int b) {
            events << QStringLiteral("removed %1-%2").arg(a).arg(b);
        });
        QObject::connect(&model, &QAbstractItemModel::dataChanged, [this](const QModelIndex& a, const QModelIndex& b) {
            events << QStringLiteral("changed %1-%2").arg(a.row()).arg(b.row());
        });
        QObject::connect(&model, &QAbstractItemModel::modelReset, [this] { events << QStringLiteral("reset"); });
    }
};

} // namespace

class TestRunListModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cells_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariant>("number");
        QTest::addColumn<QColor>("colour");
        const QVariant none;
        const QString best = QStringLiteral("best [%1] · acc 0.875")
                                 .arg(QString::fromStdString(rlda::core::sim::sequence_string({0, 3})));
        QTest::newRow("name") << int(State::Finished) << "run" << "r" << none << QColor();
        QTest::newRow("training kind") << int(State::Finished) << "kind" << "training" << none << QColor();
        QTest::newRow("finished result") << int(State::Finished) << "result" << "acc 0.810" << QVariant(0.81) << QColor();
        QTest::newRow("finished") << int(State::Finished) << "status" << "finished" << none << QColor();
        QTest::newRow("cancelled") << int(State::Cancelled) << "status" << "cancelled" << none << QColor();
        QTest::newRow("killed") << int(State::Killed) << "status" << "killed (truncated)" << none << kUnfinished;
        QTest::newRow("running") << int(State::Running) << "status" << "running" << none << kRunning;
        QTest::newRow("incomplete") << int(State::Incomplete) << "status" << "incomplete" << none << QColor();
        QTest::newRow("no result") << int(State::Incomplete) << "result" << "—" << none << QColor();
        QTest::newRow("learning kind") << int(State::Learning) << "kind" << "learning" << none << QColor();
        QTest::newRow("learning result") << int(State::Learning) << "result" << "episode 75003 · acc 0.700" << none
                                         << QColor();
        QTest::newRow("table") << int(State::Table) << "status" << "16/16 rows" << none << QColor();
        QTest::newRow("table result") << int(State::Table) << "result" << best << QVariant(0.875) << QColor();
        QTest::newRow("table cut") << int(State::TableCut) << "status" << "3/16 rows, incomplete" << none << kUnfinished;
        QTest::newRow("table broken") << int(State::TableBroken) << "status" << "unreadable table" << none << kUnfinished;
        QTest::newRow("tags") << int(State::Finished) << "tags" << "baseline, paper" << none << QColor();
        QTest::newRow("note") << int(State::Finished) << "note" << "first line" << none << QColor();
        QTest::newRow("config key") << int(State::Finished) << "job.lr" << "0.01" << QVariant(0.01) << QColor();
        QTest::newRow("schema default") << int(State::Finished) << "agent.kind" << "fixed" << none << QColor();
        QTest::newRow("final accuracy") << int(State::Finished) << "final_accuracy" << "0.81" << QVariant(0.81) << QColor();
    }

    void cells()
    {
        QFETCH(int, state);
        QFETCH(QString, column);
        QFETCH(QString, text);
        QFETCH(QVariant, number);
        QFETCH(QColor, colour);
        RunColumns columns{QString()};
        RunListModel model(&columns);
        QAbstractItemModelTester tester(&model, kQtTest);
        columns.setShown(RunColumns::defaults() << column);
        model.setListing(kRoot, {runOf(QStringLiteral("r"), State(state))});
        const int c = columns.modelColumn(column);
        QVERIFY(c >= 0);
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), RunColumns::label(column));
        const QModelIndex at = model.index(0, c);
        QCOMPARE(at.data().toString(), text);
        QCOMPARE(at.data(RunListModel::SortRole).isValid(), number.isValid());
        if (number.isValid())
            QCOMPARE(at.data(RunListModel::SortRole).toDouble(), number.toDouble());
        const QVariant brush = at.data(Qt::ForegroundRole);
        QCOMPARE(brush.isValid(), colour.isValid());
        if (colour.isValid())
            QCOMPARE(brush.value<QBrush>().color(), colour);
    }

    void columns_data()
    {
        QTest::addColumn<QStringList>("shown");
        QTest::addColumn<QStringList>("expected"); // shown() after
        QTest::addColumn<int>("modelColumns");
        QTest::addColumn<QStringList>("hidden"); // built-in ids the view hides
        QTest::addColumn<bool>("reset");         // the extra columns changed
        QTest::newRow("defaults") << RunColumns::defaults() << RunColumns::defaults() << 6 << QStringList{} << false;
        QTest::newRow("unknown dropped, run kept") << QStringList{"kind", "no.such.key"} << QStringList{"run", "kind"} << 5
                                                   << QStringList{"result", "status", "modified"} << true;
        QTest::newRow("extras in order") << QStringList{"run", "job.seed", "final_accuracy", "job.seed"}
                                         << QStringList{"run", "job.seed", "final_accuracy"} << 7
                                         << QStringList{"kind", "result", "status", "modified"} << true;
    }

    void columns()
    {
        QFETCH(QStringList, shown);
        QFETCH(QStringList, expected);
        QFETCH(int, modelColumns);
        QFETCH(QStringList, hidden);
        QFETCH(bool, reset);
        RunColumns columns{QString()};
        RunListModel model(&columns);
        QAbstractItemModelTester tester(&model, kQtTest);
        model.setListing(kRoot, listingOf({QStringLiteral("a"), QStringLiteral("b")}));
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        columns.setShown(shown);
        QCOMPARE(columns.shown(), expected);
        QCOMPARE(model.columnCount(), modelColumns);
        QCOMPARE(model.rowCount(), 2); // the runs stay
        QCOMPARE(resets.count(), reset ? 1 : 0);
        for (int c = 0; c < RunColumns::BuiltIns; ++c)
            QCOMPARE(columns.isHidden(c), hidden.contains(RunColumns::builtInId(c)));
        for (const QString& id : expected)
            QCOMPARE(model.headerData(columns.modelColumn(id), Qt::Horizontal).toString(), RunColumns::label(id));

        // The menu toggles the same choice.
        std::unique_ptr<QMenu> menu(columns.menu(nullptr));
        for (QAction* a : menu->actions())
            if (a->data().toString() == QStringLiteral("kind"))
                a->setChecked(!a->isChecked());
        QCOMPARE(columns.shown().contains(QStringLiteral("kind")), !expected.contains(QStringLiteral("kind")));
    }

    void sorting_data()
    {
        QTest::addColumn<QString>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("name") << "run" << int(Qt::AscendingOrder) << QStringList{"a", "b", "c"};
        QTest::newRow("name descending") << "run" << int(Qt::DescendingOrder) << QStringList{"c", "b", "a"};
        // 9 < 10 < 100, which text would put 10, 100, 9.
        QTest::newRow("seed as numbers") << "job.seed" << int(Qt::AscendingOrder) << QStringList{"a", "b", "c"};
        QTest::newRow("seed descending") << "job.seed" << int(Qt::DescendingOrder) << QStringList{"c", "b", "a"};
        QTest::newRow("lr") << "job.lr" << int(Qt::AscendingOrder) << QStringList{"c", "a", "b"};
        QTest::newRow("text") << "agent.kind" << int(Qt::AscendingOrder) << QStringList{"a", "b", "c"};
    }

    void sorting()
    {
        QFETCH(QString, column);
        QFETCH(int, order);
        QFETCH(QStringList, names);
        RunColumns columns{QString()};
        columns.setShown(RunColumns::defaults() << QStringLiteral("job.seed") << QStringLiteral("job.lr")
                                                << QStringLiteral("agent.kind"));
        RunListModel model(&columns);
        RunSortFilter proxy(&columns);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, kQtTest);
        model.setListing(kRoot, {runOf("a", State::Finished, "name = \"a\"\n[job]\nlr = 0.01\nseed = 9\n"),
                                 runOf("b", State::Finished, "name = \"b\"\n[job]\nlr = 0.1\nseed = 10\n"),
                                 runOf("c", State::Finished, "name = \"c\"\n[job]\nlr = 0.001\nseed = 100\n"
                                                             "[agent]\nkind = \"random\"\n")});
        proxy.sort(columns.modelColumn(column), Qt::SortOrder(order));
        QCOMPARE(namesOf(proxy), names);
    }

    void filtering_data()
    {
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QStringList>("shown");
        QTest::addColumn<QStringList>("names");
        const QStringList all = RunColumns::defaults() << QStringLiteral("agent.kind");
        QTest::newRow("empty") << "" << all << QStringList{"a", "b", "c"};
        QTest::newRow("case-insensitive") << "RANDOM" << all << QStringList{"c"};
        QTest::newRow("trimmed") << "  random " << all << QStringList{"c"};
        QTest::newRow("a column not shown") << "random" << RunColumns::defaults() << QStringList{};
        QTest::newRow("a built-in column") << "training" << all << QStringList{"a", "b", "c"};
        QTest::newRow("a built-in column hidden") << "training" << QStringList{"run", "agent.kind"} << QStringList{};
        QTest::newRow("no match") << "nothing like it" << all << QStringList{};
    }

    void filtering()
    {
        QFETCH(QString, needle);
        QFETCH(QStringList, shown);
        QFETCH(QStringList, names);
        RunColumns columns{QString()};
        RunListModel model(&columns);
        RunSortFilter proxy(&columns);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, kQtTest);
        model.setListing(kRoot, {runOf("a", State::Finished), runOf("b", State::Finished),
                                 runOf("c", State::Finished, "name = \"c\"\n[agent]\nkind = \"random\"\n")});
        proxy.setNeedle(needle);
        columns.setShown(shown); // the filter follows the columns shown
        QCOMPARE(namesOf(proxy), names);
        proxy.setNeedle(QString());
        QCOMPARE(proxy.rowCount(), 3);
    }

    void listings_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<QStringList>("changed"); // read anew in `after`; empty: all of them
        QTest::addColumn<QString>("root");
        QTest::addColumn<QStringList>("events");
        QTest::addColumn<bool>("samePaths");
        const QStringList abc{"a", "b", "c"};
        QTest::newRow("first") << QStringList{} << abc << QStringList{} << kRoot << QStringList{"inserted 0-2"} << false;
        QTest::newRow("unchanged") << abc << abc << QStringList{"-"} << kRoot << QStringList{} << true;
        QTest::newRow("one changed") << abc << abc << QStringList{"b"} << kRoot << QStringList{"changed 1-1"} << true;
        QTest::newRow("added between") << QStringList{"a", "c"} << abc << QStringList{"b"} << kRoot
                                       << QStringList{"inserted 1-1"} << false;
        QTest::newRow("added at the end") << QStringList{"a"} << abc << QStringList{"b", "c"} << kRoot
                                          << QStringList{"inserted 1-2"} << false;
        QTest::newRow("removed") << abc << QStringList{"a", "c"} << QStringList{"-"} << kRoot
                                 << QStringList{"removed 1-1"} << false;
        QTest::newRow("all removed") << abc << QStringList{} << QStringList{"-"} << kRoot << QStringList{"removed 0-2"}
                                     << false;
        QTest::newRow("replaced and changed") << QStringList{"a", "b", "d"} << QStringList{"a", "c", "d"}
                                              << QStringList{"c", "d"} << kRoot
                                              << QStringList{"removed 1-1", "inserted 1-1", "changed 2-2"} << false;
        QTest::newRow("another root") << abc << abc << QStringList{} << "/elsewhere" << QStringList{"reset"} << false;
    }

    void listings()
    {
        QFETCH(QStringList, before);
        QFETCH(QStringList, after);
        QFETCH(QStringList, changed);
        QFETCH(QString, root);
        QFETCH(QStringList, events);
        QFETCH(bool, samePaths);
        RunColumns columns{QString()};
        RunListModel model(&columns);
        QAbstractItemModelTester tester(&model, kQtTest);
        model.setListing(kRoot, listingOf(before));
        Recorder recorder(model);
        const auto merge = model.setListing(root, listingOf(after, changed));
        QCOMPARE(recorder.events, events);
        QCOMPARE(merge.samePaths, samePaths);
        QStringList listed;
        for (const auto& run : model.runs())
            listed << QString::fromStdString(run.name);
        QCOMPARE(listed, after);
        QCOMPARE(model.root(), root); // names are relative to it: "../runs/a" from another
        QCOMPARE(namesOf(model).size(), after.size());
        // Unchanged runs keep what was read before; the others hold what was read now.
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.runs()[r].finished.has_value(), true);
    }

    void reopenedAndNotes()
    {
        RunColumns columns{QString()};
        RunListModel model(&columns);
        QAbstractItemModelTester tester(&model, kQtTest);
        model.setListing(kRoot, {runOf("a", State::Running), runOf("b", State::Running)});
        Recorder recorder(model);
        QCOMPARE(model.updateRun(runOf("b", State::Finished)), 1);
        QCOMPARE(model.index(1, RunColumns::Status).data().toString(), QStringLiteral("finished"));
        QCOMPARE(model.updateRun(runOf("gone", State::Finished)), -1);
        model.setNotes(model.runs()[0].path, {{"new"}, ""});
        QCOMPARE(model.index(0, columns.modelColumn(QStringLiteral("tags"))).data().toString(), QStringLiteral("new"));
        QCOMPARE(recorder.events, (QStringList{QStringLiteral("changed 1-1"), QStringLiteral("changed 0-0")}));
        QCOMPARE(model.rowOf(model.runs()[1].path), 1);
        QVERIFY(!model.tableStatus(0));
        QVERIFY(!model.tableStatus(7));
    }
};

RLDA_SUITE_MAIN(TestRunListModel)
#include "test_run_list_model.moc"
