// ZooPanel: picking a model, by code or by mouse, reports its name once.
#include "tests/common/suite.h"
#include "widgets/zoo_panel.h"

#include <QListWidget>
#include <QSignalSpy>
#include <QTest>

using rlda::widgets::ZooPanel;

class TestZooPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emitsModelSelected()
    {
        ZooPanel zoo;
        QSignalSpy spy(&zoo, &ZooPanel::modelSelected);
        zoo.setModels({QStringLiteral("ConvNet"), QStringLiteral("ConvNet2"), QStringLiteral("LargeConvNet")});
        QCOMPARE(spy.count(), 0); // filling the list selects nothing
        QCOMPARE(zoo.currentModel(), QString());

        QVERIFY(zoo.selectModel(QStringLiteral("ConvNet2")));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toString(), QStringLiteral("ConvNet2"));
        QCOMPARE(zoo.currentModel(), QStringLiteral("ConvNet2"));

        QVERIFY(zoo.selectModel(QStringLiteral("ConvNet2"))); // no change, no signal
        QCOMPARE(spy.count(), 0);
        QVERIFY(!zoo.selectModel(QStringLiteral("NoSuchNet")));
        QCOMPARE(spy.count(), 0);
    }

    void clickEmits()
    {
        ZooPanel zoo;
        zoo.setModels({QStringLiteral("ConvNet"), QStringLiteral("ConvNet2")});
        zoo.show();
        QVERIFY(QTest::qWaitForWindowExposed(&zoo));
        QSignalSpy spy(&zoo, &ZooPanel::modelSelected);

        auto* list = zoo.findChild<QListWidget*>(QStringLiteral("zooList"));
        QVERIFY(list);
        const QRect r = list->visualItemRect(list->item(1));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, r.center());
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("ConvNet2"));
    }

    void focusDoesNotSelect()
    {
        // A focused list with no current row makes its first row current; that is no choice.
        ZooPanel zoo;
        zoo.setModels({QStringLiteral("ConvNet"), QStringLiteral("ConvNet2")});
        QSignalSpy spy(&zoo, &ZooPanel::modelSelected);
        zoo.show();
        QVERIFY(QTest::qWaitForWindowActive(&zoo));
        auto* list = zoo.findChild<QListWidget*>(QStringLiteral("zooList"));
        list->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(list->hasFocus());
        QCOMPARE(list->currentRow(), 0); // Qt's doing, which this test guards against
        QCOMPARE(spy.count(), 0);
        QCOMPARE(zoo.currentModel(), QString());
    }

    void clearSelectionIsSilent()
    {
        ZooPanel zoo;
        zoo.setModels({QStringLiteral("ConvNet"), QStringLiteral("ConvNet2")});
        QVERIFY(zoo.selectModel(QStringLiteral("ConvNet")));
        QSignalSpy spy(&zoo, &ZooPanel::modelSelected);
        zoo.clearSelection();
        QCOMPARE(spy.count(), 0);
        QCOMPARE(zoo.currentModel(), QString());
        // Picking the same model again after a file was shown must be heard.
        QVERIFY(zoo.selectModel(QStringLiteral("ConvNet")));
        QCOMPARE(spy.count(), 1);
    }
};

RLDA_SUITE_MAIN(TestZooPanel)
#include "test_zoo_panel.moc"
