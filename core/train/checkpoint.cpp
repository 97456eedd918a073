// The warm-start checkpoint by name (version 2), and the reader of the positional layout before it.
#include "core/train/checkpoint.h"

#include "core/config/names.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>
#include <torch/serialize/output-archive.h>

#include <c10/util/string_utils.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace rlda::core::train {
namespace {

std::string first_line(std::string_view text)
{
    return std::string(text.substr(0, text.find('\n')));
}

// Runs `f`, turning whatever LibTorch (or the standard library) throws into one line naming the file.
template <class F>
auto guarded(const std::filesystem::path& file, std::string_view what, F&& f) -> decltype(f())
{
    try {
        return f();
    } catch (const Error&) {
        throw;
    } catch (const c10::Error& e) {
        throw Error(fmt::format("{}: {} ({})", file.string(), what, first_line(e.what_without_backtrace())));
    } catch (const std::exception& e) {
        throw Error(fmt::format("{}: {} ({})", file.string(), what, first_line(e.what())));
    }
}

torch::Tensor ints(const std::vector<int>& v)
{
    std::vector<std::int64_t> w(v.begin(), v.end());
    return torch::tensor(w, torch::kLong);
}

std::vector<int> to_ints(const torch::Tensor& t)
{
    std::vector<int> v;
    auto c = t.to(torch::kLong).contiguous();
    for (std::int64_t i = 0; i < c.numel(); ++i)
        v.push_back(static_cast<int>(c[i].item<std::int64_t>()));
    return v;
}

// The history's columns, each once: its name in version 2 and its field. Version 1 stored them as
// the columns of one matrix, in this order.
struct Column {
    const char* name;
    bool integral;
    double (*get)(const EpochMetrics&);
    void (*set)(EpochMetrics&, double);
};

constexpr std::array<Column, 10> kColumns{{
    {"epoch", true, [](const EpochMetrics& m) { return double(m.epoch); },
     [](EpochMetrics& m, double v) { m.epoch = static_cast<int>(v); }},
    {"time", false, [](const EpochMetrics& m) { return m.time; }, [](EpochMetrics& m, double v) { m.time = v; }},
    {"time_left", false, [](const EpochMetrics& m) { return m.time_left; },
     [](EpochMetrics& m, double v) { m.time_left = v; }},
    {"train_loss", false, [](const EpochMetrics& m) { return m.train_loss; },
     [](EpochMetrics& m, double v) { m.train_loss = v; }},
    {"train_acc", false, [](const EpochMetrics& m) { return m.train_acc; },
     [](EpochMetrics& m, double v) { m.train_acc = v; }},
    {"test_acc", false, [](const EpochMetrics& m) { return m.test_acc; },
     [](EpochMetrics& m, double v) { m.test_acc = v; }},
    {"lr", false, [](const EpochMetrics& m) { return m.lr; }, [](EpochMetrics& m, double v) { m.lr = v; }},
    {"parameters", true, [](const EpochMetrics& m) { return double(m.parameters); },
     [](EpochMetrics& m, double v) { m.parameters = static_cast<std::int64_t>(v); }},
    {"steps", true, [](const EpochMetrics& m) { return double(m.steps); },
     [](EpochMetrics& m, double v) { m.steps = static_cast<std::int64_t>(v); }},
    {"final", true, [](const EpochMetrics& m) { return m.final ? 1.0 : 0.0; },
     [](EpochMetrics& m, double v) { m.final = v != 0.0; }},
}};

std::string state_key(const torch::Tensor& p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }

// Written as job.optimizer's name ("sgd", "adam"), from the config's one table.
config::Optimizer optimizer_kind(const torch::optim::Optimizer& opt)
{
    if (dynamic_cast<const torch::optim::SGD*>(&opt))
        return config::Optimizer::Sgd;
    if (dynamic_cast<const torch::optim::Adam*>(&opt))
        return config::Optimizer::Adam;
    throw Error("checkpoint: only SGD and Adam optimizers can be saved");
}

} // namespace

