// The sweep runs in a detached `rlda simulate` (or `rlda sweep wait`), so that it outlives the
// window; the page only reads what is on disk and asks Slurm, and remembers the sweep in a marker
// file beside its folder (<folder>.sweep.json) to find it again.
#include "app/workbench/sweep_page.h"

#include "app/workbench/rlda_process.h"
#include "core/config/experiment_io.h"
#include "core/sim/build.h"
#include "core/sim/table.h"
#include "core/sim/table_meta.h"
#include "core/sweep/local.h"
#include "core/sweep/slurm.h"
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
        return {meta->decisions, meta->actions, meta->rows};
    return core::sim::table_shape(config);
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

bool SweepPage::followerAlive() const
{
    if (pid_ <= 0)
        return false;
    // Detached processes may be left as zombies where nothing reaps them: only a live rlda counts.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid_));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const int close = text.lastIndexOf(')');
    return close > 0 && text.mid(1 + text.indexOf('('), close - text.indexOf('(') - 1) == "rlda" &&
           close + 2 < text.size() && text.at(close + 2) != 'Z';
}

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
                        {QStringLiteral("backend"), backend_},
                        {QStringLiteral("parts"), parts_},
                        {QStringLiteral("pid"), pid_}};
    file.write(QJsonDocument(o).toJson());
    file.commit();
}

bool SweepPage::submit(const core::config::ExperimentConfig& config, const QString& backend, int parts)
{
    if (isActive()) {
        panel_->setMessage(tr("A sweep is in progress: cancel it first."));
        return false;
    }
    const QString stem = QStringLiteral("%1-table-%2").arg(QString::fromStdString(config.name),
                                                           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString folder = QDir(runsRoot_).filePath(stem);
    for (int i = 2; QFileInfo::exists(folder) || QFileInfo::exists(markerOf(folder)); ++i)
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
        file.write(QByteArray::fromStdString(core::config::to_toml(config)));
        file.commit();
    }
    folder_ = folder;
    backend_ = backend;
    parts_ = parts;
    config_ = config;
    shape_.reset();
    collected_ = false;
    if (!startFollower({QStringLiteral("simulate"), configFile, QStringLiteral("--out"), folder,
                        QStringLiteral("--backend"), backend, QStringLiteral("--workers"), QString::number(parts)}))
        return false;
    panel_->setSweep(folder_, backend_);
    panel_->setMessage(tr("Started: training the warm start, then %1 parts (log: %2.log)").arg(parts).arg(folder_));
    panel_->setActive(true);
    Q_EMIT statusMessage(tr("Sweep started in %1").arg(folder_));
    timer_.start();
    return true;
}

bool SweepPage::follow(const QString& marker)
{
    QFile file(marker);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    folder_ = o.value(QStringLiteral("folder")).toString();
    backend_ = o.value(QStringLiteral("backend")).toString();
    parts_ = o.value(QStringLiteral("parts")).toInt();
    pid_ = o.value(QStringLiteral("pid")).toInteger();
    shape_.reset();
    collected_ = false;
    if (folder_.isEmpty() || parts_ < 1)
        return false;
    try {
        config_ = core::config::load_experiment((folder_ + QStringLiteral(".toml")).toStdString());
    } catch (const std::exception&) {
        return false;
    }
    panel_->setSweep(folder_, backend_);
    panel_->setBackend(backend_);
    panel_->setWorkers(parts_);
    return true;
}

bool SweepPage::reattach()
{
    QDir root(runsRoot_);
    const auto markers = root.entryInfoList({QStringLiteral("*.sweep.json")}, QDir::Files, QDir::Time);
    for (const auto& marker : markers) {
        const QString folder = marker.absoluteFilePath().chopped(int(QStringLiteral(".sweep.json").size()));
        if (tableComplete(folder) || !follow(marker.absoluteFilePath()))
            continue;
        const bool slurmRecorded = QFileInfo::exists(QDir(folder_).filePath(QStringLiteral("sweep.json")));
        if (!followerAlive() && backend_ == QLatin1String("slurm") && slurmRecorded)
            startFollower({QStringLiteral("sweep"), QStringLiteral("wait"), folder_, QStringLiteral("--quiet")});
        panel_->setMessage(followerAlive() ? tr("Re-attached to the sweep in %1").arg(folder_)
                                           : tr("The sweep in %1 stopped before it finished; simulate again to "
                                                "resume it (finished rows are kept)")
                                                 .arg(folder_));
        panel_->setActive(followerAlive());
        poll();
        timer_.start();
        return true;
    }
    return false;
}

bool SweepPage::isActive() const { return followerAlive(); }

void SweepPage::poll()
{
    if (folder_.isEmpty())
        return;
    const bool alive = followerAlive();
    core::sweep::SweepStatus status;
    try {
        const auto dir = std::filesystem::path(folder_.toStdString());
        const bool slurm = backend_ == QLatin1String("slurm") && std::filesystem::exists(dir / "sweep.json");
        if (!std::filesystem::exists(dir / "warm_start.pt")) {
            panel_->setMessage(alive ? tr("Training the warm start…") : tr("Stopped before the warm start."));
        } else if (slurm) {
            // poll() takes the sweep's lock: safe beside the rlda process that follows it.
            status = core::sweep::SlurmSweep::attach(dir).poll();
        } else {
            if (!shape_)
                shape_ = shapeOf(folder_, config_);
            status = core::sweep::status(dir, *shape_, parts_);
            if (alive)
                for (auto& t : status.tasks)
                    if (t.state == core::sweep::TaskState::Pending)
                        t.state = core::sweep::TaskState::Running; // every part has its own process
        }
    } catch (const std::exception& e) {
        panel_->setMessage(QString::fromUtf8(e.what()));
    }
    status.collected = status.collected || tableComplete(folder_);
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
}

void SweepPage::cancel()
{
    if (folder_.isEmpty())
        return;
    if (backend_ == QLatin1String("slurm") && QFileInfo::exists(QDir(folder_).filePath(QStringLiteral("sweep.json")))) {
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
