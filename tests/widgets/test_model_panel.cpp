// ModelPanel: ConvNet2's summary from core appears unit by unit, and added blocks stand out.
#include "core/model/zoo.h"
#include "tests/common/suite.h"
#include "widgets/model_panel.h"

#include <QLabel>
#include <QLocale>
#include <QTest>
#include <QTreeWidget>

namespace m = rlda::core::model;
using rlda::widgets::ModelPanel;

class TestModelPanel : public QObject {
    Q_OBJECT

private:
    static QTreeWidget* tree(ModelPanel& p) { return p.findChild<QTreeWidget*>(QStringLiteral("modelTree")); }
    static QLabel* header(ModelPanel& p) { return p.findChild<QLabel*>(QStringLiteral("modelHeader")); }
    static QString kind(const QTreeWidgetItem* item)
    {
        return item->data(ModelPanel::UnitColumn, ModelPanel::KindRole).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The panel formats counts in its locale; pin one so that "10,602" is what we look for.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void convNet2()
    {
        const m::ModelSummary s = m::summarize(m::zoo_model("ConvNet2"));
        QCOMPARE(s.parameters, std::int64_t{10602}); // the original system's count, also checked in core

        ModelPanel panel;
        panel.setSummary(s);
        auto* t = tree(panel);
        QVERIFY(t);
        QCOMPARE(t->topLevelItemCount(), static_cast<int>(s.units.size()));

        int originals = 0;
        qint64 total = 0;
        for (int i = 0; i < t->topLevelItemCount(); ++i) {
            const auto* row = t->topLevelItem(i);
            const auto& u = s.units[static_cast<std::size_t>(i)];
            total += row->data(ModelPanel::ParametersColumn, ModelPanel::ValueRole).toLongLong();
            QVERIFY(kind(row) != QLatin1String("added"));
            if (kind(row) == QLatin1String("block")) {
                QCOMPARE(row->text(ModelPanel::UnitColumn), QStringLiteral("block %1").arg(originals));
                QCOMPARE(row->data(ModelPanel::UnitColumn, ModelPanel::ActionRole).toInt(), originals);
                QCOMPARE(row->childCount(), static_cast<int>(u.layers.size()));
                QCOMPARE(row->child(0)->text(ModelPanel::LayersColumn), QString::fromStdString(u.layers.front()));
                ++originals;
            } else {
                QCOMPARE(kind(row), QStringLiteral("layer"));
                QCOMPARE(row->childCount(), 0);
            }
        }
        QCOMPARE(originals, 3);
        QCOMPARE(total, qint64{10602});
        QCOMPARE(t->topLevelItem(0)->text(ModelPanel::ParametersColumn), QStringLiteral("960"));
        QVERIFY(t->topLevelItem(0)->textAlignment(ModelPanel::ParametersColumn) & Qt::AlignRight);

        const QString h = header(panel)->text();
        QVERIFY2(h.contains(QLatin1String("ConvNet2")), qPrintable(h));
        QVERIFY2(h.contains(QLatin1String("10,602")), qPrintable(h));
        QVERIFY2(h.contains(QLatin1String("3 original blocks")), qPrintable(h));
    }

    void deepenedShowsAddedBlock()
    {
        m::ModelSpec spec = m::zoo_model("ConvNet2");
        const m::DeepenResult r = m::deepen_spec(spec, 0);
        const m::ModelSummary s = m::summarize(spec);

        ModelPanel panel;
        panel.setSummary(s);
        auto* t = tree(panel);
        QCOMPARE(t->topLevelItemCount(), static_cast<int>(s.units.size()));

        QList<QTreeWidgetItem*> added;
        int originals = 0;
        for (int i = 0; i < t->topLevelItemCount(); ++i) {
            auto* row = t->topLevelItem(i);
            if (kind(row) == QLatin1String("added"))
                added << row;
            else if (kind(row) == QLatin1String("block"))
                ++originals;
        }
        QCOMPARE(originals, 3); // deepening never adds actions
        QCOMPARE(added.size(), 1);
        const auto* a = added.front();
        QCOMPARE(t->indexOfTopLevelItem(const_cast<QTreeWidgetItem*>(a)), r.position);
        QCOMPARE(a->data(ModelPanel::UnitColumn, ModelPanel::ActionRole).toInt(), -1);
        QVERIFY(a->text(ModelPanel::UnitColumn).startsWith(QLatin1String("added block")));
        QVERIFY(a->text(ModelPanel::UnitColumn).contains(QLatin1String("Deepen 0"))); // names Deepen(0)

        // Visually distinct from an original block: italic and another colour.
        const auto* original = t->topLevelItem(0);
        QCOMPARE(kind(original), QStringLiteral("block"));
        QVERIFY(a->font(ModelPanel::UnitColumn).italic());
        QVERIFY(!original->font(ModelPanel::UnitColumn).italic());
        QVERIFY(a->foreground(ModelPanel::UnitColumn) != original->foreground(ModelPanel::UnitColumn));

        QCOMPARE(a->data(ModelPanel::ParametersColumn, ModelPanel::ValueRole).toLongLong(), qint64{r.added_parameters});
        QVERIFY(header(panel)->text().contains(panel.formatCount(10602 + r.added_parameters)));
    }

    void clearShowsNothing()
    {
        ModelPanel panel;
        panel.setSummary(m::summarize(m::zoo_model("FeedForwardNet")));
        panel.clear();
        QCOMPARE(tree(panel)->topLevelItemCount(), 0);
        QVERIFY(!panel.summary().has_value());
    }
};

RLDA_SUITE_MAIN(TestModelPanel)
#include "test_model_panel.moc"
