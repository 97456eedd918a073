// Experiment configs in and out: defaults, round trips, files in the original schema, paths, and
// the schema's keys each declared once. The checks are test_config_validation, --set is
// test_config_overrides.
#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "tests/common/config_error.h"
#include "tests/common/extra_key.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <random>

using namespace rlda::core;
using namespace rlda::core::config;
using rlda::test::config_error;
using rlda::test::parse_error;

namespace {

// Every setting moved off its default, with doubles that print long.
ExperimentConfig everything_changed()
{
    ExperimentConfig c;
    c.name = "all \"changed\" \\ é, no tab"; // a name holds no control character (issue 42)
    c.job.model = "ConvNet3";
    c.job.batch_size = 17;
    c.job.optimizer = Optimizer::Sgd;
    c.job.lr = 1.0 / 3.0;
    c.job.lr_decay = 0.1 + 0.2;
    c.job.momentum = 0.5;
    c.job.device = "cuda:3";
    c.job.seed = 9'223'372'036'854'775'807ULL;
    c.dataset.kind = DatasetKind::Cifar10;
    c.dataset.path = "/data/cifar-10-batches-bin";
    c.dataset.normalization = Normalization::PerDataset;
    c.dataset.train_subset = 5000;
    c.dataset.test_subset = 700;
    c.dataset.random_subset = true;
    c.dataset.shape = {1, 28, 30};
    c.dataset.classes = 7;
    c.dataset.train_size = 100;
    c.dataset.test_size = 50;
    c.dataset.noise = 1e-300;
    c.scheduler.budget = 123.456789012345;
    c.scheduler.start_time = std::nextafter(70.0, 0.0);
    c.scheduler.events = {
        {0.0, Change::Down}, {std::nextafter(123.456789012345, 0.0), Change::Up}, {5.0, Change::Up}};
    c.scheduler.clock = ClockKind::Wall;
    c.scheduler.step_cost = 2.5e-7;
    c.scheduler.eval_cost = 0.125;
    c.trainer.max_decisions = 5;
    c.trainer.distill_temperature = 3.5;
    c.trainer.distill_weight = 1.0;
    c.trainer.distill_decay = 0.0;
    c.trainer.check_preservation = false;
    c.trainer.warm_start_checkpoint = false;
    c.trainer.operations = {"deepen", "widen"};
    c.trainer.widen_factor = 3.0;
    c.trainer.widen_noise = 0.2;
    c.agent.kind = AgentKind::Policy;
    c.agent.sequence = {3, 0, 2, 1};
    c.agent.policy = "runs/a/policy.pt";
    c.agent.temperature = 1000.0;
    c.agent.greedy = false;
    c.agent.seed = 12345;
    c.agent.threshold = 1.0 / 7.0;
    c.policy.vocab = "vocab.txt";
    c.policy.embedding_size = 8;
    c.policy.hidden_size = 25;
    c.policy.decider_lstm_size = 32;
    c.policy.decider_linear_size = 64;
    c.policy.time_encoding_size = 0;
    c.policy.max_actions = 6;
    c.policy.action_set_size = 5;
    c.policy.alpha = 3e-5;
    c.policy.learning_rate_decay = 1.0;
    c.policy.decay_freq = 250;
    c.simulation.table = "tables/convnet2_early.csv";
    c.runner.total_episodes = 75000;
    c.runner.save = true;
    c.sweep.backend = SweepBackend::Slurm;
    c.sweep.workers = 7;
    c.sweep.threads_per_task = 3;
    c.sweep.max_retries = 0;
    c.sweep.partition = "gpu-\"long\"";
    c.sweep.time_limit = "2-12:30:00";
    c.sweep.cpus_per_task = 4;
    c.sweep.gres = "gpu:1";
    c.sweep.sbatch_args = {"--account=lab", "--qos=high prio", ""};
    c.sweep.poll_seconds = 0.1 + 0.2;
    return c;
}

// Experiment files in the original tool's schema, written for these tests (tests/fixtures/README.md).
QString original(const QString& relative)
{
    return QString(RLDA_FIXTURES_DIR) + "/original-schema/" + relative;
}

bool any_warning_names(const ExperimentConfig& c, const QString& key)
{
    for (const auto& w : c.warnings)
        if (QString::fromStdString(w).contains(": " + key + ": "))
            return true;
    return false;
}

} // namespace

class TestConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void empty_file_gives_the_struct_defaults()
    {
        const ExperimentConfig c = parse_experiment("", "x.toml");
        QVERIFY(same_settings(c, ExperimentConfig{}));
        QCOMPARE(c.source, std::string("x.toml"));
        QVERIFY(c.warnings.empty());
        QCOMPARE(c.scheduler.budget, 400.0);
        QVERIFY(c.scheduler.clock == ClockKind::Virtual);
        QCOMPARE(c.job.model, std::string("ConvNet2"));
        QCOMPARE(c.policy.embedding_size, std::int64_t{16});
        QCOMPARE(c.policy.hidden_size, std::int64_t{50});
        QCOMPARE(c.policy.decider_lstm_size, std::int64_t{16});
        QCOMPARE(c.policy.decider_linear_size, std::int64_t{128});
        QCOMPARE(c.policy.time_encoding_size, std::int64_t{8});
        QCOMPARE(c.policy.alpha, 1e-4);
        QCOMPARE(c.policy.learning_rate_decay, 0.99);
        QCOMPARE(c.policy.decay_freq, std::int64_t{500});
        QCOMPARE(c.policy.vocab, std::string("models"));
        QCOMPARE(c.policy.action_set_size, std::int64_t{0});
        QCOMPARE(c.runner.total_episodes, std::int64_t{1});
        QVERIFY(find_problems(ExperimentConfig{}).empty());
    }

    void partial_sections_keep_the_other_defaults()
    {
        const auto c = parse_experiment("[job]\nlr = 1\n[scheduler]\nbudget = 60\n", "x.toml");
        QCOMPARE(c.job.lr, 1.0); // an integer where a float is expected
        QCOMPARE(c.scheduler.budget, 60.0);
        QCOMPARE(c.job.batch_size, std::int64_t{64});
        QCOMPARE(c.scheduler.step_cost, 0.05);
    }

    void to_toml_round_trips_every_field()
    {
        const ExperimentConfig c = everything_changed();
        QVERIFY2(find_problems(c).empty(), find_problems(c).empty() ? "" : find_problems(c)[0].key.c_str());
        // Guard: the fixture really moves every section off its defaults.
        const ExperimentConfig d;
        QVERIFY(c.name != d.name && c.job != d.job && c.dataset != d.dataset && c.scheduler != d.scheduler &&
                c.trainer != d.trainer && c.agent != d.agent && c.policy != d.policy &&
                c.simulation != d.simulation && c.runner != d.runner && c.sweep != d.sweep);
        const std::string text = to_toml(c);
        const ExperimentConfig back = parse_experiment(text, "x");
        QVERIFY2(same_settings(back, c), text.c_str());
        QCOMPARE(back.job.lr, 1.0 / 3.0); // bit for bit
        QCOMPARE(back.scheduler.step_cost, 2.5e-7);
        QCOMPARE(back.dataset.noise, 1e-300);
        QCOMPARE(back.name, c.name);
        QVERIFY(back.warnings.empty());
        QCOMPARE(to_toml(back), text); // stable
    }

    void to_toml_of_the_defaults_writes_every_key_with_comments()
    {
        const std::string text = to_toml(ExperimentConfig{});
        QVERIFY(same_settings(parse_experiment(text, "x"), ExperimentConfig{}));
        const QString t = QString::fromStdString(text);
        for (const char* key :
             {"\nname = ", "\n[job]", "\nmodel = ", "\nmomentum = ", "\n[dataset]",
              "\nnoise = ", "\n[scheduler]", "\nevents = []", "\neval_cost = ", "\n[trainer]",
              "\nwarm_start_checkpoint = ", "\n[agent]", "\ngreedy = ", "\n[policy]",
              "\ndecay_freq = ", "\n[simulation]", "\ntable = ", "\n[runner]", "\nsave = ", "\n[sweep]", "\nbackend = \"local\"",
              "\nworkers = 0 ", "\nthreads_per_task = 1 ", "\nsbatch_args = [] ", "\npoll_seconds = 2.0 "})
            QVERIFY2(t.contains(key), key);
        QVERIFY(t.contains("# What is trained and how.\n[job]"));
        QVERIFY(t.contains("budget = 400.0 ")); // a float stays a float
    }

    void doubles_round_trip_exactly()
    {
        std::mt19937_64 rng(5); // seeded: 2000 random positive doubles of every magnitude
        std::uniform_real_distribution<double> mantissa(0.0, 1.0);
        // Up to 2^62: job.lr and dataset.noise stay below the float32 bound of 1.8e19 (limits.h).
        std::uniform_int_distribution<int> exponent(-300, 62);
        for (int i = 0; i < 2000; ++i) {
            ExperimentConfig c;
            c.job.lr = std::ldexp(0.5 + mantissa(rng), exponent(rng));
            c.dataset.noise = std::ldexp(mantissa(rng), exponent(rng));
            const auto back = parse_experiment(to_toml(c), "x");
            QCOMPARE(back.job.lr, c.job.lr);
            QCOMPARE(back.dataset.noise, c.dataset.noise);
        }
    }

    void original_schema_files_all_parse()
    {
        QDirIterator it(original(""), {"*.toml"}, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        QSet<QString> sections;
        const QRegularExpression header(QStringLiteral("^\\[(\\w+)\\]\\s*$"),
                                        QRegularExpression::MultilineOption);
        while (it.hasNext()) {
            const QString path = it.next();
            try {
                const ExperimentConfig c = load_experiment(path.toStdString());
                QVERIFY2(same_settings(parse_experiment(to_toml(c), "x"), c), qPrintable(path));
                QVERIFY2(find_problems(c).empty(), qPrintable(path));
            } catch (const ConfigError& e) {
                QFAIL(e.what());
            }
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            for (auto m = header.globalMatch(QString::fromUtf8(f.readAll())); m.hasNext();)
                sections.insert(m.next().captured(1));
            ++files;
        }
        QCOMPARE(files, 5);
        // Between them, the files use every section of the original schema, and nothing else.
        QCOMPARE(sections, (QSet<QString>{"runner", "scheduler", "trainer", "job", "agent", "simulation"}));
    }

    void original_training_config_maps_to_our_settings()
    {
        const auto c = load_experiment(original("warmup/convnet3_middle.toml").toStdString());
        QCOMPARE(c.scheduler.budget, 200.0);
        QCOMPARE(c.job.seed, std::uint64_t{7});
        QCOMPARE(c.job.model, std::string("ConvNet3"));
        QVERIFY(c.dataset.kind == DatasetKind::Cifar10);
        QVERIFY(c.agent.kind == AgentKind::Random);
        QCOMPARE(c.job.device, std::string("cuda:1"));
        QCOMPARE(c.name, std::string("warmup_convnet3_middle"));
        QCOMPARE(c.runner.total_episodes, std::int64_t{1});
        QVERIFY(c.scheduler.events.empty());
        QVERIFY(c.warnings.empty());
        const auto early = load_experiment(original("warmup/convnet2_early.toml").toStdString());
        QCOMPARE(early.scheduler.budget, 70.0);
        QCOMPARE(early.job.seed, std::uint64_t{11});
        QCOMPARE(early.job.model, std::string("ConvNet2"));
        QCOMPARE(early.job.device, std::string("cuda:0"));
        QCOMPARE(early.name, std::string("warmup_convnet2_early"));
        QVERIFY(early.warnings.empty());
    }

    void original_simulation_config_maps_and_warns()
    {
        const std::string path = original("simulate/convnet3_middle.toml").toStdString();
        const auto c = load_experiment(path);
        QCOMPARE(c.scheduler.budget, 300.0);
        QCOMPARE(c.scheduler.start_time, 120.0);
        QCOMPARE(c.scheduler.events.size(), std::size_t{1});
        QCOMPARE(c.scheduler.events[0].time, 120.0);
        QVERIFY(c.scheduler.events[0].change == Change::Up);
        QVERIFY(c.agent.kind == AgentKind::Simulation);
        QCOMPARE(c.job.model, std::string("ConvNet3"));
        QCOMPARE(c.job.device, std::string("cuda:1"));
        QCOMPARE(c.trainer.max_decisions, 2);
        QCOMPARE(c.policy.action_set_size, std::int64_t{4});
        QCOMPARE(c.runner.total_episodes, std::int64_t{16});
        QVERIFY(c.runner.save);
        QCOMPARE(c.name, std::string("simulate_convnet3_middle"));
        QCOMPARE(c.warnings.size(), std::size_t{3});
        QVERIFY(any_warning_names(c, "trainer.weights"));
        QVERIFY(any_warning_names(c, "trainer.runtimes"));
        QVERIFY(any_warning_names(c, "agent.save_file"));
        for (const auto& w : c.warnings) {
            const QString s = QString::fromStdString(w);
            QVERIFY2(s.startsWith(QString::fromStdString(path) + ":"), qPrintable(s));
            QVERIFY2(s.contains(": not used: "), qPrintable(s));
            QVERIFY2(!s.contains('\n'), qPrintable(s));
        }
        QVERIFY(QString::fromStdString(c.warnings[0])
                    .startsWith(QString::fromStdString(path) + ":10:11: trainer.weights: "));
    }

    void original_learning_config_maps_policy_settings()
    {
        const auto c = load_experiment(original("learn/convnet2_late_then_early.toml").toStdString());
        QVERIFY(c.agent.kind == AgentKind::Policy);
        QCOMPARE(c.agent.temperature, 100.0);
        QCOMPARE(c.agent.policy, std::string("../out/learn_convnet2_late/agent.finalmodel.pth"));
        QCOMPARE(c.simulation.table, std::string("../out/simulate_convnet2_early/data.pkl"));
        QCOMPARE(c.runner.total_episodes, std::int64_t{5000});
        QCOMPARE(c.job.seed, std::uint64_t{3});
        QCOMPARE(c.policy.vocab, std::string("models"));
        QCOMPARE(c.policy.embedding_size, std::int64_t{8});
        QCOMPARE(c.policy.hidden_size, std::int64_t{40});
        QCOMPARE(c.policy.decider_lstm_size, std::int64_t{12});
        QCOMPARE(c.policy.decider_linear_size, std::int64_t{96});
        QCOMPARE(c.policy.time_encoding_size, std::int64_t{6});
        QCOMPARE(c.policy.max_actions, std::int64_t{4});
        QCOMPARE(c.policy.alpha, 5e-4);
        QCOMPARE(c.policy.learning_rate_decay, 0.95);
        QCOMPARE(c.policy.decay_freq, std::int64_t{250});
        // The pickles are mapped but flagged: the workbench cannot read them.
        QCOMPARE(c.warnings.size(), std::size_t{2});
        QVERIFY(any_warning_names(c, "agent.policyfile"));
        QVERIFY(any_warning_names(c, "simulation.datafile"));
        // From scratch, a learning run needs no policy file.
        const auto scratch = load_experiment(original("learn/convnet2_late.toml").toStdString());
        QVERIFY(scratch.agent.kind == AgentKind::Policy);
        QVERIFY(scratch.agent.policy.empty());
        QCOMPARE(scratch.agent.temperature, AgentConfig{}.temperature);
        QCOMPARE(scratch.runner.total_episodes, std::int64_t{20000});
        QCOMPARE(scratch.policy.hidden_size, std::int64_t{40});
        QCOMPARE(scratch.warnings.size(), std::size_t{1}); // the .pkl table only
        QVERIFY(any_warning_names(scratch, "simulation.datafile"));
    }

    void relative_paths_resolve_next_to_the_config_file()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        QVERIFY(QDir(dir.path()).mkpath("exp/models"));
        std::ofstream(root + "/exp/models/net.toml") << "# a model\n";
        std::ofstream(root + "/exp/policy.pt") << "x";
        std::ofstream(root + "/exp/run.toml") << "[job]\nmodel = \"models/net.toml\"\n"
                                              << "[agent]\nkind = \"policy\"\npolicy = \"policy.pt\"\n"
                                              << "[simulation]\ntable = \"missing.csv\"\n";
        const auto c = load_experiment(root + "/exp/run.toml");
        QCOMPARE(c.job.model, root + "/exp/models/net.toml");
        QCOMPARE(c.agent.policy, root + "/exp/policy.pt");
        QCOMPARE(c.simulation.table, std::string("missing.csv")); // not there: left for the caller
        std::ofstream(root + "/exp/ConvNet3") << "a file named like a zoo model";
        std::ofstream(root + "/exp/zoo.toml") << "[job]\nmodel = \"ConvNet3\"\n";
        QCOMPARE(load_experiment(root + "/exp/zoo.toml").job.model, std::string("ConvNet3"));
    }

    void load_errors_name_the_file()
    {
        QVERIFY(config_error([] {
                    load_experiment("/nonexistent/exp.toml");
                }).startsWith("/nonexistent/exp.toml: no such file"));
    }

    void example_experiments_parse()
    {
        const auto d = load_experiment(RLDA_SOURCE_DIR "/config/default.toml");
        QVERIFY(d.warnings.empty());
        QCOMPARE(d.job.model, std::string("ConvNet2"));
        QVERIFY(d.dataset.kind == DatasetKind::FashionMnist);
        QVERIFY(d.job.head == model::OutputHead::Logits);
        QCOMPARE(d.dataset.train_subset, std::int64_t{10000});
        QCOMPARE(d.dataset.test_subset, std::int64_t{0}); // the whole test set
        QCOMPARE(d.job.batch_size, std::int64_t{32});
        QVERIFY(d.job.optimizer == Optimizer::Adam);
        QCOMPARE(d.job.lr, 0.002);
        QCOMPARE(d.job.lr_decay, 0.9);
        QVERIFY(d.scheduler.clock == ClockKind::Virtual);
        QCOMPARE(d.scheduler.budget, 60.0);
        QCOMPARE(d.scheduler.step_cost, 0.025);
        QCOMPARE(d.scheduler.events, (std::vector<AllocationEventConfig>{{20.0, Change::Up}}));
        QVERIFY(d.agent.kind == AgentKind::Fixed);
        QCOMPARE(d.agent.sequence, (std::vector<int>{1, 2, 3}));
        const auto q = load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        QVERIFY(q.warnings.empty());
        QVERIFY(q.dataset.kind == DatasetKind::Synthetic);
        QVERIFY(q.scheduler.budget <= 10.0);
        QCOMPARE(q.scheduler.events.size(), std::size_t{1});
    }

    // The acceptance test of "one declaration per key": a key declared in one place, bound to
    // storage of its own, is read, written, validated and overridden with no other change.
    void a_key_declared_once_is_read_written_and_checked()
    {
        auto patience = std::make_shared<double>(3.0);
        const Schema schema = rlda::test::with_patience(patience);
        const auto error = [&](const std::string& text) {
            return config_error([&] { parse_experiment(text, "x.toml", schema); });
        };

        // Read from a file.
        const ExperimentConfig c = parse_experiment("[trainer]\nmax_decisions = 2\npatience = 7.5\n", "x.toml", schema);
        QCOMPARE(*patience, 7.5);
        QCOMPARE(c.trainer.max_decisions, 2);
        // Written, with its help and range, at the end of its section.
        const QString text = QString::fromStdString(to_toml(c, schema));
        QVERIFY2(text.contains(QRegularExpression("\nwarm_start_checkpoint = [^\n]*\npatience = 7\\.5 +"
                                                  "# Epochs without progress before stopping; in \\[0, 100\\]\n")),
                 qPrintable(text));
        QVERIFY(text.indexOf("\npatience = ") < text.indexOf("\n[agent]"));
        *patience = 0.0;
        QVERIFY(same_settings(parse_experiment(text.toStdString(), "x", schema), c));
        QCOMPARE(*patience, 7.5);
        // Validated: its range and type, one line naming the file position and the key.
        QCOMPARE(error("[trainer]\npatience = 250\n"), QString("x.toml:2:12: trainer.patience: must be in [0, 100], got 250"));
        QCOMPARE(error("[trainer]\npatience = \"long\"\n"),
                 QString("x.toml:2:12: trainer.patience: expected a number, got a string"));
        *patience = -1.0;
        const auto problems = find_problems(ExperimentConfig{}, schema);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("trainer.patience"));
        QVERIFY(find_problems(ExperimentConfig{}).empty()); // the experiment schema does not know it
        // Overridden with --set, with the same checks.
        ExperimentConfig d;
        apply_overrides(d, {"trainer.patience=12"}, schema);
        QCOMPARE(*patience, 12.0);
        QCOMPARE(config_error([&] { apply_overrides(d, {"trainer.patience=101"}, schema); }),
                 QString("--set trainer.patience=101: trainer.patience: must be in [0, 100], got 101"));
        // Unknown to the experiment schema, which suggests its own keys.
        QVERIFY(parse_error("[trainer]\npatience = 1\n").startsWith("x.toml:2:1: trainer.patience: unknown key"));
        QVERIFY(error("[trainer]\nnope = 1\n").contains(", patience)"));
        // Declared once: a second declaration, or one in a section that does not exist, is refused.
        Schema again = schema;
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "trainer.patience", .type = Type::Flag}));
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "runner.seed", .type = Type::Flag}));
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "stopping.patience", .type = Type::Flag}));
        QCOMPARE(again.keys.size(), schema.keys.size());
    }

    void the_schema_declares_every_key_once()
    {
        const Schema& schema = experiment_schema();
        QSet<QString> seen;
        for (const auto& k : schema.keys) {
            QVERIFY2(!seen.contains(QString::fromStdString(k.name)), k.name.c_str());
            seen.insert(QString::fromStdString(k.name));
            QVERIFY2(!k.help.empty(), k.name.c_str());
            QVERIFY2(k.section().empty() || schema.find_section(k.section()), k.name.c_str());
            // The default a file gets is one the declaration allows.
            if (k.type == Type::Choice) {
                const auto v = std::get<Binding<std::string>>(k.value).get(ExperimentConfig{});
                QVERIFY2(std::find(k.choices.begin(), k.choices.end(), v) != k.choices.end(), k.name.c_str());
            }
        }
        QVERIFY(check_keys(ExperimentConfig{}, schema).empty());
        // Every original spelling sets one of ours (or is reported as not used), and shadows none.
        for (const auto& a : schema.aliases) {
            QVERIFY2(a.key.empty() ? !a.note.empty() : schema.find(a.key) != nullptr, a.name.c_str());
            QVERIFY2(!schema.find(a.name), a.name.c_str());
        }
        // The enums' names: one table each, read back to the same value; the choices are those names.
        for (const auto& n : names<Optimizer>())
            QCOMPARE(to_string(from_string<Optimizer>(n).value()), n);
        for (const auto& n : names<AgentKind>())
            QCOMPARE(to_string(from_string<AgentKind>(n).value()), n);
        QCOMPARE(schema.find("job.optimizer")->choices, names<Optimizer>());
        QCOMPARE(schema.find("dataset.kind")->choices, names<DatasetKind>());
        QCOMPARE(schema.find("dataset.normalization")->choices, names<Normalization>());
        QCOMPARE(schema.find("scheduler.clock")->choices, names<ClockKind>());
        QCOMPARE(schema.find("agent.kind")->choices, names<AgentKind>());
        QCOMPARE(schema.find("sweep.backend")->choices, names<SweepBackend>());
        QVERIFY(!from_string<Optimizer>("Adam")); // case-sensitive: "adam"
        // A kind parsed once: the optimizer is Adam or SGD, nothing else reaches the trainer.
        QVERIFY(parse_experiment("[job]\noptimizer = \"sgd\"\n", "x").job.optimizer == Optimizer::Sgd);
        QCOMPARE(parse_error("[job]\noptimizer = \"SGD\"\n"),
                 QString("x.toml:2:13: job.optimizer: unknown value \"SGD\" (allowed: \"adam\", \"sgd\")"));
    }

    void output_head_is_read_written_and_checked()
    {
        QVERIFY(ExperimentConfig{}.job.head == model::OutputHead::Relu); // the original's
        const ExperimentConfig c = parse_experiment("[job]\nhead = \"logits\"\n", "x.toml");
        QVERIFY(c.job.head == model::OutputHead::Logits);
        const std::string text = to_toml(c);
        QVERIFY2(QString::fromStdString(text).contains("\nhead = \"logits\" "), text.c_str());
        QVERIFY(same_settings(parse_experiment(text, "x"), c));
        QVERIFY(QString::fromStdString(to_toml(ExperimentConfig{})).contains("\nhead = \"relu\" "));
        QVERIFY(parse_experiment("[job]\nhead = \"relu\"\n", "x.toml").job.head == model::OutputHead::Relu);
        QCOMPARE(parse_error("[job]\nhead = \"softmax\"\n"),
                 QString("x.toml:2:8: job.head: unknown value \"softmax\" (allowed: \"relu\", \"logits\")"));
        QVERIFY(parse_error("[job]\nhead = 1\n").startsWith("x.toml:2:8: job.head: expected a string"));
        ExperimentConfig d;
        apply_override(d, "job.head=\"logits\"");
        QVERIFY(d.job.head == model::OutputHead::Logits);
        QVERIFY(config_error([&] { apply_override(d, "job.head=\"none\""); })
                    .startsWith("--set job.head=\"none\": job.head: unknown value \"none\""));
        // A model file writes its own last block: "logits" there is a mistake, marked on both keys.
        ExperimentConfig f;
        f.job.model = "models/net.toml";
        f.job.head = model::OutputHead::Logits;
        const auto problems = find_problems(f);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("job.head"));
        QCOMPARE(problems[0].related, std::string("job.model"));
        QVERIFY(parse_error("[job]\nmodel = \"net.toml\"\nhead = \"logits\"\n")
                    .startsWith("x.toml:3:8: job.head: \"logits\" applies to zoo models only"));
        f.job.head = model::OutputHead::Relu; // the file as written
        QVERIFY(find_problems(f).empty());
        QCOMPARE(model::output_head_names(), (std::vector<std::string>{"relu", "logits"}));
        for (const auto& name : model::output_head_names())
            QCOMPARE(model::to_string(model::parse_output_head(name).value()), name);
        QVERIFY(!model::parse_output_head("ReLU"));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestConfig)
#include "test_config.moc"
