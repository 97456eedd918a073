// The sweep runs in a detached `rlda simulate` (or `rlda sweep wait`), so that it outlives the
// window; the page remembers it in a marker beside its folder to find it again. Everything about
// the sweep itself (the marker, the follower's liveness, what the files and squeue say) is
// core/sweep/detached.h, run by jobs off the GUI thread; the page starts the follower and shows.
#include "app/workbench/sweep_page.h"

#include "app/workbench/engine.h"
#include "app/workbench/rlda_process.h"
#include "core/config/experiment_io.h"
#include "core/config/names.h"
#include "core/sweep/process.h"
#include "core/util/error_text.h"
#include "widgets/counted.h"
#include "widgets/run/sweep_panel.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>
#include <QVBoxLayout>

#include <exception>

namespace rlda::app {
namespace {

std::filesystem::path pathOf(const QString& folder) { return {folder.toStdString()}; }

QString text(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

} // namespace

bool sweepPollInFlight(const SweepPage& page) { return page.jobs_.isRunning(); }

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

bool SweepPage::startFollower(const QStringList& args)
{
    const QString log = text(core::sweep::follower_log(sweep_.folder));
    QProcess process;
    process.setProgram(RldaProcess::program());
    process.setArguments(args);
    process.setStandardOutputFile(log, QIODevice::Append);
    process.setStandardErrorFile(log, QIODevice::Append);
    process.setStandardInputFile(QProcess::nullDevice());
    qint64 pid = 0;
    if (!process.startDetached(&pid)) {
        panel_->setMessage(tr("%1: cannot start: %2").arg(RldaProcess::program(), process.errorString()));
        return false;
    }
    sweep_.pid = pid;
    try {
        core::sweep::write_marker(sweep_); // a few bytes, at the user's request
    } catch (const std::exception& e) {
        // The sweep runs, but a new window will not find it.
        panel_->setMessage(QString::fromStdString(core::error_line(e)));
    }
    return true;
}

bool SweepPage::submit(core::config::ExperimentConfig config, core::config::SweepBackend backend, int parts)
{
    // Seeds on the panel: replicates from job.seed (1 keeps the experiment's own sweep.seeds); a
    // race's first seeds. A job.seed too near the largest seed for them is said on the panel.
    QString seedProblem;
    const auto values = panel_->seedValues(&seedProblem);
    if (!seedProblem.isEmpty()) {
        panel_->setMessage(seedProblem);
        return false;
    }
    const int replicates = panel_->replicates();
    const int first = panel_->race() && replicates < 2 && config.sweep.seeds.size() < 2 ? 3 : replicates;
    if (!values.empty()) {
        if (panel_->race() && values.size() < 2) {
            panel_->setMessage(tr("A race starts from two seeds or more: give at least two seed values."));
            return false;
        }
        config.sweep.seeds = values; // the seeds by value, in the order given
    } else if (first > 1) {
        try {
            config.sweep.seeds =
                core::config::consecutive_seeds(static_cast<std::int64_t>(config.job.seed), first);
        } catch (const std::exception& e) {
            panel_->setMessage(QString::fromStdString(core::error_line(e)));
            return false;
        }
    }
    if (const QString device = panel_->device(); !device.isEmpty())
        config.job.device = device.toStdString();
    if (const auto fused = core::config::from_string<core::config::FusedReplicates>(panel_->fused().toStdString()))
        config.sweep.fused = *fused;
    if (panel_->race()) {
        if (backend != core::config::SweepBackend::Local) {
            panel_->setMessage(tr("A race runs its rounds on this machine: choose the local backend."));
            return false;
        }
        config.sweep.race = true;
    }
    // A local sweep trains here: a GPU this machine lacks is refused now, not in the follower's log.
    if (backend == core::config::SweepBackend::Local) {
        try {
            engine().checkDevice(config.job.device);
        } catch (const std::exception& e) {
            panel_->setMessage(QString::fromStdString(core::error_line(e)));
            return false;
        }
    }
    if (isActive()) {
        panel_->setMessage(tr("A sweep is in progress: cancel it first."));
        return false;
    }
    const QString stem = QStringLiteral("%1-table-%2").arg(QString::fromStdString(config.name),
                                                           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString folder = QDir(runsRoot_).filePath(stem);
    // The folder and the three files beside it are new: nothing of anyone's is written over.
    for (int i = 2; core::sweep::sweep_name_taken(pathOf(folder)); ++i)
        folder = QDir(runsRoot_).filePath(QStringLiteral("%1-%2").arg(stem).arg(i));
    if (!QDir().mkpath(runsRoot_)) {
        panel_->setMessage(tr("%1: cannot create the folder").arg(runsRoot_));
        return false;
    }
    // The settings the sweep runs with, beside its folder (rlda writes its own copy inside).
    const QString configFile = text(core::sweep::settings_file(pathOf(folder)));
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
    sweep_ = {pathOf(folder), backend, parts, 0};
    config_ = config;
    shape_.reset();
    collected_ = false;
    if (!startFollower({QStringLiteral("simulate"), configFile, QStringLiteral("--out"), folder,
                        QStringLiteral("--backend"), QString::fromStdString(core::config::to_string(backend)),
                        QStringLiteral("--workers"), QString::number(parts)}))
        return false;
    panel_->setSweep(folder, backend);
    const QString log = text(core::sweep::follower_log(sweep_.folder));
    QStringList seeds;
    for (const auto s : config.sweep.seeds)
        seeds << QString::number(s);
    const QString partCount = widgets::counted(parts, tr("part"), tr("parts"));
    panel_->setMessage(
        config.sweep.race
            ? tr("Started a race: every sequence at %1 seeds (%2), then one seed at a time for the "
                 "sequences still in contention (log: %3)")
                  .arg(seeds.size())
                  .arg(seeds.join(QLatin1Char(' ')))
                  .arg(log)
        : seeds.size() > 1
            ? tr("Started: %1 seeds (%2), each a warm start and then %3 (log: %4)")
                  .arg(seeds.size())
                  .arg(seeds.join(QLatin1Char(' ')))
                  .arg(partCount)
                  .arg(log)
            : tr("Started: training the warm start, then %1 (log: %2)").arg(partCount).arg(log));
    panel_->setActive(true);
    Q_EMIT statusMessage(tr("Sweep started in %1").arg(folder));
    timer_.start();
    return true;
}

void SweepPage::follow(const core::sweep::FoundSweep& found)
{
    sweep_ = found.marker;
    config_ = found.config;
    shape_.reset();
    collected_ = false;
    panel_->setSweep(folder(), sweep_.backend);
    panel_->setBackend(sweep_.backend);
    panel_->setWorkers(sweep_.parts);
    panel_->setReplicates(static_cast<int>(config_.sweep.seeds.size()));
    panel_->setDevice(QString::fromStdString(config_.job.device));
    panel_->setFused(QString::fromStdString(core::config::to_string(config_.sweep.fused)));
    panel_->setRace(config_.sweep.race);
}

void SweepPage::reattach()
{
    jobs_.startJob([root = pathOf(runsRoot_)] { return core::sweep::find_unfinished(root); },
                   [this](std::optional<core::sweep::FoundSweep> found) {
                       if (!found) {
                           Q_EMIT reattached(false);
                           return;
                       }
                       follow(*found);
                       if (!isActive() && sweep_.backend == core::config::SweepBackend::Slurm && found->slurm_recorded)
                           startFollower({QStringLiteral("sweep"), QStringLiteral("wait"), folder(),
                                          QStringLiteral("--quiet")});
                       panel_->setMessage(isActive()
                                              ? tr("Re-attached to the sweep in %1").arg(folder())
                                              : tr("The sweep in %1 stopped before it finished; simulate again to "
                                                   "resume it (finished rows are kept)")
                                                    .arg(folder()));
                       panel_->setActive(isActive());
                       poll();
                       timer_.start();
                       Q_EMIT reattached(true);
                   });
}

bool SweepPage::isActive() const { return core::sweep::process_alive(sweep_.pid, core::sweep::kFollowerProgram); }

void SweepPage::poll()
{
    if (sweep_.folder.empty() || jobs_.isRunning())
        return; // nothing to follow, or the last poll has not answered yet: this tick is skipped
    jobs_.startJob([sweep = sweep_, config = config_, shape = shape_] {
                       return core::sweep::read_sweep(sweep, config, shape);
                   },
                   [this](const core::sweep::SweepReading& reading) { showReading(reading); });
}

void SweepPage::showReading(const core::sweep::SweepReading& r)
{
    if (r.shape)
        shape_ = r.shape;
    const bool alive = r.alive;
    const auto& status = r.status;
    panel_->setStages(r.warm_start, status, alive);
    if (!r.warm_start)
        panel_->setMessage(alive ? tr("Training the warm start…") : tr("Stopped before the warm start."));
    if (!r.error.empty())
        panel_->setMessage(QString::fromStdString(r.error));
    if (!status.tasks.empty() || status.collected)
        panel_->setStatus(status);
    if (!status.tasks.empty() && !status.collected)
        panel_->setMessage(alive ? tr("Training %1 rows in %2 parts (log: %3)")
                                       .arg(status.rows_total)
                                       .arg(status.tasks.size())
                                       .arg(text(core::sweep::follower_log(sweep_.folder)))
                           : status.cancelled ? tr("Cancelled: the whole rows are kept in %1/parts").arg(folder())
                                              : tr("Not running: simulate again to resume (finished rows are kept)"));
    if (!r.race.empty() && !status.collected) {
        const auto& last = r.race.back();
        panel_->setMessage(
            tr("Race: round %1 done, %2 in the confidence set for the best, %3 epochs so far%4")
                .arg(r.race.size())
                .arg(widgets::counted(static_cast<int>(last.contenders), tr("sequence"), tr("sequences")))
                .arg(last.total_epochs, 0, 'f', 1)
                .arg(alive ? tr("; training the next") : tr("; not running: simulate again to go on")));
    }
    panel_->setActive(alive);
    if (status.collected && !collected_) {
        collected_ = true;
        if (!r.race.empty() && r.race.back().end)
            panel_->setMessage(tr("Race done after %1 rounds, %2 epochs: %3; %4 in the confidence set for "
                                  "the best; %5/table.csv")
                                   .arg(r.race.size())
                                   .arg(r.race.back().total_epochs, 0, 'f', 1)
                                   .arg(QString::fromStdString(core::sim::race_end_text(*r.race.back().end)))
                                   .arg(widgets::counted(static_cast<int>(r.race.back().contenders),
                                                         tr("sequence"), tr("sequences")))
                                   .arg(folder()));
        else
            panel_->setMessage(tr("Done: %1/table.csv").arg(folder()));
        Q_EMIT finished(folder());
    }
    if (!alive && (collected_ || status.cancelled))
        timer_.stop();
    Q_EMIT polled();
}

void SweepPage::cancel()
{
    if (sweep_.folder.empty())
        return;
    const bool submitted = QFileInfo::exists(QDir(folder()).filePath(QStringLiteral("sweep.json"))); // Slurm jobs
    if (sweep_.backend == core::config::SweepBackend::Slurm && submitted) {
        // scancel and wait for the queue to empty, off the GUI thread; the follower only detaches.
        QProcess process;
        process.setProgram(RldaProcess::program());
        process.setArguments({QStringLiteral("sweep"), QStringLiteral("cancel"), folder()});
        if (!process.startDetached()) { // the jobs stay queued and followed: nothing else is stopped
            panel_->setMessage(
                tr("Not cancelled: %1: cannot start: %2").arg(RldaProcess::program(), process.errorString()));
            return;
        }
    }
    // Local: rlda simulate stops its workers and keeps whole rows.
    core::sweep::stop_process(sweep_.pid, core::sweep::kFollowerProgram);
    panel_->setMessage(tr("Cancelling the sweep in %1…").arg(folder()));
    Q_EMIT statusMessage(tr("Sweep cancelled: %1").arg(folder()));
}

} // namespace rlda::app
