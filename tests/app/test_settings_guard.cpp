// A settings file that cannot be read without waiting (a FIFO): Qt reads the whole file when the
// first QSettings is made, so the workbench used to block before any window showed. It now warns,
// starts on its defaults and saves nothing (app/workbench/workspace.h, guardSettingsFile). A suite
// of its own: the guard decides once per process, before anything else reads the settings.
#include "app/workbench/main_window.h"
#include "app/workbench/workspace.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/throwaway_settings.h"

#include <QPlainTextEdit>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>
#include <unistd.h>

using rlda::app::MainWindow;

namespace {

// rlda-workbench started with `args`, HOME's folder as its XDG_CONFIG_HOME, drawing its first screen
// into HOME/shot.png: its exit code (-1: not within a minute, then killed) and what it wrote on stderr.
std::pair<int, QString> start_workbench(const QTemporaryDir& home, QStringList args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RLDA_BIN_DIR "/rlda-workbench"),
            args << "--screenshot" << home.filePath("shot.png"));
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {-1, QString()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestSettingsGuard : public QObject {
    Q_OBJECT

    QTemporaryDir settings_;
    QString fifo_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(settings_.isValid());
        rlda::test::use_throwaway_settings(settings_);
        QCoreApplication::setOrganizationName(QStringLiteral("rlda"));
        QCoreApplication::setApplicationName(QStringLiteral("rlda-workbench"));
        QVERIFY(QDir().mkpath(settings_.filePath("rlda")));
        fifo_ = settings_.filePath("rlda/rlda-workbench.conf");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo_).constData(), 0644), 0);
    }

    void the_window_restores_its_workspace_without_waiting()
    {
        MainWindow w;
        w.restoreWorkspace(); // blocked in QSettings' read of the FIFO before the guard
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString warning = QStringLiteral("Settings file %1 is not a regular file").arg(fifo_);
        QVERIFY2(w.statusBar()->currentMessage().startsWith(warning), qPrintable(w.statusBar()->currentMessage()));
        const auto* dock = w.findChild<QWidget*>(QStringLiteral("logDock"));
        const auto* log = dock ? dock->findChild<QPlainTextEdit*>() : nullptr;
        QVERIFY(log && log->toPlainText().contains(warning));
        w.saveWorkspace(); // into the session's scratch folder, never the FIFO
        QVERIFY(QFileInfo::exists(fifo_) && !QFileInfo(fifo_).isFile());
        QCOMPARE(rlda::app::workspace::guardSettingsFile().left(warning.size()), warning);
        w.resize(1440, 900);
        rlda::test::shot(w, QStringLiteral("settings-file-fifo"));
    }

    void the_program_warns_and_starts()
    {
        // --reset-settings clears the settings before the window exists: it blocked too.
        QTemporaryDir home;
        QVERIFY(QDir().mkpath(home.filePath("rlda")));
        const QString fifo = home.filePath("rlda/rlda-workbench.conf");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        const auto [code, err] = start_workbench(home, {"--reset-settings"});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("Settings file %1 is not a regular file").arg(fifo)), qPrintable(err));
        QVERIFY(QFileInfo(home.filePath("shot.png")).size() > 0);
    }

    void a_settings_file_that_cannot_be_written_is_said_so()
    {
        // Issue 42, item 27: an immutable (or, unprivileged, read-only) settings file gave no word
        // that nothing of the session would be remembered.
        QTemporaryDir home;
        QVERIFY(QDir().mkpath(home.filePath("rlda")));
        const QString file = home.filePath("rlda/rlda-workbench.conf");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[General]\n");
        f.close();
        const bool root = ::geteuid() == 0;
        if (root ? QProcess::execute("chattr", {"+i", file}) != 0 : !f.setPermissions(QFileDevice::ReadOwner))
            QSKIP("this file system cannot make the settings file unwritable");
        const auto [code, err] = start_workbench(home, {});
        if (root)
            QProcess::execute("chattr", {"-i", file});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(
            err.contains(QStringLiteral("Settings file %1 cannot be written: the layout and recent lists of "
                                        "this session will not be remembered")
                             .arg(file)),
            qPrintable(err));
    }
};

RLDA_SUITE_MAIN(TestSettingsGuard)
#include "test_settings_guard.moc"
