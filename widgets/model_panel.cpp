// Shows one model summary: a header line and its units in execution order, blocks marked by kind.
#include "widgets/model_panel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rlda::widgets {
namespace {

QString shapeText(const core::model::Shape& shape)
{
    QStringList dims;
    for (auto d : shape)
        dims << QString::number(d);
    return dims.join(QChar(0x00D7)); // ×
}

// "Conv2d(3, 32, kernel_size=…)" → "Conv2d": BlockSummary carries PyTorch strings only.
QString typeOf(const std::string& pytorch)
{
    const QString s = QString::fromStdString(pytorch);
    const auto paren = s.indexOf(QLatin1Char('('));
    return paren < 0 ? s : s.left(paren);
}

// Added blocks land right after the original block they deepen (and after earlier blocks added
// there), so the nearest original block before them names the action that created them.
int deepenedBlockBefore(const std::vector<core::model::BlockSummary>& units, std::size_t pos)
{
    for (std::size_t i = pos; i-- > 0;)
        if (units[i].is_block && units[i].original)
            return units[i].original_index;
    return -1;
}

} // namespace

ModelPanel::ModelPanel(QWidget* parent)
    : QWidget(parent)
{
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("modelHeader"));
    header_->setTextFormat(Qt::RichText);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header_->setWordWrap(true);
    header_->setContentsMargins(2, 2, 2, 6);

    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("modelTree"));
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("Unit"), tr("Layers"), tr("Parameters")});
    tree_->headerItem()->setTextAlignment(ParametersColumn, Qt::AlignRight | Qt::AlignVCenter);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setRootIsDecorated(true);
    auto* h = tree_->header();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(UnitColumn, QHeaderView::ResizeToContents);
    h->setSectionResizeMode(LayersColumn, QHeaderView::Stretch);
    h->setSectionResizeMode(ParametersColumn, QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header_);
    layout->addWidget(tree_, 1);

    clear();
}

QString ModelPanel::formatCount(qint64 value) const
{
    QLocale loc = locale();
    loc.setNumberOptions(loc.numberOptions() & ~QLocale::OmitGroupSeparator);
    return loc.toString(value);
}

void ModelPanel::clear()
{
    summary_.reset();
    rebuild();
}

void ModelPanel::setSummary(const core::model::ModelSummary& summary)
{
    summary_ = summary;
    rebuild();
}

void ModelPanel::rebuild()
{
    tree_->clear();
    if (!summary_) {
        header_->setText(tr("<i>No model</i>"));
        return;
    }
    const auto& s = *summary_;

    header_->setText(tr("<b>%1</b> &nbsp;·&nbsp; input %2 &nbsp;·&nbsp; %3 classes &nbsp;·&nbsp; "
                        "<b>%4</b> parameters &nbsp;·&nbsp; %5 original blocks")
                         .arg(QString::fromStdString(s.name).toHtmlEscaped(), shapeText(s.input))
                         .arg(s.classes)
                         .arg(formatCount(s.parameters))
                         .arg(s.original_blocks));

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QFont italic = tree_->font();
    italic.setItalic(true);
    QFont bold = tree_->font();
    bold.setBold(true);
    const QPalette pal = tree_->palette();
    const QBrush dim = pal.brush(QPalette::Disabled, QPalette::Text);
    // Green reads as "grown" and stays legible on light and dark palettes alike.
    const QBrush addedBrush(QColor(0x2e, 0x8b, 0x57));

    QList<QTreeWidgetItem*> rows;
    for (std::size_t p = 0; p < s.units.size(); ++p) {
        const auto& u = s.units[p];
        auto* row = new QTreeWidgetItem;
        row->setTextAlignment(ParametersColumn, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(ParametersColumn, u.parameters > 0 ? formatCount(u.parameters) : QStringLiteral("–"));
        row->setData(ParametersColumn, ValueRole, QVariant::fromValue<qint64>(u.parameters));
        row->setData(UnitColumn, ActionRole, u.original_index);

        if (u.is_block) {
            QStringList types;
            for (const auto& l : u.layers)
                types << typeOf(l);
            row->setText(LayersColumn, types.join(QStringLiteral(" → ")));
            for (const auto& l : u.layers) {
                auto* child = new QTreeWidgetItem(row);
                child->setText(LayersColumn, QString::fromStdString(l));
                child->setFont(LayersColumn, mono);
                child->setData(UnitColumn, KindRole, QStringLiteral("leaf"));
                child->setFlags(child->flags() & ~Qt::ItemIsSelectable);
            }
        } else {
            // A lone layer needs no child row: its PyTorch string is the whole story.
            row->setText(LayersColumn, u.layers.empty() ? QString() : QString::fromStdString(u.layers.front()));
            row->setFont(LayersColumn, mono);
        }

        if (u.is_block && u.original) {
            row->setText(UnitColumn, tr("block %1").arg(u.original_index));
            row->setData(UnitColumn, KindRole, QStringLiteral("block"));
            row->setFont(UnitColumn, bold);
            row->setToolTip(UnitColumn, tr("Original block %1: action Deepen(%1) adds a block after it")
                                            .arg(u.original_index));
        } else if (u.is_block) {
            const int after = deepenedBlockBefore(s.units, p);
            row->setText(UnitColumn, tr("added block (Deepen %1)").arg(after));
            row->setData(UnitColumn, KindRole, QStringLiteral("added"));
            for (int c = 0; c < tree_->columnCount(); ++c) {
                row->setFont(c, italic);
                row->setForeground(c, addedBrush);
            }
            row->setToolTip(UnitColumn, tr("Added by Deepen(%1): a function-preserving identity block").arg(after));
        } else {
            row->setText(UnitColumn, tr("layer"));
            row->setData(UnitColumn, KindRole, QStringLiteral("layer"));
            row->setForeground(UnitColumn, dim);
        }
        rows << row;
    }
    tree_->addTopLevelItems(rows);
    tree_->expandAll();
}

} // namespace rlda::widgets
