// A form over an experiment config: every section's settings, bad values flagged where they are.
#include "widgets/run/experiment_editor.h"

#include "core/config/experiment_io.h"
#include "core/model/zoo.h"
#include "core/util/atomic_file.h"
#include "widgets/run/allocation_timeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <filesystem>

namespace rlda::widgets {

using core::config::Change;
using core::config::ExperimentConfig;
using core::config::Problem;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Shortest text that reads back to the same double, as the TOML writer prints it.
QString shortest(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// "scheduler.events[1].time" -> "scheduler.events", "agent.sequence[2]" -> "agent.sequence".
QString baseKey(const QString& key)
{
    const int bracket = key.indexOf(QLatin1Char('['));
    return bracket < 0 ? key : key.left(bracket);
}

QFormLayout* newForm(QWidget* parent)
{
    auto* form = new QFormLayout(parent);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return form;
}

// Two group boxes side by side, each with its own form, on one tab page.
struct Page {
    QWidget* page;
    QFormLayout* left;
    QFormLayout* right;
};

Page twoColumns(const QString& leftTitle, const QString& rightTitle)
{
    auto* page = new QWidget;
    auto* row = new QHBoxLayout;
    auto* l = new QGroupBox(leftTitle, page);
    auto* r = new QGroupBox(rightTitle, page);
    row->addWidget(l, 1);
    row->addWidget(r, 1);
    auto* v = new QVBoxLayout(page);
    v->addLayout(row);
    v->addStretch(1);
    return {page, newForm(l), newForm(r)};
}

QString joined(const std::vector<int>& v)
{
    QStringList parts;
    for (int a : v)
        parts << QString::number(a);
    return parts.join(QLatin1Char(' '));
}

} // namespace

ExperimentEditor::ExperimentEditor(QWidget* parent)
    : QWidget(parent)
{
    setStyleSheet(QStringLiteral(
        "QLineEdit[problem=\"true\"], QComboBox[problem=\"true\"], QSpinBox[problem=\"true\"] {"
        " border: 2px solid #d32f2f; border-radius: 3px; padding: 1px 2px; }"
        "QCheckBox[problem=\"true\"] { color: #d32f2f; }"));

    auto* nameRow = new QHBoxLayout;
    auto* nameLabel = new QLabel(tr("Name"), this);
    auto* name = new QLineEdit(this);
    name->setObjectName(QStringLiteral("name"));
    nameLabel->setBuddy(name);
    fields_.push_back({QStringLiteral("name"), name, tr("Names the run and its folder"),
                       [this, name] { name->setText(qs(config_.name)); }});
    name->setToolTip(fields_.back().hint);
    connect(name, &QLineEdit::textEdited, this, [this](const QString& t) {
        config_.name = t.toStdString();
        edited(QStringLiteral("name"));
    });
    auto* open = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open…"), this);
    auto* save = new QPushButton(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save as…"), this);
    nameRow->addWidget(nameLabel);
    nameRow->addWidget(name, 1);
    nameRow->addWidget(open);
    nameRow->addWidget(save);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("sections"));
    tabs_->addTab(buildJob(), tr("Job"));
    tabs_->addTab(buildDataset(), tr("Dataset"));
    tabs_->addTab(buildScheduler(), tr("Scheduler"));
    tabs_->addTab(buildTrainer(), tr("Trainer"));
    tabs_->addTab(buildAgent(), tr("Agent"));

    problemsLabel_ = new QLabel(this);
    problemsLabel_->setObjectName(QStringLiteral("problemsLabel"));
    problemsLabel_->setWordWrap(true);
    problemsLabel_->setTextFormat(Qt::RichText);
    problemsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(nameRow);
    layout->addWidget(tabs_);
    layout->addWidget(problemsLabel_);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open experiment"), QFileInfo(fileName_).path(),
                                                          tr("Experiments (*.toml);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !loadFile(path, &error))
            problemsLabel_->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(error.toHtmlEscaped()));
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"), fileName_,
                                                          tr("Experiments (*.toml)"));
        QString error;
        if (!path.isEmpty() && !saveFile(path, &error))
            problemsLabel_->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(error.toHtmlEscaped()));
    });

    setConfig(ExperimentConfig{});
}

