// Shows one model summary: a header line and its units in execution order, blocks marked by kind.
#pragma once

#include "core/model/spec.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTreeWidget;

namespace rlda::widgets {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { UnitColumn = 0, LayersColumn = 1, ParametersColumn = 2 };
    // Item data roles, so that code (and tests) need not parse display text.
    enum Role {
        KindRole = Qt::UserRole,      // QString: "block", "added", "layer" (top level), "leaf" (child)
        ActionRole,                   // int: action index of an original block, -1 otherwise
        ValueRole,                    // qint64 in ParametersColumn: the raw parameter count
    };

    explicit ModelPanel(QWidget* parent = nullptr);

    void setSummary(const core::model::ModelSummary& summary);
    void clear();
    const std::optional<core::model::ModelSummary>& summary() const { return summary_; }

    // "10,602" in the widget's locale, always with group separators (some locales omit them).
    QString formatCount(qint64 value) const;

private:
    void rebuild();

    std::optional<core::model::ModelSummary> summary_;
    QLabel* header_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};

} // namespace rlda::widgets
