// The sweep panel: a submit row, a summary with a progress bar, one table row per task.
#include "widgets/run/sweep_panel.h"

#include "core/config/schema.h"
#include "core/config/value_limits.h"
#include "widgets/flow_layout.h"
#include "widgets/run/duration_text.h"
#include "widgets/run/seed_list.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextDocument>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace rlda::widgets {
namespace {

QColor stateColor(core::sweep::TaskState s)
{
    switch (s) {
    case core::sweep::TaskState::Pending: return {0x7f, 0x8c, 0x8d};
    case core::sweep::TaskState::Running: return {0x29, 0x80, 0xb9};
    case core::sweep::TaskState::Done: return {0x27, 0xae, 0x60};
    case core::sweep::TaskState::Failed: return {0xc0, 0x39, 0x2b};
    }
    return {};
}

// A setting's choices as the schema declares them, after "the experiment's" (no override).
QComboBox* choiceOf(const char* key, const QString& objectName, QWidget* parent)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItem(SweepPanel::tr("the experiment's"), QString());
    if (const auto* k = core::config::experiment_schema().find(key))
        for (const auto& name : k->choices)
            box->addItem(QString::fromStdString(name), QString::fromStdString(name));
    return box;
}

// Selects the item whose data is `data`; "the experiment's" (the first) when none is.
void selectData(QComboBox* box, const QString& data)
{
    box->setCurrentIndex(std::max(0, box->findData(data)));
}

} // namespace

SweepPanel::SweepPanel(QWidget* parent) : QWidget(parent)
{
    auto* submitRow = new FlowLayout; // wraps on a narrow window
    backend_ = new QComboBox(this);
    using core::config::SweepBackend;
    backend_->addItem(tr("local: worker processes on this machine"), int(SweepBackend::Local));
    backend_->addItem(tr("slurm: a job array on the cluster"), int(SweepBackend::Slurm));
    workers_ = new QSpinBox(this);
    workers_->setRange(1, 4096);
    workers_->setValue(std::max(1, QThread::idealThreadCount()));
    workers_->setToolTip(tr("Parts of the table: worker processes (local) or array tasks (slurm)"));
    seeds_ = new QSpinBox(this);
    seeds_->setObjectName(QStringLiteral("sweepSeeds"));
    seeds_->setRange(1, core::config::kMaxReplicates);
    seeds_->setValue(1);
    seeds_->setToolTip(tr("Replicates: build the table at this many seeds (job.seed, job.seed + 1, ...) to learn how "
                          "noisy it is: each sequence's mean, its spread, and how far the ranking can be trusted. "
                          "Each seed costs one table; 1 = the experiment's own seeds (sweep.seeds)"));
    seedValues_ = new QLineEdit(this);
    seedValues_->setObjectName(QStringLiteral("sweepSeedValues"));
    seedValues_->setPlaceholderText(tr("or seeds: 42 43 44"));
    seedValues_->setToolTip(
        tr("The seeds to build the table at, by value (sweep.seeds), in place of the count "
           "beside: a table built at 42 43 44 and one at 45 46 47 are replicates of each other"));
    seedValues_->setMaximumWidth(
        seedValues_->fontMetrics().horizontalAdvance(QStringLiteral("or seeds: 42 43 44 45")) + 16);
    connect(seedValues_, &QLineEdit::textChanged, this, [this] {
        seeds_->setEnabled(!active_ && seedValues_->text().trimmed().isEmpty()); // the values' count
    });
    device_ = choiceOf("job.device", QStringLiteral("sweepDevice"), this);
    device_->setToolTip(tr("Where the rows train (job.device): a sweep on a GPU server or a cluster with GPUs "
                           "trains its rows there; a GPU that is not there is refused before anything runs"));
    fused_ = choiceOf("sweep.fused", QStringLiteral("sweepFused"), this);
    fused_->setToolTip(tr("Replicates (Seeds above 1): train a sequence's seeds as one fused model, one optimizer "
                          "step for all (sweep.fused). auto: fused on a GPU, which one small model leaves mostly "
                          "idle; separate on the CPU, where a fused convolution is slower. Each seed's rows match "
                          "its separate build to a few test samples, so a table folder keeps the choice"));
    race_ = new QCheckBox(tr("Race"), this);
    race_->setObjectName(QStringLiteral("sweepRace"));
    race_->setToolTip(
        tr("Race (sweep.race): build every sequence at the seeds (3 from job.seed when Seeds is 1), "
           "then give each new seed only to the sequences still in the 95 % confidence set for the "
           "best, until it has one member or sweep.race_max_seeds is reached. Its first round runs "
           "on the local workers, the rounds after it in one process (docs/tables.md, Racing)"));
    submit_ = new QPushButton(tr("Simulate the experiment"), this);
    submit_->setObjectName(QStringLiteral("submitSweep"));
    submit_->setToolTip(tr("Build the experiment's simulation table: every action sequence, from one warm start"));
    open_ = new QPushButton(tr("Open in Tables"), this);
    open_->setObjectName(QStringLiteral("openSweepTable"));
    open_->setToolTip(tr("Show the finished table on the Tables page (and learn from it on the Learning page)"));
    open_->setEnabled(false);
    cancel_ = new QPushButton(tr("Cancel sweep"), this);
    cancel_->setObjectName(QStringLiteral("cancelSweep"));
    cancel_->setEnabled(false);
    submitRow->addPair(new QLabel(tr("Backend"), this), backend_);
    submitRow->addPair(new QLabel(tr("Parts"), this), workers_);
    submitRow->addPair(new QLabel(tr("Seeds"), this), seeds_);
    submitRow->addWidget(seedValues_);
    submitRow->addPair(new QLabel(tr("Device"), this), device_);
    submitRow->addPair(new QLabel(tr("Fuse seeds"), this), fused_);
    submitRow->addWidget(race_);
    submitRow->addWidget(submit_);
    submitRow->addWidget(open_);
    submitRow->addWidget(cancel_);

    folder_ = new QLabel(tr("No sweep yet."), this);
    folder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    folder_->setWordWrap(true); // a long folder path wraps rather than widening the page
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 1);
    bar_->setValue(0);
    bar_->setFormat(tr("no sweep yet"));
    stages_ = new QLabel(this);
    stages_->setObjectName(QStringLiteral("sweepStages"));
    stages_->setTextFormat(Qt::RichText);
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("sweepMessage"));
    message_->setWordWrap(true);
    tasks_ = new QTableWidget(0, ColumnCount, this);
    tasks_->setHorizontalHeaderLabels({tr("Part"), tr("State"), tr("Rows"), tr("Attempts"), tr("Process / job"),
                                       tr("Detail")});
    tasks_->horizontalHeader()->setStretchLastSection(true);
    tasks_->verticalHeader()->hide();
    tasks_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tasks_->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(submitRow);
    layout->addWidget(folder_);
    layout->addWidget(summary_);
    layout->addWidget(stages_);
    layout->addWidget(bar_);
    layout->addWidget(message_);
    layout->addWidget(tasks_, 1);

    connect(submit_, &QPushButton::clicked, this, [this] { Q_EMIT submitRequested(backend(), workers()); });
    connect(cancel_, &QPushButton::clicked, this, &SweepPanel::cancelRequested);
    connect(open_, &QPushButton::clicked, this, &SweepPanel::openTableRequested);
}

