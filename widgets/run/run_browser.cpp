// Run folders under a root: a table of runs, a read-only summary of one, overlay and transfer.
#include "widgets/run/run_browser.h"

#include "core/config/schema.h"
#include "widgets/counted.h"
#include "widgets/run/config_compare_dialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileSystemWatcher>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <filesystem>
#include <set>

namespace rlda::widgets {

using core::io::RunData;
using core::io::RunKind;

namespace {

enum Column { Name, Kind, Result, Status, Modified, Columns }; // the built-in ones; the extras follow
const char* const kBuiltInIds[Columns] = {"run", "kind", "result", "status", "modified"};

// A number to sort a cell by, where it has one.
constexpr int kSortRole = Qt::UserRole + 1;

// Numbers sort as numbers (an accuracy of 0.9 before 0.85 descending, 10 epochs after 9), cells
// with one before cells without; the others by their text, as QTableWidgetItem does.
class SortItem : public QTableWidgetItem {
public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem& other) const override
    {
        const QVariant a = data(kSortRole);
        const QVariant b = other.data(kSortRole);
        if (a.isValid() && b.isValid())
            return a.toDouble() < b.toDouble();
        if (a.isValid() != b.isValid())
            return a.isValid();
        return text() < other.text();
    }
};

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The run folder's files down to two levels (metrics/x.csv, parts/3/table.csv): their names, sizes
// and times as its signature, the newest time as when it was last written (a still-growing or
// killed run), and the subfolders and appended files a watcher follows while it is written.
void scanFolder(const QString& folder, RunBrowser::Facts& facts)
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
    facts.signature = sig.join(QLatin1Char('\n'));
    facts.modified = latest;
}

QString tableResultText(const core::sim::TableStatus& t)
{
    if (!t.best)
        return QObject::tr("no rows yet");
    return QObject::tr("best [%1] · acc %2")
        .arg(qs(core::sim::sequence_string(t.best->actions)))
        .arg(t.best->accuracy, 0, 'f', 3);
}

QString resultText(const RunData& run)
{
    if (!run.episodes.empty()) {
        const auto& last = run.episodes.back();
        return QObject::tr("episode %1 · acc %2").arg(last.episode).arg(last.accuracy, 0, 'f', 3);
    }
    if (const auto acc = core::io::final_accuracy(run))
        return QObject::tr("acc %1").arg(*acc, 0, 'f', 3);
    return QStringLiteral("—");
}

// Which run of a pair continued a trained policy: a "settings" event naming a policy it started
// from, else the one whose episode counter did not start at 1 (it counts over the policy's life).
bool startedFromPolicy(const RunData& run)
{
    if (const auto settings = core::io::learn_settings(run))
        return !settings->from.empty();
    return !run.episodes.empty() && run.episodes.front().episode > 1;
}

std::vector<double> episodeSeries(const RunData& run, bool accuracy)
{
    std::vector<double> v;
    v.reserve(run.episodes.size());
    for (const auto& e : run.episodes)
        v.push_back(accuracy ? e.accuracy : e.objective);
    return v;
}

QString episodesText(const std::optional<std::int64_t>& n)
{
    return n ? QObject::tr("%1 episodes").arg(QLocale().toString(qint64(*n))) : QObject::tr("never");
}

// A run not finished that wrote lately is still being written, as far as a folder can tell.
bool writtenLately(const RunBrowser::Facts& facts)
{
    return facts.modified.isValid() &&
           facts.modified.secsTo(QDateTime::currentDateTime()) < RunBrowser::kRunningWindowS;
}

// The status of a run that is not a table folder, from what was read: no disk.
QString runStatus(const RunData& run, const RunBrowser::Facts& facts)
{
    if (run.finished)
        return run.finished->cancelled ? QObject::tr("cancelled") : QObject::tr("finished");
    // A record is written whole, newline included, in one write: a partial last line is a kill's.
    if (run.truncated)
        return QObject::tr("killed (truncated)");
    return writtenLately(facts) ? QObject::tr("running") : QObject::tr("incomplete");
}

// Being written, or it might be: its appended files are watched.
bool stillWritten(const RunData& run, const std::optional<core::sim::TableStatus>& table)
{
    return table ? !table->complete() : !run.finished;
}

QString noteLine(const std::string& note)
{
    QString first = qs(note).section(QLatin1Char('\n'), 0, 0);
    return first.size() > 60 ? first.left(59) + QStringLiteral("…") : first;
}

// On the job pool: one run folder as the browser shows it. Throws what read_run() throws.
RunBrowser::Read readOne(const std::filesystem::path& path)
{
    RunBrowser::Read r;
    // Scanned first: a file written after the scan changes the signature again, so the next
    // rescan reads it; scanned after, that write could hide under a signature taken with it.
    scanFolder(qs(path.string()), r.facts);
    r.run = core::io::read_run(path);
    r.facts.tableFolder = RunBrowser::isTableFolder(r.run);
    std::error_code ec;
    r.facts.configFile = std::filesystem::is_regular_file(path / "config.toml", ec);
    if (r.facts.tableFolder) {
        r.facts.tableFile = qs(core::sim::table_file(path).string());
        try {
            r.table = core::sim::table_status(path);
        } catch (const std::exception& e) {
            // Broken metadata: the row says so, the listing goes on.
            r.run.problems.push_back(std::string("table: ") + e.what());
        }
    }
    r.facts.fields = core::io::run_fields(r.run, r.table ? &*r.table : nullptr);
    try {
        r.facts.notes = core::io::read_notes(path);
    } catch (const std::exception& e) {
        r.facts.notesError = QString::fromUtf8(e.what()); // the run reads on; its Notes tab says why
    }
    return r;
}

constexpr int kFindDepth = 2; // find_runs' default