ExperimentEditor::~ExperimentEditor() = default;

// ---- building blocks: each registers its widget under its key, the only key -> widget table ----

QWidget* ExperimentEditor::add(QFormLayout* form, const QString& label, const QString& key, QWidget* widget,
                               const QString& hint, std::function<void()> show)
{
    if (widget->objectName().isEmpty())
        widget->setObjectName(key);
    widget->setToolTip(hint);
    fields_.push_back({key, widget, hint, std::move(show)});
    if (form)
        form->addRow(label, widget);
    return widget;
}

QLineEdit* ExperimentEditor::number(QFormLayout* form, const QString& label, const QString& key, Ref<double> ref,
                                    const QString& hint)
{
    auto* e = new QLineEdit;
    add(form, label, key, e, hint, [this, e, ref] { e->setText(shortest(ref(config_))); });
    connect(e, &QLineEdit::textEdited, this, [this, ref, key](const QString& t) {
        bool ok = false;
        const double v = QLocale::c().toDouble(t.trimmed(), &ok);
        if (!ok) {
            edited(key, tr("\"%1\" is not a number").arg(t));
            return;
        }
        ref(config_) = v;
        edited(key);
    });
    return e;
}

QWidget* ExperimentEditor::count(QFormLayout* form, const QString& label, const QString& key,
                                 Ref<std::int64_t> ref, int min, int max, const QString& hint,
                                 const QString& zeroText)
{
    auto* s = new QSpinBox;
    s->setRange(min, max);
    s->setGroupSeparatorShown(true);
    if (!zeroText.isEmpty() && min == 0)
        s->setSpecialValueText(zeroText);
    add(form, label, key, s, hint, [this, s, ref] {
        s->setValue(static_cast<int>(std::clamp<std::int64_t>(ref(config_), s->minimum(), s->maximum())));
    });
    connect(s, &QSpinBox::valueChanged, this, [this, ref, key](int v) {
        if (showing_)
            return;
        ref(config_) = v;
        edited(key);
    });
    return s;
}

QWidget* ExperimentEditor::integer(QFormLayout* form, const QString& label, const QString& key, Ref<int> ref,
                                   int min, int max, const QString& hint)
{
    auto* s = new QSpinBox;
    s->setRange(min, max);
    add(form, label, key, s, hint, [this, s, ref] { s->setValue(std::clamp(ref(config_), s->minimum(), s->maximum())); });
    connect(s, &QSpinBox::valueChanged, this, [this, ref, key](int v) {
        if (showing_)
            return;
        ref(config_) = v;
        edited(key);
    });
    return s;
}

QLineEdit* ExperimentEditor::seed(QFormLayout* form, const QString& label, const QString& key,
                                  Ref<std::uint64_t> ref, const QString& hint)
{
    auto* e = new QLineEdit;
    e->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,20}")), e));
    add(form, label, key, e, hint, [this, e, ref] { e->setText(QString::number(ref(config_))); });
    connect(e, &QLineEdit::textEdited, this, [this, ref, key](const QString& t) {
        bool ok = false;
        const qulonglong v = t.toULongLong(&ok);
        if (!ok) {
            edited(key, t.isEmpty() ? tr("a seed is required") : tr("\"%1\" is too large").arg(t));
            return;
        }
        ref(config_) = v;
        edited(key);
    });
    return e;
}

