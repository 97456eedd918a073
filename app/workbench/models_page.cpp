// The Models page: the zoo, a model file or a deepened preview of either, as a summary of blocks.
#include "app/workbench/models_page.h"

#include "widgets/file_dialogs.h"
#include "core/model/zoo.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "widgets/inspect/model_graph.h"
#include "widgets/model_panel.h"
#include "widgets/zoo_panel.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>

#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include <algorithm>
#include <exception>
#include <optional>

namespace rlda::app {
namespace m = rlda::core::model;
namespace {

// core::Error messages are written for users; anything else escaping the engine is a bug there,
// and is labelled as such, but must not take the window down.
QString errorText(const std::exception& e)
{
    const QString what = QString::fromStdString(core::error_line(e));
    return dynamic_cast<const core::Error*>(&e) ? what : QObject::tr("internal error: %1").arg(what);
}

} // namespace

ModelsPage::~ModelsPage()
{
    inputEdit_->disconnect(this);
    growthEdit_->disconnect(this);
}

ModelsPage::ModelsPage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildToolBar());

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    zoo_ = new widgets::ZooPanel(splitter);
    modelPanel_ = new widgets::ModelPanel(splitter);
    graph_ = new widgets::ModelGraph;
    splitter->addWidget(zoo_);
    splitter->addWidget(modelPanel_);
    splitter->addWidget(widgets::scrollAreaFor(graph_, splitter)); // as wide as the graph
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 0);
    // The zoo list as wide as its longest name: the model's tree between it and the graph gets the
    // rest, so that its Parameters column is never cut by the view (issue 43, item 21: "9,3" for
    // 9,312 at 1366 px); its Layers column elides instead.
    int longest = 0;
    for (const auto& n : m::zoo_names())
        longest = std::max(longest, fontMetrics().horizontalAdvance(QString::fromStdString(n)));
    zoo_->setMaximumWidth(longest +
                          10 * fontMetrics().averageCharWidth()); // the frame, margins, a scroll bar
    splitter->setSizes({longest + 10 * fontMetrics().averageCharWidth(), 900, 450});
    splitter->setChildrenCollapsible(false);
    splitter->setContentsMargins(6, 4, 6, 0);
    layout->addWidget(splitter, 1);

    QStringList names;
    for (const auto& n : m::zoo_names())
        names << QString::fromStdString(n);
    zoo_->setModels(names);
    connect(zoo_, &widgets::ZooPanel::modelSelected, this, [this](const QString& name) {
        source_ = name;
        refresh();
    });
}

QToolBar* ModelsPage::buildToolBar()
{
    auto* bar = new QToolBar(tr("Model"), this);
    bar->setObjectName(QStringLiteral("modelToolBar"));
    auto* open = bar->addAction(tr("Open model file…"), this, &ModelsPage::openModelFile);
    open->setToolTip(tr("Show a TOML model file"));
    bar->addSeparator();

    inputEdit_ = new QLineEdit(QString::fromStdString(core::model::shape_string(core::model::kCifar10Input)), bar);
    inputEdit_->setObjectName(QStringLiteral("inputEdit"));
    inputEdit_->setToolTip(tr("Input shape of one sample: CxHxW, or F for flat features"));
    inputEdit_->setMaximumWidth(110);

    classesSpin_ = new QSpinBox(bar);
    classesSpin_->setObjectName(QStringLiteral("classesSpin"));
    classesSpin_->setRange(1, 100000);
    classesSpin_->setValue(10);

    growthEdit_ = new QLineEdit(bar);
    growthEdit_->setObjectName(QStringLiteral("deepenEdit"));
    growthEdit_->setPlaceholderText(tr("e.g. 0 w1"));
    growthEdit_->setToolTip(tr("Growth in order: a block index (or d0) deepens that original block, w1 widens "
                               "block 1 twice as wide; previews the grown model"));
    growthEdit_->setClearButtonEnabled(true);
    growthEdit_->setMaximumWidth(160);

    auto label = [bar](const QString& text) {
        auto* l = new QLabel(text, bar);
        l->setContentsMargins(8, 0, 4, 0);
        return l;
    };
    bar->addWidget(label(tr("Input")));
    bar->addWidget(inputEdit_);
    bar->addWidget(label(tr("Classes")));
    bar->addWidget(classesSpin_);
    bar->addWidget(label(tr("Grow")));
    bar->addWidget(growthEdit_);

    // editingFinished rather than textChanged: half-typed shapes would flash errors on every key.
    connect(inputEdit_, &QLineEdit::editingFinished, this, &ModelsPage::refresh);
    connect(growthEdit_, &QLineEdit::editingFinished, this, &ModelsPage::refresh);
    connect(classesSpin_, &QSpinBox::valueChanged, this, &ModelsPage::refresh);
    return bar;
}