core::config::SweepBackend SweepPanel::backend() const
{
    return core::config::SweepBackend(backend_->currentData().toInt());
}

void SweepPanel::setBackend(core::config::SweepBackend backend)
{
    const int i = backend_->findData(int(backend));
    if (i >= 0)
        backend_->setCurrentIndex(i);
}

int SweepPanel::workers() const { return workers_->value(); }
void SweepPanel::setWorkers(int workers) { workers_->setValue(workers); }
int SweepPanel::replicates() const { return seeds_->value(); }
void SweepPanel::setReplicates(int replicates) { seeds_->setValue(std::max(1, replicates)); }
QString SweepPanel::device() const { return device_->currentData().toString(); }

std::vector<std::int64_t> SweepPanel::seedValues(QString* problem) const
{
    const auto seeds = parseSeeds(seedValues_->text(), problem);
    if (seeds.size() > static_cast<std::size_t>(core::config::kMaxReplicates)) {
        if (problem)
            *problem = tr("Seeds: %1 given, at most %2").arg(seeds.size()).arg(core::config::kMaxReplicates);
        return {};
    }
    return {seeds.begin(), seeds.end()}; // sweep.seeds holds them signed; each is below 2^63
}

QString SweepPanel::seedValuesText() const
{
    return seedValues_->text().simplified();
}
void SweepPanel::setSeedValuesText(const QString& text)
{
    seedValues_->setText(text);
}

void SweepPanel::setStages(bool warmStartDone, const core::sweep::SweepStatus& status, bool alive)
{
    enum class Stage { Done, Current, Later };
    const auto shown = [](Stage s, const QString& name) {
        switch (s) {
        case Stage::Done:
            return QStringLiteral("✓ %1").arg(name.toHtmlEscaped());
        case Stage::Current:
            return QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
        case Stage::Later:
            break;
        }
        return name.toHtmlEscaped();
    };
    const bool rowsDone = status.rows_total > 0 && status.rows_done >= status.rows_total;
    const Stage warm = warmStartDone ? Stage::Done : Stage::Current;
    const Stage rows = !warmStartDone ? Stage::Later : rowsDone ? Stage::Done : Stage::Current;
    const Stage table = status.collected ? Stage::Done : rowsDone ? Stage::Current : Stage::Later;
    const QString rowsName =
        status.rows_total > 0 ? tr("rows %1/%2").arg(status.rows_done).arg(status.rows_total) : tr("rows");
    const QString warmName = !warmStartDone && alive ? tr("warm start (training)") : tr("warm start");
    stages_->setText(
        tr("Stages: %1 › %2 › %3")
            .arg(shown(warm, warmName), shown(rows, rowsName), shown(table, tr("table collected"))));
}