QWidget* ExperimentEditor::choice(QFormLayout* form, const QString& label, const QString& key, Ref<std::string> ref,
                                  const std::vector<std::string>& items, bool editable, const QString& hint)
{
    auto* c = new QComboBox;
    c->setEditable(editable);
    c->setInsertPolicy(QComboBox::NoInsert);
    for (const auto& i : items)
        c->addItem(qs(i));
    add(form, label, key, c, hint, [this, c, ref] {
        const QString v = qs(ref(config_));
        // A value from code that the list lacks is shown as it is, and flagged by find_problems().
        if (!c->isEditable() && c->findText(v) < 0)
            c->addItem(v);
        c->setCurrentText(v);
        if (c->isEditable())
            c->setEditText(v);
    });
    connect(c, &QComboBox::currentTextChanged, this, [this, ref, key](const QString& t) {
        if (showing_ || ref(config_) == t.toStdString())
            return;
        ref(config_) = t.toStdString();
        edited(key);
    });
    return c;
}

QWidget* ExperimentEditor::flag(QFormLayout* form, const QString& label, const QString& key, Ref<bool> ref,
                                const QString& hint)
{
    auto* b = new QCheckBox(label);
    add(nullptr, {}, key, b, hint, [this, b, ref] { b->setChecked(ref(config_)); });
    if (form)
        form->addRow(QString(), b);
    connect(b, &QCheckBox::toggled, this, [this, ref, key](bool on) {
        if (showing_)
            return;
        ref(config_) = on;
        edited(key);
    });
    return b;
}

QLineEdit* ExperimentEditor::text(QFormLayout* form, const QString& label, const QString& key, Ref<std::string> ref,
                                  const QString& hint)
{
    auto* e = new QLineEdit;
    add(form, label, key, e, hint, [this, e, ref] { e->setText(qs(ref(config_))); });
    connect(e, &QLineEdit::textEdited, this, [this, ref, key](const QString& t) {
        ref(config_) = t.toStdString();
        edited(key);
    });
    return e;
}

// A field with a "…" button beside it; the file or folder chosen replaces the field's text.
QWidget* ExperimentEditor::withBrowse(QWidget* field, const QString& title, const QString& filter, bool folder)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(4);
    auto* button = new QToolButton(row);
    button->setText(QStringLiteral("…"));
    button->setToolTip(title);
    button->setObjectName(field->objectName() + QStringLiteral(".browse"));
    h->addWidget(field, 1);
    h->addWidget(button);
    connect(button, &QToolButton::clicked, this, [this, field, title, filter, folder] {
        const QString start = QFileInfo(fileName_).path();
        const QString path = folder ? QFileDialog::getExistingDirectory(this, title, start)
                                    : QFileDialog::getOpenFileName(this, title, start, filter);
        if (path.isEmpty())
            return;
        if (auto* e = qobject_cast<QLineEdit*>(field)) {
            e->setText(path);
            Q_EMIT e->textEdited(path);
        } else if (auto* c = qobject_cast<QComboBox*>(field)) {
            c->setEditText(path); // currentTextChanged stores it
        }
    });
    return row;
}

// ---- the sections ----

