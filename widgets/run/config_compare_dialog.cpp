// ConfigCompareDialog: the diff as a table, the key's help as its tooltip.
#include "widgets/run/config_compare_dialog.h"

#include "core/config/config_diff.h"
#include "core/config/schema.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rlda::widgets {

ConfigCompareDialog::ConfigCompareDialog(const QString& nameA, const core::config::ExperimentConfig& a,
                                         const QString& nameB, const core::config::ExperimentConfig& b,
                                         QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare configs: %1 and %2").arg(nameA, nameB));
    const auto& schema = core::config::experiment_schema();
    const auto diff = core::config::diff_configs(a, b, schema);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("compareSummary"));
    const int keys = int(schema.keys.size());
    summary_->setText(diff.empty()        ? tr("The two runs' settings are the same (%1 keys compared).").arg(keys)
                      : diff.size() == 1 ? tr("1 of the %1 keys differs; the others are the same.").arg(keys)
                                         : tr("%1 of the %2 keys differ; the others are the same.").arg(diff.size()).arg(keys));

    table_ = new QTableWidget(int(diff.size()), 3, this);
    table_->setObjectName(QStringLiteral("differences"));
    table_->setHorizontalHeaderLabels({tr("Key"), nameA, nameB});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int r = 0; r < int(diff.size()); ++r) {
        const auto& d = diff[std::size_t(r)];
        auto* key = new QTableWidgetItem(QString::fromStdString(d.key));
        if (const auto* k = schema.find(d.key))
            key->setToolTip(QString::fromStdString(k->hint()));
        table_->setItem(r, 0, key);
        for (int side = 0; side < 2; ++side) {
            auto* v = new QTableWidgetItem(QString::fromStdString(side == 0 ? d.a : d.b));
            v->setFont(fixed);
            v->setToolTip(v->text());
            table_->setItem(r, side + 1, v);
        }
    }
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setVisible(!diff.empty());

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(720, 360);
}

int ConfigCompareDialog::differences() const { return table_->rowCount(); }

} // namespace rlda::widgets
