// The Runs page: assembles the run table, its columns, filter and watcher, and the details panels.
#include "widgets/run/run_browser.h"

#include "widgets/file_dialogs.h"
#include "widgets/qs.h"
#include "widgets/run/config_compare_dialog.h"
#include "widgets/run/run_columns.h"
#include "widgets/run/run_list_model.h"
#include "widgets/run/run_notes_panel.h"
#include "widgets/run/run_sort_filter.h"
#include "widgets/run/run_summary_panel.h"
#include "widgets/run/run_transfer_box.h"
#include "widgets/run/run_watcher.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <memory>
#include <set>

namespace rlda::widgets {

using core::io::RunData;

namespace {

QPushButton* button(const QString& text, const char* name, const QString& tip, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(name));
    b->setToolTip(tip);
    return b;
}

} // namespace

RunBrowser::RunBrowser(const QString& columnsKey, QWidget* parent)
    : QWidget(parent)
    , columns_(new RunColumns(columnsKey, this))
    , model_(new RunListModel(columns_, this))
    , proxy_(new RunSortFilter(columns_, this))
    , watcher_(new RunWatcher(this))
{
    columns_->setObjectName(QStringLiteral("runColumns"));
    model_->setObjectName(QStringLiteral("runModel"));
    watcher_->setObjectName(QStringLiteral("runWatcher"));
    // A reset (new extra columns, a new root) forgets the selection and the header's sections:
    // the selection is noted before the proxy hears of it, and made again once the view has.
    auto kept = std::make_shared<QList<std::filesystem::path>>();
    connect(model_, &QAbstractItemModel::modelAboutToBeReset, this, [this, kept] {
        kept->clear();
        for (const auto& run : selectedRuns())
            kept->push_back(run.path);
    });
    proxy_->setSourceModel(model_);
    connect(model_, &QAbstractItemModel::modelReset, this, [this, kept] {
        showColumns();
        QList<int> rows;
        for (const auto& path : std::as_const(*kept))
            if (const int row = model_->rowOf(path); row >= 0)
                rows << row;
        selectRuns(rows);
        onSelectionChanged();
    });

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

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setModel(proxy_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    // The short columns are sized from the rows in view and 100 more, not from every row (Qt's
    // default is 1000): a root of hundreds of runs then costs the GUI thread the same as a screenful.
    // Their texts are alike in width (kinds, dates, accuracies), so the widths stay right.
    table_->horizontalHeader()->setResizeContentsPrecision(100);
    table_->sortByColumn(RunColumns::Name, Qt::AscendingOrder); // the header's default is descending
    table_->setSortingEnabled(true);
    table_->setAlternatingRowColors(true);

    open_ = button(tr("Open"), "openButton", tr("Read the selected run again and show it"), this);
    overlay_ = button(tr("Overlay"), "overlayButton",
                      tr("Plot the selected training runs together, or the selected learning runs (select "
                         "two or more of one kind)"),
                      this);
    compare_ = button(tr("Compare configs"), "compareButton", tr("Show the settings that differ between the two selected runs"), this);
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("filterEdit"));
    filter_->setPlaceholderText(tr("Filter: text in any column shown"));
    filter_->setClearButtonEnabled(true);
    filterCount_ = new QLabel(this);
    filterCount_->setObjectName(QStringLiteral("filterCount"));
    auto* buttons = new QHBoxLayout;
    for (QWidget* w : {open_, overlay_, compare_})
        buttons->addWidget(w);
    buttons->addStretch(1);
    buttons->addWidget(filterCount_);
    buttons->addWidget(filter_, 2);
    transfer_ = new RunTransferBox(this);

    auto* upper = new QWidget(this);
    auto* ul = new QVBoxLayout(upper);
    ul->setContentsMargins(0, 0, 0, 0);
    ul->addWidget(table_, 1);
    ul->addLayout(buttons);
    ul->addWidget(transfer_);
    details_ = new RunSummaryPanel(this);
    notes_ = new RunNotesPanel(details_);
    details_->addTab(notes_, tr("Notes"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    follower_ = new RunFollower(this);

    auto* header = table_->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](const QPoint& at) {
        QMenu* menu = columns_->menu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(header->mapToGlobal(at));
    });
    connect(columns_, &RunColumns::changed, this, &RunBrowser::showColumns);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(proxy_, signal, this, &RunBrowser::showCount);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &RunBrowser::showCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &RunBrowser::showCount);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setNeedle(text);
        showCount();
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        if (auto* dialog = compareConfigs())
            dialog->show();
    });
    connect(notes_, &RunNotesPanel::written, model_, &RunListModel::setNotes);
    connect(watcher_, &RunWatcher::rescanDue, this, [this] { list(true); });
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString dir =
            chooseFolderFrom(this, FileKind::RunsRoot, tr("Folder of runs (new runs go here too)"), root_);
        if (dir.isEmpty())
            return;
        setRoot(dir);
        Q_EMIT rootChosen(dir);
    });
    connect(rootEdit_, &QLineEdit::returnPressed, this, [this] {
        const QString dir = rootEdit_->text();
        setRoot(dir);
        Q_EMIT rootChosen(dir);
    });
    connect(reload, &QPushButton::clicked, this, &RunBrowser::refresh);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunBrowser::onSelectionChanged);
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { openRun(proxy_->mapToSource(index).row()); });
    connect(open_, &QPushButton::clicked, this, [this] {
        if (const auto indices = selectedIndices(); indices.size() == 1)
            openRun(indices.front());
    });
    connect(overlay_, &QPushButton::clicked, this, [this] {
        if (const auto runs = overlayRuns(); runs.size() >= 2)
            Q_EMIT overlayRequested(runs);
    });
    showColumns();
    onSelectionChanged();
}

