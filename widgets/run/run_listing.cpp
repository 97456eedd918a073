// What the Runs page reads of run folders, off the GUI thread, and the status it shows for each.
#include "widgets/run/run_listing.h"

#include "core/util/error_text.h"
#include "core/util/output_folder.h"
#include "widgets/qs.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QObject>
#include <QSet>

namespace rlda::widgets {

using core::io::RunData;

namespace {

constexpr int kFindDepth = 2; // find_runs' default

// The run folder's files down to two levels (metrics/x.csv, parts/3/table.csv): their names, sizes
// and times as its signature, the newest time as when it was last written (a still-growing or
// killed run), and the subfolders and appended files a watcher follows while it is written.
void scanFolder(const QString& folder, RunFacts& facts)
{
    QStringList sig;
    QDateTime latest;
    const auto visit = [&](const auto& self, const QString& dir, int depth) -> void {
        const auto entries = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                                                     QDir::Name);
        for (const QFileInfo& f : entries) {
            if (f.isSymLink())
                continue;
            if (f.isDir()) {
                facts.appended << f.filePath();
                if (depth < 2)
                    self(self, f.filePath(), depth + 1);
                continue;
            }
            sig << QStringLiteral("%1|%2|%3").arg(f.filePath()).arg(f.size()).arg(f.lastModified().toMSecsSinceEpoch());
            if (!latest.isValid() || f.lastModified() > latest)
                latest = f.lastModified();
            const QString ext = f.suffix();
            if (ext == QLatin1String("csv") || ext == QLatin1String("jsonl"))
                facts.appended << f.filePath();
        }
    };
    visit(visit, folder, 1);
    // Who holds the folder's lock is no file's size or time: a build that ends or dies changes it.
    sig << QStringLiteral("writer|%1").arg(core::folder_writer(folder.toStdString()));
    facts.signature = sig.join(QLatin1Char('\n'));
    facts.modified = latest;
}

} // namespace

bool isTableFolder(const RunData& run)
{
    return core::sim::is_table_folder(run.path);
}

QString tableStatusText(const core::sim::TableStatus& t)
{
    const QLocale locale;
    const QString rows = locale.toString(qint64(t.rows));
    if (t.expected <= 0)
        return t.rows == 1 ? QObject::tr("1 row") : QObject::tr("%1 rows").arg(rows);
    // A replicated build counts the rows of its seeds' folders: table.csv holds a row once every
    // seed has it, so it says "0/16" while most of the work is done.
    const auto seeds = t.meta ? static_cast<qsizetype>(t.meta->seeds.size()) : qsizetype{0};
    QString held = QObject::tr("%1/%2 rows").arg(rows, locale.toString(qint64(t.expected)));
    if (seeds > 1 && !t.complete())
        held = QObject::tr("%1/%2 rows (%3 seeds)")
                   .arg(locale.toString(qint64(t.seed_rows)), locale.toString(qint64(t.seed_rows_expected)))
                   .arg(seeds);
    else if (seeds > 1)
        held = QObject::tr("%1 (%2 seeds)").arg(held).arg(seeds);
    if (t.building())
        return t.complete() ? QObject::tr("%1; building more, pid %2").arg(held).arg(t.builder)
                            : QObject::tr("building, %1, pid %2").arg(held).arg(t.builder);
    if (t.failed())
        return QObject::tr("failed, %1: %2").arg(held, QString::fromStdString(t.failure));
    return t.complete() ? held : QObject::tr("%1, incomplete").arg(held);
}

bool writtenLately(const RunFacts& facts)
{
    return facts.modified.isValid() && facts.modified.secsTo(QDateTime::currentDateTime()) < kRunningWindowS;
}

QString runStatus(const RunData& run, const RunFacts& facts)
{
    if (run.finished)
        return run.finished->cancelled ? QObject::tr("cancelled") : QObject::tr("finished");
    // A record is written whole, newline included, in one write: a partial last line is a kill's.
    if (run.truncated)
        return QObject::tr("killed (truncated)");
    return writtenLately(facts) ? QObject::tr("running") : QObject::tr("incomplete");
}

bool stillWritten(const RunData& run, const RunFacts& facts)
{
    return facts.table ? !facts.table->complete() : !run.finished;
}

RunRead readRunFolder(const std::filesystem::path& path)
{
    RunRead r;
    // Scanned first: a file written after the scan changes the signature again, so the next
    // rescan reads it; scanned after, that write could hide under a signature taken with it.
    scanFolder(qs(path.string()), r.facts);
    r.run = core::io::read_run(path);
    r.facts.tableFolder = isTableFolder(r.run);
    std::error_code ec;
    r.facts.configFile = std::filesystem::is_regular_file(path / "config.toml", ec);
    if (r.facts.tableFolder) {
        r.facts.tableFile = qs(core::sim::table_file(path).string());
        try {
            r.facts.table = core::sim::table_status(path);
        } catch (const std::exception& e) {
            // Broken metadata: the row says so, the listing goes on.
            r.run.problems.push_back("table: " + core::error_line(e));
        }
    }
    r.facts.fields = core::io::run_fields(r.run, r.facts.table ? &*r.facts.table : nullptr);
    try {
        r.facts.notes = core::io::read_notes(path);
    } catch (const std::exception& e) {
        r.facts.notesError = jobErrorLine(e); // the run reads on; its Notes tab says why
    }
    return r;
}

RunListing listRunFolders(const QString& root, const QHash<QString, QString>& known, const JobTracker::Token& token)
{
    RunListing l;
    QSet<QString> runs;
    for (const auto& path : core::io::find_runs(root.toStdString(), kFindDepth)) {
        if (token.stale())
            break; // overtaken by a newer refresh: nobody will see this listing
        const QString p = qs(path.string());
        runs.insert(QDir::cleanPath(p));
        try {
            if (const auto it = known.find(p); it != known.end()) {
                RunFacts facts;
                scanFolder(p, facts);
                if (facts.signature == *it) {
                    RunRead same;
                    same.run.path = path;
                    same.unchanged = true;
                    l.runs.push_back(std::move(same));
                    continue;
                }
            }
            l.runs.push_back(readRunFolder(path));
        } catch (const std::exception& e) {
            l.errors << jobErrorLine(e);
        }
    }
    // Folders that are no run (yet): a run started there, or a group of runs, shows up in them.
    QStringList level{root};
    for (int depth = 0; depth < kFindDepth && !token.stale(); ++depth) {
        QStringList next;
        for (const QString& dir : level)
            for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                if (f.isSymLink() || runs.contains(QDir::cleanPath(f.filePath())))
                    continue;
                l.folders << f.filePath();
                next << f.filePath();
            }
        level = next;
    }
    return l;
}

} // namespace rlda::widgets