// On the job pool. `known`: the signature of each run listed now (a live rescan), whose unchanged
// runs are not read again.
RunBrowser::Listing listRuns(const QString& root, const QHash<QString, QString>& known, const JobTracker::Token& token)
{
    RunBrowser::Listing l;
    QSet<QString> runs;
    for (const auto& path : core::io::find_runs(root.toStdString(), kFindDepth)) {
        if (token.stale())
            break; // overtaken by a newer refresh: nobody will see this listing
        const QString p = qs(path.string());
        runs.insert(QDir::cleanPath(p));
        try {
            if (const auto it = known.find(p); it != known.end()) {
                RunBrowser::Facts facts;
                scanFolder(p, facts);
                if (facts.signature == *it) {
                    RunBrowser::Read same;
                    same.run.path = path;
                    same.unchanged = true;
                    l.runs.push_back(std::move(same));
                    continue;
                }
            }
            l.runs.push_back(readOne(path));
        } catch (const std::exception& e) {
            l.errors << QString::fromUtf8(e.what());
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

} // namespace

RunBrowser::RunBrowser(QWidget* parent)
    : QWidget(parent)
{
    rootEdit_ = new QLineEdit(this);
    rootEdit_->setObjectName(QStringLiteral("rootEdit"));
    rootEdit_->setPlaceholderText(tr("a folder of run folders"));
    auto* choose = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Choose…"), this);
    auto* reload = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this);
    reload->setObjectName(QStringLiteral("refreshButton"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Runs in"), this));
    top->addWidget(rootEdit_, 1);
    top->addWidget(choose);
    top->addWidget(reload);

    table_ = new QTableWidget(0, Columns, this);
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setHorizontalHeaderLabels({tr("Run"), tr("Kind"), tr("Result"), tr("Status"), tr("Modified")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    for (int c = Kind; c < Columns; ++c)
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // The short columns are sized from the rows in view and 100 more, not from every row (Qt's
    // default is 1000): a root of hundreds of runs then costs the GUI thread the same as a screenful.
    // Their texts are alike in width (kinds, dates, accuracies), so the widths stay right.
    table_->horizontalHeader()->setResizeContentsPrecision(100);
    table_->sortByColumn(Name, Qt::AscendingOrder); // the header's default is descending
    table_->setSortingEnabled(true);
    table_->setAlternatingRowColors(true);

    open_ = new QPushButton(tr("Open"), this);
    open_->setObjectName(QStringLiteral("openButton"));
    open_->setToolTip(tr("Read the selected run again and show it"));
    overlay_ = new QPushButton(tr("Overlay"), this);
    overlay_->setObjectName(QStringLiteral("overlayButton"));
    overlay_->setToolTip(tr("Plot the selected training runs together (select two or more)"));
    compare_ = new QPushButton(tr("Compare configs"), this);
    compare_->setObjectName(QStringLiteral("compareButton"));
    compare_->setToolTip(tr("Show the settings that differ between the two selected runs"));
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("filterEdit"));
    filter_->setPlaceholderText(tr("Filter: text in any column shown"));
    filter_->setClearButtonEnabled(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(overlay_);
    buttons->addWidget(compare_);
    buttons->addStretch(1);
    filterCount_ = new QLabel(this);
    filterCount_->setObjectName(QStringLiteral("filterCount"));
    buttons->addWidget(filterCount_);
    buttons->addWidget(filter_, 2);

    transferBox_ = new QGroupBox(tr("Transfer"), this);
    transferBox_->setObjectName(QStringLiteral("transferBox"));
    transferRun_ = new QComboBox(transferBox_);
    transferRun_->setObjectName(QStringLiteral("transferRun"));
    transferRun_->setToolTip(tr("The run that started from a trained policy; the other learned from scratch"));
    transferSeries_ = new QComboBox(transferBox_);
    transferSeries_->setObjectName(QStringLiteral("transferSeries"));
    transferSeries_->addItems({tr("accuracy"), tr("objective")});
    window_ = new QSpinBox(transferBox_);
    window_->setObjectName(QStringLiteral("transferWindow"));
    window_->setRange(1, 1000000);
    window_->setValue(100);
    window_->setSuffix(tr(" episodes"));
    threshold_ = new QDoubleSpinBox(transferBox_);
    threshold_->setObjectName(QStringLiteral("transferThreshold"));
    threshold_->setRange(-1e9, 1e9);
    threshold_->setDecimals(4);
    threshold_->setSingleStep(0.01);
    threshold_->setValue(0.8);
    transferResult_ = new QLabel(transferBox_);
    transferResult_->setObjectName(QStringLiteral("transferResult"));
    transferResult_->setWordWrap(true);
    transferResult_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Three lines of results: a word-wrapped label in a squeezed splitter pane would otherwise
    // shrink to one.
    transferResult_->setMinimumHeight(3 * transferResult_->fontMetrics().lineSpacing() + 6);
    transferResult_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* tform = new QFormLayout(transferBox_);
    auto* settings = new QHBoxLayout;
    settings->addWidget(transferSeries_);
    settings->addWidget(new QLabel(tr("window"), transferBox_));
    settings->addWidget(window_);
    settings->addWidget(new QLabel(tr("threshold"), transferBox_));
    settings->addWidget(threshold_);
    settings->addStretch(1);
    tform->addRow(tr("Transfer run"), transferRun_);
    tform->addRow(tr("Series"), settings);
    tform->addRow(transferResult_);
    transferBox_->hide();

    auto* upper = new QWidget(this);
    auto* ul = new QVBoxLayout(upper);
    ul->setContentsMargins(0, 0, 0, 0);
    ul->addWidget(table_, 1);
    ul->addLayout(buttons);
    ul->addWidget(transferBox_);

    details_ = new QTabWidget(this);
    details_->setObjectName(QStringLiteral("details"));
    summary_ = new QLabel(details_);
    summary_->setObjectName(QStringLiteral("summaryLabel"));
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(6);
    config_ = new QPlainTextEdit(details_);
    config_->setObjectName(QStringLiteral("configText"));
    config_->setReadOnly(true);
    config_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    config_->setLineWrapMode(QPlainTextEdit::NoWrap);
    problems_ = new QListWidget(details_);
    problems_->setObjectName(QStringLiteral("problemList"));
    adaptations_ = new QTableWidget(0, 6, details_);
    adaptations_->setObjectName(QStringLiteral("adaptationTable"));
    adaptations_->setHorizontalHeaderLabels(
        {tr("Time (s)"), tr("Decision"), tr("Agent"), tr("Action"), tr("Parameters"), tr("Probabilities")});
    adaptations_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    adaptations_->verticalHeader()->hide();
    adaptations_->horizontalHeader()->setStretchLastSection(true);
    details_->addTab(summary_, tr("Summary"));
    details_->addTab(config_, tr("Config"));
    details_->addTab(problems_, tr("Problems"));
    details_->addTab(adaptations_, tr("Adaptations"));

    auto* notes = new QWidget(details_);
    tagsEdit_ = new QLineEdit(notes);
    tagsEdit_->setObjectName(QStringLiteral("tagsEdit"));
    tagsEdit_->setPlaceholderText(tr("baseline, lr-sweep, …"));
    tagsEdit_->setToolTip(tr("Tags of the run, separated by commas"));
    noteEdit_ = new QPlainTextEdit(notes);
    noteEdit_->setObjectName(QStringLiteral("noteEdit"));
    noteEdit_->setPlaceholderText(tr("What this run tried, what came of it"));
    noteEdit_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    noteEdit_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    saveNotes_ = new QPushButton(tr("Save notes"), notes);
    saveNotes_->setObjectName(QStringLiteral("saveNotesButton"));
    saveNotes_->setToolTip(tr("Write the tags and the note to the run folder's %1").arg(qs(core::io::kNotesFile)));
    notesStatus_ = new QLabel(notes);
    notesStatus_->setObjectName(QStringLiteral("notesStatus"));
    notesStatus_->setWordWrap(true);
    auto* nform = new QFormLayout(notes);
    nform->addRow(tr("Tags"), tagsEdit_);
    nform->addRow(tr("Note"), noteEdit_);
    auto* nbuttons = new QHBoxLayout;
    nbuttons->addWidget(saveNotes_);
    nbuttons->addWidget(notesStatus_, 1);
    nform->addRow(nbuttons);
    details_->addTab(notes, tr("Notes"));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    watcher_ = new QFileSystemWatcher(this);
    rescan_ = new QTimer(this);
    rescan_->setSingleShot(true);
    rescan_->setInterval(kRescanDelayMs);
    poll_ = new QTimer(this);
    poll_->setInterval(kPollMs);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &RunBrowser::changed);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &RunBrowser::changed);
    connect(rescan_, &QTimer::timeout, this, [this] { list(true); });
    connect(poll_, &QTimer::timeout, this, &RunBrowser::changed);
    follower_ = new RunFollower(this);

    auto* header = table_->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](const QPoint& at) {
        QMenu* menu = columnMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(header->mapToGlobal(at));
    });
    connect(header, &QHeaderView::sortIndicatorChanged, this, &RunBrowser::applyFilter);
    connect(filter_, &QLineEdit::textChanged, this, &RunBrowser::applyFilter);
    connect(compare_, &QPushButton::clicked, this, [this] {
        if (auto* dialog = compareConfigs())
            dialog->show();
    });
    connect(saveNotes_, &QPushButton::clicked, this,
            [this] { saveNotes(tagsEdit_->text(), noteEdit_->toPlainText()); });
    {
        const QStringList saved = QSettings().value(QLatin1String(kColumnsSettingsKey)).toStringList();
        const QSignalBlocker block(this);
        showColumns(saved.isEmpty() ? defaultColumns() : saved);
    }

    connect(choose, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of runs"), root_);
        if (!dir.isEmpty())
            setRoot(dir);
    });
    connect(rootEdit_, &QLineEdit::returnPressed, this, [this] { setRoot(rootEdit_->text()); });
    connect(reload, &QPushButton::clicked, this, &RunBrowser::refresh);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &RunBrowser::onSelectionChanged);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        openRun(table_->item(row, Name)->data(Qt::UserRole).toInt());
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (rows.size() == 1)
            openRun(table_->item(rows.front().row(), Name)->data(Qt::UserRole).toInt());
    });
    connect(overlay_, &QPushButton::clicked, this, [this] {
        const auto runs = overlayRuns();
        if (runs.size() >= 2)
            Q_EMIT overlayRequested(runs);
    });
    connect(transferRun_, &QComboBox::currentIndexChanged, this, &RunBrowser::updateTransfer);
    connect(transferSeries_, &QComboBox::currentIndexChanged, this, &RunBrowser::updateTransfer);
    connect(window_, &QSpinBox::valueChanged, this, &RunBrowser::updateTransfer);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, &RunBrowser::updateTransfer);
    onSelectionChanged();
}

