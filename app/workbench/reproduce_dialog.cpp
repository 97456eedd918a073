// The Reproduce dialog: `rlda reproduce` behind it, read through its progress and rank lines
// (app/cli/reproduce_command.cpp prints them: "run I/N: …", "episode D/T …", "rank MODEL SCENARIO
// (TRAINED_ON): R/S, paper P, greedy A B C", "wrote FILE").
#include "app/workbench/reproduce_dialog.h"

#include "app/workbench/folder_field.h"
#include "app/workbench/rlda_process.h"

#include <QColor>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace rlda::app {

ReproduceDialog::ReproduceDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Reproduce the paper"));
    setObjectName(QStringLiteral("reproduceDialog"));
    process_ = new RldaProcess(this);
    connect(process_, &RldaProcess::line, this, &ReproduceDialog::onLine);
    connect(process_, &RldaProcess::finished, this, &ReproduceDialog::onFinished);

    auto* intro = new QLabel(tr("Learns an agent from scratch on each of the paper's six tables (ConvNet2 and "
                                "ConvNet3; early, middle, late), then the curriculum early → late → middle on "
                                "ConvNet2, judges it on all ten tables, and sets each rank beside the one the paper "
                                "published. The paper used 75,000 episodes a run; fewer give a quick look."),
                             this);
    intro->setWordWrap(true);
    episodes_ = new QSpinBox(this);
    episodes_->setObjectName(QStringLiteral("reproduceEpisodes"));
    episodes_->setRange(1, 10'000'000);
    episodes_->setValue(75000);
    episodes_->setGroupSeparatorShown(true);
    episodes_->setSuffix(tr(" episodes"));
    episodes_->setToolTip(tr("Each from-scratch run; each further curriculum stage gets 2/15 of it"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(42);
    out_ = new FolderField(tr("An empty folder for the runs"), QStringLiteral("reproduceOut"), this);
    auto* form = new QFormLayout;
    form->addRow(tr("Episodes"), episodes_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Output folder"), out_);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    status_ = new QLabel(tr("Ready."), this);
    status_->setObjectName(QStringLiteral("reproduceStatus"));
    status_->setWordWrap(true);
    ranks_ = new QTableWidget(0, 6, this);
    ranks_->setObjectName(QStringLiteral("reproduceRanks"));
    ranks_->setHorizontalHeaderLabels({tr("Trained on"), tr("Model"), tr("Scenario"), tr("Rank"), tr("Paper's rank"),
                                       tr("Greedy sequence")});
    ranks_->horizontalHeader()->setStretchLastSection(true);
    ranks_->verticalHeader()->hide();
    ranks_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    ranks_->setSelectionBehavior(QAbstractItemView::SelectRows);
    log_ = new QPlainTextEdit(this);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    log_->setMaximumHeight(110);

    auto* buttons = new QDialogButtonBox(this);
    start_ = buttons->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    start_->setObjectName(QStringLiteral("reproduceStart"));
    stop_ = buttons->addButton(tr("Stop"), QDialogButtonBox::ActionRole);
    stop_->setEnabled(false);
    open_ = buttons->addButton(tr("Open figures"), QDialogButtonBox::ActionRole);
    open_->setEnabled(false);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    connect(start_, &QPushButton::clicked, this, &ReproduceDialog::start);
    connect(stop_, &QPushButton::clicked, this, &ReproduceDialog::stop);
    connect(open_, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(outputFolder() + QStringLiteral("/figures")));
    });
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(ranks_, 1);
    layout->addWidget(log_);
    layout->addWidget(buttons);
    resize(760, 720);
}

void ReproduceDialog::setEpisodes(int episodes) { episodes_->setValue(episodes); }
void ReproduceDialog::setOutputFolder(const QString& dir) { out_->setFolder(dir); }
QString ReproduceDialog::outputFolder() const { return out_->folder(); }
bool ReproduceDialog::isRunning() const { return process_->isRunning(); }
QString ReproduceDialog::status() const { return status_->text(); }

