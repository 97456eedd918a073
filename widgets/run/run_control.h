// Start / pause / resume / cancel for one run, with its progress, time left, ETA and worker state.
#pragma once

#include "core/job/events.h"

#include <QString>
#include <QWidget>

#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace rlda::widgets {

class RunControl : public QWidget {
    Q_OBJECT
public:
    // A run's state: what this control shows, and what the app's worker reports (the app reuses
    // this enum as app::RunState, app/workbench/metatypes.h). Q_ENUM declares it to Qt's
    // meta-type system, for queued signals, and names its keys.
    enum class State { Idle, Running, Paused, Cancelling, Finished, Cancelled, Failed };
    Q_ENUM(State)

    explicit RunControl(QWidget* parent = nullptr);

    State state() const { return state_; }
    static QString stateName(State s); // "Running", ...: the one name of each state, shown and logged
    // A run is in progress: Running, Paused or Cancelling (it has not ended yet).
    static bool isActive(State s) { return s == State::Running || s == State::Paused || s == State::Cancelling; }
    double fraction() const { return fraction_; } // of the budget or of the episodes, 0..1

    // Wall seconds for the ETA. Kept public for tests: a clock they drive is the only way to check
    // the ETA without waiting on real time.
    void setWallClock(std::function<double()> seconds);

public Q_SLOTS:
    void setState(rlda::widgets::RunControl::State state, const QString& message = {});
    void setTrainingProgress(const rlda::core::train::BatchProgress& progress);
    void setLearningProgress(qint64 episode, qint64 total);
    void reset();
    // Pause (the button, F7): while Running, says "Pausing…" until the run reports Paused (it
    // pauses at its next step; a test of the test set in progress finishes first), the Pause button
    // off meanwhile, and emits pauseRequested(); while Paused, resumeRequested().
    void togglePause();

Q_SIGNALS:
    void startRequested();
    void pauseRequested();
    void resumeRequested();
    void cancelRequested();

private:
    void updateButtons();
    void updateEta(double fraction);

    State state_ = State::Idle;
    bool pausing_ = false; // a pause asked for and not yet reported
    double fraction_ = 0.0;
    // The ETA's reference point: reset on every (re)start so that a pause does not count as slow.
    double rateWall0_ = -1.0;
    double rateFraction0_ = 0.0;
    std::function<double()> wall_;

    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr; // Pause, or Resume while paused
    QPushButton* cancel_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QLabel* epoch_ = nullptr;
    QLabel* timeLeft_ = nullptr;
    QLabel* eta_ = nullptr;
    QLabel* stateLabel_ = nullptr;
};

} // namespace rlda::widgets