bool RunBrowser::isTableFolder(const RunData& run)
{
    std::error_code ec;
    namespace fs = std::filesystem;
    // While rlda simulate builds it, the rows are in parts/ beside table.json; table.csv comes last.
    return (fs::is_regular_file(run.path / "table.csv", ec) &&
            (fs::is_regular_file(run.path / "table.json", ec) || fs::is_regular_file(run.path / "config.toml", ec))) ||
           (fs::is_regular_file(run.path / "table.json", ec) && fs::is_directory(run.path / "parts", ec));
}

QString RunBrowser::tableStatusText(const core::sim::TableStatus& t)
{
    const QString rows = QLocale().toString(qint64(t.rows));
    if (t.expected <= 0)
        return t.rows == 1 ? tr("1 row") : tr("%1 rows").arg(rows);
    const QString held = tr("%1/%2 rows").arg(rows, QLocale().toString(qint64(t.expected)));
    return t.complete() ? held : tr("%1, incomplete").arg(held);
}

std::optional<core::sim::TableStatus> RunBrowser::tableStatus(int index) const
{
    return index >= 0 && index < tables_.size() ? tables_[index] : std::nullopt;
}

void RunBrowser::setRoot(const QString& folder)
{
    root_ = folder;
    rootEdit_->setText(folder);
    refresh();
}

void RunBrowser::refresh() { list(false); }

void RunBrowser::changed()
{
    // Not restarted by further changes: a run that writes without pause still shows every
    // kRescanDelayMs instead of never.
    if (!rescan_->isActive())
        rescan_->start();
}

