// A form over an experiment config: every section's settings, bad values flagged where they are.
#include "widgets/run/experiment_editor.h"

#include "core/config/experiment_io.h"
#include "core/config/operations.h"
#include "core/model/zoo.h"
#include "core/util/atomic_file.h"
#include "core/util/error_text.h"
#include "widgets/file_dialogs.h"
#include "widgets/flow_layout.h"
#include "widgets/run/allocation_timeline.h"
#include "widgets/run/editor_text.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QComboBox>
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

#include <optional>

#include <filesystem>

namespace rlda::widgets {

namespace {

using namespace editor_text;

QFormLayout* newForm(QWidget* parent)
{
    auto* form = new QFormLayout(parent);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return form;
}

// Two group boxes side by side, each with its own form, on one tab page; one above the other when
// the dock is too narrow for both.
struct Page {
    QWidget* page;
    QFormLayout* left;
    QFormLayout* right;
};

Page twoColumns(const QString& leftTitle, const QString& rightTitle)
{
    auto* page = new QWidget;
    auto* row = new FlowLayout(nullptr, FlowLayout::Fill::Rows);
    auto* l = new QGroupBox(leftTitle, page);
    auto* r = new QGroupBox(rightTitle, page);
    row->addWidget(l);
    row->addWidget(r);
    auto* v = new QVBoxLayout(page);
    v->addLayout(row);
    v->addStretch(1);
    return {page, newForm(l), newForm(r)};
}

} // namespace

// ---- the form's layout: which keys go where; everything else about a key is its declaration ----

// A tab of the form: the keys of one section in two columns. A key of the section that no
// column names (one a test or a later feature declared) goes at the end of the right column.
struct ExperimentEditor::Column {
    const char* title;
    std::vector<const char*> keys;
};
struct ExperimentEditor::TabLayout {
    const char* title;
    const char* section;
    Column left;
    Column right;
};

const std::vector<ExperimentEditor::TabLayout>& ExperimentEditor::tabLayouts()
{
    static const std::vector<TabLayout> tabs{
        {QT_TRANSLATE_NOOP("ExperimentEditor", "Job"), "job",
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Model and optimizer"),
          {"job.model", "job.head", "job.optimizer", "job.lr", "job.lr_decay", "job.momentum"}},
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Run"), {"job.batch_size", "job.seed", "job.device"}}},
        {QT_TRANSLATE_NOOP("ExperimentEditor", "Dataset"), "dataset",
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Data"),
          {"dataset.kind", "dataset.path", "dataset.normalization", "dataset.train_subset", "dataset.test_subset",
           "dataset.random_subset"}},
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Generated (synthetic only)"),
          {"dataset.shape", "dataset.classes", "dataset.train_size", "dataset.test_size", "dataset.noise"}}},
        {QT_TRANSLATE_NOOP("ExperimentEditor", "Scheduler"), "scheduler",
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Budget"), {"scheduler.budget", "scheduler.start_time"}},
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Clock"),
          {"scheduler.clock", "scheduler.step_cost", "scheduler.eval_cost"}}},
        {QT_TRANSLATE_NOOP("ExperimentEditor", "Trainer"), "trainer",
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Adaptation (after \"up\")"),
          {"trainer.max_decisions", "trainer.operations", "trainer.widen_factor", "trainer.widen_noise",
           "trainer.check_preservation", "trainer.warm_start_checkpoint"}},
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Distillation (after \"down\")"),
          {"trainer.distill_temperature", "trainer.distill_weight", "trainer.distill_decay"}}},
        {QT_TRANSLATE_NOOP("ExperimentEditor", "Agent"), "agent",
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Agent"),
          {"agent.kind", "agent.sequence", "agent.seed", "agent.threshold"}},
         {QT_TRANSLATE_NOOP("ExperimentEditor", "Policy"), {"agent.policy", "agent.temperature", "agent.greedy"}}},
    };
    return tabs;
}

