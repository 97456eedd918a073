// rlda-tour: the screenshot tour of scripts/screenshots, a program of its own so that the workbench
// carries none of it. It opens the main window as the workbench starts it (the default experiment,
// no saved workspace), on --table, with its runs in --runs, and writes a screenshot of every page
// into DIR (tour.h).
//   rlda-tour --runs DIR --table TABLE.csv OUT_DIR
#include "app/tour/tour.h"
#include "app/workbench/main_window.h"
#include "app/workbench/torch_engine.h"
#include "app/workbench/workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char* argv[])
{
    QCoreApplication::setApplicationName(QStringLiteral("rlda-tour"));
    QCoreApplication::setOrganizationName(QStringLiteral("rlda"));
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The workbench's screenshot tour (scripts/screenshots)"));
    parser.addHelpOption();
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Folder the tour's runs go into."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption table(QStringLiteral("table"),
                                   QStringLiteral("Simulation table to learn from; none skips learning."),
                                   QStringLiteral("FILE"));
    parser.addOptions({runs, table});
    parser.addPositionalArgument(QStringLiteral("out"), QStringLiteral("Folder the screenshots go into."),
                                 QStringLiteral("OUT_DIR"));
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        parser.showHelp(2);

    (void)rlda::app::workspace::guardSettingsFile();
    rlda::app::installEngine(rlda::app::makeTorchEngine());
    rlda::app::MainWindow window;
    window.setRunsRoot(parser.isSet(runs) ? parser.value(runs) : rlda::app::workspace::defaultRunsFolder());
    window.openDefaultExperiment();
    window.previewModel(QStringLiteral("ConvNet2"));
    if (parser.isSet(table))
        window.openTable(parser.value(table));
    window.show();
    auto* tour = new rlda::app::Tour(window, parser.positionalArguments().front(), parser.value(table), &window);
    QObject::connect(tour, &rlda::app::Tour::finished, &app, [](int code) { QApplication::exit(code); });
    QTimer::singleShot(300, tour, &rlda::app::Tour::start);
    return QApplication::exec();
}
