// The list of models a user can pick from (the zoo); reports the choice by name.
#include "widgets/zoo_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace rlda::widgets {

ZooPanel::ZooPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* title = new QLabel(tr("Model zoo"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);

    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("zooList"));
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setUniformItemSizes(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(list_);

    // Selection, not the current row: focusing an empty list makes its first row current without
    // selecting it, and that must not load a model behind the user's back.
    connect(list_, &QListWidget::itemSelectionChanged, this, [this] {
        const QString name = currentModel();
        if (!name.isEmpty())
            Q_EMIT modelSelected(name);
    });
}

void ZooPanel::setModels(const QStringList& names)
{
    const QSignalBlocker block(list_);
    list_->clear();
    list_->addItems(names);
    list_->setCurrentRow(-1);
}

QStringList ZooPanel::models() const
{
    QStringList names;
    for (int i = 0; i < list_->count(); ++i)
        names << list_->item(i)->text();
    return names;
}

bool ZooPanel::selectModel(const QString& name)
{
    const auto found = list_->findItems(name, Qt::MatchExactly);
    if (found.isEmpty())
        return false;
    // Picking the selected model again changes no selection, so it is not reported twice.
    list_->setCurrentItem(found.front(), QItemSelectionModel::ClearAndSelect);
    return true;
}

QString ZooPanel::currentModel() const
{
    const auto selected = list_->selectedItems();
    return selected.isEmpty() ? QString() : selected.front()->text();
}

void ZooPanel::clearSelection()
{
    const QSignalBlocker block(list_);
    list_->setCurrentRow(-1);
    list_->clearSelection();
}

} // namespace rlda::widgets
