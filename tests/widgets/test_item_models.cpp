// Every item model behind a widgets/ view run through QAbstractItemModelTester while the view fills
// it and changes it (as KDAB hotspot's tests/modeltests does for its models): the simulation
// table's model and its filter proxy, and the QTreeWidget/QTableWidget/QListWidget models the
// panels populate: model panel, zoo, architecture inspector, decision list, rank summary, sweep
// tasks, and the run browser's problems and adaptations. A tester reports through QtTest, so any
// broken invariant (a row count that disagrees with the rows inserted, a stale index, a parent
// that is not one) fails the test function that changed the model.
#include "core/model/zoo.h"
#include "core/sweep/status.h"
#include "tests/common/suite.h"
#include "tests/widgets/figures/reference_tables.h"
#include "tests/widgets/inspect/synthetic_tables.h"
#include "widgets/figures/rank_view.h"
#include "widgets/inspect/action_heatmap.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/sequence_filter_proxy.h"
#include "widgets/inspect/simulation_table_model.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/model_panel.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_list_model.h"
#include "widgets/run/sweep_panel.h"
#include "widgets/zoo_panel.h"

#include <QAbstractItemModelTester>
#include <QIdentityProxyModel>
#include <QListWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include <memory>

namespace m = rlda::core::model;
namespace s = rlda::core::sim;
namespace t = rlda::core::train;
namespace sweep = rlda::core::sweep;
using namespace rlda::widgets;

namespace {

using Tester = QAbstractItemModelTester;
constexpr auto kQtTest = QAbstractItemModelTester::FailureReportingMode::QtTest;

std::unique_ptr<Tester> watch(QAbstractItemModel* model) { return std::make_unique<Tester>(model, kQtTest); }

// QTreeWidget's model (Qt's internal QTreeModel) answers rowCount() and index() for a parent in
// any column with the children of column 0, so index(0, 0, (0, 1)) == index(0, 0, (0, 0)): the
// tester's "the second column should not have the same children" check fails on any tree whose
// first item has children, whatever the widget does, and stops its walk of the tree there. No view
// asks for a column > 0's children. This proxy gives them none and passes everything else through
// (data, flags, and every insert, remove, move and reset signal), so that the tester walks and
// checks the rest of the tree the widget builds.
class ChildrenInColumnZero : public QIdentityProxyModel {
public:
    explicit ChildrenInColumnZero(QAbstractItemModel* source)
    {
        setSourceModel(source);
    }
    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.column() > 0 ? 0 : QIdentityProxyModel::rowCount(parent);
    }
    bool hasChildren(const QModelIndex& parent = {}) const override
    {
        return parent.column() > 0 ? false : QIdentityProxyModel::hasChildren(parent);
    }
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override
    {
        return parent.column() > 0 ? QModelIndex() : QIdentityProxyModel::index(row, column, parent);
    }
};

struct TreeWatch {
    explicit TreeWatch(QAbstractItemModel* treeModel)
        : proxy(treeModel)
        , tester(&proxy, kQtTest)
    {
    }
    ChildrenInColumnZero proxy;
    Tester tester;
};

std::unique_ptr<TreeWatch> watchTree(QAbstractItemModel* treeModel) { return std::make_unique<TreeWatch>(treeModel); }

template <typename View>
QAbstractItemModel* modelOf(QWidget& w, const char* name)
{
    auto* view = w.findChild<View*>(QString::fromLatin1(name));
    return view ? view->model() : nullptr;
}

s::SimulationTable paperTable()
{
    return s::SimulationTable::load(RLDA_PAPER_DIR "/tables/convnet2_early.csv");
}

// ConvNet2 deepened at 0, 2, then Do Nothing, then 0 again: what a run's adaptations carry.
std::pair<m::ModelSummary, std::vector<t::AdaptationEvent>> deepenedRun(bool withProbabilities)
{
    m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
    const m::ModelSummary initial = m::summarize(spec);
    std::vector<t::AdaptationEvent> events;
    const int actions[] = {0, 2, 3, 0};
    for (int i = 0; i < 4; ++i) {
        t::AdaptationEvent e;
        e.decision = i + 1;
        e.time = 70.0 * (i + 1);
        e.time_left = 400.0 - e.time;
        e.agent = withProbabilities ? "policy" : "fixed";
        e.action = actions[i];
        if (withProbabilities)
            e.probabilities = {0.1, 0.2, 0.3, 0.4};
        e.before = m::summarize(spec);
        e.did_nothing = m::deepen_spec(spec, actions[i]).did_nothing;
        e.after = m::summarize(spec);
        e.max_abs_diff = e.did_nothing ? -1.0 : 2e-7 * (i + 1);
        events.push_back(e);
    }
    return {initial, events};
}

