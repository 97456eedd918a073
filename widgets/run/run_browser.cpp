// Run folders under a root: a table of runs, a read-only summary of one, overlay and transfer.
#include "widgets/run/run_browser.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <filesystem>
#include <set>

namespace rlda::widgets {

using core::io::RunData;
using core::io::RunKind;

namespace {

enum Column { Name, Kind, Result, Status, Modified, Columns };

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The newest file of the run: what a still-growing or killed run last wrote.
QDateTime lastWritten(const RunData& run)
{
    QDateTime latest;
    for (const QString& dir : {QString(), QStringLiteral("metrics")}) {
        const QDir d(QDir(qs(run.path.string())).filePath(dir));
        for (const QFileInfo& f : d.entryInfoList(QDir::Files))
            if (!latest.isValid() || f.lastModified() > latest)
                latest = f.lastModified();
    }
    return latest;
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
    for (const auto& line : run.other_events) {
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
        if (o.value(QStringLiteral("type")).toString() == QStringLiteral("settings"))
            return !o.value(QStringLiteral("from")).toString().isEmpty();
    }
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

// The status of a run that is not a table folder, from what was read: no disk.
QString runStatus(const RunData& run)
{
    if (run.finished)
        return run.finished->cancelled ? QObject::tr("cancelled") : QObject::tr("finished");
    if (run.truncated)
        return QObject::tr("killed (truncated)");
    return QObject::tr("incomplete");
}

// On the job pool: one run folder as the browser shows it. Throws what read_run() throws.
RunBrowser::Read readOne(const std::filesystem::path& path)
{
    RunBrowser::Read r;
    r.run = core::io::read_run(path);
    r.facts.tableFolder = RunBrowser::isTableFolder(r.run);
    r.facts.modified = lastWritten(r.run);
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
    return r;
}

struct Listing {
    QList<RunBrowser::Read> runs;
    QStringList errors; // folders find_runs() found that read_run() refused
};

Listing listRuns(const QString& root, const JobTracker::Token& token)
{
    Listing l;
    for (const auto& path : core::io::find_runs(root.toStdString())) {
        if (token.stale())
            break; // overtaken by a newer refresh: nobody will see this listing
        try {
            l.runs.push_back(readOne(path));
        } catch (const std::exception& e) {
            l.errors << QString::fromUtf8(e.what());
        }
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
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(overlay_);
    buttons->addStretch(1);

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

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

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
    return std::filesystem::is_regular_file(run.path / "table.csv", ec) &&
           (std::filesystem::is_regular_file(run.path / "table.json", ec) ||
            std::filesystem::is_regular_file(run.path / "config.toml", ec));
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

void RunBrowser::refresh()
{
    listing_.startJob([root = root_](const JobTracker::Token& token) { return listRuns(root, token); },
                      [this](Listing listing) {
                          runs_.clear();
                          tables_.clear();
                          facts_.clear();
                          for (auto& r : listing.runs) {
                              runs_.push_back(std::move(r.run));
                              tables_.push_back(std::move(r.table));
                              facts_.push_back(std::move(r.facts));
                          }
                          readErrors_ = listing.errors;
                          const QSignalBlocker block(table_);
                          table_->setSortingEnabled(false); // rows are filled by index; sorting would move them midway
                          // Columns sized to their contents re-measure every row at each cell set: sized
                          // once, after the fill, the listing costs the GUI thread linear time.
                          auto* header = table_->horizontalHeader();
                          for (int c = Kind; c < Columns; ++c)
                              header->setSectionResizeMode(c, QHeaderView::Interactive);
                          table_->clearContents();
                          table_->setRowCount(int(runs_.size()));
                          for (int i = 0; i < runs_.size(); ++i)
                              fillRow(i, i);
                          for (int c = Kind; c < Columns; ++c)
                              header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
                          table_->setSortingEnabled(true);
                          onSelectionChanged();
                          Q_EMIT listed();
                      },
                      [this](const QString& error) {
                          readErrors_ = {error};
                          showSummary(-1);
                          Q_EMIT listed();
                      });
}

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
    const QString st = table ? tableStatusText(*table) : (tableFolder ? tr("unreadable table") : runStatus(run));
    const QString result = table ? tableResultText(*table) : resultText(run);
    const QDateTime& modified = facts.modified;
    const QStringList texts{name, qs(core::io::to_string(run.kind)), result, st,
                            modified.isValid() ? modified.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString()};
    const bool unfinished = table ? table->expected > 0 && !table->complete() : (tableFolder || (run.truncated && !run.finished));
    // Each cell is made whole before it enters the table: one change signal per cell, not five.
    for (int c = 0; c < Columns; ++c) {
        auto* item = new QTableWidgetItem(texts[c]);
        if (c == Name) {
            item->setToolTip(qs(run.path.string()));
            item->setData(Qt::UserRole, index);
        }
        if (c == Status) {
            if (unfinished)
                item->setForeground(QBrush(QColor(0xb2, 0x4a, 0x00)));
            if (!run.problems.empty())
                item->setToolTip(run.problems.size() == 1 ? tr("1 record skipped; see Problems")
                                                          : tr("%1 records skipped; see Problems").arg(run.problems.size()));
        }
        table_->setItem(row, c, item);
    }
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
        for (int row = 0; row < table_->rowCount(); ++row)
            if (table_->item(row, Name)->data(Qt::UserRole).toInt() == index) {
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
    if (runs.size() == 1) {
        const int index = table_->item(table_->selectionModel()->selectedRows().front().row(), Name)
                              ->data(Qt::UserRole)
                              .toInt();
        open_->setToolTip(facts_[index].tableFolder ? tr("Read the selected table again and show it in the Tables page")
                                                    : tr("Read the selected run again and show it"));
        showSummary(index);
    } else {
        showSummary(-1);
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
        row(tr("Status"), facts_[index].tableFolder ? tr("unreadable table") : runStatus(*run));
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
        row(tr("Events"), tr("%1 allocation, %2 adaptation").arg(run->allocations.size()).arg(run->adaptations.size()));
    if (run->final_model)
        row(tr("Final model"), tr("%1, %2 parameters")
                                   .arg(qs(run->final_model->name).toHtmlEscaped(),
                                        QLocale().toString(qint64(run->final_model->parameters))));
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