QWidget* ExperimentEditor::buildJob()
{
    auto [page, left, right] = twoColumns(tr("Model and optimizer"), tr("Run"));
    auto* model = choice(nullptr, {}, QStringLiteral("job.model"), [](ExperimentConfig& c) -> std::string& { return c.job.model; },
                         core::model::zoo_names(), true, tr("A zoo model, or a TOML model file (…)"));
    left->addRow(tr("Model"), withBrowse(model, tr("Choose a TOML model file"), tr("Models (*.toml);;All files (*)"), false));
    auto* head = new QComboBox;
    for (const auto& name : core::model::output_head_names())
        head->addItem(qs(name));
    add(left, tr("Output head"), QStringLiteral("job.head"), head,
        tr("Zoo models: relu = the original's ReLU on the logits, logits = plain logits; "
           "a model file writes its own last block"),
        [this, head] { head->setCurrentText(qs(core::model::to_string(config_.job.head))); });
    connect(head, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        const auto h = core::model::parse_output_head(t.toStdString());
        if (showing_ || !h || *h == config_.job.head)
            return;
        config_.job.head = *h;
        edited(QStringLiteral("job.head"));
    });
    choice(left, tr("Optimizer"), QStringLiteral("job.optimizer"),
           [](ExperimentConfig& c) -> std::string& { return c.job.optimizer; }, core::config::optimizer_names(), false,
           tr("Adam, or SGD with momentum"));
    number(left, tr("Learning rate"), QStringLiteral("job.lr"), [](ExperimentConfig& c) -> double& { return c.job.lr; },
           tr("Reset to this after every adaptation; > 0"));
    number(left, tr("LR decay"), QStringLiteral("job.lr_decay"),
           [](ExperimentConfig& c) -> double& { return c.job.lr_decay; },
           tr("Multiplied into the learning rate after every epoch; in (0, 1]"));
    number(left, tr("Momentum"), QStringLiteral("job.momentum"),
           [](ExperimentConfig& c) -> double& { return c.job.momentum; }, tr("SGD only; in [0, 1)"));
    count(right, tr("Batch size"), QStringLiteral("job.batch_size"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.job.batch_size; }, 0, 1 << 20,
          tr("Samples per training step"));
    seed(right, tr("Seed"), QStringLiteral("job.seed"), [](ExperimentConfig& c) -> std::uint64_t& { return c.job.seed; },
         tr("Weights, data order and generated data"));
    choice(right, tr("Device"), QStringLiteral("job.device"),
           [](ExperimentConfig& c) -> std::string& { return c.job.device; },
           {"cpu", "cuda", "cuda:0", "cuda:1"}, true, tr("\"cpu\", \"cuda\" or \"cuda:N\""));
    return page;
}

QWidget* ExperimentEditor::buildDataset()
{
    auto [page, left, right] = twoColumns(tr("Data"), tr("Generated (synthetic only)"));
    choice(left, tr("Kind"), QStringLiteral("dataset.kind"), [](ExperimentConfig& c) -> std::string& { return c.dataset.kind; },
           core::config::dataset_kinds(), false, tr("Where the samples come from"));
    auto* path = text(nullptr, {}, QStringLiteral("dataset.path"),
                      [](ExperimentConfig& c) -> std::string& { return c.dataset.path; },
                      tr("Data folder; empty = the kind's default location"));
    path->setPlaceholderText(tr("default location"));
    left->addRow(tr("Path"), withBrowse(path, tr("Choose the data folder"), {}, true));
    choice(left, tr("Normalization"), QStringLiteral("dataset.normalization"),
           [](ExperimentConfig& c) -> std::string& { return c.dataset.normalization; },
           core::config::normalization_names(), false,
           tr("half: mean 0.5, std 0.5 per channel; dataset: its own statistics; none"));
    count(left, tr("Train subset"), QStringLiteral("dataset.train_subset"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.dataset.train_subset; }, 0, 1 << 30,
          tr("Training samples used; all = every sample"), tr("all"));
    count(left, tr("Test subset"), QStringLiteral("dataset.test_subset"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.dataset.test_subset; }, 0, 1 << 30,
          tr("Test samples used; all = every sample"), tr("all"));
    flag(left, tr("Random subset (seeded)"), QStringLiteral("dataset.random_subset"),
         [](ExperimentConfig& c) -> bool& { return c.dataset.random_subset; },
         tr("A seeded random subset instead of the first N samples"));

    auto* shape = new QLineEdit;
    shape->setPlaceholderText(QStringLiteral("3x32x32"));
    add(right, tr("Shape"), QStringLiteral("dataset.shape"), shape, tr("channels x height x width"), [this, shape] {
        QStringList parts;
        for (auto v : config_.dataset.shape)
            parts << QString::number(v);
        shape->setText(parts.join(QLatin1Char('x')));
    });
    connect(shape, &QLineEdit::textEdited, this, [this](const QString& t) {
        const QStringList parts = t.split(QRegularExpression(QStringLiteral("[x×,\\s]+")), Qt::SkipEmptyParts);
        std::vector<std::int64_t> v;
        for (const auto& p : parts) {
            bool ok = false;
            v.push_back(p.toLongLong(&ok));
            if (!ok) {
                edited(QStringLiteral("dataset.shape"), tr("\"%1\" is not a shape such as 3x32x32").arg(t));
                return;
            }
        }
        config_.dataset.shape = v;
        edited(QStringLiteral("dataset.shape"));
    });
    count(right, tr("Classes"), QStringLiteral("dataset.classes"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.dataset.classes; }, 0, 100000, tr("At least 2"));
    count(right, tr("Train size"), QStringLiteral("dataset.train_size"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.dataset.train_size; }, 0, 1 << 30, tr("Training samples"));
    count(right, tr("Test size"), QStringLiteral("dataset.test_size"),
          [](ExperimentConfig& c) -> std::int64_t& { return c.dataset.test_size; }, 0, 1 << 30, tr("Test samples"));
    number(right, tr("Noise"), QStringLiteral("dataset.noise"),
           [](ExperimentConfig& c) -> double& { return c.dataset.noise; }, tr("Higher is harder; >= 0"));
    return page;
}

