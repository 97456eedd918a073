// A model drawn as Netron draws one: its units as boxes in a vertical flow from the input to the
// output, each layer with its output shape and parameters, blocks added by deepening told apart
// from the original ones, and the units new since a reference step marked.
#pragma once

#include "core/model/spec.h"
#include "widgets/plot_export.h"

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QPainter;
class QScrollArea;

namespace rlda::widgets {

class ModelGraph : public QWidget {
    Q_OBJECT
public:
    enum class BoxKind { Input, Original, Added, Layer, Output };

    // One layer inside a box.
    struct Row {
        QString label;  // "Conv2d 3→32 3×3"
        QString shape;  // the output shape of one sample, core's shape_string: "32x30x30"; empty if unknown
        std::int64_t parameters = 0;
        QString layer;  // the full PyTorch string
        QString toolTip;
        QRectF rect;    // in graph coordinates
    };

    struct Box {
        BoxKind kind = BoxKind::Layer;
        int unit = -1;       // index in the summary's units; -1 for the input and the output
        bool isNew = false;  // absent from the reference summary
        QString title;       // "block 0", "added block (Deepen 0)", "input", "output"; empty for a plain layer
        std::int64_t parameters = 0;
        std::vector<Row> rows;
        QString toolTip;     // every layer's full string, one a line
        QRectF rect;         // in graph coordinates
    };

    // The colours of the graph, its legend and the tables beside it.
    static QColor originalColor() { return {0x35, 0x60, 0x8f}; }
    static QColor addedColor() { return {0x2e, 0x8b, 0x57}; } // green reads as "grown" (as in the tables)
    static QColor newColor() { return {0xd9, 0x82, 0x2b}; }

    explicit ModelGraph(QWidget* parent = nullptr);

    // Draws `summary`; with a reference, the units it lacks are marked new, the legend naming it
    // (e.g. "step 0"). Shapes are computed here from the summary's input (core::model::layer_shapes;
    // no file is read, no forward run).
    void setSummary(const core::model::ModelSummary& summary);
    void setSummary(const core::model::ModelSummary& summary, const core::model::ModelSummary& reference,
                    const QString& referenceName);
    void clear();

    const std::optional<core::model::ModelSummary>& summary() const { return summary_; }
    const std::vector<Box>& boxes() const { return boxes_; }
    // Why the shapes are missing (a layer string not understood, a layer that does not fit); empty if shown.
    const QString& problem() const { return problem_; }
    // "new since step 0" when a reference is set, else empty.
    QString newLegend() const;

    // The tooltip at a point of the widget: a layer's full string, or its box's layers; empty elsewhere.
    QString toolTipAt(const QPoint& pos) const;

    // The drawing at its natural size, in graph coordinates.
    QSize graphSize() const { return graphSize_; }
    void paintGraph(QPainter& painter) const;
    // Writes the graph to PNG, PDF or SVG through plot_export's one export path, scaled to fit.
    QString exportTo(const QString& path, const ExportSettings& settings = {}) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // The drawing was laid out again (another summary, font or locale): graphSize() may differ.
    void laidOut();

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void layoutBoxes();
    // Where graph coordinates start in the widget: the graph is centred horizontally.
    QPointF origin() const;

    std::optional<core::model::ModelSummary> summary_;
    std::optional<core::model::ModelSummary> reference_;
    QString referenceName_;
    std::vector<Box> boxes_;
    QString problem_;
    QString header_;
    QSize graphSize_{320, 120};
};

// A scroll area around `graph` that keeps itself as wide as the graph, so that a splitter beside a
// table never cuts its columns; it scrolls vertically.
QScrollArea* scrollAreaFor(ModelGraph* graph, QWidget* parent);

} // namespace rlda::widgets
