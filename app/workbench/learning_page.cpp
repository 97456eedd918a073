// The Learning page's form and live view; the run itself goes through the worker.
#include "app/workbench/learning_page.h"

#include "app/workbench/evaluations.h"
#include "core/agent/learner_options.h"
#include "core/agent/vocabulary.h"
#include "core/run/learn_run.h"
#include "core/table/open_table.h"
#include "core/util/error_text.h"
#include "widgets/flow_layout.h"
#include "widgets/plot/learning_view.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <optional>

namespace rlda::app {

LearningPage::~LearningPage() { table_->disconnect(this); }

LearningPage::LearningPage(QWidget* parent) : QWidget(parent)
{
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    auto fileRow = [this](QLineEdit*& edit, const QString& placeholder, widgets::FileKind kind, const QString& title,
                          const QString& filter) {
        auto* row = new QHBoxLayout;
        edit = new QLineEdit(this);
        edit->setPlaceholderText(placeholder);
        auto* button = new QPushButton(tr("Browse…"), this);
        connect(button, &QPushButton::clicked, this, [this, edit, kind, title, filter] {
            const QString path = browse(kind, title, filter);
            if (!path.isEmpty())
                edit->setText(path);
        });
        row->addWidget(edit, 1);
        row->addWidget(button);
        return row;
    };
    form->addRow(tr("Table"), fileRow(table_, tr("simulation table (CSV), e.g. one written by a simulation run"),
                                      widgets::FileKind::Table, tr("Simulation table"), tr("Tables (*.csv);;All files (*)")));
    table_->setObjectName(QStringLiteral("learnTable"));
    form->addRow(tr("Continue policy"), fileRow(from_, tr("empty: a new policy"), widgets::FileKind::Policy, tr("Policy file"),
                                                tr("Policies (*.pt);;All files (*)")));
    auto* modelRow = new QHBoxLayout;
    model_ = new QLineEdit(this);
    model_->setObjectName(QStringLiteral("learnModel"));
    input_ = new QLineEdit(this);
    input_->setObjectName(QStringLiteral("learnInput"));
    input_->setMaximumWidth(120);
    modelRow->addWidget(model_, 1);
    modelRow->addWidget(new QLabel(tr("Input"), this));
    modelRow->addWidget(input_);
    form->addRow(tr("Model"), modelRow);
    connect(table_, &QLineEdit::editingFinished, this, [this] { setTable(table()); });

    auto* numbers = new widgets::FlowLayout; // the numbers and Learn wrap on a narrow window
    episodes_ = new QSpinBox(this);
    episodes_->setObjectName(QStringLiteral("learnEpisodes"));
    episodes_->setRange(1, 10'000'000);
    const core::run::LearnRunSettings defaults; // the defaults of rlda learn too
    episodes_->setValue(static_cast<int>(core::run::kPaperEpisodes));
    episodes_->setGroupSeparatorShown(true);
    episodes_->setToolTip(tr("Episodes of 3 sampled decisions, one REINFORCE update each (the paper: 75,000)"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(static_cast<int>(defaults.seed));
    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0.0, 10000.0);
    temperature_->setDecimals(2);
    temperature_->setSpecialValueText(tr("policy's"));
    temperature_->setToolTip(tr("Starting softmax temperature; decays to 1 (the paper used 10, 100, 1000 for transfer)"));
    decay_ = new QDoubleSpinBox(this);
    decay_->setRange(0.01, 1.0);
    decay_->setDecimals(3);
    decay_->setSingleStep(0.01);
    decay_->setValue(defaults.temperature_decay);
    decay_->setToolTip(tr("Temperature × this every N episodes (next box)"));
    decayEvery_ = new QSpinBox(this);
    decayEvery_->setObjectName(QStringLiteral("learnTemperatureEvery"));
    decayEvery_->setRange(0, 1'000'000);
    decayEvery_->setSpecialValueText(tr("decay_freq"));
    decayEvery_->setSuffix(tr(" episodes"));
    decayEvery_->setToolTip(tr("Episodes between temperature decays: decay_freq (500) as the paper says; "
                               "the original code decayed every episode (1)"));
    baseline_ = new QDoubleSpinBox(this);
    baseline_->setRange(0.0, 0.999);
    baseline_->setDecimals(3);
    baseline_->setSingleStep(0.01);
    baseline_->setSpecialValueText(tr("learner's"));
    baseline_->setObjectName(QStringLiteral("learnBaseline"));
    baseline_->setToolTip(tr("Learn from reward minus its moving average (decay); the learner's own when not set "
                             "(original: none, robust: 0.99)"));
    auto label = [this](const QString& text) { return new QLabel(text, this); };
    numbers->addPair(label(tr("Episodes")), episodes_);
    numbers->addPair(label(tr("Seed")), seed_);
    numbers->addPair(label(tr("Temperature")), temperature_);
    numbers->addPair(label(tr("decay")), decay_);
    numbers->addPair(label(tr("every")), decayEvery_);
    numbers->addPair(label(tr("Baseline")), baseline_);
    learn_ = new QPushButton(tr("Learn"), this);
    learn_->setObjectName(QStringLiteral("learnButton"));
    numbers->addWidget(learn_);
    form->addRow(QString(), numbers);
    connect(learn_, &QPushButton::clicked, this, &LearningPage::learnRequested);

    auto* agent = new widgets::FlowLayout;
    encoder_ = new QComboBox(this);
    encoder_->setObjectName(QStringLiteral("learnEncoder"));
    for (const auto& name : core::config::names<core::config::PolicyEncoder>())
        encoder_->addItem(QString::fromStdString(name));
    encoder_->setToolTip(tr("A new policy's encoder: original (the paper's: fixed embeddings of layer strings, one "
                            "output per block index), structural (each layer's numbers, a logit per block: any "
                            "model, any block count) or state (structural plus each block's training state: tables "
                            "with decision features only)"));
    learner_ = new QComboBox(this);
    learner_->setObjectName(QStringLiteral("learnLearner"));
    for (const auto& name : core::agent::learner_preset_names())
        learner_->addItem(QString::fromStdString(name));
    learner_->setToolTip(tr("How rewards become updates: original (the paper's REINFORCE) or robust (reward "
                            "baseline and an entropy bonus; docs/agent.md)"));
    agent->addPair(label(tr("Encoder")), encoder_);
    agent->addPair(label(tr("Learner")), learner_);
    form->addRow(tr("Agent"), agent);
    encoderNote_ = new QLabel(this);
    encoderNote_->setObjectName(QStringLiteral("encoderNote"));
    encoderNote_->setWordWrap(true);
    encoderNote_->setSizePolicy(QSizePolicy::Expanding,
                                QSizePolicy::Preferred); // the row's width, not a column
    encoderNote_->setVisible(false);
    form->addRow(QString(), encoderNote_);
    connect(from_, &QLineEdit::textChanged, this, &LearningPage::updateEncoderNote);
    connect(encoder_, &QComboBox::activated, this, [this] {
        encoderChosen_ = true; // the user's choice stands, whatever table comes next
        encoderChosenForTable_ = false;
        updateEncoderNote();
    });

    greedy_ = new QLabel(tr("No learning run yet."), this);
    greedy_->setObjectName(QStringLiteral("greedyLabel"));
    greedy_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    greedy_->setWordWrap(true); // a long line would otherwise set the page's minimum width

    view_ = new widgets::LearningView(this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(greedy_);
    layout->addWidget(view_, 1);
    setModel(QStringLiteral("ConvNet2"), core::model::kCifar10Input, core::model::kCifar10Classes);
    showDescribed(false);
}

QString LearningPage::browse(widgets::FileKind kind, const QString& title, const QString& filter)
{
    return widgets::openFileName(this, kind, title, filter);
}

void LearningPage::setModel(const QString& model, const core::model::Shape& input, qint64 classes)
{
    model_->setText(model);
    QStringList dims;
    for (auto d : input)
        dims << QString::number(d);
    input_->setText(dims.join(QLatin1Char('x')));
    classes_ = classes;
}

void LearningPage::setInput(const QString& shape) { input_->setText(shape); }

void LearningPage::showDescribed(bool described)
{
    // A table with metadata names its own model (a zoo name, or a model file's name whose layers
    // the metadata keeps): the fields show it and are not for editing; without metadata they say
    // what to assume.
    for (QLineEdit* field : {model_, input_}) {
        field->setReadOnly(described);
        field->setToolTip(described ? tr("From the table's metadata (table.json)")
                                    : field == model_ ? tr("The table has no metadata: the model it was built from, a zoo "
                                                           "name or a TOML model file")
                                                      : tr("The table has no metadata: the sample shape of its job, CxHxW "
                                                           "(the paper's tables: CIFAR-10, %1)")
                                                            .arg(QString::fromStdString(core::model::shape_string(
                                                                core::model::kCifar10Input))));
    }
}

void LearningPage::setTable(const QString& path)
{
    table_->setText(path);
    showDescribed(false);
    if (path.isEmpty()) {
        identify_.cancel();
        return;
    }
    // A table says what it was built from; the fields then show that (a table without metadata
    // keeps what they held: the experiment's model and input).
    core::model::Shape input;
    try {
        input = core::model::parse_shape(input_->text().trimmed().toStdString());
    } catch (const std::exception&) {
        input = core::model::kCifar10Input;
    }
    struct Read {
        std::optional<TableIdentity> id;
        QStringList unreadable; // by the original encoder
        QString model;
        int layers = 0;
    };
    identify_.startJob(
        [path, model = model_->text(), input, classes = classes_]() -> Read {
            Read read;
            if (!QFileInfo::exists(path))
                return read;
            read.id = identifyTable(path, model, input, classes);
            try { // a table that does not open says so at Start; here it only costs the note
                core::sim::TableOverrides fallbacks{model.toStdString(), input, classes};
                fallbacks.only_without_metadata = true;
                const auto t = core::sim::open_table(path.toStdString(), fallbacks, true);
                const auto summary = core::model::summarize(t.model);
                std::vector<std::string> unknown;
                (void)core::agent::Vocabulary::for_original_encoder(t.model, t.actions)
                    .encode(summary.leaf_layers, &unknown);
                for (const auto& layer : unknown)
                    read.unreadable << QString::fromStdString(layer);
                read.model = QString::fromStdString(t.model.name);
                read.layers = static_cast<int>(summary.leaf_layers.size());
            } catch (const std::exception&) {
            }
            return read;
        },
        [this, path](const Read& read) {
            if (read.id && table() == path) {
                setModel(read.id->model, read.id->input, read.id->classes);
                showDescribed(read.id->described);
            }
            if (table() == path) {
                unreadable_ = read.unreadable;
                tableModel_ = read.model;
                tableLayers_ = read.layers;
                const int structural = encoder_->findText(
                    QString::fromStdString(core::config::to_string(core::config::PolicyEncoder::Structural)));
                const int original = encoder_->findText(
                    QString::fromStdString(core::config::to_string(core::config::PolicyEncoder::Original)));
                if (!encoderChosen_ && !unreadable_.isEmpty()) {
                    encoder_->setCurrentIndex(structural); // chosen by the table's layers
                    encoderChosenForTable_ = true;
                } else if (!encoderChosen_ && encoderChosenForTable_) {
                    encoder_->setCurrentIndex(original); // the paper's again, for a table it reads
                    encoderChosenForTable_ = false;
                }
                updateEncoderNote();
            }
            Q_EMIT tableIdentified(path);
        });
}
QString LearningPage::table() const { return table_->text().trimmed(); }

QString LearningPage::encoderNote() const
{
    return encoderNote_->text();
}

void LearningPage::updateEncoderNote()
{
    QString note;
    if (!unreadable_.isEmpty() && from_->text().trimmed().isEmpty()) { // a policy continued keeps its encoder
        const QString what = tr("the original encoder reads %1 of the %2 layers of %3 as <unk> (%4, …)")
                                 .arg(unreadable_.size())
                                 .arg(tableLayers_)
                                 .arg(tableModel_, unreadable_.front());
        const bool original =
            encoder_->currentText() ==
            QString::fromStdString(core::config::to_string(core::config::PolicyEncoder::Original));
        if (original)
            note = tr("Warning: %1: it cannot tell this model's blocks apart. Choose structural (any model's "
                      "layers) or state (that and the training state).")
                       .arg(what);
        else if (encoderChosenForTable_)
            note = tr("Encoder %1, chosen for this table: %2.").arg(encoder_->currentText(), what);
    }
    encoderNote_->setText(note);
    encoderNote_->setVisible(!note.isEmpty());
}
void LearningPage::setEpisodes(qint64 episodes) { episodes_->setValue(static_cast<int>(episodes)); }

QString LearningPage::problem() const
{
    if (table().isEmpty())
        return tr("Choose a simulation table to learn from.");
    if (!QFileInfo(QString::fromStdString(core::sim::table_file(table().toStdString()).string())).isFile())
        return tr("%1: no such table file or table folder").arg(table());
    const QString from = from_->text().trimmed();
    if (!from.isEmpty() && !QFileInfo(from).isFile())
        return tr("%1: no such policy file").arg(from);
    try {
        (void)core::model::parse_shape(input_->text().trimmed().toStdString());
    } catch (const std::exception& e) {
        return tr("Input: %1").arg(QString::fromStdString(core::error_line(e)));
    }
    return {};
}

core::run::LearnRunSettings LearningPage::settings() const
{
    core::run::LearnRunSettings s;
    s.stages = {{table().toStdString(), episodes_->value(), temperature_->value()}};
    // What the fields say is only assumed for a table without metadata: they show the
    // experiment's model until the table is read, and a model file's name after.
    s.model = model_->text().trimmed().toStdString();
    s.model_is_fallback = true;
    try {
        s.input = core::model::parse_shape(input_->text().trimmed().toStdString());
    } catch (const std::exception&) {
        // problem() reports it; the settings keep the default shape meanwhile.
    }
    s.classes = classes_;
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.from = from_->text().trimmed().toStdString();
    s.temperature_decay = decay_->value();
    s.temperature_every = decayEvery_->value();
    s.policy.encoder = core::config::from_string<core::config::PolicyEncoder>(encoder_->currentText().toStdString())
                           .value_or(core::config::PolicyEncoder::Original);
    s.learner = core::agent::learner_preset(learner_->currentText().toStdString())
                    .value_or(core::agent::LearnerOptions::original());
    if (baseline_->value() > 0.0)
        s.learner.baseline = baseline_->value();
    return s;
}

void LearningPage::setRunning(bool running)
{
    learn_->setEnabled(!running);
    for (QWidget* w :
         std::initializer_list<QWidget*>{table_, from_, model_, input_, episodes_, seed_, temperature_, decay_, decayEvery_,
                                      baseline_, encoder_, learner_})
        w->setEnabled(!running);
}

void LearningPage::addEpisodes(const std::vector<core::sim::EpisodeRecord>& batch) { view_->addEpisodes(batch); }

void LearningPage::showGreedy(qint64 episode, const core::sim::Evaluation& e)
{
    greedy_->setText(tr("Episode %L1: greedy sequence [%2], rank %3/%4, accuracy %5 (optimal [%6] %7, no adaptation "
                        "%8, random mean %9)")
                         .arg(episode)
                         .arg(QString::fromStdString(core::sim::sequence_string(e.greedy)))
                         .arg(e.rank)
                         .arg(e.sequences)
                         .arg(e.accuracy, 0, 'f', 4)
                         .arg(QString::fromStdString(core::sim::sequence_string(e.optimal_sequence)))
                         .arg(e.optimal, 0, 'f', 4)
                         .arg(e.no_adaptation, 0, 'f', 4)
                         .arg(e.random_mean, 0, 'f', 4));
}

void LearningPage::clear()
{
    view_->clear();
    greedy_->setText(tr("Learning…"));
}

} // namespace rlda::app
