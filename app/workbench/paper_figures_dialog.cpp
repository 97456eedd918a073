// The Paper figures dialog: three checkable lists, an output folder, and `rlda figures` behind it.
#include "app/workbench/paper_figures_dialog.h"

#include "app/workbench/folder_field.h"
#include "app/workbench/rlda_process.h"
#include "core/table/table.h"
#include "core/util/data_dir.h"
#include "widgets/file_dialogs.h"

#include <QAction>
#include <QCheckBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

#include <exception>

namespace rlda::app {
namespace {

QGroupBox* group(const QString& title, QListWidget* list, const QList<QPushButton*>& buttons, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(list, 1);
    auto* row = new QHBoxLayout;
    for (auto* b : buttons)
        row->addWidget(b);
    row->addStretch(1);
    layout->addLayout(row);
    return box;
}

} // namespace

PaperFiguresDialog::PaperFiguresDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Paper figures"));
    setObjectName(QStringLiteral("paperFiguresDialog"));
    process_ = new RldaProcess(this);
    connect(process_, &RldaProcess::line, this, &PaperFiguresDialog::onLine);
    connect(process_, &RldaProcess::finished, this, &PaperFiguresDialog::onFinished);

    tables_ = makeList(QStringLiteral("figureTables"));
    runs_ = makeList(QStringLiteral("figureRuns"));
    policies_ = makeList(QStringLiteral("figurePolicies"));

    auto* addTables = new QPushButton(tr("Add tables…"), this);
    connect(addTables, &QPushButton::clicked, this, [this] {
        this->addTables(widgets::openFileNames(this, widgets::FileKind::Table, tr("Simulation tables or an index"),
                                      tr("Tables (*.csv);;All files (*)")));
    });
    auto* addFolder = new QPushButton(tr("Add a table folder…"), this);
    connect(addFolder, &QPushButton::clicked, this, [this] {
        const QString dir = widgets::existingFolder(this, widgets::FileKind::Table, tr("A table folder or a folder with index.csv"));
        if (!dir.isEmpty())
            this->addTables({dir});
    });
    auto* addPaper = new QPushButton(tr("The paper's tables"), this);
    addPaper->setToolTip(tr("The original system's ten published tables (ConvNet2 and ConvNet3, five scenarios)"));
    connect(addPaper, &QPushButton::clicked, this, &PaperFiguresDialog::addPaperTables);
    auto* addRun = new QPushButton(tr("Add a learning run…"), this);
    connect(addRun, &QPushButton::clicked, this, [this] {
        const QString dir = widgets::existingFolder(this, widgets::FileKind::RunFolder, tr("A learning run folder"));
        if (!dir.isEmpty())
            addRuns({dir});
    });
    auto* addPolicy = new QPushButton(tr("Add a policy…"), this);
    connect(addPolicy, &QPushButton::clicked, this, [this] {
        addPolicies(widgets::openFileNames(this, widgets::FileKind::Policy, tr("Policies"), tr("Policies (*.pt);;All files (*)")));
    });

    auto* lists = new QHBoxLayout;
    lists->addWidget(group(tr("Tables (figs. 10-12)"), tables_, {addTables, addFolder, addPaper}, this), 2);
    lists->addWidget(group(tr("Learning runs (figs. 7-9; their policies on the tables)"), runs_, {addRun}, this), 1);
    lists->addWidget(group(tr("Policies (on the tables)"), policies_, {addPolicy}, this), 1);

    out_ = new FolderField(tr("Write the figures into"), QStringLiteral("figureOut"), this);
    png_ = new QCheckBox(QStringLiteral("PNG"), this);
    png_->setChecked(true);
    pdf_ = new QCheckBox(QStringLiteral("PDF"), this);
    svg_ = new QCheckBox(QStringLiteral("SVG"), this);
    auto* formats = new QHBoxLayout;
    for (auto* c : {png_, pdf_, svg_})
        formats->addWidget(c);
    formats->addStretch(1);
    auto* form = new QFormLayout;
    form->addRow(tr("Output folder"), out_);
    form->addRow(tr("Formats"), formats);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    status_ = new QLabel(tr("Pick what to draw, then Draw."), this);
    status_->setObjectName(QStringLiteral("figureStatus"));
    status_->setWordWrap(true);
    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("drawLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    log_->setMinimumHeight(90);

    auto* buttons = new QDialogButtonBox(this);
    draw_ = buttons->addButton(tr("Draw"), QDialogButtonBox::AcceptRole);
    draw_->setObjectName(QStringLiteral("figureDraw"));
    open_ = buttons->addButton(tr("Open folder"), QDialogButtonBox::ActionRole);
    open_->setEnabled(false);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    // Draw must not close the dialog: the button box's accepted() is not connected.
    connect(draw_, &QPushButton::clicked, this, &PaperFiguresDialog::draw);
    connect(open_, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(outputFolder())); });
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(lists, 3);
    layout->addLayout(form);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(log_, 1);
    layout->addWidget(buttons);
    resize(1000, 640);
}