void RunBrowser::list(bool live)
{
    if (live && listing_.isRunning()) {
        rescanAgain_ = true; // never overtake a listing with a rescan: under constant writes none would answer
        return;
    }
    rescanAgain_ = false;
    listingTime_.start();
    QHash<QString, QString> known;
    if (live)
        for (int i = 0; i < runs_.size(); ++i)
            known.insert(qs(runs_[i].path.string()), facts_[i].signature);
    listing_.startJob([root = root_, known](const JobTracker::Token& token) { return listRuns(root, known, token); },
                      [this, live](Listing listing) { showListing(std::move(listing), live); },
                      [this](const QString& error) {
                          readErrors_ = {error};
                          showSummary(-1);
                          Q_EMIT listed();
                      });
}

int RunBrowser::rowOf(int index) const
{
    for (int row = 0; row < table_->rowCount(); ++row)
        if (auto* item = table_->item(row, Name); item && item->data(Qt::UserRole).toInt() == index)
            return row;
    return -1;
}

void RunBrowser::showListing(Listing listing, bool live)
{
    rescan_->setInterval(std::max<int>(kRescanDelayMs, int(2 * listingTime_.elapsed())));
    QHash<QString, int> old;
    for (int i = 0; i < runs_.size(); ++i)
        old.insert(qs(runs_[i].path.string()), i);
    bool samePaths = listing.runs.size() == runs_.size();
    QList<int> changedIndices;
    QList<RunData> runs;
    QList<std::optional<core::sim::TableStatus>> tables;
    QList<Facts> facts;
    for (int i = 0; i < listing.runs.size(); ++i) {
        Read& r = listing.runs[i];
        const int was = old.value(qs(r.run.path.string()), -1);
        samePaths = samePaths && was == i;
        if (r.unchanged && was >= 0) {
            runs.push_back(std::move(runs_[was]));
            tables.push_back(std::move(tables_[was]));
            facts.push_back(std::move(facts_[was]));
            continue;
        }
        changedIndices << i;
        runs.push_back(std::move(r.run));
        tables.push_back(std::move(r.table));
        facts.push_back(std::move(r.facts));
    }
    const QStringList selected = [this] {
        QStringList paths;
        for (const auto& run : selectedRuns())
            paths << qs(run.path.string());
        return paths;
    }();
    runs_ = std::move(runs);
    tables_ = std::move(tables);
    facts_ = std::move(facts);
    readErrors_ = listing.errors;
    if (live && samePaths) {
        // Rows in place: the selection, the sort and the scroll stay where the user left them.
        const QSignalBlocker block(table_);
        const bool sorting = table_->isSortingEnabled();
        table_->setSortingEnabled(false);
        // As fillTable(): columns sized to their contents would re-measure at every cell set.
        auto* header = table_->horizontalHeader();
        QList<QHeaderView::ResizeMode> modes;
        for (int c = 0; c < table_->columnCount(); ++c) {
            modes << header->sectionResizeMode(c);
            if (c != Name)
                header->setSectionResizeMode(c, QHeaderView::Interactive);
        }
        for (int index : std::as_const(changedIndices))
            if (const int row = rowOf(index); row >= 0)
                fillRow(row, index);
        for (int c = 1; c < table_->columnCount(); ++c)
            header->setSectionResizeMode(c, modes[c]);
        table_->setSortingEnabled(sorting);
        const auto sel = selectedRuns();
        if (sel.size() == 1)
            for (int index : std::as_const(changedIndices))
                if (runs_[index].path == sel.front().path)
                    showSummary(index);
    } else {
        const int scroll = table_->verticalScrollBar()->value();
        fillTable(live ? selected : QStringList());
        table_->verticalScrollBar()->setValue(scroll);
    }
    applyFilter();
    watch(listing.folders);
    if (live)
        Q_EMIT updated();
    else
        Q_EMIT listed();
    if (rescanAgain_)
        changed();
}

