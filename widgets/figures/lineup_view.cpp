// Every agent on one table: the rows core::run::lineup_cells gives, so the page and the command line
// never disagree on a number or a verdict.
#include "widgets/figures/lineup_view.h"

#include "core/util/atomic_file.h"
#include "widgets/file_dialogs.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rlda::widgets {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// What each verdict means, for its cell's tooltip.
QString verdictHelp(core::run::LineupVerdict verdict)
{
    using core::run::LineupVerdict;
    switch (verdict) {
    case LineupVerdict::AmongBest:
        return QObject::tr(
            "In the 95 % confidence set for the best: the table's seeds cannot tell its sequence "
            "from the best one. That is not a claim that it is the best.");
    case LineupVerdict::BelowBest:
        return QObject::tr(
            "Outside the 95 % confidence set for the best: some sequence beats it by more than "
            "the seeds' noise allows.");
    case LineupVerdict::OneSeed:
    case LineupVerdict::NotSeparated:
        return QObject::tr("The table cannot test this: build it at several seeds, or more, to tell the "
                           "sequences apart.");
    case LineupVerdict::ByChance:
    case LineupVerdict::NotJudged:
        break;
    }
    return {};
}

} // namespace

LineupView::LineupView(QWidget* parent) : QWidget(parent)
{
    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("lineupCaption"));
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("lineupTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    // A row a line: a table of every agent fits a laptop screen's Policy page without scrolling.
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->setWordWrap(false);
    const auto headers = core::run::lineup_headers();
    table_->setColumnCount(static_cast<int>(headers.size()));
    QStringList labels;
    for (const auto& h : headers)
        labels << qs(h);
    table_->setHorizontalHeaderLabels(labels);
    table_->horizontalHeader()->setStretchLastSection(true);
    csv_ = new QPushButton(tr("Export CSV…"), this);
    csv_->setObjectName(QStringLiteral("lineupCsvButton"));
    markdown_ = new QPushButton(tr("Export Markdown…"), this);
    markdown_->setObjectName(QStringLiteral("lineupMarkdownButton"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(csv_);
    buttons->addWidget(markdown_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    connect(csv_, &QPushButton::clicked, this, [this] { exportWithDialog(Format::Csv); });
    connect(markdown_, &QPushButton::clicked, this, [this] { exportWithDialog(Format::Markdown); });
    clear(tr("No table judged yet."));
}

void LineupView::setLineup(core::run::Lineup lineup, const QString& note)
{
    lineup_ = std::move(lineup);
    shown_ = true;
    const QString caption = qs(core::run::lineup_caption(lineup_));
    caption_->setText(note.isEmpty() ? caption : caption + QLatin1Char('\n') + note);
    table_->setRowCount(static_cast<int>(lineup_.entries.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const auto& entry = lineup_.entries[static_cast<std::size_t>(r)];
        const auto cells = core::run::lineup_cells(lineup_, entry);
        for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
            auto* item = new QTableWidgetItem(qs(cells[static_cast<std::size_t>(c)]));
            if (c > 1 && c < static_cast<int>(cells.size()) - 1)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
        const int last = static_cast<int>(cells.size()) - 1;
        const auto verdict = core::run::lineup_verdict_of(lineup_, entry);
        table_->item(r, last)->setToolTip(verdictHelp(verdict));
        if (verdict == core::run::LineupVerdict::AmongBest) {
            QFont bold = table_->item(r, last)->font();
            bold.setBold(true);
            table_->item(r, last)->setFont(bold);
        }
    }
    table_->resizeColumnsToContents();
    csv_->setEnabled(true);
    markdown_->setEnabled(true);
}

void LineupView::clear(const QString& message)
{
    lineup_ = {};
    shown_ = false;
    caption_->setText(message);
    table_->setRowCount(0);
    csv_->setEnabled(false);
    markdown_->setEnabled(false);
}

void LineupView::exportTo(const QString& path, Format format)
{
    std::string text =
        format == Format::Csv ? core::run::lineup_csv(lineup_) : core::run::lineup_markdown(lineup_);
    exports_.startJob(
        [path, text = std::move(text)] {
            core::write_text_atomically(path.toStdString(), text);
            return path;
        },
        [this](const QString& written) { Q_EMIT exported(written, QString()); },
        [this, path](const QString& reason) { Q_EMIT exported(path, reason); });
}

void LineupView::exportWithDialog(Format format)
{
    const bool csv = format == Format::Csv;
    const QString path = saveFileName(
        this, FileKind::Export, csv ? tr("Export the agents as CSV") : tr("Export the agents as Markdown"),
        csv ? QStringLiteral("agents.csv") : QStringLiteral("agents.md"),
        csv ? tr("CSV files (*.csv)") : tr("Markdown files (*.md)"));
    if (path.isEmpty())
        return;
    exportTo(path, format);
}

} // namespace rlda::widgets