void ModelsPage::showModel(const QString& nameOrPath)
{
    if (zoo_->selectModel(nameOrPath)) {
        // A changed selection already refreshed through modelSelected.
        if (source_ != nameOrPath) {
            source_ = nameOrPath;
            refresh();
        }
        return;
    }
    zoo_->clearSelection();
    source_ = nameOrPath;
    refresh();
}

void ModelsPage::setGrowthActions(const QString& actions)
{
    growthEdit_->setText(actions);
    refresh();
}

void ModelsPage::setInputShape(const QString& shape)
{
    inputEdit_->setText(shape);
    refresh();
}

void ModelsPage::setClasses(int classes)
{
    const QSignalBlocker block(classesSpin_);
    classesSpin_->setValue(classes);
    refresh();
}

void ModelsPage::openModelFile()
{
    const QString path =
        widgets::openFileName(this, widgets::FileKind::Model, tr("Open model file"), tr("TOML model files (*.toml);;All files (*)"));
    if (!path.isEmpty())
        showModel(path);
}

void ModelsPage::refresh()
{
    if (source_.isEmpty())
        return;
    for (auto* edit : {inputEdit_, growthEdit_})
        edit->setStyleSheet(QString());
    const QString name = QFileInfo::exists(source_) ? QFileInfo(source_).fileName() : source_;

    // The panel must never show another model than the one selected: a model that does not load
    // clears it, and actions that do not apply leave the model shown undeepened.
    std::optional<m::ModelSpec> spec;
    m::ModelSummary base;
    QLineEdit* culprit = inputEdit_;
    try {
        const m::Shape input = m::parse_shape(inputEdit_->text().trimmed().toStdString());
        culprit = nullptr; // from here on the message names the model file or the shape at fault
        spec = m::load_model(source_.toStdString(), input, classesSpin_->value());
        base = m::summarize(*spec);
    } catch (const std::exception& e) {
        modelPanel_->clear();
        graph_->clear();
        reportError(culprit, errorText(e));
        return;
    }

    try {
        const std::vector<m::Action> actions = m::parse_growth(growthEdit_->text().toStdString());
        m::apply_growth(*spec, actions); // on our own copy: the spec is rebuilt on every refresh
        const m::ModelSummary summary = m::summarize(*spec);
        modelPanel_->setSummary(summary);
        graph_->setSummary(summary);
        if (actions.empty())
            Q_EMIT statusMessage(tr("%1: %2 parameters").arg(name, modelPanel_->formatCount(summary.parameters)));
        else
            Q_EMIT statusMessage(tr("%1 grown by [%2]: %3 parameters (+%4)")
                                         .arg(name, growthEdit_->text().simplified(),
                                              modelPanel_->formatCount(summary.parameters),
                                              modelPanel_->formatCount(summary.parameters - base.parameters)));
    } catch (const std::exception& e) {
        modelPanel_->setSummary(base);
        graph_->setSummary(base);
        reportError(growthEdit_, tr("%1 (showing %2 as it is)").arg(errorText(e), name));
    }
}

QString ModelsPage::exportGraph(const QString& path, const widgets::ExportSettings& settings) const
{
    return graph_->exportTo(path, settings);
}

void ModelsPage::reportError(QLineEdit* culprit, const QString& message)
{
    if (culprit)
        culprit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #c0392b; }"));
    Q_EMIT statusMessage(message);
}

} // namespace rlda::app
