// Start / pause / resume / cancel for one run, with its progress, time left, ETA and worker state.
#include "widgets/run/run_control.h"

#include "widgets/run/duration_text.h"

#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace rlda::widgets {

namespace {
constexpr int kSteps = 1000; // progress bar resolution

QLabel* caption(const QString& text, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}
} // namespace

RunControl::RunControl(QWidget* parent)
    : QWidget(parent)
    , wall_([] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    })
{
    start_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"), this);
    start_->setObjectName(QStringLiteral("startButton"));
    pause_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPause), tr("Pause"), this);
    pause_->setObjectName(QStringLiteral("pauseButton"));
    cancel_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    // The toggle keeps the width of its longer text, so that the row does not jump.
    pause_->setMinimumWidth(std::max(pause_->sizeHint().width(),
                                     pause_->fontMetrics().horizontalAdvance(tr("Resume")) + 48));

    bar_ = new QProgressBar(this);
    bar_->setObjectName(QStringLiteral("progressBar"));
    bar_->setRange(0, kSteps);
    bar_->setFormat(QStringLiteral("%p%"));

    epoch_ = new QLabel(this);
    epoch_->setObjectName(QStringLiteral("epochLabel"));
    timeLeft_ = new QLabel(this);
    timeLeft_->setObjectName(QStringLiteral("timeLeftLabel"));
    eta_ = new QLabel(this);
    eta_->setObjectName(QStringLiteral("etaLabel"));
    stateLabel_ = new QLabel(this);
    stateLabel_->setObjectName(QStringLiteral("stateLabel"));
    stateLabel_->setWordWrap(true);
    stateLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse); // an error message to copy

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(pause_);
    buttons->addWidget(cancel_);
    buttons->addWidget(bar_, 1);

    auto* info = new QGridLayout;
    info->setHorizontalSpacing(8);
    info->addWidget(caption(tr("Progress"), this), 0, 0);
    info->addWidget(epoch_, 0, 1);
    info->addWidget(caption(tr("Time left"), this), 0, 2);
    info->addWidget(timeLeft_, 0, 3);
    info->addWidget(caption(tr("ETA"), this), 0, 4);
    info->addWidget(eta_, 0, 5);
    info->addWidget(caption(tr("State"), this), 1, 0);
    info->addWidget(stateLabel_, 1, 1, 1, 5);
    info->setColumnStretch(1, 2);
    info->setColumnStretch(3, 1);
    info->setColumnStretch(5, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addLayout(info);

    connect(start_, &QPushButton::clicked, this, &RunControl::startRequested);
    connect(pause_, &QPushButton::clicked, this, &RunControl::togglePause);
    connect(cancel_, &QPushButton::clicked, this, &RunControl::cancelRequested);
    reset();
}

void RunControl::setWallClock(std::function<double()> seconds) { wall_ = std::move(seconds); }

QString RunControl::stateName(State s)
{
    switch (s) {
    case State::Idle:
        return tr("Idle");
    case State::Running:
        return tr("Running");
    case State::Paused:
        return tr("Paused");
    case State::Cancelling:
        return tr("Cancelling…");
    case State::Finished:
        return tr("Finished");
    case State::Cancelled:
        return tr("Cancelled");
    case State::Failed:
        return tr("Failed");
    }
    return {};
}

void RunControl::togglePause()
{
    if (state_ == State::Paused) {
        Q_EMIT resumeRequested();
    } else if (state_ == State::Running && !pausing_) {
        pausing_ = true;
        stateLabel_->setText(tr("Pausing… (at the next step)"));
        updateButtons();
        Q_EMIT pauseRequested();
    }
}

void RunControl::reset()
{
    fraction_ = 0.0;
    rateWall0_ = -1.0;
    bar_->setValue(0);
    epoch_->setText(QStringLiteral("—"));
    timeLeft_->setText(QStringLiteral("—"));
    eta_->setText(QStringLiteral("—"));
    setState(State::Idle);
}

void RunControl::setState(State state, const QString& message)
{
    const State before = state_;
    state_ = state;
    pausing_ = false; // whatever the run reports next ends the wait for a pause
    if (state == State::Running && before != State::Running)
        rateWall0_ = -1.0; // measured afresh from the next progress report
    if (state == State::Finished) {
        bar_->setValue(kSteps);
        eta_->setText(QStringLiteral("—"));
    }
    if (state == State::Paused || state == State::Cancelled || state == State::Failed)
        eta_->setText(QStringLiteral("—"));

    QString text = stateName(state);
    if (!message.isEmpty())
        text += QStringLiteral(": ") + message;
    stateLabel_->setText(text);
    stateLabel_->setToolTip(message);
    QPalette pal = stateLabel_->palette();
    pal.setColor(QPalette::WindowText, state == State::Failed ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::WindowText));
    stateLabel_->setPalette(pal);
    updateButtons();
}

void RunControl::updateButtons()
{
    // A run being cancelled takes no more clicks; one that has ended makes room for the next.
    const bool steerable = isActive(state_) && state_ != State::Cancelling;
    start_->setEnabled(!isActive(state_));
    pause_->setEnabled(steerable && !pausing_);
    cancel_->setEnabled(steerable);
    const bool paused = state_ == State::Paused;
    pause_->setText(paused ? tr("Resume") : tr("Pause"));
    pause_->setIcon(style()->standardIcon(paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
}

void RunControl::updateEta(double fraction)
{
    fraction_ = std::clamp(fraction, 0.0, 1.0);
    bar_->setValue(static_cast<int>(std::lround(fraction_ * kSteps)));
    const double now = wall_();
    if (rateWall0_ < 0.0) {
        rateWall0_ = now;
        rateFraction0_ = fraction_;
        eta_->setText(QStringLiteral("—"));
        return;
    }
    const double dt = now - rateWall0_;
    const double df = fraction_ - rateFraction0_;
    if (dt <= 0.0 || df <= 0.0)
        return;
    const double left = (1.0 - fraction_) * dt / df;
    const QString at = QDateTime::currentDateTime().addSecs(static_cast<qint64>(left)).toString(QStringLiteral("HH:mm"));
    eta_->setText(tr("%1 (at %2)").arg(durationText(left), at));
}

void RunControl::setTrainingProgress(const core::train::BatchProgress& p)
{
    epoch_->setText(p.batches > 0 ? tr("epoch %1 · batch %2 / %3").arg(p.epoch).arg(p.batch).arg(p.batches)
                                  : tr("epoch %1").arg(p.epoch));
    timeLeft_->setText(tr("%1 of %2 (budget)").arg(durationText(p.time_left), durationText(p.budget)));
    updateEta(p.budget > 0.0 ? p.time / p.budget : 0.0);
}

void RunControl::setLearningProgress(qint64 episode, qint64 total)
{
    epoch_->setText(tr("episode %1 / %2").arg(QLocale().toString(episode), QLocale().toString(total)));
    timeLeft_->setText(tr("%1 episodes").arg(QLocale().toString(std::max<qint64>(0, total - episode))));
    updateEta(total > 0 ? double(episode) / double(total) : 0.0);
}

} // namespace rlda::widgets
