// The Experiment dock: the experiment editor above the run control, and the experiment's files.
// An experiment is opened and saved one way, whichever asks (File -> Open and Save, the editor's
// own Open… and Save as…, Recent, a drop): through the file dialogs, told in the log, and added to
// the recent files; the built-in default experiment opens the same way.
#pragma once

#include <QDockWidget>
#include <QString>

namespace rlda::widgets {
class ExperimentEditor;
class RunControl;
} // namespace rlda::widgets

namespace rlda::app {

class ExperimentDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ExperimentDock(QWidget* parent);

    widgets::ExperimentEditor* editor() const { return editor_; }
    widgets::RunControl* runControl() const { return runControl_; }

    void openDefault();                // config/default.toml, built in
    bool open(const QString& path);    // false, with problem(), when it does not load
    void openWithDialog();
    void save(bool askForName);        // the file it came from, unless asked or it has none

    // Edits since the experiment was opened or saved: what closing would lose.
    bool edited() const { return edited_; }
    // The edited experiment as TOML, empty when there are no edits; and the file it came from.
    QString draft() const;
    QString origin() const;
    // Shows a draft kept from the last session, still edited (saving it goes to `origin`); false,
    // with problem(), when it no longer parses.
    bool openDraft(const QString& toml, const QString& origin);

Q_SIGNALS:
    void opened(const QString& path); // a file opened or saved: for the recent files
    void note(const QString& text);    // for the log
    void problem(const QString& text); // for the status bar and the log
    void status(const QString& text);  // for the status bar

private:
    widgets::ExperimentEditor* editor_ = nullptr;
    widgets::RunControl* runControl_ = nullptr;
    bool edited_ = false;
};

} // namespace rlda::app