void RunBrowser::fillTable(const QStringList& selectedPaths)
{
    {
        const QSignalBlocker block(table_);
        table_->setSortingEnabled(false); // rows are filled by index; sorting would move them midway
        // Columns sized to their contents re-measure every row at each cell set: sized
        // once, after the fill, the listing costs the GUI thread linear time.
        auto* header = table_->horizontalHeader();
        for (int c = Kind; c < table_->columnCount(); ++c)
            header->setSectionResizeMode(c, QHeaderView::Interactive);
        table_->clearContents();
        table_->setRowCount(int(runs_.size()));
        for (int i = 0; i < runs_.size(); ++i)
            fillRow(i, i);
        // A note is long: its column keeps the width it is given.
        const int note = extras_.contains(QStringLiteral("note")) ? Columns + int(extras_.indexOf(QStringLiteral("note"))) : -1;
        for (int c = Kind; c < table_->columnCount(); ++c)
            header->setSectionResizeMode(c, c == note ? QHeaderView::Interactive : QHeaderView::ResizeToContents);
        table_->setSortingEnabled(true);
        if (!selectedPaths.isEmpty()) {
            auto* model = table_->selectionModel();
            for (int row = 0; row < table_->rowCount(); ++row)
                if (selectedPaths.contains(qs(runs_[table_->item(row, Name)->data(Qt::UserRole).toInt()].path.string())))
                    model->select(table_->model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
    onSelectionChanged();
}

void RunBrowser::watch(const QStringList& folders)
{
    // Runs still written first: they are what following is for, and what the cap must not cut.
    QStringList want{root_};
    for (int i = 0; i < runs_.size(); ++i)
        if (stillWritten(runs_[i], tables_[i])) {
            want << qs(runs_[i].path.string());
            want << facts_[i].appended;
        }
    want << folders;
    for (const auto& run : std::as_const(runs_))
        want << qs(run.path.string());
    QSet<QString> wanted;
    QStringList ordered;
    for (const QString& p : std::as_const(want))
        if (!p.isEmpty() && !wanted.contains(p)) {
            wanted.insert(p);
            ordered << p;
        }
    const bool capped = ordered.size() > kMaxWatchedPaths;
    if (capped) {
        ordered = ordered.mid(0, kMaxWatchedPaths);
        wanted = QSet<QString>(ordered.begin(), ordered.end());
    }
    const QStringList have = watcher_->files() + watcher_->directories();
    QStringList drop;
    for (const QString& p : have)
        if (!wanted.contains(p))
            drop << p;
    if (!drop.isEmpty())
        watcher_->removePaths(drop);
    const QSet<QString> had(have.begin(), have.end());
    QStringList add;
    for (const QString& p : std::as_const(ordered))
        if (!had.contains(p))
            add << p;
    // A path gone since the listing is refused too; the next listing no longer wants it.
    const QStringList refused = add.isEmpty() ? QStringList() : watcher_->addPaths(add);
    bool lost = capped;
    for (const QString& p : refused)
        lost = lost || QFileInfo::exists(p);
    if (lost && !root_.isEmpty())
        poll_->start();
    else
        poll_->stop();
}

QStringList RunBrowser::watchedPaths() const { return watcher_->directories() + watcher_->files(); }

void RunBrowser::fillRow(int row, int index)
{
    const RunData& run = runs_[index];
    const Facts& facts = facts_[index];
    // Names relative to the root tell nested runs apart.
    QString name = QDir(root_).relativeFilePath(qs(run.path.string()));
    if (name.isEmpty() || name == QStringLiteral("."))
        name = qs(run.name);
    const auto& table = tables_[index];
    const bool tableFolder = facts.tableFolder;
    const QString st = table ? tableStatusText(*table) : (tableFolder ? tr("unreadable table") : runStatus(run, facts));
    const QString result = table ? tableResultText(*table) : resultText(run);
    const QDateTime& modified = facts.modified;
    QStringList texts{name, qs(core::io::to_string(run.kind)), result, st,
                      modified.isValid() ? modified.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString()};
    QList<QVariant> numbers(Columns);
    if (const auto it = facts.fields.values.find("final_accuracy"); it != facts.fields.values.end() && it->second.number)
        numbers[Result] = *it->second.number;
    for (const QString& id : std::as_const(extras_)) {
        QVariant number;
        if (id == QLatin1String("tags")) {
            texts << qs(core::io::tags_text(facts.notes.tags));
        } else if (id == QLatin1String("note")) {
            texts << noteLine(facts.notes.note);
        } else if (const auto it = facts.fields.values.find(id.toStdString()); it != facts.fields.values.end()) {
            texts << qs(it->second.text);
            if (it->second.number)
                number = *it->second.number;
        } else {
            texts << QString();
        }
        numbers << number;
    }
    const bool unfinished = table ? table->expected > 0 && !table->complete() : (tableFolder || (run.truncated && !run.finished));
    const bool running = !table && !tableFolder && !run.finished && !run.truncated && writtenLately(facts);
    // Each cell is made whole before it enters the table: one change signal per cell, not five.
    for (int c = 0; c < texts.size(); ++c) {
        auto* item = new SortItem(texts[c]);
        if (numbers[c].isValid())
            item->setData(kSortRole, numbers[c]);
        if (c == Name) {
            item->setToolTip(qs(run.path.string()));
            item->setData(Qt::UserRole, index);
        }
        if (c == Status) {
            if (running)
                item->setForeground(QBrush(QColor(0x1f, 0x77, 0xb4)));
            else if (unfinished)
                item->setForeground(QBrush(QColor(0xb2, 0x4a, 0x00)));
            if (!run.problems.empty())
                item->setToolTip(run.problems.size() == 1 ? tr("1 record skipped; see Problems")
                                                          : tr("%1 records skipped; see Problems").arg(run.problems.size()));
        }
        if (c >= Columns && extras_[c - Columns] == QLatin1String("note"))
            item->setToolTip(qs(facts.notes.note));
        table_->setItem(row, c, item);
    }
}

const QList<RunBrowser::ColumnInfo>& RunBrowser::columnCatalog()
{
    static const QList<ColumnInfo> catalog = [] {
        QList<ColumnInfo> c{{QStringLiteral("run"), tr("Run"), {}},       {QStringLiteral("kind"), tr("Kind"), {}},
                            {QStringLiteral("result"), tr("Result"), {}}, {QStringLiteral("status"), tr("Status"), {}},
                            {QStringLiteral("modified"), tr("Modified"), {}}, {QStringLiteral("tags"), tr("Tags"), {}},
                            {QStringLiteral("note"), tr("Note"), {}}};
        for (const auto& f : core::io::result_fields())
            c.push_back({qs(f.id), tr(f.label.c_str()), tr("Results")});
        for (const auto& k : core::config::experiment_schema().keys)
            c.push_back({qs(k.name), qs(k.name), k.section().empty() ? tr("Config") : qs(k.section())});
        return c;
    }();
    return catalog;
}

QStringList RunBrowser::defaultColumns()
{
    return {QStringLiteral("run"), QStringLiteral("kind"), QStringLiteral("result"), QStringLiteral("status"),
            QStringLiteral("modified"), QStringLiteral("tags")};
}

int RunBrowser::tableColumn(const QString& id) const
{
    for (int c = 0; c < Columns; ++c)
        if (id == QLatin1String(kBuiltInIds[c]))
            return table_->isColumnHidden(c) ? -1 : c;
    const auto i = extras_.indexOf(id);
    return i < 0 ? -1 : Columns + int(i);
}

QStringList RunBrowser::columns() const
{
    QStringList out;
    for (const char* id : kBuiltInIds)
        if (!hiddenBuiltIns_.contains(QLatin1String(id)))
            out << QLatin1String(id);
    return out + extras_;
}

void RunBrowser::setColumns(const QStringList& ids)
{
    showColumns(ids);
    QSettings().setValue(QLatin1String(kColumnsSettingsKey), columns());
}

void RunBrowser::showColumns(const QStringList& ids)
{
    QStringList extras;
    QStringList hidden;
    for (const char* id : kBuiltInIds)
        if (!ids.contains(QLatin1String(id)) && qstrcmp(id, "run") != 0)
            hidden << QLatin1String(id);
    for (const QString& id : ids) {
        const auto& all = columnCatalog();
        const bool known = std::any_of(std::next(all.cbegin(), Columns), all.cend(),
                                       [&id](const ColumnInfo& c) { return c.id == id; });
        if (known && !extras.contains(id))
            extras << id;
    }
    const bool rebuild = extras != extras_;
    extras_ = extras;
    hiddenBuiltIns_ = hidden;
    if (rebuild)
        rebuildColumns();
    for (int c = 0; c < Columns; ++c)
        table_->setColumnHidden(c, hiddenBuiltIns_.contains(QLatin1String(kBuiltInIds[c])));
    applyFilter();
}

void RunBrowser::rebuildColumns()
{
    QStringList labels{tr("Run"), tr("Kind"), tr("Result"), tr("Status"), tr("Modified")};
    for (const QString& id : std::as_const(extras_))
        for (const auto& c : columnCatalog())
            if (c.id == id)
                labels << c.label;
    const QStringList selected = [this] {
        QStringList paths;
        for (const auto& run : selectedRuns())
            paths << qs(run.path.string());
        return paths;
    }();
    table_->setColumnCount(Columns + int(extras_.size()));
    table_->setHorizontalHeaderLabels(labels);
    for (int c = 0; c < labels.size(); ++c)
        if (auto* h = table_->horizontalHeaderItem(c); h && c >= Columns) {
            const auto* key = core::config::experiment_schema().find(extras_[c - Columns].toStdString());
            h->setToolTip(key ? QStringLiteral("%1: %2").arg(extras_[c - Columns], qs(key->hint())) : extras_[c - Columns]);
        }
    fillTable(selected);
}

QMenu* RunBrowser::columnMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("columnMenu"));
    const QStringList shown = columns();
    QHash<QString, QMenu*> groups;
    for (const auto& c : columnCatalog()) {
        QMenu* into = menu;
        if (!c.group.isEmpty()) {
            if (!groups.contains(c.group)) {
                if (groups.isEmpty())
                    menu->addSeparator();
                groups.insert(c.group, menu->addMenu(c.group == tr("Results") || c.group == tr("Config")
                                                         ? c.group
                                                         : tr("Config: [%1]").arg(c.group)));
            }
            into = groups.value(c.group);
        }
        QAction* a = into->addAction(c.label);
        a->setData(c.id);
        a->setCheckable(true);
        a->setChecked(shown.contains(c.id));
        a->setEnabled(c.id != QLatin1String("run"));
        if (const auto* key = core::config::experiment_schema().find(c.id.toStdString()))
            a->setToolTip(qs(key->hint()));
        connect(a, &QAction::toggled, this, [this, id = c.id](bool on) {
            QStringList ids = columns();
            if (on && !ids.contains(id))
                ids << id;
            else if (!on)
                ids.removeAll(id);
            setColumns(ids);
        });
    }
    menu->addSeparator();
    connect(menu->addAction(tr("Default columns")), &QAction::triggered, this, [this] { setColumns(defaultColumns()); });
    return menu;
}

void RunBrowser::setFilterText(const QString& text) { filter_->setText(text); }

void RunBrowser::applyFilter()
{
    const QString needle = filter_->text().trimmed();
    for (int row = 0; row < table_->rowCount(); ++row) {
        bool keep = needle.isEmpty();
        for (int c = 0; !keep && c < table_->columnCount(); ++c)
            if (!table_->isColumnHidden(c))
                if (auto* item = table_->item(row, c))
                    keep = item->text().contains(needle, Qt::CaseInsensitive);
        table_->setRowHidden(row, !keep);
    }
    const int shown = visibleRowCount();
    filterCount_->setText(shown < table_->rowCount() ? tr("%1 of %2 runs").arg(shown).arg(table_->rowCount()) : QString());
}

int RunBrowser::visibleRowCount() const
{
    int n = 0;
    for (int row = 0; row < table_->rowCount(); ++row)
        n += table_->isRowHidden(row) ? 0 : 1;
    return n;
}

QString RunBrowser::notesPath() const { return notesFor_; }

void RunBrowser::showNotes(int index)
{
    const bool one = index >= 0 && index < runs_.size();
    const QString path = one ? qs(runs_[index].path.string()) : QString();
    tagsEdit_->setEnabled(one);
    noteEdit_->setEnabled(one);
    saveNotes_->setEnabled(one && !notesJob_.isRunning());
    if (path == notesFor_ && one)
        return; // a live update of the same run: what the user is typing stays
    notesFor_ = path;
    tagsEdit_->setText(one ? qs(core::io::tags_text(facts_[index].notes.tags)) : QString());
    noteEdit_->setPlainText(one ? qs(facts_[index].notes.note) : QString());
    notesStatus_->setText(one && !facts_[index].notesError.isEmpty()
                              ? tr("%1 (saving replaces it)").arg(facts_[index].notesError.toHtmlEscaped())
                              : QString());
}

bool RunBrowser::saveNotes(const QString& tags, const QString& note)
{
    const auto sel = selectedRuns();
    if (sel.size() != 1)
        return false;
    core::io::RunNotes notes;
    try {
        notes.tags = core::io::parse_tags(tags.toStdString());
    } catch (const std::exception& e) {
        notesStatus_->setText(QString::fromUtf8(e.what()).toHtmlEscaped());
        return false;
    }
    notes.note = note.toStdString();
    saveNotes_->setEnabled(false);
    notesStatus_->setText(tr("Saving…"));
    notesJob_.startJob(
        [path = sel.front().path, notes] {
            core::io::write_notes(path, notes);
            return std::make_pair(path, core::io::read_notes(path));
        },
        [this](std::pair<std::filesystem::path, core::io::RunNotes> saved) {
            saveNotes_->setEnabled(!notesFor_.isEmpty());
            for (int i = 0; i < runs_.size(); ++i)
                if (runs_[i].path == saved.first) {
                    facts_[i].notes = saved.second;
                    facts_[i].notesError.clear();
                    if (const int row = rowOf(i); row >= 0) {
                        const bool sorting = table_->isSortingEnabled();
                        table_->setSortingEnabled(false);
                        fillRow(row, i);
                        table_->setSortingEnabled(sorting);
                    }
                }
            applyFilter();
            notesStatus_->setText(tr("Saved to %1").arg(qs(core::io::kNotesFile)));
            Q_EMIT notesSaved(QString());
        },
        [this](const QString& error) {
            saveNotes_->setEnabled(!notesFor_.isEmpty());
            notesStatus_->setText(error.toHtmlEscaped());
            Q_EMIT notesSaved(error);
        });
    return true;
}

ConfigCompareDialog* RunBrowser::compareConfigs()
{
    std::set<int> indices;
    for (const auto& r : table_->selectionModel()->selectedRows())
        indices.insert(table_->item(r.row(), Name)->data(Qt::UserRole).toInt());
    if (indices.size() != 2)
        return nullptr;
    const int a = *indices.begin();
    const int b = *std::next(indices.begin());
    for (int i : {a, b})
        if (!facts_[i].fields.config) {
            summary_->setText(facts_[i].fields.config_error.empty()
                                  ? tr("%1 has no config.toml to compare.").arg(qs(runs_[i].name).toHtmlEscaped())
                                  : qs(facts_[i].fields.config_error).toHtmlEscaped());
            return nullptr;
        }
    auto* dialog = new ConfigCompareDialog(qs(runs_[a].name), *facts_[a].fields.config, qs(runs_[b].name),
                                           *facts_[b].fields.config, this);
    dialog->setObjectName(QStringLiteral("compareDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    return dialog;
}

QList<RunData> RunBrowser::overlayRuns() const
{
    QList<RunData> out;
    for (const auto& run : selectedRuns())
        if (run.kind == RunKind::Training)
            out.push_back(run);
    return out;
}

QList<RunData> RunBrowser::selectedRuns() const
{
    // In the order of runs(), whatever the table is sorted by: stable for an overlay's colours.
    std::set<int> indices;
    for (const auto& r : table_->selectionModel()->selectedRows())
        indices.insert(table_->item(r.row(), Name)->data(Qt::UserRole).toInt());
    QList<RunData> out;
    for (int i : indices)
        out.push_back(runs_.at(i));
    return out;
}

void RunBrowser::selectRuns(const QList<int>& indices)
{
    table_->clearSelection();
    auto* model = table_->selectionModel();
    for (int row = 0; row < table_->rowCount(); ++row)
        if (indices.contains(table_->item(row, Name)->data(Qt::UserRole).toInt()))
            model->select(table_->model()->index(row, 0),
                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

bool RunBrowser::openRun(int index)
{
    if (index < 0 || index >= runs_.size())
        return false;
    // Read afresh: it may have grown since the listing.
    opening_.startJob([path = runs_[index].path] { return readOne(path); },
                      [this](Read read) { opened(std::move(read)); },
                      [this](const QString& error) {
                          summary_->setText(error.toHtmlEscaped());
                          Q_EMIT openFailed(error);
                      });
    return true;
}

void RunBrowser::opened(Read read)
{
    // The listing may have changed meanwhile: the run is found again by its folder.
    int index = -1;
    for (int i = 0; i < runs_.size() && index < 0; ++i)
        if (runs_[i].path == read.run.path)
            index = i;
    if (index >= 0) {
        runs_[index] = read.run;
        tables_[index] = read.table;
        facts_[index] = read.facts;
        if (const int row = rowOf(index); row >= 0) {
            const bool sorting = table_->isSortingEnabled();
            table_->setSortingEnabled(false);
            fillRow(row, index);
            table_->setSortingEnabled(sorting);
        }
        showSummary(index);
    }
    if (read.facts.tableFolder)
        Q_EMIT tableOpened(read.facts.tableFile); // the Tables page
    else
        Q_EMIT runOpened(read.run);
}

void RunBrowser::onSelectionChanged()
{
    const auto runs = selectedRuns();
    open_->setEnabled(runs.size() == 1);
    overlay_->setEnabled(overlayRuns().size() >= 2);
    compare_->setEnabled(runs.size() == 2);
    if (runs.size() == 1) {
        const int index = table_->item(table_->selectionModel()->selectedRows().front().row(), Name)
                              ->data(Qt::UserRole)
                              .toInt();
        open_->setToolTip(facts_[index].tableFolder ? tr("Read the selected table again and show it in the Tables page")
                                                    : tr("Read the selected run again and show it"));
        showSummary(index);
        showNotes(index);
    } else {
        showSummary(-1);
        showNotes(-1);
    }

    const bool pair = runs.size() == 2 && runs[0].kind == RunKind::Learning && runs[1].kind == RunKind::Learning;
    transferBox_->setVisible(pair);
    if (pair) {
        const QSignalBlocker block(transferRun_);
        transferRun_->clear();
        transferRun_->addItem(qs(runs[0].name));
        transferRun_->addItem(qs(runs[1].name));
        transferRun_->setCurrentIndex(startedFromPolicy(runs[0]) && !startedFromPolicy(runs[1]) ? 0 : 1);
    }
    updateTransfer();
}

void RunBrowser::updateTransfer()
{
    transfer_.reset();
    const auto runs = selectedRuns();
    if (!transferBox_->isVisibleTo(this) || runs.size() != 2) {
        transferResult_->clear();
        return;
    }
    const int t = transferRun_->currentIndex() == 0 ? 0 : 1;
    const bool accuracy = transferSeries_->currentIndex() == 0;
    const auto m = core::sim::transfer_metrics(episodeSeries(runs[t], accuracy), episodeSeries(runs[1 - t], accuracy),
                                               std::size_t(window_->value()), threshold_->value());
    transfer_ = m;
    QStringList lines;
    lines << (m.jumpstart ? tr("Jumpstart: <b>%1</b> (mean of the first %2 episodes, %3 minus %4)")
                                .arg(QString::asprintf("%+.4g", *m.jumpstart))
                                .arg(m.window)
                                .arg(qs(runs[t].name).toHtmlEscaped(), qs(runs[1 - t].name).toHtmlEscaped())
                          : tr("Jumpstart: — (a run without episodes)"));
    lines << tr("Rolling mean ≥ %1 reached after: transfer <b>%2</b>, scratch <b>%3</b>")
                 .arg(threshold_->value())
                 .arg(episodesText(m.transfer_episodes), episodesText(m.scratch_episodes));
    if (m.episodes_saved)
        lines << tr("Episodes saved by transfer: <b>%1</b>").arg(QLocale().toString(qint64(*m.episodes_saved)));
    transferResult_->setText(lines.join(QStringLiteral("<br>")));
}

void RunBrowser::showSummary(int index)
{
    problems_->clear();
    adaptations_->setRowCount(0);
    const RunData* run = index >= 0 && index < runs_.size() ? &runs_[index] : nullptr;
    if (!run) {
        const int n = int(table_->selectionModel()->selectedRows().size());
        QString text = n > 1 ? tr("%1 runs selected.").arg(n)
                             : (runs_.isEmpty() ? tr("No run folders here.") : tr("Select a run to see its summary."));
        if (!readErrors_.isEmpty())
            text += QStringLiteral("<br><br>") + tr("Not readable:") + QStringLiteral("<br>") +
                    readErrors_.join(QStringLiteral("<br>")).toHtmlEscaped();
        summary_->setText(text);
        config_->clear();
        details_->setTabText(2, tr("Problems"));
        return;
    }
    QStringList rows;
    const auto row = [&rows](const QString& k, const QString& v) {
        rows << QStringLiteral("<tr><td style='padding-right:12px'><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Run"), qs(run->name).toHtmlEscaped());
    row(tr("Folder"), qs(run->path.string()).toHtmlEscaped());
    row(tr("Kind"), qs(core::io::to_string(run->kind)));
    const core::sim::TableStatus* table = tables_[index] ? &*tables_[index] : nullptr;
    if (table) {
        row(tr("Rows"), tableStatusText(*table) + (table->expected > 0 ? QString() : tr(" (no metadata: expected unknown)")));
        if (table->best)
            row(tr("Best sequence"), tr("[%1]: accuracy %2")
                                         .arg(qs(core::sim::sequence_string(table->best->actions)))
                                         .arg(table->best->accuracy, 0, 'f', 4));
        if (const auto& m = table->meta) {
            row(tr("Model"), tr("%1 on %2, %3 classes")
                                 .arg(qs(m->model).toHtmlEscaped(), qs(core::model::shape_string(m->input)))
                                 .arg(m->classes));
            row(tr("Dataset"), qs(core::config::to_string(m->dataset.kind)).toHtmlEscaped());
            row(tr("Scenario"), tr("%1: budget %2 s, first up at %3 s")
                                    .arg(qs(m->scenario).toHtmlEscaped())
                                    .arg(m->scheduler.budget, 0, 'g', 6)
                                    .arg(m->first_up(), 0, 'g', 6));
            row(tr("Decisions · actions"), QStringLiteral("%1 · %2").arg(m->decisions).arg(m->actions));
        }
        if (!table->complete() && table->expected > 0 && facts_[index].configFile)
            row(tr("To finish it"), tr("run <tt>rlda simulate %1 --out %2</tt> again")
                                        .arg(qs((run->path / "config.toml").string()).toHtmlEscaped(),
                                             qs(run->path.string()).toHtmlEscaped()));
    } else {
        row(tr("Status"), facts_[index].tableFolder ? tr("unreadable table") : runStatus(*run, facts_[index]));
    }
    if (const auto acc = core::io::final_accuracy(*run); acc && run->episodes.empty())
        row(tr("Final test accuracy"), QString::number(*acc, 'f', 4));
    if (run->finished && run->kind == RunKind::Training)
        row(tr("Epochs · steps"), QStringLiteral("%1 · %2").arg(run->finished->epochs).arg(run->finished->steps));
    if (!run->episodes.empty()) {
        const auto& last = run->episodes.back();
        row(tr("Episodes"), tr("%1 read, last %2: accuracy %3, objective %4")
                                .arg(run->episodes.size())
                                .arg(last.episode)
                                .arg(last.accuracy, 0, 'f', 4)
                                .arg(last.objective, 0, 'g', 5));
    }
    if (!run->series.empty()) {
        QStringList names;
        for (const auto& [name, points] : run->series)
            names << QStringLiteral("%1 (%2)").arg(qs(name)).arg(points.size());
        row(tr("Series"), names.join(QStringLiteral(", ")));
    }
    if (!run->allocations.empty() || !run->adaptations.empty())
        row(tr("Events"), counted(qint64(run->allocations.size()), tr("allocation change"), tr("allocation changes")) +
                              QStringLiteral(", ") +
                              counted(qint64(run->adaptations.size()), tr("adaptation"), tr("adaptations")));
    if (run->final_model)
        row(tr("Final model"), tr("%1, %2 parameters")
                                   .arg(qs(run->final_model->name).toHtmlEscaped(),
                                        QLocale().toString(qint64(run->final_model->parameters))));
    if (const auto& error = facts_[index].fields.config_error; !error.empty())
        row(tr("config.toml"), qs(error).toHtmlEscaped()); // why its settings are not in the columns
    for (std::size_t i = 0; i < run->messages.size() && i < 5; ++i)
        row(i == 0 ? tr("Messages") : QString(), qs(run->messages[i]).toHtmlEscaped());
    row(tr("Problems"), run->problems.empty() ? tr("none") : (run->problems.size() == 1 ? tr("1 record skipped") : tr("%1 records skipped").arg(run->problems.size())));
    summary_->setText(QStringLiteral("<table>%1</table>").arg(rows.join(QString())));

    config_->setPlainText(run->config_text.empty() ? tr("(no config.toml)") : qs(run->config_text));
    for (const auto& p : run->problems)
        problems_->addItem(qs(p));
    if (run->problems.empty())
        problems_->addItem(tr("No problems: every record was read whole."));
    details_->setTabText(2, run->problems.empty() ? tr("Problems") : tr("Problems (%1)").arg(run->problems.size()));

    adaptations_->setRowCount(int(run->adaptations.size()));
    for (int i = 0; i < int(run->adaptations.size()); ++i) {
        const auto& a = run->adaptations[std::size_t(i)];
        QStringList probs;
        for (double p : a.probabilities)
            probs << QString::number(p, 'f', 3);
        const QStringList cells{QString::number(a.time, 'g', 6), QString::number(a.decision), qs(a.agent),
                                a.did_nothing ? tr("%1 (Do Nothing)").arg(a.action) : QString::number(a.action),
                                QStringLiteral("%1 → %2")
                                    .arg(QLocale().toString(qint64(a.before.parameters)),
                                         QLocale().toString(qint64(a.after.parameters))),
                                probs.join(QLatin1Char(' '))};
        for (int c = 0; c < cells.size(); ++c)
            adaptations_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    adaptations_->resizeColumnsToContents();
}

} // namespace rlda::widgets
