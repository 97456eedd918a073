// DocumentationWindow: Markdown pages read off the GUI thread, drawn by a QTextBrowser.
#include "app/workbench/documentation_window.h"

#include "core/util/error.h"
#include "core/util/read_file.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>

namespace rlda::app {
namespace {
// A documentation page is a few tens of kilobytes; this bounds what a stray link can make us read.
constexpr std::size_t kMaxPageBytes = std::size_t{4} * 1024 * 1024;
// The pictures of one page, read whole: the project's own are a few hundred kilobytes. A link to
// /dev/zero, a FIFO or a huge file is skipped (core::read_text_file opens without blocking and
// checks the size first), and so is every picture past the page's budget.
constexpr std::uint64_t kMaxImageBytes = std::uint64_t{16} * 1024 * 1024;
constexpr std::uint64_t kMaxPageImageBytes = std::uint64_t{64} * 1024 * 1024;
} // namespace

DocumentationPage readDocumentationPage(const QString& file, const QString& anchor)
{
    DocumentationPage page;
    page.file = QFileInfo(file).absoluteFilePath();
    page.anchor = anchor;
    page.markdown = QString::fromStdString(core::read_text_file(page.file.toStdString(), kMaxPageBytes));
    const QDir dir = QFileInfo(page.file).dir();
    // ![text](path): the pictures the page shows, loaded here so that drawing it reads no file.
    static const QRegularExpression picture(QStringLiteral(R"(!\[[^\]]*\]\(([^)\s]+)\))"));
    std::uint64_t budget = kMaxPageImageBytes;
    for (auto it = picture.globalMatch(page.markdown); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (QUrl(name).scheme().isEmpty()) {
            std::string bytes;
            try {
                bytes =
                    core::read_text_file(dir.filePath(name).toStdString(), std::min(kMaxImageBytes, budget));
            } catch (const std::exception&) {
                continue; // missing, not a regular file, or too large: the page shows its text
            }
            budget -= bytes.size();
            const QImage image = QImage::fromData(QByteArray::fromStdString(bytes));
            if (!image.isNull())
                // Keyed as the document looks it up: resolved against the page's own URL.
                page.images.append({QUrl::fromLocalFile(page.file).resolved(QUrl(name)),
                                    image.scaledToWidth(std::min(image.width(), 760), Qt::SmoothTransformation)});
        }
    }
    return page;
}

DocumentationWindow::DocumentationWindow(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("documentationWindow"));
    setWindowTitle(tr("RLDA Workbench documentation"));
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("documentationBrowser"));
    browser_->setOpenLinks(false); // follow(): pages are read off the GUI thread
    back_ = new QPushButton(tr("Back"), this);
    back_->setObjectName(QStringLiteral("documentationBack"));
    back_->setEnabled(false);
    auto* home = new QPushButton(tr("Contents (README)"), this);
    where_ = new QLabel(this);
    where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    find_ = new QLineEdit(this);
    find_->setObjectName(QStringLiteral("documentationFind"));
    find_->setPlaceholderText(tr("Find (Ctrl+F)"));
    find_->setClearButtonEnabled(true);
    find_->setMaximumWidth(220);
    found_ = new QLabel(this);
    found_->setObjectName(QStringLiteral("documentationFound"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(back_);
    bar->addWidget(home);
    bar->addWidget(where_, 1);
    bar->addWidget(find_);
    bar->addWidget(found_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(browser_, 1);
    resize(900, 680);

    connect(browser_, &QTextBrowser::anchorClicked, this, &DocumentationWindow::follow);
    // Typing finds from the top of the page; Enter and F3 the next place, Shift+Enter and Shift+F3
    // the one before.
    connect(new QShortcut(QKeySequence::Find, this), &QShortcut::activated, this, [this] {
        find_->setFocus(Qt::ShortcutFocusReason);
        find_->selectAll();
    });
    connect(find_, &QLineEdit::textEdited, this, [this](const QString& text) {
        browser_->moveCursor(QTextCursor::Start);
        find(text);
    });
    connect(find_, &QLineEdit::returnPressed, this, [this] {
        find(find_->text(), QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier));
    });
    connect(new QShortcut(QKeySequence::FindNext, this), &QShortcut::activated, this,
            [this] { find(find_->text()); });
    connect(new QShortcut(QKeySequence::FindPrevious, this), &QShortcut::activated, this,
            [this] { find(find_->text(), true); });
    connect(back_, &QPushButton::clicked, this, [this] {
        if (history_.isEmpty())
            return;
        goingBack_ = true;
        openPage(history_.takeLast());
    });
    connect(home, &QPushButton::clicked, this, [this] {
        if (!home_.isEmpty())
            openPage(home_);
    });
}

void DocumentationWindow::openPage(const QString& file, const QString& anchor)
{
    if (home_.isEmpty())
        home_ = file; // the first page opened: the README
    read_.startJob([file, anchor] { return readDocumentationPage(file, anchor); },
                   [this](const DocumentationPage& page) { display(page); },
                   [this, file](const QString& error) {
                       goingBack_ = false;
                       where_->setText(error);
                       Q_EMIT pageShown(file, error);
                   });
}

void DocumentationWindow::display(const DocumentationPage& page)
{
    if (!file_.isEmpty() && file_ != page.file && !goingBack_)
        history_ << file_;
    goingBack_ = false;
    back_->setEnabled(!history_.isEmpty());
    file_ = page.file;
    QTextDocument* doc = browser_->document();
    doc->setMarkdown(page.markdown); // which clears the document, its resources with it
    doc->setBaseUrl(QUrl::fromLocalFile(page.file));
    // Before the first layout asks for them, which would read them here, on the GUI thread.
    for (const auto& [url, image] : page.images)
        doc->addResource(QTextDocument::ImageResource, url, image);
    if (page.anchor.isEmpty())
        browser_->moveCursor(QTextCursor::Start);
    else
        browser_->scrollToAnchor(page.anchor);
    where_->setText(page.file);
    found_->clear();
    show();
    raise();
    Q_EMIT pageShown(page.file, {});
}

bool DocumentationWindow::find(const QString& text, bool backward)
{
    if (text.isEmpty()) {
        found_->clear();
        return false;
    }
    const QTextDocument::FindFlags flags =
        backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool hit = browser_->find(text, flags);
    if (!hit) { // round past the end (or the start)
        browser_->moveCursor(backward ? QTextCursor::End : QTextCursor::Start);
        hit = browser_->find(text, flags);
    }
    if (!hit) {
        found_->setText(tr("not found"));
        return false;
    }
    // Which of how many: the places before the selection, counted from the top.
    const QTextDocument* doc = browser_->document();
    const int here = browser_->textCursor().selectionStart();
    int total = 0;
    int index = 0;
    for (QTextCursor c = doc->find(text); !c.isNull(); c = doc->find(text, c)) {
        ++total;
        if (c.selectionStart() <= here)
            index = total;
    }
    found_->setText(tr("%1 of %2").arg(index).arg(total));
    return true;
}

QString DocumentationWindow::findStatus() const
{
    return found_->text();
}

void DocumentationWindow::follow(const QUrl& link)
{
    if (link.scheme() == QLatin1String("http") || link.scheme() == QLatin1String("https") ||
        link.scheme() == QLatin1String("mailto")) {
        QDesktopServices::openUrl(link);
        return;
    }
    // Within this page: its own headings.
    if (link.path().isEmpty() && !link.fragment().isEmpty()) {
        browser_->scrollToAnchor(link.fragment());
        return;
    }
    const QUrl target = QUrl::fromLocalFile(file_).resolved(link);
    const QString path = target.toLocalFile();
    if (path.endsWith(QLatin1String(".md"), Qt::CaseInsensitive)) {
        openPage(path, target.fragment());
        return;
    }
    // Anything else (a picture, a CSV, a folder): the desktop's own program, if there is one.
    if (!QDesktopServices::openUrl(target))
        where_->setText(tr("%1: no program to open it with").arg(path));
}

} // namespace rlda::app
