// The Runs page's Notes tab.
#include "widgets/run/run_notes_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace rlda::widgets {

RunNotesPanel::RunNotesPanel(QWidget* parent)
    : QWidget(parent)
    , tags_(new QLineEdit(this))
    , note_(new QPlainTextEdit(this))
    , save_(new QPushButton(tr("Save notes"), this))
    , status_(new QLabel(this))
{
    setObjectName(QStringLiteral("notesPanel"));
    tags_->setObjectName(QStringLiteral("tagsEdit"));
    tags_->setPlaceholderText(tr("baseline, lr-sweep, …"));
    tags_->setToolTip(tr("Tags of the run, separated by commas"));
    note_->setObjectName(QStringLiteral("noteEdit"));
    note_->setPlaceholderText(tr("What this run tried, what came of it"));
    note_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    note_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    save_->setObjectName(QStringLiteral("saveNotesButton"));
    save_->setToolTip(tr("Write the tags and the note to the run folder's %1").arg(QString::fromUtf8(core::io::kNotesFile)));
    status_->setObjectName(QStringLiteral("notesStatus"));
    status_->setWordWrap(true);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Tags"), tags_);
    form->addRow(tr("Note"), note_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(save_);
    buttons->addWidget(status_, 1);
    form->addRow(buttons);
    connect(save_, &QPushButton::clicked, this, [this] { save(tags_->text(), note_->toPlainText()); });
    showRun({}, {}, {});
}

void RunNotesPanel::showRun(const std::filesystem::path& run, const core::io::RunNotes& notes, const QString& error)
{
    const bool one = !run.empty();
    tags_->setEnabled(one);
    note_->setEnabled(one);
    save_->setEnabled(one && !job_.isRunning());
    if (run == run_ && one)
        return; // a live update of the same run: what the user is typing stays
    run_ = run;
    tags_->setText(one ? QString::fromStdString(core::io::tags_text(notes.tags)) : QString());
    note_->setPlainText(one ? QString::fromStdString(notes.note) : QString());
    status_->setText(one && !error.isEmpty() ? tr("%1 (saving replaces it)").arg(error.toHtmlEscaped()) : QString());
}

bool RunNotesPanel::save(const QString& tags, const QString& note)
{
    if (run_.empty())
        return false;
    core::io::RunNotes notes;
    try {
        notes.tags = core::io::parse_tags(tags.toStdString());
    } catch (const std::exception& e) {
        status_->setText(jobErrorLine(e).toHtmlEscaped());
        return false;
    }
    notes.note = note.toStdString();
    save_->setEnabled(false);
    status_->setText(tr("Saving…"));
    job_.startJob(
        [path = run_, notes] {
            core::io::write_notes(path, notes);
            return std::make_pair(path, core::io::read_notes(path));
        },
        [this](std::pair<std::filesystem::path, core::io::RunNotes> saved) {
            save_->setEnabled(!run_.empty());
            Q_EMIT written(saved.first, saved.second);
            status_->setText(tr("Saved to %1").arg(QString::fromUtf8(core::io::kNotesFile)));
            Q_EMIT notesSaved(QString());
        },
        [this](const QString& error) {
            save_->setEnabled(!run_.empty());
            status_->setText(error.toHtmlEscaped());
            Q_EMIT notesSaved(error);
        });
    return true;
}

} // namespace rlda::widgets
