// The Help menu's three entries.
#include "app/workbench/help_menu.h"

#include "app/workbench/documentation_window.h"
#include "app/workbench/engine.h"
#include "core/util/data_dir.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace rlda::app {
namespace {

QString plainText(QString menuText) { return menuText.remove(QLatin1Char('&')).remove(QStringLiteral("…")); }

struct Shortcut {
    QString where, what, keys;
};

void collect(const QMenu& menu, const QString& where, std::vector<Shortcut>& out)
{
    for (const QAction* a : menu.actions()) {
        if (a->menu())
            collect(*a->menu(), where + QStringLiteral(" → ") + plainText(a->text()), out);
        else if (!a->shortcut().isEmpty())
            out.push_back({where, plainText(a->text()), a->shortcut().toString(QKeySequence::NativeText)});
    }
}

} // namespace

QString aboutText()
{
    // Asked of LibTorch at the moment the box opens: a driver may come or go between launches.
    const int gpus = engine().cudaDeviceCount();
    const QString cudaLine =
        gpus > 0 ? QObject::tr("available (%n device(s))", nullptr, gpus)
                 : QObject::tr("not available here: an experiment with job.device = \"cuda\" is refused");
    return QObject::tr(
               "<h3>RLDA Workbench %1</h3>"
               "<p>Reinforcement-learning-driven DNN adaptation: train under a changing budget, build "
               "simulation tables, learn and judge adaptation policies.</p>"
               "<table cellspacing=\"0\" cellpadding=\"2\">"
               "<tr><td width=\"90\">Licence</td><td>MIT</td></tr>"
               "<tr><td>LibTorch</td><td>%2</td></tr>"
               "<tr><td>Qt</td><td>%3 (built with %4)</td></tr>"
               "<tr><td>CUDA</td><td>%5</td></tr>"
               "</table>"
               "<p>The paper's simulation tables shipped with it are the original system's results, "
               "Copyright (c) 2023 Chami Lamelas, under the MIT licence.</p>")
        .arg(QCoreApplication::applicationVersion().isEmpty() ? QStringLiteral(RLDA_VERSION)
                                                              : QCoreApplication::applicationVersion(),
             QString::fromStdString(engine().libtorchVersion()), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), cudaLine);
}

QMessageBox* makeAboutBox(QWidget* parent)
{
    auto* box = new QMessageBox(parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setWindowTitle(QObject::tr("About RLDA Workbench"));
    box->setTextFormat(Qt::RichText);
    box->setText(aboutText());
    box->setIconPixmap(QIcon(QStringLiteral(":/icons/rlda-workbench.svg")).pixmap(64, 64));
    box->setStandardButtons(QMessageBox::Close);
    return box;
}

QDialog* makeShortcutsDialog(QMainWindow& window)
{
    std::vector<Shortcut> rows;
    for (const QAction* a : window.menuBar()->actions())
        if (a->menu())
            collect(*a->menu(), plainText(a->text()), rows);
    // The plots' gestures (widgets/plot/plot_zoom_pan.h), which no action carries.
    const QString plot = QObject::tr("Plots");
    rows.push_back({plot, QObject::tr("Pan"), QObject::tr("Drag")});
    rows.push_back({plot, QObject::tr("Zoom"), QObject::tr("Mouse wheel")});
    rows.push_back({plot, QObject::tr("Fit to the data and follow it"), QObject::tr("Double click")});

    auto* dialog = new QDialog(&window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(int(rows.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Menu"), QObject::tr("Action"), QObject::tr("Keys or mouse")});
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus);
    table->setShowGrid(false);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    for (int r = 0; r < int(rows.size()); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].where));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].what));
        table->setItem(r, 2, new QTableWidgetItem(rows[r].keys));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    // Every row in view where the screen allows, so that the list reads without scrolling.
    int width = 60;
    for (int c = 0; c < 3; ++c)
        width += table->columnWidth(c);
    const int height = table->horizontalHeader()->sizeHint().height() +
                       int(rows.size()) * table->verticalHeader()->defaultSectionSize() +
                       buttons->sizeHint().height() + 40;
    dialog->resize(std::max(width, 480), std::min(height, 760));
    return dialog;
}

HelpMenu::HelpMenu(QMainWindow& window, QMenu& menu) : QObject(&window), window_(window)
{
    menu.addAction(tr("&Documentation"), QKeySequence::HelpContents, this, &HelpMenu::openDocumentation);
    menu.addAction(tr("&Keyboard shortcuts"), this, [this] {
        auto* d = makeShortcutsDialog(window_);
        d->show();
    });
    menu.addSeparator();
    menu.addAction(tr("&About RLDA Workbench"), this, [this] { makeAboutBox(&window_)->show(); });
}

void HelpMenu::openDocumentation()
{
    // core::documentation_dir() finds it as the tables are found (installed, or the source tree).
    // It is drawn here (DocumentationWindow), so that no Markdown viewer needs to be installed.
    find_.startJob([] { return QString::fromStdString((core::documentation_dir() / "README.md").string()); },
                   [this](const QString& file) { documentation()->openPage(file); },
                   [this](const QString& reason) { Q_EMIT documentationOpened({}, reason); });
}

DocumentationWindow* HelpMenu::documentation()
{
    if (!documentation_) {
        documentation_ = new DocumentationWindow(&window_);
        connect(documentation_, &DocumentationWindow::pageShown, this, &HelpMenu::documentationOpened);
    }
    return documentation_;
}

} // namespace rlda::app