void save_checkpoint(const std::filesystem::path& file, const CheckpointMeta& m, model::NetImpl& net,
                     const torch::optim::Optimizer& opt)
{
    torch::serialize::OutputArchive a;
    a.write("version", c10::IValue(std::int64_t{kCheckpointVersion}));
    a.write("meta/model_name", c10::IValue(m.model_name));
    a.write("meta/input", torch::tensor(m.input, torch::kLong));
    a.write("meta/classes", torch::tensor(m.classes, torch::kLong));
    a.write("meta/deepened", ints(m.deepened));
    a.write("meta/chosen", ints(m.chosen));
    a.write("clock/seconds", c10::IValue(m.clock.seconds));
    a.write("clock/steps", c10::IValue(static_cast<std::int64_t>(m.clock.steps)));
    a.write("clock/evaluations", c10::IValue(static_cast<std::int64_t>(m.clock.evaluations)));
    a.write("scheduler/reported", c10::IValue(m.scheduler_reported));
    a.write("progress/epochs_started", c10::IValue(std::int64_t{m.epochs_started}));
    a.write("progress/epochs_completed", c10::IValue(std::int64_t{m.epochs_completed}));
    a.write("progress/steps", c10::IValue(m.steps));
    a.write("adaptation/active", c10::IValue(m.adapting));
    a.write("adaptation/decisions", c10::IValue(std::int64_t{m.decisions}));
    a.write("optimizer/lr", c10::IValue(m.lr));
    for (const Column& c : kColumns) {
        std::vector<double> values;
        for (const auto& e : m.history)
            values.push_back(c.get(e));
        auto t = torch::tensor(values, torch::kFloat64).reshape({static_cast<std::int64_t>(values.size())});
        a.write(std::string("history/") + c.name, c.integral ? t.to(torch::kLong) : t, true);
    }
    for (const auto& p : net.named_parameters())
        a.write("model/" + p.key(), p.value().detach(), false);
    for (const auto& b : net.named_buffers())
        a.write("model/" + b.key(), b.value(), true);

    const config::Optimizer kind = optimizer_kind(opt);
    a.write("optimizer/kind", c10::IValue(config::to_string(kind)));
    const auto& state = opt.state();
    for (const auto& p : net.named_parameters()) {
        const auto it = state.find(state_key(p.value()));
        if (it == state.end())
            continue; // never stepped: no state yet
        const std::string pre = "optimizer/" + p.key() + "/";
        if (kind == config::Optimizer::Sgd) {
            const auto& s = static_cast<const torch::optim::SGDParamState&>(*it->second);
            if (s.momentum_buffer().defined())
                a.write(pre + "momentum_buffer", s.momentum_buffer(), true);
        } else {
            const auto& s = static_cast<const torch::optim::AdamParamState&>(*it->second);
            a.write(pre + "step", c10::IValue(s.step()));
            a.write(pre + "exp_avg", s.exp_avg(), true);
            a.write(pre + "exp_avg_sq", s.exp_avg_sq(), true);
            if (s.max_exp_avg_sq().defined())
                a.write(pre + "max_exp_avg_sq", s.max_exp_avg_sq(), true);
        }
    }
    replace_atomically(file, [&](const std::filesystem::path& tmp) { a.save_to(tmp.string()); });
}

