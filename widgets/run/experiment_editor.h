// A form over an experiment config: every section's settings, bad values flagged where they are.
#pragma once

#include "core/config/experiment.h"
#include "core/config/validate.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>

#include <functional>
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
// focusing a setting from an error message.
class ExperimentEditor : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentEditor(QWidget* parent = nullptr);
    ~ExperimentEditor() override;

    // Shows `c`; emits validityChanged() when the validity changes, but not changed().
    void setConfig(const core::config::ExperimentConfig& c);
    core::config::ExperimentConfig config() const { return config_; }

    // load_experiment(); on failure leaves the form as it was and sets *error to the reader's
    // one-line message ("file:line:col: key: reason").
    bool loadFile(const QString& path, QString* error = nullptr);
    // to_toml(), written atomically. Refuses (false, *error) while the form has problems: such a
    // file would not load again.
    bool saveFile(const QString& path, QString* error = nullptr);
    QString fileName() const { return fileName_; } // the last file loaded or saved

    // find_problems() of the config, plus what only the form knows: text that is not a number,
    // and actions of a fixed sequence beyond the model's Do Nothing.
    QList<core::config::Problem> problems() const { return problems_; }
    bool isValid() const { return problems_.isEmpty(); }

    // The widget that edits `key` ("job.lr", "scheduler.events[1].time"), nullptr when none.
    QWidget* widgetForKey(const QString& key) const;

Q_SIGNALS:
    void changed(); // after every edit by the user
    void validityChanged(bool valid);

private:
    template <class T>
    using Ref = std::function<T&(core::config::ExperimentConfig&)>;

    struct Field {
        QString key; // base key: "agent.sequence" stands for "agent.sequence[2]" too
        QWidget* widget = nullptr;
        QString hint;               // the tooltip while the value is fine
        std::function<void()> show; // config_ -> widget
    };

    QWidget* buildJob();
    QWidget* buildDataset();
    QWidget* buildScheduler();
    QWidget* buildTrainer();
    QWidget* buildAgent();

    QWidget* add(QFormLayout* form, const QString& label, const QString& key, QWidget* widget, const QString& hint,
                 std::function<void()> show);
    QLineEdit* number(QFormLayout* form, const QString& label, const QString& key, Ref<double> ref,
                      const QString& hint);
    QWidget* count(QFormLayout* form, const QString& label, const QString& key, Ref<std::int64_t> ref, int min,
                   int max, const QString& hint, const QString& zeroText = {});
    QWidget* integer(QFormLayout* form, const QString& label, const QString& key, Ref<int> ref, int min, int max,
                     const QString& hint);
    QLineEdit* seed(QFormLayout* form, const QString& label, const QString& key, Ref<std::uint64_t> ref,
                    const QString& hint);
    QWidget* choice(QFormLayout* form, const QString& label, const QString& key, Ref<std::string> ref,
                    const std::vector<std::string>& items, bool editable, const QString& hint);
    QWidget* flag(QFormLayout* form, const QString& label, const QString& key, Ref<bool> ref, const QString& hint);
    QLineEdit* text(QFormLayout* form, const QString& label, const QString& key, Ref<std::string> ref,
                    const QString& hint);
    QWidget* withBrowse(QWidget* field, const QString& title, const QString& filter, bool folder);

    // Called by every widget after it changed the config (or failed to parse, `local` reason).
    void edited(const QString& key, const QString& localProblem = {});
    void revalidate();
    void updateEnabled();
    int blockCount() const; // original blocks of the job's model; -1 when it cannot be loaded
    const Field* fieldFor(const QString& key) const;

    core::config::ExperimentConfig config_;
    QList<core::config::Problem> problems_;
    QHash<QString, QString> local_; // key -> why its text is not a value
    mutable QHash<QString, int> blocks_; // model -> original blocks, -1 unknown; loading a spec is not free
    bool valid_ = true;
    bool showing_ = false;          // setConfig() filling the widgets: not an edit
    QString fileName_;

    std::vector<Field> fields_; // the one key -> widget table
    QTabWidget* tabs_ = nullptr;
    AllocationTimeline* timeline_ = nullptr;
    QLabel* eventsLabel_ = nullptr;
    QLabel* sequenceHint_ = nullptr;
    QLabel* problemsLabel_ = nullptr;
};

} // namespace rlda::widgets
