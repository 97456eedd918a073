// A folder typed in a line edit or picked with the Choose… button beside it.
#pragma once

#include <QString>
#include <QWidget>

class QLineEdit;

namespace rlda::app {

class FolderField : public QWidget {
    Q_OBJECT
public:
    // `title`: the folder dialog's; `objectName` names the line edit (for tests and the tour).
    FolderField(const QString& title, const QString& objectName, QWidget* parent = nullptr);

    QString folder() const; // trimmed
    void setFolder(const QString& dir);

private:
    QLineEdit* edit_ = nullptr;
};

} // namespace rlda::app
