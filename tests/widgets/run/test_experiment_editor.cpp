// ExperimentEditor: load, edit through the widgets, save, load again; bad values flagged in place.
#include "widgets/run/experiment_editor.h"

#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "tests/common/extra_key.h"
#include "widgets/run/allocation_timeline.h"

#include "tests/common/screenshots.h"
#include "tests/common/suite.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rlda::core::config;
using rlda::widgets::AllocationTimeline;
using rlda::widgets::ExperimentEditor;

namespace {

const QString kDefault = QStringLiteral(RLDA_SOURCE_DIR "/config/default.toml");

template <class W> W* child(ExperimentEditor& e, const char* key)
{
    auto* w = e.findChild<W*>(QLatin1String(key));
    if (!w)
        qWarning("no %s named %s", W::staticMetaObject.className(), key);
    return w;
}

// Replaces the text as a user would: select all, type.
void type(QLineEdit* e, const QString& text)
{
    e->setFocus();
    e->selectAll();
    if (text.isEmpty())
        QTest::keyClick(e, Qt::Key_Backspace);
    else
        QTest::keyClicks(e, text);
}

bool flagged(QWidget* w) { return w && w->property("problem").toBool(); }

} // namespace

class TestExperimentEditor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTripWithoutEdits()
    {
        ExperimentEditor e;
        QString error;
        QVERIFY2(e.loadFile(kDefault, &error), qPrintable(error));
        const ExperimentConfig loaded = load_experiment(kDefault.toStdString());
        QVERIFY(e.config() == loaded); // every field, source and warnings too
        QVERIFY(e.isValid());
        QVERIFY(e.problems().isEmpty());
        QCOMPARE(e.fileName(), kDefault);

        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("same.toml"));
        QVERIFY2(e.saveFile(out, &error), qPrintable(error));
        const ExperimentConfig again = load_experiment(out.toStdString());
        QVERIFY(same_settings(again, loaded));
        QCOMPARE(to_toml(again), to_toml(loaded));

        // Values a spin box or a short text could not hold pass through untouched.
        ExperimentConfig odd = loaded;
        odd.job.lr = 1.0 / 3.0;
        odd.dataset.train_subset = 5'000'000'000;
        odd.job.seed = 18'000'000'000'000'000'000ULL;
        odd.policy.alpha = 3e-5;
        e.setConfig(odd);
        QVERIFY(e.config() == odd);
    }

    void editSaveLoad()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        QSignalSpy changed(&e, &ExperimentEditor::changed);

        type(child<QLineEdit>(e, "job.lr"), QStringLiteral("0.005"));
        child<QSpinBox>(e, "job.batch_size")->setValue(32);
        child<QComboBox>(e, "job.optimizer")->setCurrentText(QStringLiteral("sgd"));
        type(child<QLineEdit>(e, "job.momentum"), QStringLiteral("0.5"));
        child<QComboBox>(e, "dataset.kind")->setCurrentText(QStringLiteral("synthetic"));
        type(child<QLineEdit>(e, "dataset.shape"), QStringLiteral("1x16x16"));
        child<QSpinBox>(e, "dataset.classes")->setValue(4);
        type(child<QLineEdit>(e, "scheduler.budget"), QStringLiteral("30"));
        child<QComboBox>(e, "job.model")->setEditText(QStringLiteral("ConvNet3"));
        type(child<QLineEdit>(e, "agent.sequence"), QStringLiteral("1 0"));
        child<QCheckBox>(e, "trainer.check_preservation")->setChecked(false);
        auto* timeline = child<AllocationTimeline>(e, "scheduler.events");
        timeline->addEvent(25.2, Change::Down);
        QVERIFY(changed.count() >= 10);
        QVERIFY2(e.isValid(), e.problems().isEmpty() ? "" : e.problems().front().reason.c_str());

        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("edited.toml"));
        QString error;
        QVERIFY2(e.saveFile(out, &error), qPrintable(error));
        const ExperimentConfig back = load_experiment(out.toStdString());
        QVERIFY(same_settings(back, e.config()));
        QCOMPARE(back.job.lr, 0.005);
        QCOMPARE(back.job.batch_size, std::int64_t(32));
        QVERIFY(back.job.optimizer == Optimizer::Sgd);
        QCOMPARE(back.job.momentum, 0.5);
        QCOMPARE(back.job.model, std::string("ConvNet3"));
        QVERIFY(back.dataset.kind == DatasetKind::Synthetic);
        QCOMPARE(back.dataset.shape, (std::vector<std::int64_t>{1, 16, 16}));
        QCOMPARE(back.dataset.classes, std::int64_t(4));
        QCOMPARE(back.scheduler.budget, 30.0);
        QCOMPARE(back.scheduler.events,
                 (std::vector<AllocationEventConfig>{{20.0, Change::Up}, {25.0, Change::Down}}));
        QCOMPARE(back.agent.sequence, (std::vector<int>{1, 0}));
        QVERIFY(!back.trainer.check_preservation);

        // Loading it into another editor shows the same values.
        ExperimentEditor f;
        QVERIFY(f.loadFile(out));
        QCOMPARE(child<QLineEdit>(f, "job.lr")->text(), QStringLiteral("0.005"));
        QCOMPARE(child<QSpinBox>(f, "job.batch_size")->value(), 32);
        QCOMPARE(child<QComboBox>(f, "job.model")->currentText(), QStringLiteral("ConvNet3"));
        QCOMPARE(child<AllocationTimeline>(f, "scheduler.events")->events().size(), std::size_t(2));
        QVERIFY(same_settings(f.config(), back));
    }

    void invalidValuesFlagged()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        QSignalSpy validity(&e, &ExperimentEditor::validityChanged);
        auto* lr = child<QLineEdit>(e, "job.lr");
        auto* label = child<QLabel>(e, "problemsLabel");

        type(lr, QStringLiteral("0"));
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity.takeFirst().at(0).toBool(), false);
        QVERIFY(!e.isValid());
        QVERIFY(flagged(lr));
        QVERIFY2(lr->toolTip().contains(QStringLiteral("must be in (0, 1.8e+19], got 0")), qPrintable(lr->toolTip()));
        QVERIFY(label->isVisibleTo(&e));
        QVERIFY(label->text().contains(QStringLiteral("job.lr")));
        QCOMPARE(e.problems().size(), 1);
        QCOMPARE(e.problems().front().key, std::string("job.lr"));
        QVERIFY(!flagged(child<QSpinBox>(e, "job.batch_size")));

        type(lr, QStringLiteral("-0.1"));
        QCOMPARE(validity.count(), 0); // still invalid: no new signal
        QVERIFY(flagged(lr));
        type(lr, QStringLiteral("abc"));
        QVERIFY(lr->toolTip().contains(QStringLiteral("not a number")));
        QTemporaryDir tmp;
        QString error;
        QVERIFY(!e.saveFile(tmp.filePath(QStringLiteral("bad.toml")), &error)); // would not load again
        QVERIFY2(error.contains(QStringLiteral("job.lr")), qPrintable(error));

        type(lr, QStringLiteral("0.02"));
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity.takeFirst().at(0).toBool(), true);
        QVERIFY(!flagged(lr));
        QCOMPARE(lr->toolTip(), QStringLiteral("Reset to this after every adaptation; in (0, 1.8e+19]"));
        QVERIFY(!label->isVisibleTo(&e));

        // A fixed sequence with an action past Do Nothing (ConvNet2 has 3 blocks: 3 = Do Nothing).
        auto* sequence = child<QLineEdit>(e, "agent.sequence");
        type(sequence, QStringLiteral("0 7"));
        QCOMPARE(validity.count(), 1);
        QVERIFY(flagged(sequence));
        QVERIFY2(sequence->toolTip().contains(QStringLiteral("agent.sequence[1]: action 7 is out of range")),
                 qPrintable(sequence->toolTip()));
        QVERIFY(flagged(child<QComboBox>(e, "job.model"))); // related: the model sets the range
        type(sequence, QStringLiteral("0 -1"));
        QVERIFY(sequence->toolTip().contains(QStringLiteral("must not be negative")));
        type(sequence, QStringLiteral("0 3"));
        QVERIFY(e.isValid());
        QVERIFY(!flagged(child<QComboBox>(e, "job.model")));
        validity.clear();

        // An event after the budget: shrinking the budget to 15 s leaves the "up" at 20 s outside.
        auto* timeline = child<AllocationTimeline>(e, "scheduler.events");
        type(child<QLineEdit>(e, "scheduler.budget"), QStringLiteral("15"));
        QCOMPARE(validity.count(), 1);
        QVERIFY(flagged(timeline));
        QVERIFY2(timeline->toolTip().contains(QStringLiteral("scheduler.events[0].time: 20 is outside the budget")),
                 qPrintable(timeline->toolTip()));
        QVERIFY(!flagged(child<QLineEdit>(e, "scheduler.budget")));
        QCOMPARE(e.widgetForKey(QStringLiteral("scheduler.events[0].time")), timeline);
        // The tab holding it says so.
        auto* tabs = child<QTabWidget>(e, "sections");
        QVERIFY(!tabs->tabIcon(2).isNull());
        QVERIFY(tabs->tabIcon(0).isNull());
        // Dragging the marker back inside fixes it.
        timeline->setEvents({{10.0, Change::Up}});
        Q_EMIT timeline->eventsChanged();
        QVERIFY(e.isValid());
        QVERIFY(!flagged(timeline));

        // related: a step cost of 0 with the virtual clock marks the clock too.
        type(child<QLineEdit>(e, "scheduler.step_cost"), QStringLiteral("0"));
        QVERIFY(flagged(child<QLineEdit>(e, "scheduler.step_cost")));
        QVERIFY(flagged(child<QComboBox>(e, "scheduler.clock")));
    }

    void loadErrors()
    {
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("bad.toml"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[job]\nlr = -1\n");
        f.close();
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        QString error;
        QVERIFY(!e.loadFile(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("bad.toml:2")) && error.contains(QStringLiteral("job.lr")),
                 qPrintable(error));
        QCOMPARE(e.fileName(), kDefault); // the form kept what it had
        QCOMPARE(e.config().job.lr, 0.002);
    }

    void enabledByKind()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault)); // fashion-mnist, adam, fixed
        QVERIFY(!child<QLineEdit>(e, "dataset.shape")->isEnabled());
        QVERIFY(child<QSpinBox>(e, "dataset.train_subset")->isEnabled());
        QVERIFY(!child<QLineEdit>(e, "job.momentum")->isEnabled());
        QVERIFY(child<QLineEdit>(e, "agent.sequence")->isEnabled());
        QVERIFY(!child<QLineEdit>(e, "agent.policy")->isEnabled());
        child<QComboBox>(e, "agent.kind")->setCurrentText(QStringLiteral("policy"));
        QVERIFY(!child<QLineEdit>(e, "agent.sequence")->isEnabled());
        QVERIFY(child<QLineEdit>(e, "agent.policy")->isEnabled());
        // No policy file: flagged on the file, and on the kind that asks for it.
        QVERIFY(flagged(child<QLineEdit>(e, "agent.policy")));
        QVERIFY(flagged(child<QComboBox>(e, "agent.kind")));
    }

    void outputHeadField()
    {
        using rlda::core::model::OutputHead;
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        auto* head = child<QComboBox>(e, "job.head");
        QVERIFY(head);
        QCOMPARE(head->count(), 2);
        QCOMPARE(head->itemText(0), QStringLiteral("relu"));
        QCOMPARE(head->itemText(1), QStringLiteral("logits"));
        QCOMPARE(head->currentText(), QString::fromStdString(rlda::core::model::to_string(e.config().job.head)));
        QSignalSpy changed(&e, &ExperimentEditor::changed);
        head->setCurrentText(QStringLiteral("relu"));
        head->setCurrentText(QStringLiteral("logits"));
        QVERIFY(changed.count() >= 1);
        QVERIFY(e.config().job.head == OutputHead::Logits);
        QVERIFY(head->isEnabled());
        // A model file writes its own head (issue 27): choosing one just works, the head shows
        // "relu" (the file as written) greyed out, and a zoo model again brings "logits" back.
        child<QComboBox>(e, "job.model")->setEditText(QStringLiteral(RLDA_SOURCE_DIR "/config/models/small_convnet.toml"));
        QVERIFY2(e.isValid(), e.problems().isEmpty() ? "" : e.problems().front().reason.c_str());
        QVERIFY(e.config().job.head == OutputHead::Relu);
        QCOMPARE(head->currentText(), QStringLiteral("relu"));
        QVERIFY(!head->isEnabled());
        QVERIFY(!flagged(head));
        child<QComboBox>(e, "job.model")->setEditText(QStringLiteral("ConvNet3"));
        QVERIFY(head->isEnabled());
        QVERIFY(e.config().job.head == OutputHead::Logits);
        QCOMPARE(head->currentText(), QStringLiteral("logits"));
        // A file that sets "logits" for a model file is flagged, on the head and the model, and the
        // head stays editable to undo it.
        {
            auto c = e.config();
            c.job.model = RLDA_SOURCE_DIR "/config/models/small_convnet.toml";
            c.job.head = OutputHead::Logits;
            ExperimentEditor g;
            g.setConfig(c);
            QVERIFY(!g.isValid());
            QVERIFY(flagged(child<QComboBox>(g, "job.head")));
            QVERIFY(flagged(child<QComboBox>(g, "job.model")));
            QVERIFY(child<QComboBox>(g, "job.head")->isEnabled());
        }
        // Saved and loaded again.
        head->setCurrentText(QStringLiteral("logits"));
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("head.toml"));
        QString error;
        QVERIFY2(e.saveFile(out, &error), qPrintable(error));
        QVERIFY(load_experiment(out.toStdString()).job.head == OutputHead::Logits);
        ExperimentEditor f;
        QVERIFY(f.loadFile(out));
        QCOMPARE(child<QComboBox>(f, "job.head")->currentText(), QStringLiteral("logits"));
    }

    // A list of choices (trainer.operations) is one check box per choice; the sequence hint
    // follows the action space they make.
    // Issue 43, item 15: a model file that cannot be loaded is marked on the model field before
    // Start, with the reason, as a key's bad value is; fixing the path clears it.
    void aModelFileThatDoesNotLoadIsFlagged()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        auto* model = child<QComboBox>(e, "job.model");
        model->setEditText(QStringLiteral("/no/such/folder/my_net.toml"));
        QVERIFY(!e.isValid());
        QVERIFY(flagged(model));
        QCOMPARE(e.problems().size(), 1);
        QCOMPARE(e.problems().front().key, std::string("job.model"));
        QVERIFY2(QString::fromStdString(e.problems().front().reason)
                     .contains(QStringLiteral("/no/such/folder/my_net.toml")),
                 e.problems().front().reason.c_str());
        QVERIFY(model->toolTip().contains(QStringLiteral("my_net.toml")));
        model->setEditText(QStringLiteral(RLDA_SOURCE_DIR "/config/models/small_convnet.toml"));
        QVERIFY2(e.isValid(), e.problems().isEmpty() ? "" : e.problems().front().reason.c_str());
        QVERIFY(!flagged(model));
    }

    void operationsAreCheckBoxes()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        auto* deepen = child<QCheckBox>(e, "trainer.operations.deepen");
        auto* widen = child<QCheckBox>(e, "trainer.operations.widen");
        QVERIFY(deepen && widen);
        QVERIFY(deepen->isChecked());
        QVERIFY(!widen->isChecked());
        widen->setChecked(true);
        QCOMPARE(e.config().trainer.operations, (std::vector<std::string>{"deepen", "widen"}));
        QVERIFY(e.isValid());
        auto* hint = e.findChild<QLabel*>(QStringLiteral("sequenceHint"));
        QVERIFY2(hint->text().contains(QStringLiteral("widen block 0")), qPrintable(hint->text()));
        deepen->setChecked(false);
        widen->setChecked(false);
        QVERIFY(!e.isValid()); // no operation at all
        QVERIFY(flagged(e.widgetForKey(QStringLiteral("trainer.operations"))));
        widen->setChecked(true);
        QCOMPARE(e.config().trainer.operations, (std::vector<std::string>{"widen"}));
        // Widening alone gives ConvNet2 3 actions, so the default sequence [1, 2, 3] is out of range.
        QVERIFY(!e.isValid());
        QVERIFY(flagged(e.widgetForKey(QStringLiteral("agent.sequence"))));
        deepen->setChecked(true);
        QVERIFY(e.isValid());
    }

    // The editor half of "a key declared in one place": a key added to the schema gets a field on
    // its section's tab, labelled and explained by its declaration, checked against its range,
    // and saved.
    void aDeclaredKeyGetsAField()
    {
        auto patience = std::make_shared<double>(3.0);
        const Schema schema = rlda::test::with_patience(patience);
        ExperimentEditor e(schema);
        auto* field = child<QLineEdit>(e, "trainer.patience");
        QVERIFY(field);
        QCOMPARE(e.widgetForKey(QStringLiteral("trainer.patience")), field);
        QCOMPARE(field->text(), QStringLiteral("3"));
        QCOMPARE(field->toolTip(), QStringLiteral("Epochs without progress before stopping; in [0, 100]"));
        auto* form = qobject_cast<QFormLayout*>(field->parentWidget()->layout());
        QVERIFY(form);
        auto* label = qobject_cast<QLabel*>(form->labelForField(field));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("Patience"));
        auto* tabs = child<QTabWidget>(e, "sections");
        int tab = -1;
        for (QWidget* w = field; w && tab < 0; w = w->parentWidget())
            tab = tabs->indexOf(w);
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Trainer"));

        // Out of range: flagged with the one-line reason naming the key.
        type(field, QStringLiteral("250"));
        QVERIFY(!e.isValid());
        QVERIFY(flagged(field));
        QCOMPARE(e.problems().size(), 1);
        QCOMPARE(e.problems().front().key, std::string("trainer.patience"));
        QCOMPARE(field->toolTip(), QStringLiteral("must be in [0, 100], got 250"));
        type(field, QStringLiteral("12"));
        QVERIFY(e.isValid());
        QCOMPARE(*patience, 12.0);

        // Saved, and loaded again with the same schema.
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("patience.toml"));
        QString error;
        QVERIFY2(e.saveFile(out, &error), qPrintable(error));
        *patience = 0.0;
        ExperimentEditor f(schema);
        QVERIFY2(f.loadFile(out, &error), qPrintable(error));
        QCOMPARE(*patience, 12.0);
        QCOMPARE(child<QLineEdit>(f, "trainer.patience")->text(), QStringLiteral("12"));

        // The experiment schema's editor has no such field.
        ExperimentEditor plain;
        QVERIFY(!plain.widgetForKey(QStringLiteral("trainer.patience")));
    }

    // Every field's tooltip is its key's declared help (and what the value may be), its label the
    // declared one, a spin box's range the declared range, a chooser's items the declared choices.
    void fieldsComeFromTheDeclarations()
    {
        ExperimentEditor e;
        for (const auto& k : experiment_schema().keys) {
            QWidget* w = e.widgetForKey(QString::fromStdString(k.name));
            if (!w)
                continue; // [policy], [simulation], [runner], [sweep] are not shown
            if (k.type != Type::Events)
                QCOMPARE(w->toolTip(), QString::fromStdString(k.hint()));
            if (auto* spin = qobject_cast<QSpinBox*>(w))
                QCOMPARE(spin->minimum(), int(k.range.min));
            if (auto* combo = qobject_cast<QComboBox*>(w); combo && k.type == Type::Choice) {
                QStringList items;
                for (int i = 0; i < combo->count(); ++i)
                    items << combo->itemText(i);
                QStringList choices;
                for (const auto& c : k.choices)
                    choices << QString::fromStdString(c);
                QCOMPARE(items, choices);
            }
            if (auto* box = qobject_cast<QCheckBox*>(w))
                QCOMPARE(box->text(), QString::fromStdString(k.display_label()));
        }
        QCOMPARE(child<QSpinBox>(e, "dataset.classes")->minimum(), 2);
        QCOMPARE(child<QComboBox>(e, "agent.kind")->count(), 10); // 5 kinds and the 5 growth heuristics
    }

    void screenshot()
    {
        ExperimentEditor e;
        QVERIFY(e.loadFile(kDefault));
        e.resize(e.sizeHint().expandedTo(QSize(640, 0)));
        e.show();
        QVERIFY(QTest::qWaitForWindowExposed(&e));
        type(child<QLineEdit>(e, "job.lr"), QStringLiteral("-0.01"));
        rlda::test::shot(e, QStringLiteral("editor_job"));
        auto* tabs = child<QTabWidget>(e, "sections");
        for (int i = 1; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            rlda::test::shot(e, QStringLiteral("editor_%1").arg(i));
        }
    }
};

RLDA_SUITE_MAIN(TestExperimentEditor)
#include "test_experiment_editor.moc"
