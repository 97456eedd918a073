// renderFigureJob: plain values to FigureInputs, a QApplication when there is none, then the files.
#include "widgets/figures/figure_job.h"

#include "core/util/error.h"
#include "widgets/figures/paper_figures.h"

#include <QApplication>

#include <memory>

namespace rlda::widgets {

std::vector<std::string> renderFigureJob(const FigureJob& job)
{
    FigureInputs inputs;
    inputs.window = job.window;
    for (const auto& dir : job.runs) {
        QString error;
        auto curve = loadLearningCurve(QString::fromStdString(dir), &error);
        if (!curve)
            throw core::Error(error.toStdString());
        inputs.curves.push_back(std::move(*curve));
    }
    for (const auto& t : job.tables)
        inputs.tables.push_back({QString::fromStdString(t.model), QString::fromStdString(t.scenario),
                                 QString::fromStdString(t.agent), t.rows, t.evaluation, t.no_adaptation});
    inputs.transfers = job.transfers;
    inputs.study = job.study;
    for (const auto& l : job.study_labels)
        inputs.study_labels << QString::fromStdString(l);
    QStringList formats;
    for (const auto& f : job.formats)
        formats << QString::fromStdString(f);

    // QCustomPlot draws through QWidget, so it needs a QApplication; offscreen needs no display.
    // argc and argv outlive the application, as Qt requires. A program with its own application
    // (the workbench) keeps it, and its message handling.
    static int argc = 1;
    static char name[] = "rlda";
    static char* argv[] = {name, nullptr};
    // Qt's own notes (a missing XDG_RUNTIME_DIR, the offscreen platform's limits) say nothing about
    // the figures and would break the command line's "only errors on stderr" contract; failures
    // come back from exportPlot. Critical and fatal messages still go through.
    static QtMessageHandler previous = nullptr;
    struct Quiet {
        bool active = false;
        ~Quiet()
        {
            if (active)
                qInstallMessageHandler(previous);
        }
    } quiet;
    std::unique_ptr<QApplication> app;
    if (!QCoreApplication::instance()) {
        quiet.active = true;
        previous = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& text) {
            if ((type == QtCriticalMsg || type == QtFatalMsg) && previous)
                previous(type, context, text);
        });
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argv);
    }

    QString error;
    const QStringList written = renderPaperFigures(inputs, QString::fromStdString(job.out_dir), formats,
                                                   ExportSettings{QSize(job.width, job.height), job.dpi}, &error);
    if (!error.isEmpty())
        throw core::Error(error.toStdString());
    std::vector<std::string> files;
    for (const auto& f : written)
        files.push_back(f.toStdString());
    return files;
}

} // namespace rlda::widgets
