#include "app/workbench/close_guard.h"

#include "app/workbench/worker.h"

#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

#include <chrono>
#include <memory>

namespace rlda::app {

CloseGuard::CloseGuard(RunController& controller, QWidget& window)
    : QObject(&window), controller_(controller), window_(window)
{
    prompt_ = [this](const QString& run) {
        const std::unique_ptr<QMessageBox> box(promptBox(&window_, run));
        box->exec();
        return choiceOf(*box);
    };
    sweepPrompt_ = [this](const QString& folder) {
        const std::unique_ptr<QMessageBox> box(sweepPromptBox(&window_, folder));
        box->exec();
        const QAbstractButton* b = box->clickedButton();
        return b && b->objectName() == QStringLiteral("closeSweep");
    };
    // Kept running: the window closes once the run has ended (after this state change has reached everyone).
    connect(&controller_, &RunController::stateChanged, this, [this] {
        if (closeAfterRun_ && !controller_.isActive())
            QTimer::singleShot(0, &window_, &QWidget::close);
    });
}

QMessageBox* CloseGuard::promptBox(QWidget* parent, const QString& runFolder)
{
    auto* box = new QMessageBox(QMessageBox::Question, tr("A run is in progress"),
                                tr("A run is writing into %1.").arg(runFolder), QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("closePrompt"));
    box->setInformativeText(tr("Cancel it and close: the run stops at its next step, and its folder keeps everything "
                               "written so far.\n\nKeep it running: the window closes, the run goes on to its end in "
                               "the background, and then the program exits."));
    auto* keep = box->addButton(tr("&Keep running in the background"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    auto* cancel = box->addButton(tr("&Cancel the run and close"), QMessageBox::DestructiveRole);
    cancel->setObjectName(QStringLiteral("cancelAndClose"));
    auto* stay = box->addButton(tr("&Stay"), QMessageBox::RejectRole);
    stay->setObjectName(QStringLiteral("stay"));
    box->setDefaultButton(cancel); // what closing did before it asked
    box->setEscapeButton(stay);
    return box;
}

QMessageBox* CloseGuard::sweepPromptBox(QWidget* parent, const QString& folder)
{
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("A table is being built"),
                        tr("A table is being built into %1.").arg(folder), QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("sweepClosePrompt"));
    box->setInformativeText(
        tr("Its rlda processes run on their own: the build goes on after the window closes. "
           "Start the workbench again and its Sweeps page finds the build and follows it "
           "again, or open the folder's table when it is done."));
    auto* close = box->addButton(tr("&Close; the build goes on"), QMessageBox::AcceptRole);
    close->setObjectName(QStringLiteral("closeSweep"));
    auto* stay = box->addButton(tr("&Stay"), QMessageBox::RejectRole);
    stay->setObjectName(QStringLiteral("stay"));
    box->setDefaultButton(close);
    box->setEscapeButton(stay);
    return box;
}

CloseGuard::Choice CloseGuard::choiceOf(const QMessageBox& answered)
{
    const QAbstractButton* b = answered.clickedButton();
    if (b && b->objectName() == QStringLiteral("keepRunning"))
        return Choice::KeepRunning;
    if (b && b->objectName() == QStringLiteral("cancelAndClose"))
        return Choice::CancelAndClose;
    return Choice::Stay;
}

bool CloseGuard::mayClose(const QString& runFolder)
{
    // The run stops at its next batch or episode, well within this; a step it cannot leave (loading
    // a dataset, a long evaluation) must not freeze the window.
    constexpr auto kStopBound = std::chrono::seconds(5);
    if (!closeAfterRun_ && sweepFolder_ && sweepPrompt_)
        if (const QString sweep = sweepFolder_(); !sweep.isEmpty()) {
            if (!sweepPrompt_(sweep))
                return false;
            Q_EMIT message(
                tr("Closing: the table build into %1 goes on; the Sweeps page follows it again at the "
                   "next start")
                    .arg(sweep));
        }
    if (controller_.isActive()) {
        if (closeAfterRun_)
            return false; // kept running: the close comes when it has ended
        switch (prompt_ ? prompt_(runFolder) : Choice::CancelAndClose) {
        case Choice::Stay: return false;
        case Choice::KeepRunning:
            closeAfterRun_ = true;
            Q_EMIT saveRequested(); // the layout as it was on screen
            Q_EMIT keptRunning(tr("The run goes on in the background into %1; the program exits when it ends")
                                   .arg(runFolder));
            return false;
        case Choice::CancelAndClose: break;
        }
        Q_EMIT message(tr("Closing: the run is cancelled; its folder keeps everything written so far"));
    }
    if (controller_.shutdown(kStopBound)) {
        if (!closeAfterRun_) // saved already, while it was on screen
            Q_EMIT saveRequested();
        return true;
    }
    // Nothing is killed: the run stops at its next check and writes its end; the window waits open.
    Q_EMIT message(tr("Closing: the run did not stop within %1 s (it is inside one step); the window "
                      "closes when it stops, with everything written kept")
                       .arg(kStopBound.count()));
    connect(&controller_, &RunController::stopped, &window_, &QWidget::close, Qt::SingleShotConnection);
    return false;
}

} // namespace rlda::app
