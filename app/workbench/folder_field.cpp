// The folder field of the workbench's dialogs.
#include "app/workbench/folder_field.h"

#include "widgets/file_dialogs.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace rlda::app {

FolderField::FolderField(const QString& title, const QString& objectName, QWidget* parent) : QWidget(parent)
{
    edit_ = new QLineEdit(this);
    edit_->setObjectName(objectName);
    auto* choose = new QPushButton(tr("Choose…"), this);
    connect(choose, &QPushButton::clicked, this, [this, title] {
        const QString dir = widgets::chooseFolderFrom(this, widgets::FileKind::Output, title, folder());
        if (!dir.isEmpty())
            setFolder(dir);
    });
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit_, 1);
    row->addWidget(choose);
}

QString FolderField::folder() const { return edit_->text().trimmed(); }
void FolderField::setFolder(const QString& dir) { edit_->setText(dir); }

} // namespace rlda::app
