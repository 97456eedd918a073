// Every row of tests/fixtures/seed-deepening.csv: parameter count, original blocks, leaf
// layers as PyTorch prints them, and function preservation of the whole deepening sequence.
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/util/csv.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <map>

using namespace rlda::core;

namespace {

QStringList to_qt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

struct Trained {
    model::Net net{nullptr};
    torch::Tensor input;
    torch::Tensor output;
};

} // namespace

class TestReferenceDeepening : public QObject {
    Q_OBJECT

    std::map<std::string, Trained> trained_; // one trained starting model per zoo model

    Trained& trained(const std::string& name)
    {
        auto it = trained_.find(name);
        if (it != trained_.end())
            return it->second;
        torch::manual_seed(7);
        Trained t;
        t.net = model::Net(model::zoo_model(name));
        model::train_on_noise(t.net, 5, /*seed=*/11);
        t.input = torch::randn({8, 3, 32, 32});
        torch::NoGradGuard no_grad;
        t.output = t.net->forward(t.input);
        return trained_.emplace(name, std::move(t)).first->second;
    }

    static void add_rows()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("actions");
        QTest::addColumn<qlonglong>("parameters");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<QStringList>("leaves");
        const CsvTable csv = read_csv(RLDA_FIXTURES_DIR "/seed-deepening.csv");
        const auto m = csv.column("model"), a = csv.column("actions"), p = csv.column("parameters"),
                   b = csv.column("deepen_blocks"), l = csv.column("leaf_layers");
        for (const auto& row : csv.rows) {
            const QString tag = QString::fromStdString(row[m] + ":[" + row[a] + "]");
            QTest::newRow(qPrintable(tag))
                << QString::fromStdString(row[m]) << QString::fromStdString(row[a])
                << static_cast<qlonglong>(std::stoll(row[p])) << std::stoi(row[b])
                << QString::fromStdString(row[l]).split(" | ");
        }
        QVERIFY(csv.rows.size() > 1000);
    }

private Q_SLOTS:
    void summary_matches_reference_data() { add_rows(); }
    void summary_matches_reference()
    {
        QFETCH(QString, model);
        QFETCH(QString, actions);
        QFETCH(qlonglong, parameters);
        QFETCH(int, blocks);
        QFETCH(QStringList, leaves);
        model::ModelSpec spec = model::zoo_model(model.toStdString());
        for (int action : model::parse_actions(actions.toStdString()))
            model::deepen_spec(spec, action);
        const model::ModelSummary s = model::summarize(spec);
        QCOMPARE(s.parameters, parameters);
        QCOMPARE(s.original_blocks, blocks);
        QCOMPARE(to_qt(s.leaf_layers), leaves);
    }

    void deepening_preserves_function_data() { add_rows(); }
    void deepening_preserves_function()
    {
        QFETCH(QString, model);
        QFETCH(QString, actions);
        QFETCH(qlonglong, parameters);
        Trained& base = trained(model.toStdString());
        QVERIFY(base.output.abs().max().item<double>() > 1e-3); // a live output, not all zeros

        model::Net net = model::clone_net(base.net);
        for (int action : model::parse_actions(actions.toStdString()))
            net->deepen(action);
        QCOMPARE(net->parameter_count(), parameters); // the tensors, not only the spec
        torch::NoGradGuard no_grad;
        net->eval();
        const double diff = (net->forward(base.input) - base.output).abs().max().item<double>();
        QVERIFY2(diff <= 1e-5, qPrintable(QString("max |delta| = %1").arg(diff)));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestReferenceDeepening)
#include "test_reference_deepening.moc"