QString SweepPanel::stagesText() const
{
    QTextDocument doc;
    doc.setHtml(stages_->text());
    return doc.toPlainText();
}

void SweepPanel::setDevice(const QString& device)
{
    selectData(device_, device);
}

QString SweepPanel::fused() const { return fused_->currentData().toString(); }

void SweepPanel::setFused(const QString& fused)
{
    selectData(fused_, fused);
}

bool SweepPanel::race() const
{
    return race_->isChecked();
}
void SweepPanel::setRace(bool race)
{
    race_->setChecked(race);
}

void SweepPanel::setSweep(const QString& folder, core::config::SweepBackend backend)
{
    open_->setEnabled(false); // until its table is collected
    firstRows_ = -1;          // its ETA counts from its first status
    folder_->setText(tr("Sweep in %1 (%2)").arg(folder, QString::fromStdString(core::config::to_string(backend))));
}

void SweepPanel::setStatus(const core::sweep::SweepStatus& s)
{
    using core::sweep::TaskState;
    bar_->setFormat(tr("%v / %m rows"));
    bar_->setRange(0, std::max(1, s.rows_total));
    bar_->setValue(s.rows_done);
    open_->setEnabled(s.collected);
    // The ETA of the rows still to train, at the time a row took since this panel followed the
    // sweep (issue 43, item 22): as `rlda simulate` prints it.
    if (firstRows_ < 0) {
        firstRows_ = s.rows_done;
        followed_.start();
    }
    const int trained = s.rows_done - firstRows_;
    QString eta;
    if (trained > 0 && s.rows_done < s.rows_total && !s.collected && !s.cancelled)
        eta = tr(" · ETA %1")
                  .arg(durationText(static_cast<double>(followed_.elapsed()) / 1000.0 / trained *
                                    (s.rows_total - s.rows_done)));
    summary_->setText(
        tr("%1 of %2 rows%8 · tasks: %3 pending, %4 running, %5 done, %6 failed%7%9")
            .arg(s.rows_done)
            .arg(s.rows_total)
            .arg(s.count(TaskState::Pending))
            .arg(s.count(TaskState::Running))
            .arg(s.count(TaskState::Done))
            .arg(s.count(TaskState::Failed))
            .arg(s.collected   ? tr(" · table.csv collected")
                 : s.cancelled ? tr(" · cancelled")
                               : QString())
            .arg(s.seeds > 1 ? tr(" (%1 seeds of %2)").arg(s.seeds).arg(s.rows_total / s.seeds) : QString())
            .arg(eta));
    tasks_->setRowCount(static_cast<int>(s.tasks.size()));
    for (int r = 0; r < static_cast<int>(s.tasks.size()); ++r) {
        const auto& t = s.tasks[static_cast<std::size_t>(r)];
        const QStringList cells{QString::number(t.part),
                                QString::fromLatin1(core::sweep::to_string(t.state)),
                                QStringLiteral("%1 / %2").arg(t.rows_done).arg(t.rows_total),
                                t.attempts > 0 ? QString::number(t.attempts) : QStringLiteral("—"),
                                t.id.empty() ? QStringLiteral("—") : QString::fromStdString(t.id),
                                QString::fromStdString(t.detail)};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = tasks_->item(r, c);
            if (!item) {
                item = new QTableWidgetItem;
                tasks_->setItem(r, c, item);
            }
            item->setText(cells[c]);
        }
        auto* state = tasks_->item(r, StateColumn);
        state->setData(StateRole, static_cast<int>(t.state));
        state->setForeground(stateColor(t.state));
    }
    tasks_->resizeColumnsToContents();
}

void SweepPanel::setActive(bool active)
{
    active_ = active;
    cancel_->setEnabled(active);
    submit_->setEnabled(!active);
    backend_->setEnabled(!active);
    workers_->setEnabled(!active);
    seeds_->setEnabled(!active && seedValues_->text().trimmed().isEmpty());
    seedValues_->setEnabled(!active);
    race_->setEnabled(!active);
}

void SweepPanel::setMessage(const QString& text) { message_->setText(text); }
QString SweepPanel::summaryText() const { return summary_->text(); }

} // namespace rlda::widgets
