// The list of models a user can pick from (the zoo); reports the choice by name.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QListWidget;

namespace rlda::widgets {

class ZooPanel : public QWidget {
    Q_OBJECT
public:
    explicit ZooPanel(QWidget* parent = nullptr);

    void setModels(const QStringList& names);
    QStringList models() const;

    // Selects NAME (emitting modelSelected when it changes); false when the list lacks it.
    bool selectModel(const QString& name);
    // The selected name, empty when nothing is selected.
    QString currentModel() const;
    // Drops the selection without emitting, for when the shown model came from elsewhere (a file).
    void clearSelection();

Q_SIGNALS:
    void modelSelected(const QString& name);

private:
    QListWidget* list_ = nullptr;
};

} // namespace rlda::widgets
