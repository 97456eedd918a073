// Run -> Reproduce the paper…: `rlda reproduce` on the shipped tables with an episode count that
// can be lowered for a quick look; progress over the seven learning runs, each rank beside the
// paper's as soon as it is known, figs. 7-12 at the end.
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace rlda::app {

class FolderField;
class RldaProcess;

class ReproduceDialog : public QDialog {
    Q_OBJECT
public:
    explicit ReproduceDialog(QWidget* parent = nullptr);

    void setEpisodes(int episodes);
    void setOutputFolder(const QString& dir);
    QString outputFolder() const;

    bool start();
    void stop();
    bool isRunning() const;
    // 0..1 over the whole reproduction.
    double fraction() const { return fraction_; }
    // The ranks table: one row a rank (trained on, model, scenario, rank, paper's, greedy).
    QTableWidget* ranks() const { return ranks_; }
    QString status() const;

Q_SIGNALS:
    void finished(bool ok);

private:
    void onLine(const QString& text);
    void onFinished(bool ok, const QString& error);

    QSpinBox* episodes_ = nullptr;
    QSpinBox* seed_ = nullptr;
    FolderField* out_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTableWidget* ranks_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* open_ = nullptr;
    RldaProcess* process_ = nullptr;
    int run_ = 0, runs_ = 7;
    double fraction_ = 0.0;
};

} // namespace rlda::app
