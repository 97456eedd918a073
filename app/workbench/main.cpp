// rlda-workbench: starts the Qt application, reads the command line, shows the main window.
#include "app/workbench/main_window.h"

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
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("Model to show at start: a zoo name or a TOML model file."),
                                   QStringLiteral("NAME"), QStringLiteral("ConvNet2"));
    const QCommandLineOption input(QStringLiteral("input"), QStringLiteral("Input shape CxHxW."),
                                   QStringLiteral("SHAPE"), QStringLiteral("3x32x32"));
    const QCommandLineOption classes(QStringLiteral("classes"), QStringLiteral("Number of classes."),
                                     QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption deepen(QStringLiteral("deepen"),
                                    QStringLiteral("Deepen actions to preview, e.g. \"0 2\"."),
                                    QStringLiteral("ACTIONS"));
    // For documentation and visual checks: render the window into FILE once shown, then exit.
    QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save a PNG of the window and exit."),
                                  QStringLiteral("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({model, input, classes, deepen, screenshot});
    parser.process(app);

    bool classesOk = false;
    const int classCount = parser.value(classes).toInt(&classesOk);
    if (!classesOk || classCount < 1) {
        std::fprintf(stderr, "rlda-workbench: --classes: expected a positive integer, not \"%s\"\n",
                     qPrintable(parser.value(classes)));
        return 2;
    }

    rlda::app::MainWindow window;
    window.setInputShape(parser.value(input));
    window.setClasses(classCount);
    window.setDeepenActions(parser.value(deepen));
    window.showModel(parser.value(model));
    window.show();

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