const QList<RunData>& RunBrowser::runs() const { return model_->runs(); }

QStringList RunBrowser::watchedPaths() const { return watcher_->watchedPaths(); }

void RunBrowser::setRoot(const QString& folder)
{
    root_ = folder;
    rootEdit_->setText(folder);
    refresh();
}

void RunBrowser::refresh() { list(false); }

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
        for (int i = 0; i < runs().size(); ++i)
            known.insert(qs(runs()[i].path.string()), model_->facts()[i].signature);
    listing_.startJob(
        [root = root_, known](const JobTracker::Token& token) { return listRunFolders(root, known, token); },
        [this, live](RunListing listing) { showListing(std::move(listing), live); },
        [this](const QString& error) {
            readErrors_ = {error};
            showSummary(-1);
            Q_EMIT listed();
        });
}

void RunBrowser::showListing(RunListing listing, bool live)
{
    watcher_->listingTook(listingTime_.elapsed());
    readErrors_ = listing.errors;
    const int scroll = table_->verticalScrollBar()->value();
    const auto merge = model_->setListing(root_, std::move(listing.runs));
    if (live && merge.samePaths) {
        // Rows in place: the selection, the sort and the scroll stay where the user left them.
        const auto sel = selectedIndices();
        if (sel.size() == 1 && merge.changed.contains(sel.front()))
            showSummary(sel.front());
    } else {
        if (!live)
            table_->clearSelection(); // a refresh starts with nothing selected
        table_->verticalScrollBar()->setValue(scroll);
        onSelectionChanged();
    }
    watcher_->watch(root_, runs(), model_->facts(), listing.folders);
    if (live)
        Q_EMIT updated();
    else
        Q_EMIT listed();
    if (rescanAgain_)
        watcher_->changed();
}

void RunBrowser::showColumns()
{
    auto* header = table_->horizontalHeader();
    const int note = columns_->modelColumn(QStringLiteral("note"));
    for (int c = 0; c < model_->columnCount(); ++c) {
        if (c < RunColumns::BuiltIns)
            table_->setColumnHidden(c, columns_->isHidden(c));
        // The name takes the room left; a note is long: its column keeps the width it is given.
        header->setSectionResizeMode(c, c == RunColumns::Name ? QHeaderView::Stretch
                                        : c == note           ? QHeaderView::Interactive
                                                              : QHeaderView::ResizeToContents);
    }
    showCount();
}

void RunBrowser::showCount()
{
    const int shown = proxy_->rowCount();
    const int all = model_->rowCount();
    filterCount_->setText(shown < all ? tr("%1 of %2 runs").arg(shown).arg(all) : QString());
}

QList<int> RunBrowser::selectedIndices() const
{
    std::set<int> rows;
    for (const auto& r : table_->selectionModel()->selectedRows())
        rows.insert(proxy_->mapToSource(r).row());
    return {rows.begin(), rows.end()};
}