QWidget* ExperimentEditor::buildScheduler()
{
    auto [page, left, right] = twoColumns(tr("Budget"), tr("Clock"));
    auto* budget = number(left, tr("Budget (s)"), QStringLiteral("scheduler.budget"),
                          [](ExperimentConfig& c) -> double& { return c.scheduler.budget; },
                          tr("Seconds the job may run"));
    number(left, tr("Start time (s)"), QStringLiteral("scheduler.start_time"),
           [](ExperimentConfig& c) -> double& { return c.scheduler.start_time; },
           tr("Seconds of the budget already used when training starts"));
    choice(right, tr("Clock"), QStringLiteral("scheduler.clock"),
           [](ExperimentConfig& c) -> std::string& { return c.scheduler.clock; }, core::config::clock_names(), false,
           tr("virtual: reproducible, a fixed cost per step; wall: real seconds"));
    number(right, tr("Step cost (s)"), QStringLiteral("scheduler.step_cost"),
           [](ExperimentConfig& c) -> double& { return c.scheduler.step_cost; },
           tr("Virtual clock: seconds charged per training step"));
    number(right, tr("Eval cost (s)"), QStringLiteral("scheduler.eval_cost"),
           [](ExperimentConfig& c) -> double& { return c.scheduler.eval_cost; },
           tr("Virtual clock: seconds charged per test evaluation"));
    connect(budget, &QLineEdit::textEdited, this, [this] { timeline_->setBudget(config_.scheduler.budget); });

    auto* box = new QGroupBox(tr("Allocation events"), page);
    auto* v = new QVBoxLayout(box);
    timeline_ = new AllocationTimeline(box);
    add(nullptr, {}, QStringLiteral("scheduler.events"), timeline_,
        tr("Double-click to add an \"up\"; drag a marker to move it; right-click for more; Del deletes"), [this] {
            timeline_->setBudget(config_.scheduler.budget);
            timeline_->setEvents(config_.scheduler.events);
        });
    eventsLabel_ = new QLabel(box);
    eventsLabel_->setObjectName(QStringLiteral("eventsLabel"));
    eventsLabel_->setWordWrap(true);
    eventsLabel_->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(timeline_);
    v->addWidget(eventsLabel_);
    connect(timeline_, &AllocationTimeline::eventsChanged, this, [this] {
        config_.scheduler.events = timeline_->events();
        edited(QStringLiteral("scheduler.events"));
    });
    // The group boxes' stretch sits below; the timeline goes between them and it.
    static_cast<QVBoxLayout*>(page->layout())->insertWidget(1, box);
    return page;
}