// n sweep tasks, their states, rows and attempts varying with the part.
sweep::SweepStatus sweepOf(int n)
{
    const sweep::TaskState states[] = {sweep::TaskState::Done, sweep::TaskState::Running, sweep::TaskState::Failed,
                                       sweep::TaskState::Pending};
    sweep::SweepStatus st;
    st.rows_total = 8 * n;
    for (int part = 0; part < n; ++part) {
        sweep::TaskStatus task;
        task.part = part;
        task.state = states[part % 4];
        task.rows_total = 8;
        task.rows_done = task.state == sweep::TaskState::Done ? 8 : part % 8;
        task.attempts = 1 + part % 3;
        task.id = std::to_string(4242 + part) + "_" + std::to_string(part);
        task.detail = task.attempts > 1 ? "resubmitted: NODE_FAIL" : "";
        st.rows_done += task.rows_done;
        st.tasks.push_back(task);
    }
    return st;
}

} // namespace

class TestItemModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void simulationTableModelAndProxy()
    {
        // On their own: the model reset by each table, the proxy filtering and sorting over it.
        SimulationTableModel model;
        SequenceFilterProxy proxy;
        const auto modelTester = watch(&model);
        proxy.setSourceModel(&model);
        proxy.setSortRole(SimulationTableModel::SortRole);
        proxy.setDynamicSortFilter(true);
        const auto proxyTester = watch(&proxy);
        const auto table = paperTable();
        model.setTable(table);
        QCOMPARE(model.rowCount(), 64);
        QCOMPARE(model.columnCount(), 2 * 3 + 4);
        proxy.sort(model.accuracyColumn(), Qt::DescendingOrder);
        QVERIFY(proxy.setFilter(QStringLiteral("2 0 *"), 0.0));
        QCOMPARE(proxy.rowCount(), 4);
        QVERIFY(proxy.setFilter(QStringLiteral("^1 .* 3$"), 0.0));
        QCOMPARE(proxy.rowCount(), 4);
        QVERIFY(!proxy.setFilter(QStringLiteral("(("), 0.70));
        QVERIFY(proxy.rowCount() < 64);
        QVERIFY(proxy.setFilter(QString(), 0.0));
        QCOMPARE(proxy.rowCount(), 64);
        proxy.sort(model.rankColumn(), Qt::AscendingOrder);
        model.setTable(rlda::test::syntheticTable(2, 3, {0, 2}, 4)); // another shape, rows missing
        QCOMPARE(model.columnCount(), 2 * 2 + 4);
        QCOMPARE(proxy.rowCount(), model.rowCount());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(proxy.rowCount(), 0);
        model.setTable(rlda::test::syntheticTable(1, 2, {1}));
        QCOMPARE(proxy.rowCount(), 2);

        // And as the explorer drives them: its view sorting, the filter box, a heatmap click.
        TableExplorer w;
        const auto explorerModel = watch(w.sourceModel());
        auto* explorerView = w.findChild<QTableView*>(QStringLiteral("tableView"));
        const auto explorerProxy = watch(qobject_cast<QSortFilterProxyModel*>(explorerView->model()));
        w.setTable(table, QStringLiteral("convnet2_early"));
        explorerView->sortByColumn(w.sourceModel()->accuracyColumn(), Qt::DescendingOrder);
        QVERIFY(w.setFilter(QStringLiteral("0 * *"), 0.5));
        Q_EMIT w.findChild<ActionHeatmap*>()->cellClicked(w.cellOf({2, 1, 3})); // clears the filter that hides it
        QCOMPARE(w.selectedSequence(), (std::optional<std::vector<int>>{{2, 1, 3}}));
        QCOMPARE(w.visibleRowCount(), 64);
        w.setTable(rlda::test::syntheticTable(4, 5, {0, 4, 4, 4}, 7), QStringLiteral("partial"));
        QVERIFY(w.setFilter(QStringLiteral("0"), 0.0));
        w.clear();
        QCOMPARE(w.visibleRowCount(), 0);
    }

    void modelPanelTree()
    {
        ModelPanel panel;
        const auto tester = watchTree(modelOf<QTreeWidget>(panel, "modelTree"));
        auto [initial, events] = deepenedRun(false);
        panel.setSummary(initial);
        QVERIFY(modelOf<QTreeWidget>(panel, "modelTree")->rowCount() > 0);
        bool leaves = false; // the tester's walk goes below the top level
        for (int r = 0; r < tester->proxy.rowCount(); ++r)
            leaves = leaves || tester->proxy.rowCount(tester->proxy.index(r, 0)) > 0;
        QVERIFY(leaves);
        panel.setSummary(events.back().after); // more units, some of them added
        panel.setSummary(initial);
        panel.clear();
        QCOMPARE(modelOf<QTreeWidget>(panel, "modelTree")->rowCount(), 0);
    }

    void zooList()
    {
        ZooPanel zoo;
        const auto tester = watch(modelOf<QListWidget>(zoo, "zooList"));
        zoo.setModels({QStringLiteral("ConvNet"), QStringLiteral("ConvNet2"), QStringLiteral("LargeConvNet")});
        QVERIFY(zoo.selectModel(QStringLiteral("ConvNet2")));
        zoo.setModels({QStringLiteral("ConvNet2")});
        zoo.clearSelection();
        zoo.setModels({});
        QCOMPARE(modelOf<QListWidget>(zoo, "zooList")->rowCount(), 0);
    }

    void architectureInspectorTrees()
    {
        ArchitectureInspector w;
        const auto units = watchTree(modelOf<QTreeWidget>(w, "unitTree"));
        const auto diff = watchTree(modelOf<QTreeWidget>(w, "diffTree"));
        const auto checks = watchTree(modelOf<QTreeWidget>(w, "checkTree"));
        auto [initial, events] = deepenedRun(false);
        w.setInitial(initial);
        for (const auto& e : events)
            w.addAdaptation(e); // live, as a run reports them
        QCOMPARE(w.stepCount(), 5);
        for (int step : {0, 4, 2, 1})
            w.setCurrentStep(step);
        w.setDiffSteps(0, 4);
        w.setDiffSteps(3, 1);
        w.setDiffSteps(2, 2);
        w.setSteps(initial, {events.begin(), events.begin() + 2}); // reopened from a run folder
        QCOMPARE(w.stepCount(), 3);
        w.clear();
        QCOMPARE(modelOf<QTreeWidget>(w, "unitTree")->rowCount(), 0);
    }

    void decisionList()
    {
        DecisionView v;
        const auto tester = watch(modelOf<QTreeWidget>(v, "decisionList")); // flat: watched directly
        auto [initial, events] = deepenedRun(true);
        for (const auto& e : events)
            v.addDecision(e);
        QCOMPARE(modelOf<QTreeWidget>(v, "decisionList")->rowCount(), 4);
        v.setCurrentDecision(0);
        v.setCurrentDecision(3);
        auto fixed = deepenedRun(false).second;
        v.setDecisions({fixed.begin(), fixed.begin() + 2});
        QCOMPARE(modelOf<QTreeWidget>(v, "decisionList")->rowCount(), 2);
        v.clear();
        QCOMPARE(modelOf<QTreeWidget>(v, "decisionList")->rowCount(), 0);
    }

    void rankSummary()
    {
        RankView view;
        const auto tester = watch(view.summary()->model());
        view.setTables({rlda::test::referenceTable("ConvNet2", "early", {0, 1, 3}),
                        rlda::test::referenceTable("ConvNet2", "late", {3, 3, 3}),
                        rlda::test::referenceTable("ConvNet3", "middle", {2, 0, 3})});
        QCOMPARE(view.summary()->rowCount(), 3);
        view.summary()->sortItems(RankView::RankColumn, Qt::DescendingOrder);
        view.setTables({rlda::test::referenceTable("ConvNet3", "late", {0, 0, 0}, QStringLiteral("run-a"))});
        QCOMPARE(view.summary()->rowCount(), 1);
        view.clear();
        QCOMPARE(view.summary()->rowCount(), 0);
    }

    void sweepTasks()
    {
        SweepPanel panel;
        const auto tester = watch(panel.tasks()->model());
        for (int n : {2, 3, 1, 6, 0}) { // more tasks, fewer, none
            panel.setStatus(sweepOf(n));
            QCOMPARE(panel.tasks()->rowCount(), n);
        }
    }

    void runBrowserDetails()
    {
        // tests/fixtures/run-folders: a finished training run (one allocation, two adaptations)
        // and a killed one whose cut lines the reader lists as problems.
        RunBrowser b;
        const auto runs = watch(modelOf<QTableView>(b, "runTable"));
        const auto runModel = watch(b.findChild<rlda::widgets::RunListModel*>(QStringLiteral("runModel")));
        const auto problems = watch(modelOf<QListWidget>(b, "problemList"));
        const auto adaptations = watch(modelOf<QTableWidget>(b, "adaptationTable"));
        QSignalSpy listed(&b, &RunBrowser::listed);
        b.setRoot(QStringLiteral(RLDA_FIXTURES_DIR "/run-folders"));
        QVERIFY(listed.wait(30000));
        QCOMPARE(b.runs().size(), 2);
        for (const QList<int>& rows : QList<QList<int>>{{0}, {1}, {0, 1}, {1}, {}})
            b.selectRuns(rows);
        b.selectRuns({0});
        b.selectRuns({1});
        QVERIFY(modelOf<QTableWidget>(b, "adaptationTable")->rowCount() > 0);
        QVERIFY(modelOf<QListWidget>(b, "problemList")->rowCount() > 0);
        b.refresh(); // listed again with a run selected
        QVERIFY(listed.wait(30000));
        b.selectRuns({});
    }
};

RLDA_SUITE_MAIN(TestItemModels)
#include "test_item_models.moc"