namespace {

// How a few keys look beyond their declaration: placeholders, browse buttons, list spelling.
struct Look {
    const char* placeholder = nullptr;
    const char* browse = nullptr; // the file dialog's title; nullptr = no button
    const char* filter = nullptr; // files; nullptr with `browse` = a folder
    FileKind kind = FileKind::Model; // whose remembered folder the dialog starts in, with `browse`
    const char* zeroText = nullptr; // a count whose 0 means "all"
    QChar separator = QLatin1Char(' '); // an integer list as text
    const char* notAList = QT_TRANSLATE_NOOP("ExperimentEditor", "\"%1\" is not a list of integers");
};

Look lookOf(const std::string& key)
{
    Look l;
    if (key == "job.model") {
        l.browse = QT_TRANSLATE_NOOP("ExperimentEditor", "Choose a TOML model file");
        l.filter = QT_TRANSLATE_NOOP("ExperimentEditor", "Models (*.toml);;All files (*)");
        l.kind = FileKind::Model;
    } else if (key == "dataset.path") {
        l.placeholder = QT_TRANSLATE_NOOP("ExperimentEditor", "default location");
        l.browse = QT_TRANSLATE_NOOP("ExperimentEditor", "Choose the data folder");
        l.kind = FileKind::DataFolder;
    } else if (key == "agent.policy") {
        l.browse = QT_TRANSLATE_NOOP("ExperimentEditor", "Choose a policy file");
        l.filter = QT_TRANSLATE_NOOP("ExperimentEditor", "Policies (*.pt);;All files (*)");
        l.kind = FileKind::Policy;
    } else if (key == "dataset.train_subset" || key == "dataset.test_subset") {
        l.zeroText = QT_TRANSLATE_NOOP("ExperimentEditor", "all");
    } else if (key == "dataset.shape") {
        l.placeholder = "CxHxW";
        l.separator = QLatin1Char('x');
        l.notAList = QT_TRANSLATE_NOOP("ExperimentEditor", "\"%1\" is not a shape CxHxW (channels x height x width)");
    } else if (key == "agent.sequence") {
        l.placeholder = QT_TRANSLATE_NOOP("ExperimentEditor", "e.g. 0 2 3");
        l.notAList = QT_TRANSLATE_NOOP("ExperimentEditor", "\"%1\" is not a list of action numbers");
    }
    return l;
}

QString translated(const char* text) { return text ? QCoreApplication::translate("ExperimentEditor", text) : QString(); }

// The widest spin box range a declared range allows.
std::pair<int, int> spinRange(const core::config::Range& r)
{
    constexpr double widest = 1 << 30;
    return {static_cast<int>(std::max(r.min, -widest)), static_cast<int>(std::min(r.max, widest))};
}

} // namespace

ExperimentEditor::ExperimentEditor(QWidget* parent) : ExperimentEditor(core::config::experiment_schema(), parent) {}

