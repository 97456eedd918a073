// The Learning page: set up simulation-driven learning against a table (Algorithm 4) and watch its
// per-episode objective, accuracy, temperature and lr live, with the greedy sequence's rank.
#pragma once

#include "widgets/file_dialogs.h"
#include "app/workbench/metatypes.h"
#include "widgets/job_tracker.h"

#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace rlda::widgets {
class LearningView;
}

namespace rlda::app {

class LearningPage : public QWidget {
    Q_OBJECT
public:
    explicit LearningPage(QWidget* parent = nullptr);
    // Disconnects the table edit first, as ~ModelsPage does (editingFinished during ~QWidget).
    ~LearningPage() override;

    widgets::LearningView* view() const { return view_; }
    // The tables' starting model and sample shape, from the experiment; a table with an index.csv
    // beside it names its own model.
    void setModel(const QString& model, const core::model::Shape& input, qint64 classes);
    void setInput(const QString& shape); // "CxHxW"
    // The table's own model and input, read from its metadata off the GUI thread, fill the fields
    // when they answer (tableIdentified()).
    void setTable(const QString& path);
    QString table() const;
    void setEpisodes(qint64 episodes);
    // The form as settings; an empty string, or the reason it cannot run (no table).
    core::run::LearnRunSettings settings() const;
    QString problem() const;
    void setRunning(bool running);
    // Issue 43, item 6: the layers of the table's model that a new policy's original encoder reads
    // as <unk> (none for a model of the paper's zoo). When there are some, the page chooses the
    // structural encoder unless the user chose one, and says why; a warning shows while
    // "original" is chosen anyway.
    QStringList unreadableLayers() const { return unreadable_; }
    QString encoderNote() const;

public Q_SLOTS:
    void addEpisodes(const std::vector<rlda::core::sim::EpisodeRecord>& batch);
    void showGreedy(qint64 episode, const rlda::core::sim::Evaluation& evaluation);
    void clear();

Q_SIGNALS:
    void learnRequested();
    void tableIdentified(const QString& path);

private:
    QString browse(widgets::FileKind kind, const QString& title, const QString& filter);
    void updateEncoderNote();
    void showDescribed(bool described); // the model and input fields: the table's, or to assume

    widgets::LearningView* view_ = nullptr;
    QLineEdit* table_ = nullptr;
    QLineEdit* from_ = nullptr;
    QLineEdit* model_ = nullptr;
    QLineEdit* input_ = nullptr;
    QSpinBox* episodes_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QDoubleSpinBox* decay_ = nullptr;
    QSpinBox* decayEvery_ = nullptr;
    QDoubleSpinBox* baseline_ = nullptr;
    QComboBox* encoder_ = nullptr; // a new policy's: the [policy] encoder names
    bool encoderChosen_ = false;   // the user picked an encoder: the table does not change it
    bool encoderChosenForTable_ = false; // structural, picked here for the table's layers
    QStringList unreadable_;             // the table's model's layers the original encoder reads as <unk>
    QString tableModel_;                 // its name and layer count, for the note
    int tableLayers_ = 0;
    QLabel* encoderNote_ = nullptr;
    QComboBox* learner_ = nullptr; // agent::learner_preset_names()
    QPushButton* learn_ = nullptr;
    QLabel* greedy_ = nullptr;
    qint64 classes_ = 10;
    widgets::JobTracker identify_{this}; // the table's metadata
};

} // namespace rlda::app
