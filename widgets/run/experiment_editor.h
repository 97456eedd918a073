// A form over an experiment config: every section's settings, bad values flagged where they are.
#pragma once

#include "core/config/experiment.h"
#include "core/config/schema.h"
#include "core/config/validate.h"
#include "widgets/file_dialogs.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace rlda::widgets {

class AllocationTimeline;

// Edits an ExperimentConfig in place: a widget writes its value into the config as soon as the
// user changes it (settings the form does not show, such as [policy], pass through untouched), so
// that config() after setConfig() without edits is the same config, doubles bit for bit. After
// every edit find_problems() runs, and each problem marks its key's widget (and the `related`
// one): a red frame through the dynamic property "problem" and the reason as tooltip; the list of
// reasons shows under the form. Each widget's objectName is its key ("job.lr"), for tests and for
// focusing a setting from an error message. The fields come from the schema's declarations
// (core/config/schema.h): the widget from the key's type, its label, its tooltip (the help and
// what the value may be), a spin box's range, a chooser's choices; the form only says which tab
// and column a key goes in, and every key of a shown section that it does not place gets a field
// at the end of its tab.
class ExperimentEditor : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentEditor(QWidget* parent = nullptr); // the experiment schema
    explicit ExperimentEditor(core::config::Schema schema, QWidget* parent = nullptr);
    ~ExperimentEditor() override;

    // Shows `c`: emits changed(), and validityChanged() when the validity changes.
    void setConfig(const core::config::ExperimentConfig& c);
    core::config::ExperimentConfig config() const { return config_; }

    // load_experiment(); on failure leaves the form as it was and sets *error to the reader's
    // one-line message ("file:line:col: key: reason").
    bool loadFile(const QString& path, QString* error = nullptr);
    // to_toml(), written atomically. Refuses (false, *error) while the form has problems: such a
    // file would not load again.
    bool saveFile(const QString& path, QString* error = nullptr);
    QString fileName() const { return fileName_; } // the last file loaded or saved
    void setFileName(const QString& path) { fileName_ = path; } // where a restored draft came from

    // find_problems() of the config, plus what only the form knows: text that is not a number,
    // and actions of a fixed sequence beyond the model's Do Nothing.
    QList<core::config::Problem> problems() const { return problems_; }
    bool isValid() const { return problems_.isEmpty(); }

    // The widget that edits `key` ("job.lr", "scheduler.events[1].time"), nullptr when none.
    QWidget* widgetForKey(const QString& key) const;

Q_SIGNALS:
    void changed(); // after every edit by the user, and when another experiment is shown
    void validityChanged(bool valid);
    // The form's own Open… and Save as… buttons: the program opens and saves the one way File ->
    // Open and File -> Save as do (its dialogs, the log, the recent files).
    void openRequested();
    void saveAsRequested();

private:
    using Key = core::config::Key;
    struct Column;
    struct TabLayout;
    static const std::vector<TabLayout>& tabLayouts();

    struct Field {
        QString key; // base key: "agent.sequence" stands for "agent.sequence[2]" too
        QWidget* widget = nullptr;
        QString hint;               // the tooltip while the value is fine
        std::function<void()> show; // config_ -> widget
    };

    QWidget* buildTab(const TabLayout& tab);
    void timelineBox(QWidget* page, const Key& key);
    void field(QFormLayout* form, const Key& key); // the widget `key`'s declaration asks for
    QWidget* add(QFormLayout* form, const QString& label, const Key& key, QWidget* widget, const QString& hint,
                 std::function<void()> show);
    QWidget* withBrowse(QWidget* field, FileKind kind, const QString& title, const QString& filter, bool folder);

    // Called by every widget after it changed the config (or failed to parse, `local` reason).
    void edited(const QString& key, const QString& localProblem = {});
    void revalidate();
    void updateEnabled();
    int blockCount() const; // original blocks of the job's model; -1 when it cannot be loaded
    // Why the job's model file cannot be loaded at the experiment's input ("" when it can, or when
    // the model is a zoo name): a problem of job.model, marked on its field before Start.
    QString modelFileProblem() const;
    void followModelKind(); // the output head when the model becomes a file or a zoo name again
    void showField(const Field& f);
    const Field* fieldFor(const QString& key) const;

    core::config::Schema schema_;
    core::config::ExperimentConfig config_;
    QList<core::config::Problem> problems_;
    QHash<QString, QString> local_; // key -> why its text is not a value
    struct ModelCheck {
        int blocks = -1; // original blocks, -1 unknown
        QString problem; // a model file's load error at the experiment's input, else ""
    };
    const ModelCheck& modelCheck() const;
    mutable QHash<QString, ModelCheck> models_; // model -> what loading it said; loading a spec is not free
    bool valid_ = true;
    bool showing_ = false;
    std::optional<core::model::OutputHead> zooHead_; // the head a zoo model had before a model file was chosen          // setConfig() filling the widgets: not an edit
    QString fileName_;

    std::vector<Field> fields_; // the one key -> widget table
    QTabWidget* tabs_ = nullptr;
    AllocationTimeline* timeline_ = nullptr;
    QLabel* eventsLabel_ = nullptr;
    QLabel* sequenceHint_ = nullptr;
    QLabel* problemsLabel_ = nullptr;
};

} // namespace rlda::widgets