QListWidget* PaperFiguresDialog::makeList(const QString& objectName)
{
    auto* list = new QListWidget(this);
    list->setObjectName(objectName);
    list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list->setToolTip(tr("Checked entries are drawn; Del removes the selected ones"));
    auto* remove = new QAction(list);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, list, [list] { qDeleteAll(list->selectedItems()); });
    list->addAction(remove);
    return list;
}

void PaperFiguresDialog::add(QListWidget* list, const QStringList& entries)
{
    for (const QString& entry : entries) {
        if (entry.isEmpty())
            continue;
        const QString path = QDir::cleanPath(QFileInfo(entry).absoluteFilePath());
        bool present = false;
        for (int i = 0; i < list->count() && !present; ++i)
            present = list->item(i)->data(Qt::UserRole).toString() == path;
        if (present)
            continue;
        auto* item = new QListWidgetItem(QDir::toNativeSeparators(path), list);
        item->setData(Qt::UserRole, path);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
}

void PaperFiguresDialog::addTables(const QStringList& paths) { add(tables_, paths); }
void PaperFiguresDialog::addRuns(const QStringList& folders) { add(runs_, folders); }
void PaperFiguresDialog::addPolicies(const QStringList& files) { add(policies_, files); }

void PaperFiguresDialog::addPaperTables()
{
    // A ten-line index: it names the shipped files.
    index_.startJob(
        [] {
            QStringList files;
            for (const auto& e : core::sim::load_table_index((core::paper_tables_dir() / "index.csv").string()))
                files << QString::fromStdString(e.file);
            return files;
        },
        [this](const QStringList& files) {
            addTables(files);
            Q_EMIT paperTablesAdded();
        },
        [this](const QString& error) {
            status_->setText(error);
            Q_EMIT paperTablesAdded();
        });
}

void PaperFiguresDialog::setOutputFolder(const QString& dir) { out_->setFolder(dir); }
QString PaperFiguresDialog::outputFolder() const { return out_->folder(); }

QStringList PaperFiguresDialog::checked(const QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            out << list->item(i)->data(Qt::UserRole).toString();
    return out;
}

QStringList PaperFiguresDialog::checkedTables() const { return checked(tables_); }
QStringList PaperFiguresDialog::checkedRuns() const { return checked(runs_); }
QStringList PaperFiguresDialog::checkedPolicies() const { return checked(policies_); }

QStringList PaperFiguresDialog::arguments(QString* why) const
{
    const auto fail = [why](const QString& reason) {
        if (why)
            *why = reason;
        return QStringList{};
    };
    const QStringList tables = checkedTables(), runs = checkedRuns(), policies = checkedPolicies();
    if (runs.isEmpty() && policies.isEmpty())
        return fail(tr("Check a learning run or a policy: figures 7-9 show runs, 10-12 judge policies on tables."));
    if (tables.isEmpty())
        return fail(tr("Check at least one table: the runs' and policies' greedy sequences are ranked on them."));
    if (outputFolder().isEmpty())
        return fail(tr("Choose the output folder."));
    QStringList formats;
    for (auto* c : {png_, pdf_, svg_})
        if (c->isChecked())
            formats << c->text().toLower();
    if (formats.isEmpty())
        return fail(tr("Check at least one format."));
    QStringList args{QStringLiteral("figures")};
    for (const auto& t : tables)
        args << QStringLiteral("--tables") << t;
    for (const auto& r : runs)
        args << QStringLiteral("--run") << r + QStringLiteral(":all");
    for (const auto& p : policies)
        args << QStringLiteral("--policy") << p;
    args << QStringLiteral("--out") << outputFolder() << QStringLiteral("--format") << formats.join(QLatin1Char(','));
    return args;
}

bool PaperFiguresDialog::draw()
{
    QString why;
    const QStringList args = arguments(&why);
    if (args.isEmpty()) {
        status_->setText(why);
        return false;
    }
    if (process_->isRunning())
        return false;
    written_.clear();
    log_->clear();
    open_->setEnabled(false);
    draw_->setEnabled(false);
    progress_->setRange(0, 0); // busy: rlda names each file as it writes it
    status_->setText(tr("Drawing…"));
    log_->appendPlainText(QStringLiteral("rlda ") + args.join(QLatin1Char(' ')));
    return process_->start(args);
}

QString PaperFiguresDialog::status() const { return status_->text(); }

void PaperFiguresDialog::onLine(const QString& text)
{
    log_->appendPlainText(text);
    if (text.startsWith(QStringLiteral("wrote "))) {
        written_ << text.mid(6);
        status_->setText(tr("Wrote %1").arg(QFileInfo(written_.back()).fileName()));
    }
}

void PaperFiguresDialog::onFinished(bool ok, const QString& error)
{
    progress_->setRange(0, 1);
    progress_->setValue(ok ? 1 : 0);
    draw_->setEnabled(true);
    open_->setEnabled(ok || !written_.isEmpty());
    const QString files = written_.size() == 1 ? tr("1 file") : tr("%1 files").arg(written_.size());
    status_->setText(ok ? tr("%1 written to %2").arg(files, outputFolder()) : tr("Failed: %1").arg(error));
    Q_EMIT finished(ok);
}

} // namespace rlda::app
