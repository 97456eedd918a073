// rlda-workbench: reads the command line, starts the Qt application, shows the main window on the
// default experiment (or the one given) in the workspace it was left in. --help, --version and a bad command line are answered before any display is
// needed.
#include "app/workbench/main_window.h"
#include "app/workbench/models_page.h"
#include "app/workbench/torch_engine.h"
#include "app/workbench/workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QIcon>
#include <QStringList>
#include <QTimer>

#include <cstdio>

namespace {

// Whether a QApplication can be made: it aborts without a display. Qt's own -platform option
// counts as one, since only QApplication knows it.
bool displayExpected(const QStringList& args)
{
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
           qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || args.contains(QStringLiteral("-platform")) ||
           args.contains(QStringLiteral("--platform"));
}

} // namespace

int main(int argc, char* argv[])
{
    // Set before any application object: --version and the settings' location (QSettings) use them.
    QCoreApplication::setApplicationName(QStringLiteral("rlda-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RLDA_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("rlda"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("rlda.github.io"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reinforcement-learning-driven DNN adaptation workbench"));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("experiment"),
                                 QStringLiteral("Experiment file (TOML) to open; default: the built-in one."),
                                 QStringLiteral("[EXPERIMENT.toml]"));
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Folder new runs go into, this time (default: File → Runs folder…, else ./runs in a clone of "
                                                 "the project, else runs/ in the user's data folder)."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption table(QStringLiteral("table"), QStringLiteral("Simulation table to open."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run folder to open, read-only."),
                                 QStringLiteral("DIR"));
    const QCommandLineOption start(QStringLiteral("start"), QStringLiteral("Start training the experiment at once."));
    const QCommandLineOption resetSettings(
        QStringLiteral("reset-settings"),
        QStringLiteral("Start clean: forget the window layout, the last page, the plot settings, the recent files "
                       "and the dialogs' folders."));
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
    parser.addOptions({runs, table, run, start, resetSettings, model, input, classes, deepen, screenshot});

    // --help, --version and a command line that does not parse, with no display to be had, are
    // answered by a QCoreApplication: a QApplication would abort there (exit 134).
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const bool parsed = parser.parse(args);
    if ((parsed && (parser.isSet(help) || parser.isSet(QStringLiteral("help-all")) || parser.isSet(version))) ||
        (!parsed && !displayExpected(args))) {
        QCoreApplication core(argc, argv);
        parser.process(core); // prints and exits
        return 2;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("RLDA Workbench"));
    // Matches the installed .desktop file, so that Wayland compositors find the icon and name.
    QGuiApplication::setDesktopFileName(QStringLiteral("rlda-workbench"));
    // The SVG needs Qt's svg icon plugin at run time (Debian: libqt6svg6); without it no icon shows.
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rlda-workbench.svg")));
    parser.process(app); // again, without the options QApplication took (-platform, -style, ...)

    bool classesOk = false;
    const int classCount = parser.value(classes).toInt(&classesOk);
    if (!classesOk || classCount < 1) {
        std::fprintf(stderr, "rlda-workbench: --classes: expected a positive integer, not \"%s\"\n",
                     qPrintable(parser.value(classes)));
        return 2;
    }

    // Before anything reads the settings: a FIFO there would block the first QSettings forever.
    if (const QString warning = rlda::app::workspace::guardSettingsFile(); !warning.isEmpty())
        std::fprintf(stderr, "rlda-workbench: %s\n", qPrintable(warning));
    if (parser.isSet(resetSettings))
        rlda::app::workspace::resetSettings();
    rlda::app::installEngine(rlda::app::makeTorchEngine());
    rlda::app::MainWindow window;
    // --screenshot draws the window as it starts, whatever a user left it like.
    if (!parser.isSet(screenshot))
        window.restoreWorkspace(); // the runs folder with it
    else
        window.setRunsRoot(rlda::app::workspace::defaultRunsFolder());
    // A run kept going in the background ends with the hidden window's close: the program ends then.
    QObject::connect(&window, &rlda::app::MainWindow::closed, &app, &QCoreApplication::quit, Qt::QueuedConnection);
    if (parser.isSet(runs))
        window.setRunsRoot(parser.value(runs));
    window.reattachSweeps(); // a sweep left running when the workbench last closed
    if (parser.positionalArguments().isEmpty()) {
        if (parser.isSet(screenshot) || !window.openDraftExperiment())
            window.openDefaultExperiment();
    } else if (!window.openExperiment(parser.positionalArguments().front())) {
        std::fprintf(stderr, "rlda-workbench: %s: cannot open the experiment (see the log)\n",
                     qPrintable(parser.positionalArguments().front()));
    }
    window.models()->setGrowthActions(parser.value(deepen));
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

    if (parser.isSet(screenshot)) {
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
