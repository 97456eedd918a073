// A transfer run on screen (the Policy page): per held-out model the table `rlda transfer` prints
// and the figure it writes, from core::run::summarize_transfer.
#pragma once

#include "core/run/transfer_protocol.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QSplitter;
class QTableWidget;

namespace rlda::widgets {

class TransferView : public QWidget {
    Q_OBJECT
public:
    explicit TransferView(QWidget* parent = nullptr);

    // Replaces what is shown; the first held-out model is selected.
    void setSummaries(std::vector<core::run::TransferSummary> summaries);
    const std::vector<core::run::TransferSummary>& summaries() const { return summaries_; }
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    QComboBox* models() const { return models_; }
    QLabel* summary() const { return summary_; }

private:
    void showModel(int index);

    std::vector<core::run::TransferSummary> summaries_;
    QComboBox* models_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QSplitter* split_ = nullptr;
};

} // namespace rlda::widgets
