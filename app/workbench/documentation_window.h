// The documentation, rendered in the workbench itself: README.md and the docs/ pages it links,
// Markdown drawn by QTextBrowser, so that Help → Documentation works on a machine with no Markdown
// viewer. Each page (and the pictures it shows) is read off the GUI thread; links to other pages
// open here, links to the web in the desktop's browser. Ctrl+F finds text in the page shown.
#pragma once

#include "widgets/job_tracker.h"

#include <QDialog>
#include <QImage>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace rlda::app {

// One page as read from disk: its Markdown and the pictures it shows, by their URLs resolved against
// the page's (as QTextDocument looks a resource up). A plain value, made on a worker thread.
struct DocumentationPage {
    QString file;     // absolute path of the .md file
    QString markdown; // its text
    QString anchor;   // the heading to scroll to ("" = the top)
    QList<QPair<QUrl, QImage>> images;
};

// Reads `file` and every local picture it names (![..](path)), relative to its folder. Throws
// core::Error naming the file when it cannot be read.
DocumentationPage readDocumentationPage(const QString& file, const QString& anchor = {});

class DocumentationWindow : public QDialog {
    Q_OBJECT
public:
    explicit DocumentationWindow(QWidget* parent = nullptr);

    // Reads `file` off the GUI thread and shows it; pageShown() says when, or why not.
    void openPage(const QString& file, const QString& anchor = {});
    QString file() const { return file_; }
    QTextBrowser* browser() const { return browser_; }

    // Selects the next place (the previous one when `backward`) where the page shows `text`, from
    // the selection on and round past the end, and says in the find bar how many there are; false
    // when there is none (or `text` is empty).
    bool find(const QString& text, bool backward = false);
    QString findStatus() const;

Q_SIGNALS:
    void pageShown(const QString& file, const QString& error);

private:
    void display(const DocumentationPage& page);
    void follow(const QUrl& link);

    QTextBrowser* browser_ = nullptr;
    QLabel* where_ = nullptr;
    QPushButton* back_ = nullptr;
    QLineEdit* find_ = nullptr;
    QLabel* found_ = nullptr; // "3 of 12", "not found"
    QString file_;
    QString home_; // the first page opened (the README): the Contents button's
    QStringList history_; // the pages shown before this one, for Back
    bool goingBack_ = false;
    widgets::JobTracker read_{this};
};

} // namespace rlda::app
