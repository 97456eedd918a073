// bench_gui_latency: does the GUI thread stay responsive (1) while a synthetic run streams up to a
// million points into the live training plot, (2) while the Sweeps page follows a Slurm sweep whose
// squeue takes 2 s to answer, (3) while the Runs page lists 500 run folders, (4) while the Runs
// page's file watcher follows 20 runs being written (and the Training page one of them)? Prints event-loop
// latency (p50, p99, max) for each against the 50 ms goal, and what the same reads cost when made
// on the GUI thread, measured in the same run.
#include "app/workbench/sweep_page.h"
#include "core/io/run_folder.h"
#include "core/io/run_reader.h"
#include "core/sweep/slurm.h"
#include "widgets/job_tracker.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/qcp.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_follower.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace train = rlda::core::train;
using Clock = std::chrono::steady_clock;

constexpr int kPointsPerEpoch = 5; // train_acc, test_acc, train_loss, lr, params
constexpr double kTickMs = 5.0;
constexpr double kGoalMs = 50.0;
// Batches queued but not yet handled by the GUI thread. More would only queue up work the event
// loop cannot see past; the producer waits instead, which is what "as fast as allowed" means.
constexpr int kMaxInFlight = 2;

struct Memory {
    long rssKb = 0;
    long hwmKb = 0;
};

Memory memory()
{
    Memory m;
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return m;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            m.rssKb = line.mid(6).trimmed().split(' ').value(0).toLong();
        else if (line.startsWith("VmHWM:"))
            m.hwmKb = line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return m;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::ceil(p / 100.0 * double(v.size()))) - 1;
    return v[std::min(i, v.size() - 1)];
}

// A fast synthetic run: accuracy creeping up, a noisy falling loss, a step lr schedule, and the
// parameter count stepping up at every adaptation.
train::EpochMetrics syntheticEpoch(int i, std::int64_t params)
{
    train::EpochMetrics m;
    m.epoch = i;
    m.time = 0.05 * i;
    const double noise = std::sin(i * 12.9898) * 0.5;
    m.train_acc = 0.95 - 0.85 * std::exp(-i / 20000.0) + 0.02 * noise;
    m.test_acc = m.train_acc - 0.04 + 0.015 * std::cos(i * 7.1);
    m.train_loss = 2.3 * std::exp(-i / 15000.0) + 0.05 + 0.08 * std::abs(noise);
    m.lr = 0.1 * std::pow(0.5, i / 50000);
    m.parameters = params;
    return m;
}

// How late a fast timer on the GUI thread fires: the event loop's stalls, while it runs.
class StallMeter {
public:
    StallMeter()
    {
        ticker_.setTimerType(Qt::PreciseTimer);
        ticker_.setInterval(int(kTickMs));
        QObject::connect(&ticker_, &QTimer::timeout, [this] {
            const auto now = Clock::now();
            if (last_ != Clock::time_point{})
                ms_.push_back(std::max(0.0, std::chrono::duration<double, std::milli>(now - last_).count() - kTickMs));
            last_ = now;
        });
    }
    void start() { ticker_.start(); }
    void stop() { ticker_.stop(); }
    double max() const { return ms_.empty() ? 0.0 : *std::max_element(ms_.begin(), ms_.end()); }
    // "event loop    N ticks of 5 ms: latency p50 …, p99 …, max …"
    void print() const
    {
        std::printf("event loop    %zu ticks of %.0f ms: latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", ms_.size(),
                    kTickMs, percentile(ms_, 50), percentile(ms_, 99), max());
    }
    void printGoal() const
    {
        std::printf("goal          max stall %.2f ms vs the %.0f ms goal (%.2fx of the budget): %s\n", max(), kGoalMs,
                    max() / kGoalMs, max() <= kGoalMs ? "OK" : "OVER");
    }

private:
    QTimer ticker_;
    Clock::time_point last_{};
    std::vector<double> ms_;
};

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

bool writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

bool writeScript(const QString& path, const QByteArray& body)
{
    return writeFile(path, "#!/bin/sh\n" + body) &&
           QFile::setPermissions(path, QFile::permissions(path) | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther);
}

