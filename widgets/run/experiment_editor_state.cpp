// The experiment editor's state: the config it shows, its files, what an edit changes, and the
// problems and enabled fields that follow from the config (the form itself: experiment_editor.cpp).
#include "widgets/run/experiment_editor.h"

#include "core/config/experiment_io.h"
#include "core/config/operations.h"
#include "core/model/zoo.h"
#include "core/util/atomic_file.h"
#include "core/util/error_text.h"
#include "widgets/run/allocation_timeline.h"
#include "widgets/run/editor_text.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStyle>
#include <QTabWidget>

#include <filesystem>
#include <optional>

namespace rlda::widgets {

using namespace editor_text;

// ---- state ----

void ExperimentEditor::setConfig(const ExperimentConfig& c)
{
    config_ = c;
    local_.clear();
    zooHead_.reset();
    for (const auto& f : fields_)
        showField(f);
    timeline_->update();
    revalidate();
    Q_EMIT changed();
}

bool ExperimentEditor::loadFile(const QString& path, QString* error)
{
    try {
        const ExperimentConfig c = core::config::load_experiment(path.toStdString(), schema_);
        fileName_ = path;
        setConfig(c);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(core::error_line(e));
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
        const std::filesystem::path file = path.toStdString();
        core::write_text_atomically(file, core::config::to_toml_at(config_, file, schema_));
        fileName_ = path;
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(core::error_line(e));
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
    if (key == QLatin1String("job.model"))
        followModelKind();
    revalidate();
    Q_EMIT changed();
}

// A model file writes its own last block, so the zoo's output heads do not apply to it: choosing
// one sets the head to "relu" (the file as written), which greys the head out; going back to a zoo
// model brings back the head it had.
void ExperimentEditor::followModelKind()
{
    const bool file = core::model::is_model_file(config_.job.model);
    if (file && config_.job.head != core::model::OutputHead::Relu) {
        zooHead_ = config_.job.head;
        config_.job.head = core::model::OutputHead::Relu;
    } else if (!file && zooHead_) {
        config_.job.head = *zooHead_;
        zooHead_.reset();
    } else {
        return;
    }
    if (const Field* f = fieldFor(QStringLiteral("job.head")))
        showField(*f);
}

void ExperimentEditor::showField(const Field& f)
{
    // config_ -> widget, not an edit: no signal, and edited() ignores what it would see.
    const QSignalBlocker block(f.widget);
    showing_ = true;
    f.show();
    showing_ = false;
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
    return modelCheck().blocks;
}

QString ExperimentEditor::modelFileProblem() const
{
    return modelCheck().problem;
}

const ExperimentEditor::ModelCheck& ExperimentEditor::modelCheck() const
{
    const QString model = qs(config_.job.model) + QLatin1Char('|') + qs(config_.source);
    if (!models_.contains(model)) {
        // The block count does not depend on the input, but a model file may accept only some
        // inputs: try the likely ones.
        std::filesystem::path p(config_.job.model);
        if (!core::model::is_zoo_name(config_.job.model) && p.is_relative() && !config_.source.empty())
            p = std::filesystem::path(config_.source).parent_path() / p;
        ModelCheck check;
        bool first = true;
        for (const core::model::Shape& shape : {config_.dataset.shape, core::model::kCifar10Input,
                                                core::model::Shape{1, 28, 28}}) {
            try {
                check.blocks = core::model::original_block_count(core::model::load_model(p.string(), shape));
                break;
            } catch (const std::exception& e) {
                // Not this input, or not loadable: no range to check against. At the experiment's
                // own input, a model file that does not load is the experiment's problem.
                if (first && core::model::is_model_file(config_.job.model))
                    check.problem = QString::fromStdString(core::error_line(e));
            }
            first = false;
        }
        models_.insert(model, check);
    }
    return models_[model];
}

void ExperimentEditor::revalidate()
{
    problems_.clear();
    for (auto it = local_.cbegin(); it != local_.cend(); ++it)
        problems_.push_back({it.key().toStdString(), it.value().toStdString(), {}});
    for (const auto& p : core::config::find_problems(config_, schema_))
        if (!local_.contains(baseKey(qs(p.key)))) // the text shown is not the value checked
            problems_.push_back(p);
    if (const QString model = modelFileProblem();
        !model.isEmpty() && !local_.contains(QStringLiteral("job.model")))
        problems_.push_back({"job.model", model.toStdString(), {}});

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
    for (const auto& e : config_.scheduler.events) {
        events << tr("%1 at %2 s").arg(qs(core::config::to_string(e.change)), shortest(e.time));
    }
    const int blocks = blockCount();
    std::optional<core::model::ActionSpace> space;
    try {
        if (blocks > 0)
            space = core::config::trainer_actions(config_.trainer, blocks);
    } catch (const std::exception&) {
        // the operations' own field shows the problem
    }
    if (!space) {
        sequenceHint_->clear();
    } else if (space->deepen_only()) {
        sequenceHint_->setText(tr("%1: 0..%2 deepen an original block, %3 = Do Nothing")
                                   .arg(qs(config_.job.model))
                                   .arg(blocks - 1)
                                   .arg(blocks));
    } else {
        QStringList parts;
        for (int a = 0; a < space->size(); ++a)
            parts << QStringLiteral("%1 = %2").arg(a).arg(qs(space->label(a)));
        sequenceHint_->setText(tr("%1: %2").arg(qs(config_.job.model), parts.join(QStringLiteral(", "))));
    }
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
    const bool synthetic = config_.dataset.kind == core::config::DatasetKind::Synthetic;
    for (const char* k : {"dataset.shape", "dataset.classes", "dataset.train_size", "dataset.test_size", "dataset.noise"})
        enable(k, synthetic);
    for (const char* k : {"dataset.path", "dataset.train_subset", "dataset.test_subset", "dataset.random_subset"})
        enable(k, !synthetic);
    enable("job.momentum", config_.job.optimizer == core::config::Optimizer::Sgd);
    // A model file writes its own head; "logits" stays editable there, to undo it.
    enable("job.head", !core::model::is_model_file(config_.job.model) ||
                           config_.job.head != core::model::OutputHead::Relu);
    const bool virtualClock = config_.scheduler.clock == core::config::ClockKind::Virtual;
    enable("scheduler.step_cost", virtualClock);
    enable("scheduler.eval_cost", virtualClock);
    const AgentKind kind = config_.agent.kind;
    enable("agent.sequence", kind == AgentKind::Fixed);
    enable("agent.policy", kind == AgentKind::Policy);
    enable("agent.temperature", kind == AgentKind::Policy);
    enable("agent.greedy", kind == AgentKind::Policy);
    enable("agent.seed", kind == AgentKind::Random || kind == AgentKind::Policy);
    enable("agent.threshold", kind == AgentKind::GrowWhileImproving);
}

} // namespace rlda::widgets
