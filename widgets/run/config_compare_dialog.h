// "Compare configs": two runs' experiment settings, only the keys that differ (core::config::diff_configs).
#pragma once

#include "core/config/experiment.h"

#include <QDialog>
#include <QString>

class QLabel;
class QTableWidget;

namespace rlda::widgets {

// A row per key that differs, named by the schema (its help as the tooltip), with the two values as
// the config files write them; no row and a line saying so when the settings are the same. Pure
// computation on values: the configs were read off the GUI thread with the runs.
class ConfigCompareDialog : public QDialog {
    Q_OBJECT
public:
    ConfigCompareDialog(const QString& nameA, const core::config::ExperimentConfig& a, const QString& nameB,
                        const core::config::ExperimentConfig& b, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    int differences() const;

private:
    QTableWidget* table_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace rlda::widgets
