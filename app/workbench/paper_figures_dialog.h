// File -> Paper figures…: pick tables, learning runs and policies (the ones open in the workbench
// preselected), draw figs. 7-12 with `rlda figures`, watch it, read failures here, open the folder.
#pragma once

#include "widgets/job_tracker.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace rlda::app {

class FolderField;
class RldaProcess;

class PaperFiguresDialog : public QDialog {
    Q_OBJECT
public:
    explicit PaperFiguresDialog(QWidget* parent = nullptr);

    // Entries are added checked; an entry already listed is not added twice.
    void addTables(const QStringList& paths);  // table files, table folders or indexes
    void addPaperTables(); // the ten shipped tables, from their index read off the GUI thread
    void addRuns(const QStringList& folders);  // learning run folders (metrics/episodes.csv, policy.pt)
    void addPolicies(const QStringList& files);
    void setOutputFolder(const QString& dir);
    QString outputFolder() const;

    QStringList checkedTables() const;
    QStringList checkedRuns() const;
    QStringList checkedPolicies() const;
    // The rlda arguments the checked entries make; empty with `why` set when there is nothing to draw.
    QStringList arguments(QString* why = nullptr) const;

    // Starts drawing; false (with the reason shown) when there is nothing to draw or it runs.
    bool draw();
    QString status() const;

Q_SIGNALS:
    void finished(bool ok);
    void paperTablesAdded(); // addPaperTables() has read the index (its failure is in status())

private:
    QListWidget* makeList(const QString& objectName);
    void add(QListWidget* list, const QStringList& entries);
    static QStringList checked(const QListWidget* list);
    void onLine(const QString& text);
    void onFinished(bool ok, const QString& error);

    QListWidget* tables_ = nullptr;
    QListWidget* runs_ = nullptr;
    QListWidget* policies_ = nullptr;
    FolderField* out_ = nullptr;
    QCheckBox* png_ = nullptr;
    QCheckBox* pdf_ = nullptr;
    QCheckBox* svg_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QPushButton* draw_ = nullptr;
    QPushButton* open_ = nullptr;
    RldaProcess* process_ = nullptr;
    QStringList written_;
    widgets::JobTracker index_{this}; // the paper's table index
};

} // namespace rlda::app