QList<RunData> RunBrowser::selectedRuns() const
{
    // In the order of runs(), whatever the table is sorted by: stable for an overlay's colours.
    QList<RunData> out;
    for (int i : selectedIndices())
        out.push_back(runs().at(i));
    return out;
}

QList<RunData> RunBrowser::overlayRuns() const
{
    // The selected runs of one kind, training or learning: training runs when two or more are
    // selected, else learning runs.
    QList<RunData> training, learning;
    for (const auto& run : selectedRuns()) {
        if (run.kind == core::io::RunKind::Training)
            training.push_back(run);
        else if (run.kind == core::io::RunKind::Learning)
            learning.push_back(run);
    }
    return training.size() >= 2 || learning.size() < 2 ? training : learning;
}

void RunBrowser::selectRuns(const QList<int>& indices)
{
    QItemSelection selection;
    for (int i : indices)
        if (const QModelIndex at = proxy_->mapFromSource(model_->index(i, 0)); at.isValid())
            selection.select(at, at);
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

bool RunBrowser::openRun(int index)
{
    if (index < 0 || index >= runs().size())
        return false;
    // Read afresh: it may have grown since the listing.
    opening_.startJob([path = runs()[index].path] { return readRunFolder(path); },
                      [this](RunRead read) { opened(std::move(read)); },
                      [this](const QString& error) {
                          details_->showMessage(error.toHtmlEscaped());
                          Q_EMIT openFailed(error);
                      });
    return true;
}

void RunBrowser::opened(RunRead read)
{
    // The listing may have changed meanwhile: the run is found again by its folder.
    const bool tableFolder = read.facts.tableFolder;
    const QString tableFile = read.facts.tableFile;
    const RunData run = read.run;
    if (const int index = model_->updateRun(std::move(read)); index >= 0)
        showSummary(index);
    if (tableFolder)
        Q_EMIT tableOpened(tableFile); // the Tables page
    else
        Q_EMIT runOpened(run);
}

void RunBrowser::onSelectionChanged()
{
    const auto indices = selectedIndices();
    open_->setEnabled(indices.size() == 1);
    overlay_->setEnabled(overlayRuns().size() >= 2);
    compare_->setEnabled(indices.size() == 2);
    if (indices.size() == 1) {
        const int index = indices.front();
        const RunFacts& facts = model_->facts()[index];
        open_->setToolTip(facts.tableFolder ? tr("Read the selected table again and show it in the Tables page")
                                            : tr("Read the selected run again and show it"));
        showSummary(index);
        notes_->showRun(runs()[index].path, facts.notes, facts.notesError);
    } else {
        showSummary(-1);
        notes_->showRun({}, {}, {});
    }
    transfer_->setRuns(selectedRuns());
}

void RunBrowser::showSummary(int index)
{
    if (index >= 0 && index < runs().size()) {
        details_->showRun(runs()[index], model_->facts()[index]);
        return;
    }
    const int n = int(table_->selectionModel()->selectedRows().size());
    QString text = n > 1 ? tr("%1 runs selected.").arg(n)
                         : (runs().isEmpty() ? tr("No run folders here.") : tr("Select a run to see its summary."));
    if (!readErrors_.isEmpty())
        text += QStringLiteral("<br><br>") + tr("Not readable:") + QStringLiteral("<br>") +
                readErrors_.join(QStringLiteral("<br>")).toHtmlEscaped();
    details_->showNone(text);
}

ConfigCompareDialog* RunBrowser::compareConfigs()
{
    const auto indices = selectedIndices();
    if (indices.size() != 2)
        return nullptr;
    const int a = indices[0];
    const int b = indices[1];
    const auto& facts = model_->facts();
    for (int i : {a, b})
        if (!facts[i].fields.config) {
            details_->showMessage(facts[i].fields.config_error.empty()
                                      ? tr("%1 has no config.toml to compare.").arg(qs(runs()[i].name).toHtmlEscaped())
                                      : qs(facts[i].fields.config_error).toHtmlEscaped());
            return nullptr;
        }
    auto* dialog = new ConfigCompareDialog(qs(runs()[a].name), *facts[a].fields.config, qs(runs()[b].name),
                                           *facts[b].fields.config, this);
    dialog->setObjectName(QStringLiteral("compareDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    return dialog;
}

} // namespace rlda::widgets
