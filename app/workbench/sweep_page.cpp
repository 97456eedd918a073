// The sweep runs in a detached `rlda simulate` (or `rlda sweep wait`), so that it outlives the
// window; the page only reads what is on disk and asks Slurm, and remembers the sweep in a marker
// file beside its folder (<folder>.sweep.json) to find it again. The reading is done by jobs
// (readSweep, findUnfinished) that return values; the GUI thread only shows them.
#include "app/workbench/sweep_page.h"

#include "app/workbench/rlda_process.h"
#include "core/config/experiment_io.h"
#include "core/sim/build.h"
#include "core/sim/table.h"
#include "core/sim/table_meta.h"
#include "core/sweep/local.h"
#include "core/sweep/slurm.h"
#include "widgets/counted.h"
#include "widgets/run/sweep_panel.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QVBoxLayout>

#include <algorithm>
#include <csignal>
#include <exception>
#include <filesystem>
#include <sys/types.h>

namespace rlda::app {
namespace {

QString markerOf(const QString& folder) { return folder + QStringLiteral(".sweep.json"); }

bool tableComplete(const QString& folder)
{
    const QString table = QDir(folder).filePath(QStringLiteral("table.csv"));
    if (!QFileInfo::exists(table))
        return false;
    try {
        // The table's metadata (table.json) says how many rows make it whole.
        const auto status = core::sim::table_status(table.toStdString());
        if (status.expected > 0)
            return status.complete() && core::sim::SimulationTable::load(table.toStdString(), status.meta->actions)
                                            .complete();
        return core::sim::SimulationTable::load(table.toStdString()).complete();
    } catch (const std::exception&) {
        return false; // being rewritten, or torn: not complete yet
    }
}

// The table's shape: from its metadata once the sweep wrote it, else from the settings.
core::sim::TableShape shapeOf(const QString& folder, const core::config::ExperimentConfig& config)
{
    const auto meta = core::sim::find_table_meta(std::filesystem::path(folder.toStdString()) / "table.csv");
    if (meta)
        return {meta->decisions, meta->actions, meta->rows, meta->seeds};
    return core::sim::table_shape(config);
}

// Detached processes may be left as zombies where nothing reaps them: only a live rlda counts.
bool followerAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const int close = text.lastIndexOf(')');
    return close > 0 && text.mid(1 + text.indexOf('('), close - text.indexOf('(') - 1) == "rlda" &&
           close + 2 < text.size() && text.at(close + 2) != 'Z';
}

} // namespace

// What one poll read: everything the panel shows, as values.
struct SweepPage::Reading {
    bool alive = false;
    bool warmStart = false;
    core::sweep::SweepStatus status;
    QString error;
    std::optional<core::sim::TableShape> shape; // the one used, kept for the next poll
};

// A sweep under the runs root to follow again, read from its marker and its settings.
struct SweepPage::Found {
    QString folder;
    core::config::SweepBackend backend = core::config::SweepBackend::Local;
    int parts = 0;
    qint64 pid = 0;
    core::config::ExperimentConfig config;
    bool slurmRecorded = false; // its sweep.json: the jobs were submitted
};

