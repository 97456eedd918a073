// RunFollower: a watcher, a coalescing timer and an off-thread re-read; the GUI thread only cuts tails.
#include "widgets/run/run_follower.h"

#include <QFileSystemWatcher>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace rlda::widgets {

using core::io::RunData;

namespace {

template <class T> std::vector<T> tail(const std::vector<T>& v, std::size_t from)
{
    return from < v.size() ? std::vector<T>(v.begin() + std::ptrdiff_t(from), v.end()) : std::vector<T>{};
}

} // namespace

RunFollower::RunFollower(QObject* parent)
    : QObject(parent)
{
    watcher_ = new QFileSystemWatcher(this);
    delay_ = new QTimer(this);
    delay_->setSingleShot(true);
    delay_->setInterval(kDelayMs);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &RunFollower::changed);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &RunFollower::changed);
    connect(delay_, &QTimer::timeout, this, &RunFollower::read);
}

RunFollower::Counts RunFollower::countsOf(const RunData& run)
{
    Counts c;
    for (const auto& [name, points] : run.series)
        c.series[name] = points.size();
    c.episodes = run.episodes.size();
    c.adaptations = run.adaptations.size();
    c.allocations = run.allocations.size();
    c.messages = run.messages.size();
    c.final = run.final_metrics.has_value();
    c.finished = run.finished.has_value();
    return c;
}

void RunFollower::follow(const RunData& shown)
{
    stop();
    if (shown.finished)
        return; // nothing more will come
    path_ = shown.path;
    shown_ = countsOf(shown);
    delay_->setInterval(kDelayMs);
    watch();
    delay_->start(); // what was written between the read that showed it and now
}

void RunFollower::stop()
{
    path_.clear();
    reading_.cancel();
    delay_->stop();
    again_ = false;
    const QStringList watched = watcher_->files() + watcher_->directories();
    if (!watched.isEmpty())
        watcher_->removePaths(watched);
}

void RunFollower::watch()
{
    namespace fs = std::filesystem;
    QSet<QString> want;
    const auto add = [&want](const fs::path& p) { want.insert(QString::fromStdString(p.string())); };
    add(path_);
    std::error_code ec;
    for (const auto* sub : {"", "metrics"}) {
        const fs::path dir = path_ / sub;
        if (!fs::is_directory(dir, ec))
            continue;
        add(dir);
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            const auto ext = e.path().extension();
            if (e.is_regular_file(ec) && (ext == ".csv" || ext == ".jsonl"))
                add(e.path());
        }
    }
    QSet<QString> have;
    for (const QString& p : watcher_->files() + watcher_->directories())
        have.insert(p);
    const QSet<QString> missingSet = want - have;
    const QStringList missing(missingSet.begin(), missingSet.end());
    if (!missing.isEmpty())
        watcher_->addPaths(missing);
}

void RunFollower::changed()
{
    if (!path_.empty() && !delay_->isActive())
        delay_->start();
}

void RunFollower::read()
{
    if (path_.empty())
        return;
    if (reading_.isRunning()) {
        again_ = true; // never overtake a read: under constant writes none would ever answer
        return;
    }
    readTime_.start();
    reading_.startJob([path = path_] { return core::io::read_run(path); }, [this](RunData run) { got(std::move(run)); },
                      [this](const QString&) { stop(); }); // the folder went away
}

void RunFollower::got(RunData run)
{
    delay_->setInterval(std::max<int>(kDelayMs, int(2 * readTime_.elapsed())));
    if (run.path != path_)
        return;
    const Counts now = countsOf(run);
    bool shrank = now.episodes < shown_.episodes || now.adaptations < shown_.adaptations ||
                  now.allocations < shown_.allocations || now.messages < shown_.messages ||
                  (shown_.finished && !now.finished);
    for (const auto& [name, n] : shown_.series)
        shrank = shrank || !now.series.count(name) || now.series.at(name) < n;
    if (shrank) {
        shown_ = now;
        Q_EMIT rewritten(run);
    } else {
        RunData more;
        more.path = run.path;
        more.kind = run.kind;
        more.name = run.name;
        bool any = false;
        for (const auto& [name, points] : run.series) {
            const auto it = shown_.series.find(name);
            auto t = tail(points, it == shown_.series.end() ? 0 : it->second);
            if (!t.empty()) {
                more.series[name] = std::move(t);
                any = true;
            }
        }
        more.episodes = tail(run.episodes, shown_.episodes);
        more.episode_times = tail(run.episode_times, shown_.episodes);
        more.adaptations = tail(run.adaptations, shown_.adaptations);
        more.allocations = tail(run.allocations, shown_.allocations);
        more.messages = tail(run.messages, shown_.messages);
        if (run.final_metrics && !shown_.final)
            more.final_metrics = run.final_metrics;
        if (run.finished && !shown_.finished)
            more.finished = run.finished;
        more.final_model = run.final_model;
        any = any || !more.episodes.empty() || !more.adaptations.empty() || !more.allocations.empty() ||
              !more.messages.empty() || more.final_metrics || more.finished;
        shown_ = now;
        if (any)
            Q_EMIT appended(more);
    }
    if (run.finished) {
        stop();
        return;
    }
    watch();
    if (again_) {
        again_ = false;
        delay_->start();
    }
}

} // namespace rlda::widgets