// (2) The Sweeps page follows a two-part Slurm sweep through stand-in squeue (2 s to answer, both
// tasks RUNNING), sacct (accounting off) and sbatch scripts first on PATH, as a cluster under load
// answers. Its follower is a live process named rlda (a link to sleep), so the page only polls.
int benchSweep(double seconds)
{
    QTemporaryDir tmp;
    const QString bin = tmp.filePath(QStringLiteral("bin"));
    const QString root = tmp.filePath(QStringLiteral("runs"));
    const QString folder = root + QStringLiteral("/quick-table");
    QDir().mkpath(bin);
    if (!writeScript(bin + "/squeue", "sleep 2\necho '4242_0 RUNNING'\necho '4242_1 RUNNING'\n") ||
        !writeScript(bin + "/sacct", "exit 1\n") || !writeScript(bin + "/sbatch", "echo 4243\n") ||
        !writeScript(bin + "/scancel", "exit 0\n") || !QFile::link(QStringLiteral("/bin/sleep"), bin + "/rlda")) {
        std::fprintf(stderr, "bench_gui_latency: cannot write the stand-in Slurm commands in %s\n", qPrintable(bin));
        return 1;
    }
    qputenv("PATH", (bin + QLatin1Char(':')).toLocal8Bit() + qgetenv("PATH"));
    QFile config(QStringLiteral(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
    if (!config.open(QIODevice::ReadOnly))
        return 1;
    const QByteArray toml = config.readAll();
    QJsonArray tasks;
    for (int i = 0; i < 2; ++i)
        tasks.append(QJsonObject{{"job", "4242"}, {"attempts", 1}, {"detail", ""}});
    const QJsonObject sweep{{"backend", "slurm"},  {"rlda", bin + "/rlda"}, {"parts", 2},
                            {"max_retries", 1},     {"decisions", 2},        {"num_actions", 4},
                            {"sequences", 16},      {"jobs", QJsonArray{"4242"}}, {"tasks", tasks},
                            {"collected", false},   {"cancelled", false}};
    QProcess follower; // stands for the detached `rlda sweep wait`
    follower.start(bin + "/rlda", {QStringLiteral("600")});
    if (!follower.waitForStarted())
        return 1;
    const QJsonObject marker{{"folder", folder}, {"backend", "slurm"}, {"parts", 2}, {"pid", follower.processId()}};
    if (!writeFile(folder + "/warm_start.pt", "stand-in") || !writeFile(folder + "/config.toml", toml) ||
        !writeFile(folder + "/sweep.json", QJsonDocument(sweep).toJson()) || !QDir().mkpath(folder + "/parts") ||
        !writeFile(folder + ".toml", toml) || !writeFile(folder + ".sweep.json", QJsonDocument(marker).toJson()))
        return 1;

    // The reference: one poll made where the page used to make it, on the GUI thread.
    auto t0 = Clock::now();
    const auto direct = rlda::core::sweep::SlurmSweep::attach(folder.toStdString()).poll();
    const double directMs = msSince(t0);

    rlda::app::SweepPage page;
    page.resize(1000, 600);
    page.setRunsRoot(root);
    page.show();
    StallMeter meter;
    std::vector<double> answerMs; // from a poll's start to its answer shown
    int ticks = 0, skipped = 0;
    Clock::time_point pollStart{};
    QObject::connect(&page, &rlda::app::SweepPage::polled, [&] { answerMs.push_back(msSince(pollStart)); });
    // The page's own 1 s timer polls; this one counts the ticks that found a poll in flight.
    QTimer watch;
    watch.setInterval(1000);
    QObject::connect(&watch, &QTimer::timeout, [&] {
        ++ticks;
        if (rlda::app::sweepPollInFlight(page))
            ++skipped;
        else
            pollStart = Clock::now();
    });
    QEventLoop loop;
    QTimer::singleShot(200, [&] {
        meter.start();
        pollStart = Clock::now();
        page.reattach(); // finds the marker off the GUI thread, then polls every second
        watch.start();
        QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    });
    loop.exec();
    meter.stop();
    watch.stop();
    const auto closing = Clock::now();
    const bool drained = rlda::widgets::waitForJobs(std::chrono::seconds(5));
    const double drainMs = msSince(closing);
    follower.kill();
    follower.waitForFinished();

    std::printf("\nbench_gui_latency: Sweeps page following a 2-part Slurm sweep, squeue answering in 2 s, for %.0f s\n",
                seconds);
    std::printf("reference     one SlurmSweep poll on the GUI thread: %.0f ms (%zu tasks) -- the stall of every poll "
                "before\n",
                directMs, direct.tasks.size());
    std::printf("polls         %zu answered, %.0f ms p50 from start to shown; %d of %d timer ticks skipped while one "
                "was in flight\n",
                answerMs.size(), percentile(answerMs, 50), skipped, ticks);
    meter.print();
    std::printf("shutdown      jobs left waited for in %.0f ms (%s)\n", drainMs, drained ? "done" : "bound reached");
    meter.printGoal();
    return answerMs.empty() ? 1 : 0;
}

// (3) The Runs page lists a root of `count` training-run folders (config, a metrics series, events).
int benchRuns(int count, int refreshes)
{
    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("runs"));
    for (int r = 0; r < count; ++r) {
        const QString dir = QStringLiteral("%1/run-%2").arg(root).arg(r, 3, 10, QLatin1Char('0'));
        QByteArray acc = "epoch,time,value\n";
        for (int e = 1; e <= 12; ++e)
            acc += QByteArray::number(e) + "," + QByteArray::number(e * 4.7) + "," + QByteArray::number(0.8 * e / 12) + "\n";
        const QByteArray events =
            "{\"type\":\"allocation\",\"time\":20,\"change\":\"up\",\"effect\":\"consulting the agent\"}\n"
            "{\"type\":\"final\",\"time\":60,\"test_acc\":0.8}\n"
            "{\"type\":\"finished\",\"final_test_acc\":0.8,\"epochs\":12,\"steps\":1128,\"actions\":[0,3],"
            "\"cancelled\":false,\"parameters\":1300}\n";
        if (!writeFile(dir + "/config.toml", "name = \"x\"\n[job]\nlr = 0.01\n") ||
            !writeFile(dir + "/metrics/test_acc.csv", acc) || !writeFile(dir + "/events.jsonl", events))
            return 1;
    }
    // The reference: the reads refresh() made on the GUI thread.
    auto t0 = Clock::now();
    std::size_t read = 0;
    for (const auto& path : rlda::core::io::find_runs(root.toStdString()))
        read += rlda::core::io::read_run(path).series.size();
    const double directMs = msSince(t0);

    rlda::widgets::RunBrowser browser;
    browser.resize(1000, 700);
    browser.show();
    StallMeter meter;
    std::vector<double> answerMs;
    QEventLoop loop;
    Clock::time_point start{};
    auto next = [&] {
        start = Clock::now();
        browser.setRoot(root); // and refresh()
    };
    QObject::connect(&browser, &rlda::widgets::RunBrowser::listed, [&] {
        answerMs.push_back(msSince(start));
        if (int(answerMs.size()) < refreshes)
            QTimer::singleShot(100, next);
        else
            QTimer::singleShot(100, &loop, &QEventLoop::quit);
    });
    QTimer::singleShot(200, [&] {
        meter.start();
        next();
    });
    loop.exec();
    meter.stop();

    std::printf("\nbench_gui_latency: Runs page listing %d run folders, %d refreshes\n", count, refreshes);
    std::printf("reference     find_runs + read_run of every folder on the GUI thread: %.0f ms (%zu series) -- the "
                "stall of every refresh before\n",
                directMs, read);
    std::printf("refreshes     %zu listed (%d rows), %.0f ms p50 from start to shown\n", answerMs.size(),
                int(browser.runs().size()), percentile(answerMs, 50));
    meter.print();
    meter.printGoal();
    return browser.runs().size() == count ? 0 : 1;
}

// (4) The Runs page watches a root while `writers` threads each write a training run into it through
// core's RunFolder, an epoch every `everyMs` for `seconds`, then finish; one run is opened in the
// Training page and followed. The watcher, the coalesced rescans and the follower's reads all run
// while the meter ticks.
int benchWatch(int writers, double seconds, int everyMs)
{
    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("runs"));
    QDir().mkpath(root);
    const auto runDir = [&root](int r) { return QStringLiteral("%1/live-%2").arg(root).arg(r, 2, 10, QLatin1Char('0')); };

    rlda::widgets::RunBrowser browser;
    browser.resize(1000, 700);
    browser.show();
    rlda::widgets::TrainingView view;
    view.resize(1000, 600);
    view.show();
    rlda::widgets::RunFollower follower;
    QObject::connect(&follower, &rlda::widgets::RunFollower::appended, &view, &rlda::widgets::TrainingView::appendRun);
    {
        QEventLoop wait;
        QObject::connect(&browser, &rlda::widgets::RunBrowser::listed, &wait, &QEventLoop::quit);
        browser.setRoot(root);
        wait.exec();
    }

    StallMeter meter;
    int updates = 0;
    std::atomic<int> finished{0};
    std::atomic<long> records{0};
    const auto t0 = Clock::now();
    double allListedMs = -1, allFinishedMs = -1, lastFinishedWriteMs = -1;
    std::vector<std::thread> threads;
    QEventLoop loop;
    QObject::connect(&browser, &rlda::widgets::RunBrowser::updated, [&] {
        ++updates;
        const auto& runs = browser.runs();
        if (allListedMs < 0 && int(runs.size()) == writers)
            allListedMs = msSince(t0);
        int done = 0;
        for (const auto& r : runs)
            done += r.finished ? 1 : 0;
        if (done == writers && allFinishedMs < 0) {
            allFinishedMs = msSince(t0);
            QTimer::singleShot(200, &loop, &QEventLoop::quit);
        }
        if (!follower.isFollowing() && view.runPath().empty())
            for (const auto& r : runs)
                if (r.name == "live-00") {
                    view.setRun(r);
                    follower.follow(r);
                }
    });
    QTimer::singleShot(0, [&] {
        meter.start();
        for (int w = 0; w < writers; ++w)
            threads.emplace_back([&, w] {
                rlda::core::io::RunFolder folder(runDir(w).toStdString(), false);
                folder.write_text("config.toml", "name = \"live\"\n[job]\nlr = 0.01\n");
                const auto start = Clock::now();
                std::int64_t params = 1000;
                for (int i = 1; std::chrono::duration<double>(Clock::now() - start).count() < seconds; ++i) {
                    folder.on_epoch(syntheticEpoch(i, params));
                    if (i % 50 == 0)
                        folder.on_allocation({double(i), train::Allocation::Up, "consulting the agent"});
                    records.fetch_add(1);
                    std::this_thread::sleep_for(std::chrono::milliseconds(everyMs));
                }
                train::RunResult r;
                r.final_test_acc = 0.8;
                folder.on_finished(r);
                finished.fetch_add(1);
            });
    });
    QTimer::singleShot(int(seconds * 1000) + 30000, &loop, &QEventLoop::quit); // a bound, never the answer
    loop.exec();
    meter.stop();
    for (auto& t : threads)
        t.join();
    lastFinishedWriteMs = seconds * 1000;

    // The reference: what one rescan would cost the GUI thread if it read the 20 runs there.
    auto r0 = Clock::now();
    std::size_t series = 0;
    for (const auto& path : rlda::core::io::find_runs(root.toStdString()))
        series += rlda::core::io::read_run(path).series.size();
    const double directMs = msSince(r0);

    std::printf("\nbench_gui_latency: Runs page watching %d runs being written (an epoch every %d ms each, %.0f s), "
                "one followed in the Training page\n",
                writers, everyMs, seconds);
    std::printf("reference     find_runs + read_run of the %d runs on the GUI thread once written: %.0f ms (%zu series) -- "
                "the stall of every rescan if it were made there\n",
                writers, directMs, series);
    std::printf("records       %ld written; %d live rescans shown; all %d listed %.0f ms after the first write; all "
                "finished shown %.0f ms after the writers' %.0f ms\n",
                records.load(), updates, writers, allListedMs, allFinishedMs, lastFinishedWriteMs);
    std::printf("followed      %d test_acc points in the Training page\n", view.plot()->pointCount(QStringLiteral("test_acc")));
    std::printf("watched       %lld paths now\n", qint64(browser.watchedPaths().size()));
    meter.print();
    meter.printGoal();
    return finished.load() == writers && allFinishedMs >= 0 ? 0 : 1;
}

