// The screenshot tour (rlda-workbench --tour DIR, run by scripts/screenshots): trains the open
// experiment, learns from a table, opens the results in every page, and saves a screenshot of
// each page in a real run state.
#pragma once

#include <QDir>
#include <QObject>
#include <QString>

namespace rlda::app {

class MainWindow;

class Tour : public QObject {
    Q_OBJECT
public:
    // `table`: the simulation table to learn from; empty skips the learning part.
    Tour(MainWindow& window, const QString& outDir, const QString& table, QObject* parent = nullptr);

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onTrainingDone();
    void onLearningDone();
    void finishWithRuns();
    void shoot(const QString& name);
    void fail(const QString& why);

    MainWindow& window_;
    QDir out_;
    QString table_;
    bool liveShot_ = false;
    bool learningLiveShot_ = false;
    int shots_ = 0;
};

} // namespace rlda::app
