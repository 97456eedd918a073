// The screenshot tour (rlda-tour DIR, run by scripts/screenshots): trains the open
// experiment, learns from a table, judges the learned policy on the tables beside it, trains again
// with that policy as the agent, compares the runs, draws the paper's figures, reproduces the paper
// quickly, and saves a screenshot of every page and of both dialogs in a real run state.
#pragma once

#include <QDir>
#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace rlda::app {

class MainWindow;

class Tour : public QObject {
    Q_OBJECT
public:
    // `table`: the simulation table to learn from; empty skips learning and the policy run.
    Tour(MainWindow& window, const QString& outDir, QString table, QObject* parent = nullptr);

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    // Starts a run with `begin` and calls `then` once it has ended well (fails the tour otherwise).
    void runThen(const std::function<bool()>& begin, const std::function<void()>& then);
    // Shows `page`, lets it settle, saves `name`.png, then goes on with `next`.
    void shootPage(int page, const QString& name, const std::function<void()>& next);
    void afterFirstTraining();
    void learn();
    void trainWithPolicy();
    void compareRuns();
    // Starts a local sweep of the experiment, shoots it with rows in progress, cancels it.
    void sweep(const std::function<void()>& next);
    // The Paper figures dialog drawing from the paper's tables, then a quick reproduction.
    void dialogs(const std::function<void()>& next);
    void shoot(const QString& name); // the window
    void shootWidget(QWidget& widget, const QString& name);
    void fail(const QString& why);

    MainWindow& window_;
    QDir out_;
    QString table_;
    QString policy_;
    bool failed_ = false;
    int shots_ = 0;
};

} // namespace rlda::app
