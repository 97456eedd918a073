// The Runs page's details of one run.
#include "widgets/run/run_summary_panel.h"

#include "widgets/counted.h"
#include "widgets/qs.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QTableWidget>

namespace rlda::widgets {

using core::io::RunData;
using core::io::RunKind;

namespace {

constexpr int kProblemsTab = 2;

} // namespace

RunSummaryPanel::RunSummaryPanel(QWidget* parent)
    : QTabWidget(parent)
    , summary_(new QLabel(this))
    , config_(new QPlainTextEdit(this))
    , problems_(new QListWidget(this))
    , adaptations_(new QTableWidget(0, 6, this))
{
    setObjectName(QStringLiteral("details"));
    summary_->setObjectName(QStringLiteral("summaryLabel"));
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(6);
    config_->setObjectName(QStringLiteral("configText"));
    config_->setReadOnly(true);
    config_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    config_->setLineWrapMode(QPlainTextEdit::NoWrap);
    problems_->setObjectName(QStringLiteral("problemList"));
    adaptations_->setObjectName(QStringLiteral("adaptationTable"));
    adaptations_->setHorizontalHeaderLabels(
        {tr("Time (s)"), tr("Decision"), tr("Agent"), tr("Action"), tr("Parameters"), tr("Probabilities")});
    adaptations_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    adaptations_->verticalHeader()->hide();
    adaptations_->horizontalHeader()->setStretchLastSection(true);
    addTab(summary_, tr("Summary"));
    addTab(config_, tr("Config"));
    addTab(problems_, tr("Problems"));
    addTab(adaptations_, tr("Adaptations"));
}

void RunSummaryPanel::showNone(const QString& text)
{
    problems_->clear();
    adaptations_->setRowCount(0);
    summary_->setText(text);
    config_->clear();
    setTabText(kProblemsTab, tr("Problems"));
}

void RunSummaryPanel::showMessage(const QString& text) { summary_->setText(text); }

void RunSummaryPanel::showRun(const RunData& run, const RunFacts& facts)
{
    problems_->clear();
    adaptations_->setRowCount(0);
    summary_->setText(summaryOf(run, facts));
    config_->setPlainText(run.config_text.empty() ? tr("(no config.toml)") : qs(run.config_text));
    for (const auto& p : run.problems)
        problems_->addItem(qs(p));
    if (run.problems.empty())
        problems_->addItem(tr("No problems: every record was read whole."));
    setTabText(kProblemsTab, run.problems.empty() ? tr("Problems") : tr("Problems (%1)").arg(run.problems.size()));
    showAdaptations(run);
}

QString RunSummaryPanel::summaryOf(const RunData& run, const RunFacts& facts) const
{
    QStringList rows;
    const auto row = [&rows](const QString& k, const QString& v) {
        rows << QStringLiteral("<tr><td style='padding-right:12px'><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Run"), qs(run.name).toHtmlEscaped());
    row(tr("Folder"), qs(run.path.string()).toHtmlEscaped());
    row(tr("Kind"), qs(core::io::to_string(run.kind)));
    if (const auto& table = facts.table) {
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
        if (!table->complete() && !table->building() && table->expected > 0 && facts.configFile)
            row(tr("To finish it"), tr("run <tt>rlda simulate %1 --out %2</tt> again")
                                        .arg(qs((run.path / "config.toml").string()).toHtmlEscaped(),
                                             qs(run.path.string()).toHtmlEscaped()));
    } else {
        row(tr("Status"), facts.tableFolder ? tr("unreadable table") : runStatus(run, facts));
    }
    if (const auto acc = core::io::final_accuracy(run); acc && run.episodes.empty())
        row(tr("Final test accuracy"), QString::number(*acc, 'f', 4));
    if (run.finished && run.kind == RunKind::Training)
        row(tr("Epochs · steps"), QStringLiteral("%1 · %2").arg(run.finished->epochs).arg(run.finished->steps));
    if (!run.episodes.empty()) {
        const auto& last = run.episodes.back();
        row(tr("Episodes"), tr("%1 read, last %2: accuracy %3, objective %4")
                                .arg(run.episodes.size())
                                .arg(last.episode)
                                .arg(last.accuracy, 0, 'f', 4)
                                .arg(last.objective, 0, 'g', 5));
    }
    if (!run.series.empty()) {
        QStringList names;
        for (const auto& [name, points] : run.series)
            names << QStringLiteral("%1 (%2)").arg(qs(name)).arg(points.size());
        row(tr("Series"), names.join(QStringLiteral(", ")));
    }
    if (!run.allocations.empty() || !run.adaptations.empty())
        row(tr("Events"), counted(qint64(run.allocations.size()), tr("allocation change"), tr("allocation changes")) +
                              QStringLiteral(", ") +
                              counted(qint64(run.adaptations.size()), tr("adaptation"), tr("adaptations")));
    if (run.final_model)
        row(tr("Final model"), tr("%1, %2 parameters")
                                   .arg(qs(run.final_model->name).toHtmlEscaped(),
                                        QLocale().toString(qint64(run.final_model->parameters))));
    if (const auto& error = facts.fields.config_error; !error.empty())
        row(tr("config.toml"), qs(error).toHtmlEscaped()); // why its settings are not in the columns
    for (std::size_t i = 0; i < run.messages.size() && i < 5; ++i)
        row(i == 0 ? tr("Messages") : QString(), qs(run.messages[i]).toHtmlEscaped());
    row(tr("Problems"), run.problems.empty() ? tr("none")
                                             : (run.problems.size() == 1 ? tr("1 record skipped")
                                                                         : tr("%1 records skipped").arg(run.problems.size())));
    return QStringLiteral("<table>%1</table>").arg(rows.join(QString()));
}

void RunSummaryPanel::showAdaptations(const RunData& run)
{
    adaptations_->setRowCount(int(run.adaptations.size()));
    for (int i = 0; i < int(run.adaptations.size()); ++i) {
        const auto& a = run.adaptations[std::size_t(i)];
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