namespace {

// On the job pool: the files, and for Slurm squeue/sacct under the sweep's lock (which may
// resubmit and collect). Never throws: the error is part of the reading.
SweepPage::Reading readSweep(const QString& folder, core::config::SweepBackend backend, int parts,
                             const core::config::ExperimentConfig& config,
                             std::optional<core::sim::TableShape> shape, qint64 pid)
{
    SweepPage::Reading r;
    r.alive = followerAlive(pid);
    r.shape = std::move(shape);
    try {
        const auto dir = std::filesystem::path(folder.toStdString());
        const bool slurm = backend == core::config::SweepBackend::Slurm && std::filesystem::exists(dir / "sweep.json");
        // A replicated table trains a warm start per seed, each in its seed's folder.
        r.warmStart = std::filesystem::exists(dir / "warm_start.pt") ||
                      std::any_of(config.sweep.seeds.begin(), config.sweep.seeds.end(), [&](std::int64_t s) {
                          return std::filesystem::exists(core::sim::seed_folder(dir, static_cast<std::uint64_t>(s)) /
                                                         "warm_start.pt");
                      });
        if (!r.warmStart) {
        } else if (slurm) {
            // poll() takes the sweep's lock: safe beside the rlda process that follows it.
            r.status = core::sweep::SlurmSweep::attach(dir).poll();
        } else {
            if (!r.shape)
                r.shape = shapeOf(folder, config);
            r.status = core::sweep::status(dir, *r.shape, parts);
            if (r.alive)
                for (auto& t : r.status.tasks)
                    if (t.state == core::sweep::TaskState::Pending)
                        t.state = core::sweep::TaskState::Running; // every part has its own process
        }
    } catch (const std::exception& e) {
        r.error = QString::fromUtf8(e.what());
    }
    r.status.collected = r.status.collected || tableComplete(folder);
    return r;
}

std::optional<SweepPage::Found> readMarker(const QString& marker)
{
    QFile file(marker);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    SweepPage::Found f;
    f.folder = o.value(QStringLiteral("folder")).toString();
    const auto backend = core::config::from_string<core::config::SweepBackend>(
        o.value(QStringLiteral("backend")).toString().toStdString());
    if (!backend)
        return std::nullopt;
    f.backend = *backend;
    f.parts = o.value(QStringLiteral("parts")).toInt();
    f.pid = o.value(QStringLiteral("pid")).toInteger();
    if (f.folder.isEmpty() || f.parts < 1)
        return std::nullopt;
    try {
        f.config = core::config::load_experiment((f.folder + QStringLiteral(".toml")).toStdString());
    } catch (const std::exception&) {
        return std::nullopt;
    }
    f.slurmRecorded = QFileInfo::exists(QDir(f.folder).filePath(QStringLiteral("sweep.json")));
    return f;
}

// On the job pool: the newest marker under `root` whose table is not collected and that reads.
std::optional<SweepPage::Found> findUnfinished(const QString& root)
{
    const auto markers = QDir(root).entryInfoList({QStringLiteral("*.sweep.json")}, QDir::Files, QDir::Time);
    for (const auto& marker : markers) {
        const QString folder = marker.absoluteFilePath().chopped(int(QStringLiteral(".sweep.json").size()));
        if (tableComplete(folder))
            continue;
        if (auto found = readMarker(marker.absoluteFilePath()))
            return found;
    }
    return std::nullopt;
}

} // namespace

