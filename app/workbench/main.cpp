// rlda-workbench: starts the Qt application, reads the command line, shows the main window on the
// default experiment (or the one given), and runs the screenshot tour when asked.
#include "app/workbench/main_window.h"
#include "app/workbench/models_page.h"
#include "app/workbench/tour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <cstdio>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rlda-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("RLDA Workbench"));
    QApplication::setApplicationVersion(QStringLiteral(RLDA_VERSION));
    QApplication::setOrganizationDomain(QStringLiteral("rlda.github.io"));
    // Matches the installed .desktop file, so that Wayland compositors find the icon and name.
    QGuiApplication::setDesktopFileName(QStringLiteral("rlda-workbench"));
    // The SVG needs Qt's svg icon plugin at run time (Debian: libqt6svg6); without it no icon shows.
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rlda-workbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reinforcement-learning-driven DNN adaptation workbench"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("experiment"),
                                 QStringLiteral("Experiment file (TOML) to open; default: the built-in one."),
                                 QStringLiteral("[EXPERIMENT.toml]"));
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Folder new runs go into (default: ./runs)."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption table(QStringLiteral("table"), QStringLiteral("Simulation table to open."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run folder to open, read-only."),
                                 QStringLiteral("DIR"));
    const QCommandLineOption start(QStringLiteral("start"), QStringLiteral("Start training the experiment at once."));
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("Models page: a zoo name or a TOML model file."),
                                   QStringLiteral("NAME"), QStringLiteral("ConvNet2"));
    const QCommandLineOption input(QStringLiteral("input"),
                                   QStringLiteral("Models page: input shape CxHxW (default: the experiment's)."),
                                   QStringLiteral("SHAPE"));
    const QCommandLineOption classes(QStringLiteral("classes"),
                                     QStringLiteral("Models page: number of classes (default: the experiment's)."),
                                     QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption deepen(QStringLiteral("deepen"),
                                    QStringLiteral("Models page: deepen actions to preview, e.g. \"0 2\"."),
                                    QStringLiteral("ACTIONS"));
    // For documentation and visual checks: render the window into FILE once shown, then exit.
    QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save a PNG of the window and exit."),
                                  QStringLiteral("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    // scripts/screenshots: run the default experiment and a learning run, capture every page.
    QCommandLineOption tour(QStringLiteral("tour"),
                            QStringLiteral("Run a short tour and write a screenshot of every panel into DIR."),
                            QStringLiteral("DIR"));
    tour.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({runs, table, run, start, model, input, classes, deepen, screenshot, tour});
    parser.process(app);

    bool classesOk = false;
    const int classCount = parser.value(classes).toInt(&classesOk);
    if (!classesOk || classCount < 1) {
        std::fprintf(stderr, "rlda-workbench: --classes: expected a positive integer, not \"%s\"\n",
                     qPrintable(parser.value(classes)));
        return 2;
    }

    rlda::app::MainWindow window;
    if (parser.isSet(runs))
        window.setRunsRoot(parser.value(runs));
    window.reattachSweeps(); // a sweep left running when the workbench last closed
    if (parser.positionalArguments().isEmpty())
        window.openDefaultExperiment();
    else if (!window.openExperiment(parser.positionalArguments().front())) {
        std::fprintf(stderr, "rlda-workbench: %s: cannot open the experiment (see the log)\n",
                     qPrintable(parser.positionalArguments().front()));
    }
    window.models()->setDeepenActions(parser.value(deepen));
    // At the experiment's input shape and classes unless --input/--classes say otherwise: the
    // parameter count in the status bar is then the experiment's model's.
    window.previewModel(parser.value(model), parser.isSet(input) ? parser.value(input) : QString(),
                        parser.isSet(classes) ? classCount : 0);
    if (parser.isSet(table))
        window.openTable(parser.value(table));
    if (parser.isSet(run))
        window.openRun(parser.value(run));
    window.show();
    if (parser.isSet(start))
        window.startTraining();

    if (parser.isSet(tour)) {
        auto* t = new rlda::app::Tour(window, parser.value(tour), parser.value(table), &window);
        QObject::connect(t, &rlda::app::Tour::finished, &app, [](int code) { QApplication::exit(code); });
        QTimer::singleShot(300, t, &rlda::app::Tour::start);
    } else if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        // A short delay lets the first layout pass and paint settle before grabbing.
        QTimer::singleShot(300, &window, [&window, file] {
            const bool ok = window.grab().save(file, "PNG");
            if (!ok)
                std::fprintf(stderr, "rlda-workbench: could not write %s\n", qPrintable(file));
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return QApplication::exec();
}
