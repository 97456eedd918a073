// Closing the workbench while a run is in progress. The user is asked (by default a message box):
// keep the run going in the background (the window goes now, the program when the run ends), cancel
// it and close (its folder keeps everything written), or stay. Nothing is killed: a run that does
// not stop within a bound keeps the window open until it does. A table build the Sweeps page
// follows runs in rlda processes of its own: the user is told it goes on, and that the page follows
// it again at the next start, and closes or stays.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMessageBox;
class QWidget;

namespace rlda::app {

class RunController;

class CloseGuard : public QObject {
    Q_OBJECT
public:
    enum class Choice {
        KeepRunning,    // the window goes, the run goes on; the program ends when it has ended
        CancelAndClose, // the run is cancelled, its files kept, and the window closes (the default)
        Stay,           // nothing happens
    };
    // Who answers: by default promptBox(); tests answer through setPrompt().
    using Prompt = std::function<Choice(const QString& runFolder)>;

    // Guards `window`, whose runs `controller` runs.
    CloseGuard(RunController& controller, QWidget& window);

    void setPrompt(Prompt prompt) { prompt_ = std::move(prompt); }
    // The folder of the table build the window follows, "" when none: asked by mayClose.
    void setSweepFolder(std::function<QString()> folder) { sweepFolder_ = std::move(folder); }
    // Whether to close while that build goes on (by default sweepPromptBox(); tests answer here).
    using SweepPrompt = std::function<bool(const QString& folder)>;
    void setSweepPrompt(SweepPrompt prompt) { sweepPrompt_ = std::move(prompt); }
    // Two buttons, "close" (the default; object name closeSweep) and "stay" (Escape; stay).
    static QMessageBox* sweepPromptBox(QWidget* parent, const QString& folder);
    // The box the default prompt shows (deleted by its caller): three buttons, "cancel and close" the
    // default and Escape "stay"; the buttons' object names are the choices' (keepRunning, cancelAndClose, stay).
    static QMessageBox* promptBox(QWidget* parent, const QString& runFolder);
    static Choice choiceOf(const QMessageBox& answered);

    // From the window's closeEvent: true when it may close now (its runs stopped, saveRequested()
    // emitted); false when it stays open, for now or for good.
    bool mayClose(const QString& runFolder);

Q_SIGNALS:
    void saveRequested();                  // the window's layout, as it is on screen
    void message(const QString& text);     // for the status bar and the log
    void keptRunning(const QString& text); // the window hides; it closes when the run has ended

private:
    RunController& controller_;
    QWidget& window_;
    Prompt prompt_;
    std::function<QString()> sweepFolder_;
    SweepPrompt sweepPrompt_;
    bool closeAfterRun_ = false; // KeepRunning was chosen
};

} // namespace rlda::app