CheckpointReader::CheckpointReader(const std::filesystem::path& file) : file_(file)
{
    if (!std::filesystem::is_regular_file(file))
        throw Error(fmt::format("{}: no such checkpoint file", file.string()));
    guarded(file_, "not a readable checkpoint", [&] { archive_.load_from(file_.string()); });
    guarded(file_, "not a warm-start checkpoint of rlda", [&] {
        const auto keys = archive_.keys();
        const auto has = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
        const auto tensor = [&](const std::string& key) {
            torch::Tensor t; // undefined: try_read would otherwise write into it
            if (!archive_.try_read(key, t))
                throw Error(fmt::format("{}: not a warm-start checkpoint of rlda: no {}", file_.string(), key));
            return t;
        };
        const auto value = [&](const std::string& key) {
            c10::IValue v;
            if (!archive_.try_read(key, v))
                throw Error(fmt::format("{}: not a warm-start checkpoint of rlda: no {}", file_.string(), key));
            return v;
        };
        if (has("version"))
            version_ = static_cast<int>(value("version").toInt());
        else if (has("meta/counters"))
            version_ = 1;
        else
            throw Error(fmt::format("{}: not a warm-start checkpoint of rlda", file_.string()));
        if (version_ < 1 || version_ > kCheckpointVersion)
            throw Error(fmt::format("{}: checkpoint version {}, this build reads versions 1 to {}", file_.string(),
                                    version_, kCheckpointVersion));

        CheckpointMeta& m = meta_;
        m.model_name = value("meta/model_name").toStringRef();
        const auto input = tensor("meta/input").to(torch::kLong).contiguous();
        m.input.assign(input.data_ptr<std::int64_t>(), input.data_ptr<std::int64_t>() + input.numel());
        m.classes = tensor("meta/classes").item<std::int64_t>();
        m.deepened = to_ints(tensor("meta/deepened"));
        m.chosen = to_ints(tensor("meta/chosen"));

        if (version_ == 1) {
            // The positional layout, exactly as it was written before version 2.
            const auto clock_s = tensor("meta/clock");
            const auto clock_counts = tensor("meta/clock_counts");
            const auto counters = tensor("meta/counters");
            m.clock = {clock_s[0].item<double>(), clock_counts[0].item<std::int64_t>(),
                       clock_counts[1].item<std::int64_t>()};
            m.scheduler_reported = counters[0].item<std::int64_t>();
            m.epochs_started = static_cast<int>(counters[1].item<std::int64_t>());
            m.epochs_completed = static_cast<int>(counters[2].item<std::int64_t>());
            m.steps = counters[3].item<std::int64_t>();
            m.adapting = counters[4].item<std::int64_t>() != 0;
            m.decisions = static_cast<int>(counters[5].item<std::int64_t>());
            m.lr = tensor("meta/lr")[0].item<double>();
            const auto hist = tensor("meta/history").to(torch::kFloat64);
            if (hist.size(0) > 0 && hist.size(1) != static_cast<std::int64_t>(kColumns.size()))
                throw Error(fmt::format("{}: meta/history has {} columns, not {}", file_.string(), hist.size(1),
                                        kColumns.size()));
            for (std::int64_t i = 0; i < hist.size(0); ++i) {
                EpochMetrics e;
                for (std::size_t c = 0; c < kColumns.size(); ++c)
                    kColumns[c].set(e, hist[i][static_cast<std::int64_t>(c)].item<double>());
                m.history.push_back(e);
            }
            return;
        }
        m.clock = {value("clock/seconds").toDouble(), value("clock/steps").toInt(),
                   value("clock/evaluations").toInt()};
        m.scheduler_reported = value("scheduler/reported").toInt();
        m.epochs_started = static_cast<int>(value("progress/epochs_started").toInt());
        m.epochs_completed = static_cast<int>(value("progress/epochs_completed").toInt());
        m.steps = value("progress/steps").toInt();
        m.adapting = value("adaptation/active").toBool();
        m.decisions = static_cast<int>(value("adaptation/decisions").toInt());
        m.lr = value("optimizer/lr").toDouble();
        const auto epochs = tensor("history/epoch");
        m.history.resize(static_cast<std::size_t>(epochs.numel()));
        for (const Column& c : kColumns) {
            torch::Tensor t;
            if (!archive_.try_read(std::string("history/") + c.name, t))
                continue; // a column added after the file was written keeps its default
            if (t.numel() != epochs.numel())
                throw Error(fmt::format("{}: history/{} has {} entries, history/epoch {}", file_.string(), c.name,
                                        t.numel(), epochs.numel()));
            t = t.to(torch::kFloat64).contiguous();
            for (std::int64_t i = 0; i < t.numel(); ++i)
                c.set(m.history[static_cast<std::size_t>(i)], t[i].item<double>());
        }
    });
}

