#include "app/workbench/page_tabs.h"

#include "app/workbench/export_dialog.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/models_page.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/sweep_page.h"
#include "app/workbench/workspace.h"
#include "core/config/dataset_shape.h"
#include "core/config/names.h"
#include "core/io/run_reader.h"
#include "core/table/open_table.h"
#include "core/table/reliability.h"
#include "core/table/table.h"
#include "widgets/figures/rank_view.h"
#include "widgets/file_dialogs.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/sweep_panel.h"

#include <QDir>
#include <QScrollArea>
#include <QSettings>

#include <exception>
#include <iterator>

namespace rlda::app {
namespace {

// In Page order.
constexpr const char* kPageNames[] = {"training", "architecture", "policy", "learning",
                                      "tables",   "sweeps",       "runs",   "models"};

// The sample shape and class count a config's dataset gives the model: what tables of this job
// were built with, what a policy for it sees and what its parameters are counted at. The dataset
// config says (core::config::sample_shape); a kind it does not know (the editor marks it) leaves the
// configured shape, so that a half-edited experiment never throws here.
core::config::SampleShape sampleOf(const core::config::DatasetConfig& d)
{
    try {
        return core::config::sample_shape(d);
    } catch (const std::exception&) {
        return {d.shape, d.classes};
    }
}

QScrollArea* scrolled(QWidget* page)
{
    auto* area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

PageTabs::PageTabs(QWidget* parent)
    : QTabWidget(parent), training(new widgets::TrainingView), architecture(new widgets::ArchitectureInspector),
      policy(new PolicyPage), learning(new LearningPage), tables(new widgets::TableExplorer), sweeps(new SweepPage),
      runs(new widgets::RunBrowser(QLatin1String(workspace::key::kRunColumns))), models(new ModelsPage)
{
    setDocumentMode(true);
    setUsesScrollButtons(true);
    // In Page order.
    addTab(scrolled(training), tr("Training"));
    addTab(scrolled(architecture), tr("Architecture"));
    addTab(scrolled(policy), tr("Policy"));
    addTab(scrolled(learning), tr("Learning"));
    addTab(scrolled(tables), tr("Tables"));
    addTab(scrolled(sweeps), tr("Sweeps"));
    addTab(scrolled(runs), tr("Runs"));
    addTab(scrolled(models), tr("Models"));
}

QString PageTabs::name(Page page) { return QLatin1String(kPageNames[static_cast<int>(page)]); }

std::optional<Page> PageTabs::fromName(const QString& name)
{
    for (int i = 0; i < int(std::size(kPageNames)); ++i)
        if (name == QLatin1String(kPageNames[i]))
            return static_cast<Page>(i);
    return std::nullopt;
}

void PageTabs::showRun(const core::io::RunData& run)
{
    if (run.kind == core::io::RunKind::Learning) {
        learning->view()->setRun(run);
        showPage(Page::Learning);
        return;
    }
    training->setRun(run);
    if (!run.adaptations.empty())
        architecture->setSteps(run.adaptations.front().before, run.adaptations);
    else if (run.final_model)
        architecture->setSteps(*run.final_model, {});
    policy->decisions()->setDecisions(run.adaptations);
    showPage(Page::Training);
}

void PageTabs::showTable(const core::sim::OpenedTable& t, core::sim::TableTrust trust, const QString& fallbackName)
{
    const QString name = t.described ? QStringLiteral("%1 %2").arg(QString::fromStdString(t.meta.model),
                                                                    QString::fromStdString(t.meta.scenario))
                                     : fallbackName;
    tables->setTable(t.table,
                     t.complete() ? name
                                  : tr("%1 (incomplete: %2 of %3 rows)")
                                        .arg(name)
                                        .arg(t.table.rows().size())
                                        .arg(t.table.sequences()),
                     t.actions, std::move(trust));
    showPage(Page::Tables);
}

void PageTabs::restoreSettings(const QSettings& s)
{
    namespace key = workspace::key;
    if (const auto page = fromName(s.value(key::kPage).toString()))
        showPage(*page);
    if (const int span = s.value(key::kTrainingSmoothing).toInt(); span >= 1)
        training->setSmoothingSpan(span);
    if (const int window = s.value(key::kLearningWindow).toInt(); window >= 1)
        learning->view()->setWindow(window);
    // The Sweeps page as it was left; a value that is not one of its choices keeps the default.
    auto* panel = sweeps->panel();
    if (const auto backend = core::config::from_string<core::config::SweepBackend>(
            s.value(key::kSweepBackend).toString().toStdString()))
        panel->setBackend(*backend);
    if (const int workers = s.value(key::kSweepWorkers).toInt(); workers >= 1)
        panel->setWorkers(workers);
    if (const int replicates = s.value(key::kSweepReplicates).toInt(); replicates >= 1)
        panel->setReplicates(replicates);
    panel->setSeedValuesText(s.value(key::kSweepSeedValues).toString());
    if (s.contains(key::kSweepDevice))
        panel->setDevice(s.value(key::kSweepDevice).toString());
    if (s.contains(key::kSweepFused))
        panel->setFused(s.value(key::kSweepFused).toString());
    panel->setRace(s.value(key::kSweepRace).toBool());
}

void PageTabs::saveSettings(QSettings& s) const
{
    namespace key = workspace::key;
    s.setValue(key::kPage, name(currentPage()));
    s.setValue(key::kTrainingSmoothing, training->smoothingSpan());
    s.setValue(key::kLearningWindow, learning->view()->window());
    const auto* panel = sweeps->panel();
    s.setValue(key::kSweepBackend, QString::fromStdString(core::config::to_string(panel->backend())));
    s.setValue(key::kSweepWorkers, panel->workers());
    s.setValue(key::kSweepReplicates, panel->replicates());
    s.setValue(key::kSweepSeedValues, panel->seedValuesText());
    s.setValue(key::kSweepDevice, panel->device());
    s.setValue(key::kSweepFused, panel->fused());
    s.setValue(key::kSweepRace, panel->race());
}

void PageTabs::followExperiment(const core::config::ExperimentConfig& c)
{
    const QString model = QString::fromStdString(c.job.model);
    const auto sample = sampleOf(c.dataset);
    if (learning->table().isEmpty()) // a chosen table names its own model
        learning->setModel(model, sample.input, sample.classes);
    policy->setDefaultModel(model, sample.input, sample.classes);
    if (!c.simulation.table.empty() && learning->table().isEmpty())
        learning->setTable(QString::fromStdString(c.simulation.table));
    const QString key = model + QLatin1Char('|') + QString::fromStdString(core::model::shape_string(sample.input)) +
                        QLatin1Char('|') + QString::number(sample.classes) + QLatin1Char('|') +
                        QString::fromStdString(core::model::to_string(c.job.head));
    if (key != followed_) {
        followed_ = key;
        previewModel(model, {}, 0, c.dataset);
    }
}

void PageTabs::previewModel(const QString& nameOrPath, const QString& input, int classes,
                            const core::config::DatasetConfig& dataset)
{
    const auto sample = sampleOf(dataset);
    models->setInputShape(input.isEmpty() ? QString::fromStdString(core::model::shape_string(sample.input)) : input);
    models->setClasses(classes > 0 ? classes : int(sample.classes));
    models->showModel(nameOrPath);
}

QString PageTabs::exportPlot(Page page, const QString& path, const widgets::ExportSettings& settings) const
{
    switch (page) {
    case Page::Training: return training->plot()->exportTo(path, settings);
    case Page::Learning: return learning->view()->plot()->exportTo(path, settings);
    case Page::Policy:
        return policy->ranks()->tables().empty() ? policy->decisions()->exportPlot(path, settings)
                                                 : policy->ranks()->exportTo(path, settings);
    case Page::Tables: return tables->exportHeatmap(path, settings);
    case Page::Architecture: return architecture->exportGraph(path, settings);
    case Page::Models: return models->exportGraph(path, settings);
    default: return tr("%1: this page has no plot to export").arg(tabText(static_cast<int>(page)));
    }
}

QString PageTabs::exportAll(const QString& dir, const widgets::ExportSettings& settings) const
{
    if (!QDir().mkpath(dir))
        return tr("%1: cannot create the folder").arg(dir);
    const QDir out(dir);
    // Each plot under the name of what it shows.
    const std::pair<Page, QString> plots[] = {{Page::Training, QStringLiteral("training")},
                                              {Page::Learning, QStringLiteral("learning")},
                                              {Page::Policy, QStringLiteral("policy")},
                                              {Page::Tables, QStringLiteral("table")},
                                              {Page::Architecture, QStringLiteral("architecture")},
                                              {Page::Models, QStringLiteral("model")}};
    QStringList problems;
    for (const auto& [page, name] : plots)
        for (const QString& suffix : widgets::exportSuffixes())
            if (const QString e = exportPlot(page, out.filePath(name + QLatin1Char('.') + suffix), settings);
                !e.isEmpty())
                problems << e;
    for (const auto& [name, plot] : {std::pair{QStringLiteral("training"), training->plot()},
                                     std::pair{QStringLiteral("learning"), learning->view()->plot()}})
        if (const QString e = plot->exportCsv(out.filePath(name + QStringLiteral(".csv"))); !e.isEmpty())
            problems << e;
    return problems.join(QLatin1Char('\n'));
}

void PageTabs::exportCurrentWithDialog(const QString& folder)
{
    const Page page = currentPage();
    const QString name = tabText(static_cast<int>(page)).toLower();
    const auto request =
        ExportDialog::ask(this, QDir(widgets::lastFolder(widgets::FileKind::Export, folder)).filePath(name + QStringLiteral(".png")));
    if (!request)
        return;
    if (const QString error = exportPlot(page, request->path, request->settings); !error.isEmpty())
        Q_EMIT exportProblems(error);
    else
        Q_EMIT exported(tr("Wrote %1").arg(request->path));
}

void PageTabs::exportAllWithDialog(const QString& folder)
{
    const QString dir = widgets::existingFolder(this, widgets::FileKind::Export, tr("Export every plot and its data into"), folder);
    if (dir.isEmpty())
        return;
    if (const QString problems = exportAll(QDir(dir).filePath(QStringLiteral("export")), workspace::exportSettings());
        !problems.isEmpty())
        Q_EMIT exportProblems(problems);
    Q_EMIT exported(tr("Exported the plots and data to %1/export").arg(dir));
}

} // namespace rlda::app