QWidget* ExperimentEditor::buildTrainer()
{
    auto [page, left, right] = twoColumns(tr("Adaptation (after \"up\")"), tr("Distillation (after \"down\")"));
    integer(left, tr("Max decisions"), QStringLiteral("trainer.max_decisions"),
            [](ExperimentConfig& c) -> int& { return c.trainer.max_decisions; }, 0, 1000,
            tr("Agent consultations after an \"up\""));
    flag(left, tr("Check function preservation"), QStringLiteral("trainer.check_preservation"),
         [](ExperimentConfig& c) -> bool& { return c.trainer.check_preservation; },
         tr("Measure max |Δ| of the outputs at every deepening"));
    flag(left, tr("Warm-start checkpoint"), QStringLiteral("trainer.warm_start_checkpoint"),
         [](ExperimentConfig& c) -> bool& { return c.trainer.warm_start_checkpoint; },
         tr("Save a checkpoint at the first allocation event"));
    number(right, tr("Temperature"), QStringLiteral("trainer.distill_temperature"),
           [](ExperimentConfig& c) -> double& { return c.trainer.distill_temperature; },
           tr("Softmax temperature of the soft targets; > 0"));
    number(right, tr("Weight"), QStringLiteral("trainer.distill_weight"),
           [](ExperimentConfig& c) -> double& { return c.trainer.distill_weight; },
           tr("Soft-target weight at the first epoch after \"down\"; in [0, 1]"));
    number(right, tr("Decay"), QStringLiteral("trainer.distill_decay"),
           [](ExperimentConfig& c) -> double& { return c.trainer.distill_decay; },
           tr("Multiplied into the weight after every epoch; in [0, 1]"));
    return page;
}

QWidget* ExperimentEditor::buildAgent()
{
    auto [page, left, right] = twoColumns(tr("Agent"), tr("Policy"));
    choice(left, tr("Kind"), QStringLiteral("agent.kind"), [](ExperimentConfig& c) -> std::string& { return c.agent.kind; },
           core::config::agent_kinds(), false,
           tr("fixed: a sequence; random; none: always Do Nothing; policy: a trained policy; "
              "simulation: every sequence in turn"));
    auto* sequence = new QLineEdit;
    sequence->setPlaceholderText(tr("e.g. 0 2 3"));
    add(left, tr("Sequence"), QStringLiteral("agent.sequence"), sequence,
        tr("Fixed agent: actions in order; i deepens original block i, the block count is Do Nothing"),
        [this, sequence] { sequence->setText(joined(config_.agent.sequence)); });
    connect(sequence, &QLineEdit::textEdited, this, [this](const QString& t) {
        std::vector<int> v;
        for (const auto& p : t.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
            bool ok = false;
            v.push_back(p.toInt(&ok));
            if (!ok) {
                edited(QStringLiteral("agent.sequence"), tr("\"%1\" is not an action number").arg(p));
                return;
            }
        }
        config_.agent.sequence = v;
        edited(QStringLiteral("agent.sequence"));
    });
    sequenceHint_ = new QLabel;
    sequenceHint_->setObjectName(QStringLiteral("sequenceHint"));
    sequenceHint_->setForegroundRole(QPalette::PlaceholderText);
    sequenceHint_->setWordWrap(true);
    left->addRow(QString(), sequenceHint_);
    seed(left, tr("Seed"), QStringLiteral("agent.seed"), [](ExperimentConfig& c) -> std::uint64_t& { return c.agent.seed; },
         tr("Random agent, and a policy's sampling"));
    auto* policy = text(nullptr, {}, QStringLiteral("agent.policy"),
                        [](ExperimentConfig& c) -> std::string& { return c.agent.policy; },
                        tr("The policy file (policy.pt) of a learning run"));
    right->addRow(tr("Policy file"), withBrowse(policy, tr("Choose a policy file"), tr("Policies (*.pt);;All files (*)"), false));
    number(right, tr("Temperature"), QStringLiteral("agent.temperature"),
           [](ExperimentConfig& c) -> double& { return c.agent.temperature; }, tr("Softmax temperature; > 0"));
    flag(right, tr("Greedy (argmax)"), QStringLiteral("agent.greedy"),
         [](ExperimentConfig& c) -> bool& { return c.agent.greedy; }, tr("Argmax instead of sampling"));
    return page;
}