void CheckpointReader::load_model(model::NetImpl& net)
{
    guarded(file_, "the checkpoint's model does not load", [&] {
        if (version_ == 1) {
            torch::serialize::InputArchive model;
            archive_.read("model", model);
            net.load(model);
            return;
        }
        torch::NoGradGuard no_grad;
        std::size_t expected = 0;
        const auto fill = [&](const std::string& name, torch::Tensor& into, bool buffer) {
            torch::Tensor t;
            if (!archive_.try_read("model/" + name, t, buffer))
                throw Error(fmt::format("{}: no model/{}: the checkpoint's model is not this one", file_.string(), name));
            if (t.sizes() != into.sizes())
                throw Error(fmt::format("{}: model/{} has shape {}, the model's is {}", file_.string(), name,
                                        fmt::join(t.sizes(), "x"), fmt::join(into.sizes(), "x")));
            into.copy_(t);
            ++expected;
        };
        for (auto& p : net.named_parameters())
            fill(p.key(), p.value(), false);
        for (auto& b : net.named_buffers())
            fill(b.key(), b.value(), true);
        const auto keys = archive_.keys();
        const auto held = static_cast<std::size_t>(
            std::count_if(keys.begin(), keys.end(), [](const std::string& k) { return k.starts_with("model/"); }));
        if (held != expected)
            throw Error(fmt::format("{}: the checkpoint holds {} model tensors, this model has {}", file_.string(), held,
                                    expected));
    });
}

void CheckpointReader::load_optimizer(torch::optim::Optimizer& opt, model::NetImpl& net)
{
    guarded(file_, "the checkpoint's optimizer does not load", [&] {
        if (version_ == 1) {
            torch::serialize::InputArchive optimizer;
            archive_.read("optimizer", optimizer);
            opt.load(optimizer);
            return;
        }
        c10::IValue kind;
        if (!archive_.try_read("optimizer/kind", kind))
            throw Error(fmt::format("{}: no optimizer/kind", file_.string()));
        const config::Optimizer want = optimizer_kind(opt);
        if (kind.toStringRef() != config::to_string(want))
            throw Error(fmt::format("{}: the checkpoint's optimizer is {}, this job's is {}", file_.string(),
                                    kind.toStringRef(), config::to_string(want)));
        auto& state = opt.state();
        state.clear();
        for (const auto& p : net.named_parameters()) {
            const std::string pre = "optimizer/" + p.key() + "/";
            const auto on_device = [&](torch::Tensor t) { return t.to(p.value().device()); };
            if (want == config::Optimizer::Sgd) {
                torch::Tensor buffer;
                if (!archive_.try_read(pre + "momentum_buffer", buffer, true))
                    continue;
                auto s = std::make_unique<torch::optim::SGDParamState>();
                s->momentum_buffer(on_device(buffer));
                state[state_key(p.value())] = std::move(s);
                continue;
            }
            c10::IValue step;
            if (!archive_.try_read(pre + "step", step))
                continue;
            torch::Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
            if (!archive_.try_read(pre + "exp_avg", exp_avg, true) ||
                !archive_.try_read(pre + "exp_avg_sq", exp_avg_sq, true))
                throw Error(fmt::format("{}: {}: Adam state without its averages", file_.string(), p.key()));
            auto s = std::make_unique<torch::optim::AdamParamState>();
            s->step(step.toInt());
            s->exp_avg(on_device(exp_avg));
            s->exp_avg_sq(on_device(exp_avg_sq));
            if (archive_.try_read(pre + "max_exp_avg_sq", max_exp_avg_sq, true))
                s->max_exp_avg_sq(on_device(max_exp_avg_sq));
            state[state_key(p.value())] = std::move(s);
        }
    });
}

} // namespace rlda::core::train
