// The Runs page's Notes tab: the tags and the note of one run, kept in its notes.json.
#pragma once

#include "core/io/run_notes.h"
#include "widgets/job_tracker.h"

#include <QString>
#include <QWidget>

#include <filesystem>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace rlda::widgets {

// Edits the notes of the run showRun() names (core/io/run_notes.h); "Save notes" writes them off
// the GUI thread. A run shown again (a live update of the same run) keeps what the user is typing.
class RunNotesPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunNotesPanel(QWidget* parent = nullptr);

    // The run whose notes to edit, as listed (`error`: its notes.json refused, in one line); an
    // empty path: none, the editors disabled.
    void showRun(const std::filesystem::path& run, const core::io::RunNotes& notes, const QString& error);
    // Tags ("a, b") and the note of the run shown, written to its notes.json off the GUI thread;
    // notesSaved() answers. False when no run is shown or the tags are refused (the reason is shown).
    bool save(const QString& tags, const QString& note);

Q_SIGNALS:
    void written(const std::filesystem::path& run, const core::io::RunNotes& notes); // as read back
    void notesSaved(const QString& error); // "" or the one-line error

private:
    std::filesystem::path run_; // the run folder whose notes the editors hold
    QLineEdit* tags_;
    QPlainTextEdit* note_;
    QPushButton* save_;
    QLabel* status_;
    JobTracker job_{this};
};

} // namespace rlda::widgets