// ---- state ----

void ExperimentEditor::setConfig(const ExperimentConfig& c)
{
    config_ = c;
    local_.clear();
    showing_ = true;
    for (const auto& f : fields_) {
        const QSignalBlocker block(f.widget);
        f.show();
    }
    showing_ = false;
    timeline_->update();
    revalidate();
}

bool ExperimentEditor::loadFile(const QString& path, QString* error)
{
    try {
        const ExperimentConfig c = core::config::load_experiment(path.toStdString());
        fileName_ = path;
        setConfig(c);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool ExperimentEditor::saveFile(const QString& path, QString* error)
{
    if (!isValid()) {
        if (error)
            *error = tr("%1: not saved: %2 problem(s), the first: %3: %4")
                         .arg(path)
                         .arg(problems_.size())
                         .arg(qs(problems_.front().key), qs(problems_.front().reason));
        return false;
    }
    try {
        core::write_text_atomically(std::filesystem::path(path.toStdString()), core::config::to_toml(config_));
        fileName_ = path;
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

void ExperimentEditor::edited(const QString& key, const QString& localProblem)
{
    if (showing_)
        return;
    if (localProblem.isEmpty())
        local_.remove(key);
    else
        local_.insert(key, localProblem);
    revalidate();
    Q_EMIT changed();
}

const ExperimentEditor::Field* ExperimentEditor::fieldFor(const QString& key) const
{
    const QString base = baseKey(key);
    for (const auto& f : fields_)
        if (f.key == base)
            return &f;
    return nullptr;
}

QWidget* ExperimentEditor::widgetForKey(const QString& key) const
{
    const Field* f = fieldFor(key);
    return f ? f->widget : nullptr;
}

int ExperimentEditor::blockCount() const
{
    const QString model = qs(config_.job.model);
    if (!blocks_.contains(model)) {
        // The block count does not depend on the input, but a model file may accept only some
        // inputs: try the likely ones.
        std::filesystem::path p(config_.job.model);
        if (!core::model::is_zoo_name(config_.job.model) && p.is_relative() && !config_.source.empty())
            p = std::filesystem::path(config_.source).parent_path() / p;
        int n = -1;
        for (const core::model::Shape& shape : {config_.dataset.shape, core::model::Shape{3, 32, 32},
                                                core::model::Shape{1, 28, 28}}) {
            try {
                n = core::model::original_block_count(core::model::load_model(p.string(), shape));
                break;
            } catch (const std::exception&) {
                // not this input, or not loadable (yet): no range to check against
            }
        }
        blocks_.insert(model, n);
    }
    return blocks_.value(model);
}

void ExperimentEditor::revalidate()
{
    problems_.clear();
    for (auto it = local_.cbegin(); it != local_.cend(); ++it)
        problems_.push_back({it.key().toStdString(), it.value().toStdString(), {}});
    for (const auto& p : core::config::find_problems(config_))
        if (!local_.contains(baseKey(qs(p.key)))) // the text shown is not the value checked
            problems_.push_back(p);

    QHash<QWidget*, QStringList> reasons;
    QMap<int, QString> eventProblems;
    static const QRegularExpression eventKey(QStringLiteral("^scheduler\\.events\\[(\\d+)\\]"));
    QStringList lines;
    for (const auto& p : std::as_const(problems_)) {
        const QString key = qs(p.key);
        const QString reason = qs(p.reason);
        lines << QStringLiteral("<b>%1</b>: %2").arg(key.toHtmlEscaped(), reason.toHtmlEscaped());
        if (QWidget* w = widgetForKey(key))
            reasons[w] << (key == baseKey(key) ? reason : key + QStringLiteral(": ") + reason);
        if (!p.related.empty())
            if (QWidget* w = widgetForKey(qs(p.related)))
                reasons[w] << tr("%1: %2").arg(key, reason);
        const auto m = eventKey.match(key);
        if (m.hasMatch())
            eventProblems.insert(m.captured(1).toInt(), reason);
    }

    QSet<int> badTabs;
    for (const auto& f : fields_) {
        const bool bad = reasons.contains(f.widget);
        if (f.widget->property("problem").toBool() != bad) {
            f.widget->setProperty("problem", bad);
            f.widget->style()->unpolish(f.widget);
            f.widget->style()->polish(f.widget);
            f.widget->update();
        }
        f.widget->setToolTip(bad ? reasons.value(f.widget).join(QLatin1Char('\n')) : f.hint);
        if (bad)
            for (QWidget* w = f.widget; w; w = w->parentWidget())
                if (const int i = tabs_->indexOf(w); i >= 0)
                    badTabs.insert(i);
    }
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (int i = 0; i < tabs_->count(); ++i)
        tabs_->setTabIcon(i, badTabs.contains(i) ? warning : QIcon());
    timeline_->setEventProblems(eventProblems);

    QStringList events;
    for (std::size_t i = 0; i < config_.scheduler.events.size(); ++i) {
        const auto& e = config_.scheduler.events[i];
        events << tr("%1 at %2 s").arg(qs(core::config::to_string(e.change)), shortest(e.time));
    }
    const int blocks = blockCount();
    sequenceHint_->setText(blocks < 0 ? QString()
                                      : tr("%1: 0..%2 deepen an original block, %3 = Do Nothing")
                                            .arg(qs(config_.job.model))
                                            .arg(blocks - 1)
                                            .arg(blocks));
    eventsLabel_->setText(events.isEmpty() ? tr("No allocation events: the job keeps its GPUs.")
                                           : tr("Events: %1").arg(events.join(QStringLiteral(", "))));

    if (problems_.isEmpty()) {
        problemsLabel_->clear();
        problemsLabel_->hide();
    } else {
        problemsLabel_->setText(QStringLiteral("<span style='color:#c62828'>%1</span>")
                                    .arg((problems_.size() == 1 ? tr("1 problem to fix before running:")
                                                                : tr("%1 problems to fix before running:").arg(problems_.size())) +
                                         QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"))));
        problemsLabel_->show();
    }
    updateEnabled();

    const bool valid = problems_.isEmpty();
    if (valid != valid_) {
        valid_ = valid;
        Q_EMIT validityChanged(valid);
    }
}

void ExperimentEditor::updateEnabled()
{
    const auto enable = [this](const char* key, bool on) {
        if (QWidget* w = widgetForKey(QLatin1String(key))) {
            w->setEnabled(on);
            // The browse button beside a field follows it.
            if (auto* b = findChild<QWidget*>(QLatin1String(key) + QStringLiteral(".browse")))
                b->setEnabled(on);
        }
    };
    const bool synthetic = config_.dataset.kind == "synthetic";
    for (const char* k : {"dataset.shape", "dataset.classes", "dataset.train_size", "dataset.test_size", "dataset.noise"})
        enable(k, synthetic);
    for (const char* k : {"dataset.path", "dataset.train_subset", "dataset.test_subset", "dataset.random_subset"})
        enable(k, !synthetic);
    enable("job.momentum", config_.job.optimizer == "sgd");
    // A model file writes its own head; "logits" stays editable there, to undo it.
    enable("job.head", !core::model::is_model_file(config_.job.model) ||
                           config_.job.head != core::model::OutputHead::Relu);
    const bool virtualClock = config_.scheduler.clock == "virtual";
    enable("scheduler.step_cost", virtualClock);
    enable("scheduler.eval_cost", virtualClock);
    const std::string& kind = config_.agent.kind;
    enable("agent.sequence", kind == "fixed");
    enable("agent.policy", kind == "policy");
    enable("agent.temperature", kind == "policy");
    enable("agent.greedy", kind == "policy");
    enable("agent.seed", kind == "random" || kind == "policy");
}

} // namespace rlda::widgets