int benchPlot(long points, int batchPoints, double rate, const Memory& before)
{
    auto& app = *qApp;
    rlda::widgets::TrainingView view;
    view.resize(1280, 720);
    view.setSmoothingSpan(20); // the costlier path: EMA on top of the raw data
    view.show();
    rlda::widgets::SeriesPlot* plot = view.plot();
    const Memory shown = memory();

    // Replot durations, for the report: the stall budget is mostly spent there.
    std::vector<double> replotMs;
    QElapsedTimer replotTimer;
    QObject::connect(plot->plot(), &QCustomPlot::beforeReplot, plot, [&] { replotTimer.start(); });
    QObject::connect(plot->plot(), &QCustomPlot::afterReplot, plot,
                     [&] { replotMs.push_back(replotTimer.nsecsElapsed() / 1e6); });

    StallMeter meter;
    QEventLoop loop;

    std::vector<double> batchMs; // GUI thread only: handling one queued batch
    std::atomic<int> inFlight{0};
    long delivered = 0; // GUI thread only
    Clock::time_point start;
    Clock::time_point end;
    const int epochsPerBatch = std::max(1, batchPoints / kPointsPerEpoch);
    const long epochs = (points + kPointsPerEpoch - 1) / kPointsPerEpoch;

    auto producer = [&](std::stop_token stop) {
        std::int64_t params = 1200000;
        int epoch = 0;
        // Paced like a run that streams for seconds, so that the event loop is measured under
        // sustained load (many replots), not during a sub-second burst.
        const auto paceStart = Clock::now();
        while (epoch < epochs && !stop.stop_requested()) {
            std::vector<train::EpochMetrics> batch;
            batch.reserve(std::size_t(epochsPerBatch));
            std::vector<std::pair<train::AllocationRecord, train::AdaptationEvent>> events;
            for (int k = 0; k < epochsPerBatch && epoch < epochs; ++k) {
                ++epoch;
                if (epoch % 25000 == 0) {
                    train::AdaptationEvent e;
                    e.time = 0.05 * epoch;
                    e.action = (epoch / 25000) % 4;
                    e.did_nothing = e.action == 3;
                    if (!e.did_nothing)
                        params += 350000;
                    events.push_back({{e.time, train::Allocation::Up, "consult the agent"}, e});
                }
                batch.push_back(syntheticEpoch(epoch, params));
            }
            if (rate > 0)
                std::this_thread::sleep_until(
                    paceStart + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(double(epoch) * kPointsPerEpoch / rate)));
            while (inFlight.load(std::memory_order_acquire) >= kMaxInFlight && !stop.stop_requested())
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            inFlight.fetch_add(1, std::memory_order_acq_rel);
            QMetaObject::invokeMethod(
                &view,
                [&, batch = std::move(batch), events = std::move(events)] {
                    const auto t0 = Clock::now();
                    for (const auto& [allocation, adaptation] : events) {
                        view.addAllocation(allocation);
                        view.addAdaptation(adaptation);
                    }
                    view.addEpochs(batch);
                    delivered += long(batch.size()) * kPointsPerEpoch;
                    batchMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                    inFlight.fetch_sub(1, std::memory_order_acq_rel);
                    if (delivered >= epochs * kPointsPerEpoch) {
                        end = Clock::now();
                        // Let the last buffered points reach the screen, then stop.
                        QTimer::singleShot(150, &app, [&] {
                            meter.stop();
                            loop.quit();
                        });
                    }
                },
                Qt::QueuedConnection);
        }
    };

    std::jthread worker;
    QTimer::singleShot(200, &app, [&] { // once the window is up and laid out
        meter.start();
        start = Clock::now();
        worker = std::jthread(producer);
    });
    loop.exec();
    worker.request_stop();
    if (worker.joinable())
        worker.join();
    const Memory after = memory();

    long stored = 0;
    for (const auto& id : rlda::widgets::TrainingView::seriesIds())
        stored += plot->pointCount(id);
    long displayed = 0;
    for (const auto& id : rlda::widgets::TrainingView::seriesIds())
        displayed += plot->displayedPointCount(id);
    const double wall = std::chrono::duration<double>(end - start).count();

    std::printf("bench_gui_latency: TrainingView 1280x720, 5 series (EMA smoothing on), %d points/batch, "
                "%ld markers, platform %s\n",
                epochsPerBatch * kPointsPerEpoch, long(plot->markerCount()),
                qPrintable(QGuiApplication::platformName()));
    std::printf("points        %ld plotted (%ld stored at full resolution, %ld on screen after decimation)\n",
                delivered, stored, displayed);
    std::printf("wall          %.3f s  ->  %.0f points/s\n", wall, wall > 0 ? double(delivered) / wall : 0.0);
    meter.print();
    std::printf("replots       %zu: p50 %.2f ms, max %.2f ms\n", replotMs.size(), percentile(replotMs, 50),
                replotMs.empty() ? 0.0 : *std::max_element(replotMs.begin(), replotMs.end()));
    std::printf("batches       %zu handled on the GUI thread: p50 %.3f ms, max %.2f ms\n", batchMs.size(),
                percentile(batchMs, 50), batchMs.empty() ? 0.0 : *std::max_element(batchMs.begin(), batchMs.end()));
    std::printf("memory        VmRSS %.1f MiB at start, %.1f MiB with the window, %.1f MiB at the end; VmHWM "
                "%.1f MiB (%.1f bytes per stored point over the shown window)\n",
                before.rssKb / 1024.0, shown.rssKb / 1024.0, after.rssKb / 1024.0, after.hwmKb / 1024.0,
                stored > 0 ? (after.hwmKb - shown.rssKb) * 1024.0 / double(stored) : 0.0);
    meter.printGoal();
    return delivered == epochs * kPointsPerEpoch ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    long points = 1000000;
    int batchPoints = 1000;
    double rate = 200000.0;
    double sweepSeconds = 10.0;
    int runs = 500;
    int refreshes = 5;
    int writers = 20;
    double watchSeconds = 10.0;
    std::string which = "all";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--points") && i + 1 < argc)
            points = std::atol(argv[++i]);
        else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc)
            batchPoints = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--rate") && i + 1 < argc)
            rate = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--case") && i + 1 < argc)
            which = argv[++i];
        else if (!std::strcmp(argv[i], "--sweep-seconds") && i + 1 < argc)
            sweepSeconds = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--writers") && i + 1 < argc)
            writers = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--watch-seconds") && i + 1 < argc)
            watchSeconds = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::printf("usage: bench_gui_latency [--case plot|sweep|runs|watch|all (all)] [--points N (1000000)] "
                        "[--batch POINTS (1000)] [--rate POINTS_PER_S (200000; 0 = as fast as the GUI takes them)] "
                        "[--sweep-seconds S (10)] [--runs N (500)] [--writers N (20)] [--watch-seconds S (10)]\n");
            return 0;
        }
    }
    if (points <= 0 || batchPoints < kPointsPerEpoch || runs < 1 || sweepSeconds <= 0 || writers < 1 ||
        watchSeconds <= 0 ||
        (which != "all" && which != "plot" && which != "sweep" && which != "runs" && which != "watch")) {
        std::fprintf(stderr, "bench_gui_latency: --points must be > 0, --batch >= %d, --runs >= 1, --sweep-seconds > 0, "
                             "--writers >= 1, --watch-seconds > 0 and --case plot, sweep, runs, watch or all\n",
                     kPointsPerEpoch);
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    const Memory before = memory();
    QApplication app(argc, argv);
    int rc = 0;
    if (which == "all" || which == "plot")
        rc |= benchPlot(points, batchPoints, rate, before);
    if (which == "all" || which == "sweep")
        rc |= benchSweep(sweepSeconds);
    if (which == "all" || which == "runs")
        rc |= benchRuns(runs, refreshes);
    if (which == "all" || which == "watch")
        rc |= benchWatch(writers, watchSeconds, 20);
    return rc;
}