bool ReproduceDialog::start()
{
    if (process_->isRunning())
        return false;
    if (outputFolder().isEmpty()) {
        status_->setText(tr("Choose an output folder."));
        return false;
    }
    ranks_->setRowCount(0);
    log_->clear();
    run_ = 0;
    fraction_ = 0.0;
    progress_->setValue(0);
    start_->setEnabled(false);
    stop_->setEnabled(true);
    open_->setEnabled(false);
    status_->setText(tr("Starting…"));
    const QStringList args{QStringLiteral("reproduce"), QStringLiteral("--episodes"),
                           QString::number(episodes_->value()), QStringLiteral("--seed"),
                           QString::number(seed_->value()), QStringLiteral("--out"), outputFolder()};
    log_->appendPlainText(QStringLiteral("rlda ") + args.join(QLatin1Char(' ')));
    return process_->start(args);
}

void ReproduceDialog::stop()
{
    process_->stop();
    status_->setText(tr("Stopping after the current episode; what was learned and judged is kept."));
}

void ReproduceDialog::onLine(const QString& text)
{
    static const QRegularExpression runLine(QStringLiteral("^run (\\d+)/(\\d+): (\\S+)"));
    static const QRegularExpression episodeLine(QStringLiteral("^episode +(\\d+)/(\\d+)"));
    static const QRegularExpression rankLine(
        QStringLiteral("^rank (\\S+) (\\S+) \\((\\w+)\\): (\\d+)/(\\d+), paper ([^,]+)(?:, greedy (.*))?$"));
    if (const auto m = runLine.match(text); m.hasMatch()) {
        run_ = m.captured(1).toInt();
        runs_ = std::max(1, m.captured(2).toInt());
        fraction_ = static_cast<double>(run_ - 1) / runs_;
        status_->setText(tr("Run %1 of %2: %3").arg(run_).arg(runs_).arg(m.captured(3)));
        log_->appendPlainText(text);
    } else if (const auto e = episodeLine.match(text); e.hasMatch()) {
        // A curriculum run has two stages: the bar moves within the run either way.
        const double done = e.captured(1).toDouble() / std::max(1.0, e.captured(2).toDouble());
        fraction_ = (std::max(0, run_ - 1) + done) / runs_;
    } else if (const auto r = rankLine.match(text); r.hasMatch()) {
        const int row = ranks_->rowCount();
        ranks_->insertRow(row);
        const QStringList cells{r.captured(3), r.captured(1), r.captured(2),
                                r.captured(4) + QLatin1Char('/') + r.captured(5), r.captured(6), r.captured(7)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 3 || c == 4)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            ranks_->setItem(row, c, item);
        }
        // As good as the paper's rank or better: say so at a glance.
        if (r.captured(6) != QStringLiteral("-") && r.captured(4).toInt() <= r.captured(6).toInt())
            ranks_->item(row, 3)->setForeground(QColor(0x1b, 0x7f, 0x3b));
        ranks_->scrollToBottom();
        log_->appendPlainText(text);
    } else {
        log_->appendPlainText(text);
    }
    progress_->setValue(static_cast<int>(fraction_ * 1000));
}

void ReproduceDialog::onFinished(bool ok, const QString& error)
{
    start_->setEnabled(true);
    stop_->setEnabled(false);
    open_->setEnabled(ok);
    if (ok) {
        fraction_ = 1.0;
        progress_->setValue(1000);
    }
    int asGood = 0, published = 0;
    for (int row = 0; row < ranks_->rowCount(); ++row)
        if (ranks_->item(row, 4)->text() != QStringLiteral("-")) {
            ++published;
            asGood += ranks_->item(row, 3)->text().section(QLatin1Char('/'), 0, 0).toInt() <=
                      ranks_->item(row, 4)->text().toInt();
        }
    status_->setText(ok ? tr("Done: %1 of %2 ranks as good as the paper's or better; ranks.csv and figures/ in %3")
                              .arg(asGood)
                              .arg(published)
                              .arg(outputFolder())
                        : tr("Stopped: %1 (the runs and ranks so far stay in %2)").arg(error, outputFolder()));
    Q_EMIT finished(ok);
}

} // namespace rlda::app
