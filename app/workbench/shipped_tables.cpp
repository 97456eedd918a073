#include "app/workbench/shipped_tables.h"

#include "core/table/table_meta.h"
#include "core/util/data_dir.h"

#include <QMenu>

namespace rlda::app {

ShippedTables::ShippedTables(QMenu& file, QObject* parent) : QObject(parent)
{
    addMenu(file, tr("Open the &paper's tables"), QStringLiteral("paperTablesMenu"), paperJob_,
            [] { return (core::paper_tables_dir() / "index.csv").string(); }, &paperTables_);
    addMenu(file, tr("Open the &Fashion-MNIST tables"), QStringLiteral("fashionTablesMenu"), fashionJob_,
            [] { return (core::fashion_mnist_tables_dir() / "index.csv").string(); }, nullptr);
}

void ShippedTables::addMenu(QMenu& file, const QString& title, const QString& name, widgets::JobTracker& job,
                            std::string (*index)(), QStringList* paths)
{
    auto* menu = file.addMenu(title);
    menu->setObjectName(name);
    menu->setEnabled(false);
    job.startJob([index] { return core::sim::load_table_index(index()); },
                 [this, menu, paths](const std::vector<core::sim::TableIndexEntry>& entries) {
                     for (const auto& e : entries) {
                         const QString path = QString::fromStdString(e.file);
                         if (paths)
                             *paths << path;
                         menu->addAction(tr("%1 %2 (up at %3 s of %4 s)")
                                             .arg(QString::fromStdString(e.model), QString::fromStdString(e.scenario))
                                             .arg(e.adaptation_start)
                                             .arg(e.budget),
                                         this, [this, path] { Q_EMIT openRequested(path); });
                     }
                     menu->setEnabled(!entries.empty());
                 },
                 [menu](const QString& error) { menu->setToolTip(error); });
}

} // namespace rlda::app