SweepPage::SweepPage(QWidget* parent) : QWidget(parent)
{
    panel_ = new widgets::SweepPanel(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(panel_);
    timer_.setInterval(1000);
    connect(&timer_, &QTimer::timeout, this, &SweepPage::poll);
    connect(panel_, &widgets::SweepPanel::cancelRequested, this, &SweepPage::cancel);
    panel_->setMessage(tr("Builds the experiment's simulation table: every sequence of %1 decisions, from one warm "
                          "start. See docs/slurm.md for clusters.")
                           .arg(QStringLiteral("trainer.max_decisions")));
}

bool SweepPage::followerAlive() const { return rlda::app::followerAlive(pid_); }

bool SweepPage::startFollower(const QStringList& args)
{
    QProcess process;
    process.setProgram(RldaProcess::program());
    process.setArguments(args);
    process.setStandardOutputFile(folder_ + QStringLiteral(".log"), QIODevice::Append);
    process.setStandardErrorFile(folder_ + QStringLiteral(".log"), QIODevice::Append);
    process.setStandardInputFile(QProcess::nullDevice());
    if (!process.startDetached(&pid_)) {
        panel_->setMessage(tr("%1: cannot start: %2").arg(RldaProcess::program(), process.errorString()));
        return false;
    }
    writeMarker();
    return true;
}

void SweepPage::writeMarker() const
{
    QSaveFile file(markerOf(folder_));
    if (!file.open(QIODevice::WriteOnly))
        return;
    const QJsonObject o{{QStringLiteral("folder"), folder_},
                        {QStringLiteral("backend"), QString::fromStdString(core::config::to_string(backend_))},
                        {QStringLiteral("parts"), parts_},
                        {QStringLiteral("pid"), pid_}};
    file.write(QJsonDocument(o).toJson());
    file.commit();
}

bool SweepPage::submit(core::config::ExperimentConfig config, core::config::SweepBackend backend, int parts)
{
    // Seeds on the panel: replicates from job.seed (1 keeps the experiment's own sweep.seeds).
    if (const int r = panel_->replicates(); r > 1)
        config.sweep.seeds = core::config::consecutive_seeds(static_cast<std::int64_t>(config.job.seed), r);
    if (isActive()) {
        panel_->setMessage(tr("A sweep is in progress: cancel it first."));
        return false;
    }
    const QString stem = QStringLiteral("%1-table-%2").arg(QString::fromStdString(config.name),
                                                           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString folder = QDir(runsRoot_).filePath(stem);
    // The folder and the three files beside it are new: nothing of anyone's is written over.
    const auto taken = [](const QString& f) {
        return QFileInfo::exists(f) || QFileInfo::exists(markerOf(f)) || QFileInfo::exists(f + QStringLiteral(".toml")) ||
               QFileInfo::exists(f + QStringLiteral(".log"));
    };
    for (int i = 2; taken(folder); ++i)
        folder = QDir(runsRoot_).filePath(QStringLiteral("%1-%2").arg(stem).arg(i));
    if (!QDir().mkpath(runsRoot_)) {
        panel_->setMessage(tr("%1: cannot create the folder").arg(runsRoot_));
        return false;
    }
    // The settings the sweep runs with, beside its folder (rlda writes its own copy inside).
    const QString configFile = folder + QStringLiteral(".toml");
    {
        QSaveFile file(configFile);
        if (!file.open(QIODevice::WriteOnly)) {
            panel_->setMessage(tr("%1: cannot write").arg(configFile));
            return false;
        }
        file.write(QByteArray::fromStdString(core::config::to_toml_at(config, configFile.toStdString())));
        file.commit();
    }
    jobs_.cancel(); // a search for a sweep to re-attach to, or a poll of the last one, is not wanted now
    folder_ = folder;
    backend_ = backend;
    parts_ = parts;
    config_ = config;
    shape_.reset();
    collected_ = false;
    if (!startFollower({QStringLiteral("simulate"), configFile, QStringLiteral("--out"), folder,
                        QStringLiteral("--backend"), QString::fromStdString(core::config::to_string(backend)),
                        QStringLiteral("--workers"), QString::number(parts)}))
        return false;
    panel_->setSweep(folder_, backend_);
    QStringList seeds;
    for (const auto s : config.sweep.seeds)
        seeds << QString::number(s);
    const QString partCount = widgets::counted(parts, tr("part"), tr("parts"));
    panel_->setMessage(seeds.size() > 1 ? tr("Started: %1 seeds (%2), each a warm start and then %3 (log: %4.log)")
                                       .arg(seeds.size())
                                       .arg(seeds.join(QLatin1Char(' ')))
                                       .arg(partCount)
                                       .arg(folder_)
                                 : tr("Started: training the warm start, then %1 (log: %2.log)").arg(partCount).arg(folder_));
    panel_->setActive(true);
    Q_EMIT statusMessage(tr("Sweep started in %1").arg(folder_));
    timer_.start();
    return true;
}

void SweepPage::follow(const Found& found)
{
    folder_ = found.folder;
    backend_ = found.backend;
    parts_ = found.parts;
    pid_ = found.pid;
    config_ = found.config;
    shape_.reset();
    collected_ = false;
    panel_->setSweep(folder_, backend_);
    panel_->setBackend(backend_);
    panel_->setWorkers(parts_);
    panel_->setReplicates(static_cast<int>(config_.sweep.seeds.size()));
}

void SweepPage::reattach()
{
    jobs_.startJob([root = runsRoot_] { return findUnfinished(root); },
                   [this](std::optional<Found> found) {
                       if (!found) {
                           Q_EMIT reattached(false);
                           return;
                       }
                       follow(*found);
                       if (!followerAlive() && backend_ == core::config::SweepBackend::Slurm && found->slurmRecorded)
                           startFollower({QStringLiteral("sweep"), QStringLiteral("wait"), folder_,
                                          QStringLiteral("--quiet")});
                       panel_->setMessage(followerAlive()
                                              ? tr("Re-attached to the sweep in %1").arg(folder_)
                                              : tr("The sweep in %1 stopped before it finished; simulate again to "
                                                   "resume it (finished rows are kept)")
                                                    .arg(folder_));
                       panel_->setActive(followerAlive());
                       poll();
                       timer_.start();
                       Q_EMIT reattached(true);
                   });
}

bool SweepPage::isActive() const { return followerAlive(); }

void SweepPage::poll()
{
    if (folder_.isEmpty() || jobs_.isRunning())
        return; // nothing to follow, or the last poll has not answered yet: this tick is skipped
    jobs_.startJob([folder = folder_, backend = backend_, parts = parts_, config = config_, shape = shape_,
                    pid = pid_] { return readSweep(folder, backend, parts, config, shape, pid); },
                   [this](Reading reading) { showReading(reading); });
}

void SweepPage::showReading(const Reading& r)
{
    if (r.shape)
        shape_ = r.shape;
    const bool alive = r.alive;
    const auto& status = r.status;
    if (!r.warmStart)
        panel_->setMessage(alive ? tr("Training the warm start…") : tr("Stopped before the warm start."));
    if (!r.error.isEmpty())
        panel_->setMessage(r.error);
    if (!status.tasks.empty() || status.collected)
        panel_->setStatus(status);
    if (!status.tasks.empty() && !status.collected)
        panel_->setMessage(alive ? tr("Training %1 rows in %2 parts (log: %3.log)")
                                       .arg(status.rows_total)
                                       .arg(status.tasks.size())
                                       .arg(folder_)
                           : status.cancelled ? tr("Cancelled: the whole rows are kept in %1/parts").arg(folder_)
                                              : tr("Not running: simulate again to resume (finished rows are kept)"));
    panel_->setActive(alive);
    if (status.collected && !collected_) {
        collected_ = true;
        panel_->setMessage(tr("Done: %1/table.csv").arg(folder_));
        Q_EMIT finished(folder_);
    }
    if (!alive && (collected_ || status.cancelled))
        timer_.stop();
    Q_EMIT polled();
}

void SweepPage::cancel()
{
    if (folder_.isEmpty())
        return;
    if (backend_ == core::config::SweepBackend::Slurm && QFileInfo::exists(QDir(folder_).filePath(QStringLiteral("sweep.json")))) {
        // scancel and wait for the queue to empty, off the GUI thread; the follower only detaches.
        QProcess process;
        process.setProgram(RldaProcess::program());
        process.setArguments({QStringLiteral("sweep"), QStringLiteral("cancel"), folder_});
        if (!process.startDetached()) { // the jobs stay queued and followed: nothing else is stopped
            panel_->setMessage(
                tr("Not cancelled: %1: cannot start: %2").arg(RldaProcess::program(), process.errorString()));
            return;
        }
    }
    if (followerAlive())
        ::kill(static_cast<pid_t>(pid_), SIGTERM); // local: stops its workers, keeps whole rows
    panel_->setMessage(tr("Cancelling the sweep in %1…").arg(folder_));
    Q_EMIT statusMessage(tr("Sweep cancelled: %1").arg(folder_));
}

} // namespace rlda::app