ExperimentEditor::ExperimentEditor(core::config::Schema schema, QWidget* parent)
    : QWidget(parent), schema_(std::move(schema))
{
    setStyleSheet(QStringLiteral(
        "QLineEdit[problem=\"true\"], QComboBox[problem=\"true\"], QSpinBox[problem=\"true\"] {"
        " border: 2px solid #d32f2f; border-radius: 3px; padding: 1px 2px; }"
        "QCheckBox[problem=\"true\"] { color: #d32f2f; }"));

    auto* nameRow = new QHBoxLayout;
    const Key& nameKey = *schema_.find("name");
    const auto& nameBinding = std::get<core::config::Binding<std::string>>(nameKey.value);
    auto* nameLabel = new QLabel(qs(nameKey.display_label()), this);
    auto* name = new QLineEdit(this);
    nameLabel->setBuddy(name);
    add(nullptr, {}, nameKey, name, qs(nameKey.hint()), [this, name, nameBinding] { name->setText(qs(nameBinding.get(config_))); });
    connect(name, &QLineEdit::textEdited, this, [this, nameBinding](const QString& t) {
        nameBinding.set(config_, t.toStdString());
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
    tabs_->setUsesScrollButtons(true); // a narrow dock scrolls the section tabs
    for (const auto& tab : tabLayouts())
        if (schema_.find_section(tab.section))
            tabs_->addTab(buildTab(tab), translated(tab.title));
    if (auto* budget = qobject_cast<QLineEdit*>(widgetForKey(QStringLiteral("scheduler.budget"))))
        connect(budget, &QLineEdit::textEdited, this, [this] { timeline_->setBudget(config_.scheduler.budget); });

    problemsLabel_ = new QLabel(this);
    problemsLabel_->setObjectName(QStringLiteral("problemsLabel"));
    problemsLabel_->setWordWrap(true);
    problemsLabel_->setTextFormat(Qt::RichText);
    problemsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(nameRow);
    layout->addWidget(tabs_);
    layout->addWidget(problemsLabel_);

    connect(open, &QPushButton::clicked, this, &ExperimentEditor::openRequested);
    connect(save, &QPushButton::clicked, this, &ExperimentEditor::saveAsRequested);

    setConfig(ExperimentConfig{});
}

ExperimentEditor::~ExperimentEditor() = default;

QWidget* ExperimentEditor::buildTab(const TabLayout& tab)
{
    auto [page, left, right] = twoColumns(translated(tab.left.title), translated(tab.right.title));
    std::vector<std::string> placed;
    const auto place = [&](QFormLayout* form, const Column& column) {
        for (const char* name : column.keys)
            if (const Key* k = schema_.find(name)) {
                field(form, *k);
                placed.emplace_back(name);
            }
    };
    place(left, tab.left);
    place(right, tab.right);
    for (const Key* k : schema_.keys_of(tab.section)) {
        if (k->type == Type::Events)
            timelineBox(page, *k); // [scheduler]'s, the one such key
        else if (std::find(placed.begin(), placed.end(), k->name) == placed.end())
            field(right, *k);
    }
    return page;
}

// The allocation events: a timeline between the group boxes and the page's stretch.
void ExperimentEditor::timelineBox(QWidget* page, const Key& key)
{
    const auto& b = std::get<core::config::Binding<std::vector<core::config::AllocationEventConfig>>>(key.value);
    auto* box = new QGroupBox(qs(key.display_label()), page);
    auto* v = new QVBoxLayout(box);
    timeline_ = new AllocationTimeline(box);
    add(nullptr, {}, key, timeline_,
        tr("Double-click to add an \"up\"; drag a marker to move it; right-click for more; Del deletes"), [this, b] {
            timeline_->setBudget(config_.scheduler.budget);
            timeline_->setEvents(b.get(config_));
        });
    eventsLabel_ = new QLabel(box);
    eventsLabel_->setObjectName(QStringLiteral("eventsLabel"));
    eventsLabel_->setWordWrap(true);
    eventsLabel_->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(timeline_);
    v->addWidget(eventsLabel_);
    const QString name = qs(key.name);
    connect(timeline_, &AllocationTimeline::eventsChanged, this, [this, b, name] {
        b.set(config_, timeline_->events());
        edited(name);
    });
    static_cast<QVBoxLayout*>(page->layout())->insertWidget(1, box);
}

// ---- building blocks: each registers its widget under its key, the only key -> widget table ----

QWidget* ExperimentEditor::add(QFormLayout* form, const QString& label, const Key& key, QWidget* widget,
                               const QString& hint, std::function<void()> show)
{
    const QString name = qs(key.name);
    if (widget->objectName().isEmpty())
        widget->setObjectName(name);
    widget->setToolTip(hint);
    fields_.push_back({name, widget, hint, std::move(show)});
    if (form)
        form->addRow(label, widget);
    return widget;
}

// One field for `key`, made from its declaration: type, label, help, range, choices.
void ExperimentEditor::field(QFormLayout* form, const Key& key)
{
    using core::config::Binding;
    const Look look = lookOf(key.name);
    const QString label = qs(key.display_label());
    const QString hint = qs(key.hint());
    const QString name = qs(key.name);
    QWidget* row = nullptr; // what goes into the form: the widget, or it with a browse button
    std::visit(
        [&]<class T>(const Binding<T>& b) {
            if constexpr (std::is_same_v<T, std::string>) {
                const bool combo = key.type == Type::Choice || !key.choices.empty();
                if (combo) {
                    auto* c = new QComboBox;
                    c->setEditable(key.type != Type::Choice);
                    c->setInsertPolicy(QComboBox::NoInsert);
                    for (const auto& i : key.choices)
                        c->addItem(qs(i));
                    add(nullptr, {}, key, c, hint, [this, c, b] {
                        const QString v = qs(b.get(config_));
                        // A value from code that the list lacks is shown as it is, and flagged.
                        if (!c->isEditable() && c->findText(v) < 0)
                            c->addItem(v);
                        c->setCurrentText(v);
                        if (c->isEditable())
                            c->setEditText(v);
                    });
                    connect(c, &QComboBox::currentTextChanged, this, [this, b, name](const QString& t) {
                        if (showing_ || b.get(config_) == t.toStdString())
                            return;
                        b.set(config_, t.toStdString());
                        edited(name);
                    });
                    row = c;
                } else {
                    auto* e = new QLineEdit;
                    if (look.placeholder)
                        e->setPlaceholderText(translated(look.placeholder));
                    add(nullptr, {}, key, e, hint, [this, e, b] { e->setText(qs(b.get(config_))); });
                    connect(e, &QLineEdit::textEdited, this, [this, b, name](const QString& t) {
                        b.set(config_, t.toStdString());
                        edited(name);
                    });
                    row = e;
                }
                if (look.browse)
                    row = withBrowse(row, look.kind, translated(look.browse), translated(look.filter), look.filter == nullptr);
            } else if constexpr (std::is_same_v<T, bool>) {
                auto* c = new QCheckBox(label);
                add(nullptr, {}, key, c, hint, [this, c, b] { c->setChecked(b.get(config_)); });
                connect(c, &QCheckBox::toggled, this, [this, b, name](bool on) {
                    if (showing_)
                        return;
                    b.set(config_, on);
                    edited(name);
                });
                form->addRow(QString(), c);
            } else if constexpr (std::is_same_v<T, double>) {
                auto* e = new QLineEdit;
                add(nullptr, {}, key, e, hint, [this, e, b] { e->setText(shortest(b.get(config_))); });
                connect(e, &QLineEdit::textEdited, this, [this, b, name](const QString& t) {
                    bool ok = false;
                    const double v = QLocale::c().toDouble(t.trimmed(), &ok);
                    if (!ok) {
                        edited(name, tr("\"%1\" is not a number").arg(t));
                        return;
                    }
                    b.set(config_, v);
                    edited(name);
                });
                row = e;
            } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                // A seed: any TOML integer >= 0, more than a spin box holds.
                auto* e = new QLineEdit;
                e->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,20}")), e));
                add(nullptr, {}, key, e, hint, [this, e, b] { e->setText(QString::number(b.get(config_))); });
                connect(e, &QLineEdit::textEdited, this, [this, b, name](const QString& t) {
                    bool ok = false;
                    const qulonglong v = t.toULongLong(&ok);
                    if (!ok) {
                        edited(name, t.isEmpty() ? tr("a seed is required") : tr("\"%1\" is too large").arg(t));
                        return;
                    }
                    b.set(config_, v);
                    edited(name);
                });
                row = e;
            } else if constexpr (std::is_integral_v<T>) {
                auto* s = new QSpinBox;
                const auto [min, max] = spinRange(key.range);
                s->setRange(min, max);
                s->setGroupSeparatorShown(true);
                if (look.zeroText && min == 0)
                    s->setSpecialValueText(translated(look.zeroText));
                add(nullptr, {}, key, s, hint, [this, s, b] {
                    s->setValue(static_cast<int>(std::clamp<std::int64_t>(b.get(config_), s->minimum(), s->maximum())));
                });
                connect(s, &QSpinBox::valueChanged, this, [this, b, name](int v) {
                    if (showing_)
                        return;
                    b.set(config_, static_cast<T>(v));
                    edited(name);
                });
                row = s;
            } else if constexpr (std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<std::int64_t>>) {
                auto* e = new QLineEdit;
                if (look.placeholder)
                    e->setPlaceholderText(translated(look.placeholder));
                const QChar sep = look.separator;
                add(nullptr, {}, key, e, hint, [this, e, b, sep] {
                    QStringList parts;
                    for (auto v : b.get(config_))
                        parts << QString::number(v);
                    e->setText(parts.join(sep));
                });
                const QString notAList = translated(look.notAList);
                connect(e, &QLineEdit::textEdited, this, [this, b, name, notAList](const QString& t) {
                    static const QRegularExpression separators(QStringLiteral("[x×,\\s]+"));
                    T v;
                    for (const auto& p : t.split(separators, Qt::SkipEmptyParts)) {
                        bool ok = false;
                        v.push_back(static_cast<typename T::value_type>(p.toLongLong(&ok)));
                        if (!ok) {
                            edited(name, notAList.arg(t));
                            return;
                        }
                    }
                    b.set(config_, v);
                    edited(name);
                });
                row = e;
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                // A list of choices, each on or off: one check box per choice, in its order.
                if (key.choices.empty())
                    return; // free-form string lists have no generic field
                auto* box = new QWidget;
                auto* lay = new QHBoxLayout(box);
                lay->setContentsMargins(0, 0, 0, 0);
                std::vector<QCheckBox*> checks;
                for (const auto& c : key.choices) {
                    auto* check = new QCheckBox(qs(c));
                    check->setObjectName(name + QLatin1Char('.') + qs(c));
                    lay->addWidget(check);
                    checks.push_back(check);
                }
                lay->addStretch(1);
                add(nullptr, {}, key, box, hint, [this, checks, b, choices = key.choices] {
                    const auto v = b.get(config_);
                    for (std::size_t i = 0; i < checks.size(); ++i)
                        checks[i]->setChecked(std::find(v.begin(), v.end(), choices[i]) != v.end());
                });
                for (auto* check : checks)
                    connect(check, &QCheckBox::toggled, this, [this, checks, b, name, choices = key.choices] {
                        if (showing_)
                            return;
                        std::vector<std::string> v;
                        for (std::size_t i = 0; i < checks.size(); ++i)
                            if (checks[i]->isChecked())
                                v.push_back(choices[i]);
                        b.set(config_, v);
                        edited(name);
                    });
                row = box;
            }
            // Events have no generic field: the form does not show such a key.
        },
        key.value);
    if (row)
        form->addRow(label, row);
    if (key.name == "agent.sequence") {
        sequenceHint_ = new QLabel;
        sequenceHint_->setObjectName(QStringLiteral("sequenceHint"));
        sequenceHint_->setForegroundRole(QPalette::PlaceholderText);
        sequenceHint_->setWordWrap(true);
        form->addRow(QString(), sequenceHint_);
    }
}

// A field with a "…" button beside it; the file or folder chosen replaces the field's text.
QWidget* ExperimentEditor::withBrowse(QWidget* field, FileKind kind, const QString& title, const QString& filter,
                                      bool folder)
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
    connect(button, &QToolButton::clicked, this, [this, field, kind, title, filter, folder] {
        // Where this kind was last chosen, else beside the experiment's file.
        const QString start = fileName_.isEmpty() ? QString() : QFileInfo(fileName_).path();
        const QString path = folder ? existingFolder(this, kind, title, start) : openFileName(this, kind, title, filter, start);
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

} // namespace rlda::widgets
