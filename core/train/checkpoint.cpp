// The warm-start checkpoint as a tensor file (version 3), and the readers of the LibTorch archives before it.
#include "core/train/checkpoint.h"
#include "core/train/torch_compat.h"

#include "core/config/names.h"
#include "core/net/tensors.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/error_text.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace rlda::core::train {
namespace {

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

// A history value into its field, a count checked to fit it first (a damaged file must not reach
// an out-of-range conversion).
void set_column(const Column& c, EpochMetrics& e, double v, const std::filesystem::path& file)
{
    if (c.integral) {
        const std::string_view name = c.name;
        const double max = name == "epoch" ? double(INT32_MAX) : name == "final" ? 1.0 : 0x1p62;
        if (!(v >= 0.0 && v <= max))
            throw Error(fmt::format("{}: history/{}: {} is not a count in [0, {}]", file.string(), c.name, v, max));
    }
    c.set(e, v);
}

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
    TensorFileWriter f(kCheckpointKind);
    f.set("version", std::int64_t{kCheckpointVersion});
    f.set("meta/model_name", m.model_name);
    f.set("meta/input", std::vector<std::int64_t>(m.input.begin(), m.input.end()));
    f.set("meta/classes", m.classes);
    f.set("meta/deepened", std::vector<std::int64_t>(m.grown.begin(), m.grown.end()));
    f.set("meta/chosen", std::vector<std::int64_t>(m.chosen.begin(), m.chosen.end()));
    f.set("meta/operations", m.operations);
    f.set("clock/seconds", m.clock.seconds);
    f.set("clock/steps", static_cast<std::int64_t>(m.clock.steps));
    f.set("clock/evaluations", static_cast<std::int64_t>(m.clock.evaluations));
    f.set("scheduler/reported", m.scheduler_reported);
    f.set("progress/epochs_started", std::int64_t{m.epochs_started});
    f.set("progress/epochs_completed", std::int64_t{m.epochs_completed});
    f.set("progress/steps", m.steps);
    f.set("adaptation/active", m.adapting);
    f.set("adaptation/decisions", std::int64_t{m.decisions});
    f.set("optimizer/lr", m.lr);
    for (const Column& c : kColumns) {
        std::vector<double> values;
        for (const auto& e : m.history)
            values.push_back(c.get(e));
        auto t = torch::tensor(values, torch::kFloat64).reshape({static_cast<std::int64_t>(values.size())});
        add_tensor(f, std::string("history/") + c.name, c.integral ? t.to(torch::kLong) : t);
    }
    if (!m.grad_sq_mean.empty())
        add_tensor(f, "features/grad_sq_mean",
                   torch::tensor(m.grad_sq_mean, torch::kFloat64)
                       .reshape({static_cast<std::int64_t>(m.grad_sq_mean.size())}));
    for (const auto& p : net.named_parameters())
        add_tensor(f, "model/" + p.key(), p.value());
    for (const auto& b : net.named_buffers())
        add_tensor(f, "model/" + b.key(), b.value());

    const config::Optimizer kind = optimizer_kind(opt);
    f.set("optimizer/kind", config::to_string(kind));
    const auto& state = opt.state();
    for (const auto& p : net.named_parameters()) {
        const auto it = state.find(optimizer_state_key(p.value()));
        if (it == state.end())
            continue; // never stepped: no state yet
        const std::string pre = "optimizer/" + p.key() + "/";
        if (kind == config::Optimizer::Sgd) {
            const auto& s = static_cast<const torch::optim::SGDParamState&>(*it->second);
            if (s.momentum_buffer().defined())
                add_tensor(f, pre + "momentum_buffer", s.momentum_buffer());
        } else {
            const auto& s = static_cast<const torch::optim::AdamParamState&>(*it->second);
            f.set(pre + "step", s.step());
            add_tensor(f, pre + "exp_avg", s.exp_avg());
            add_tensor(f, pre + "exp_avg_sq", s.exp_avg_sq());
            if (s.max_exp_avg_sq().defined())
                add_tensor(f, pre + "max_exp_avg_sq", s.max_exp_avg_sq());
        }
    }
    f.write(file);
}

namespace {

// The counters of a checkpoint: never negative, and within an int where the trainer keeps an int.
std::int64_t count(const TensorFile& f, const char* key, std::int64_t max = INT64_MAX)
{
    const std::int64_t v = f.integer(key);
    if (v < 0 || v > max)
        throw Error(fmt::format("{}: {}: must be in [0, {}], got {}", f.label(), key, max, v));
    return v;
}

std::vector<int> actions(const TensorFile& f, const char* key)
{
    std::vector<int> out;
    for (const std::int64_t a : f.integers(key)) {
        if (a < 0 || a > kMaxCheckpointAction)
            throw Error(fmt::format("{}: {}: action {} is not in [0, {}]", f.label(), key, a, kMaxCheckpointAction));
        out.push_back(static_cast<int>(a));
    }
    return out;
}

} // namespace

CheckpointReader::CheckpointReader(TensorFile file) : file_(file.label()), tensors_(std::move(file))
{
    const TensorFile& f = *tensors_;
    version_ = static_cast<int>(count(f, "version", kCheckpointVersion));
    if (version_ != kCheckpointVersion)
        throw Error(fmt::format("{}: checkpoint version {} in a tensor file, which holds version {}", f.label(),
                                version_, kCheckpointVersion));
    CheckpointMeta& m = meta_;
    m.model_name = f.string("meta/model_name");
    const auto input = f.integers("meta/input");
    if (input.empty() || input.size() > 8 || std::any_of(input.begin(), input.end(), [](auto d) { return d < 1; }))
        throw Error(fmt::format("{}: meta/input: not a sample shape", f.label()));
    m.input.assign(input.begin(), input.end());
    m.classes = count(f, "meta/classes");
    m.grown = actions(f, "meta/deepened");
    m.chosen = actions(f, "meta/chosen");
    if (f.has("meta/operations"))
        m.operations = f.string("meta/operations");
    // Each deepening adds tensors to the model: a list longer than the model's tensors is not its own.
    if (m.grown.size() > f.names("model/").size())
        throw Error(fmt::format("{}: meta/deepened lists {} growth actions for a model of {} tensors", f.label(),
                                m.grown.size(), f.names("model/").size()));
    m.clock.seconds = f.real("clock/seconds");
    if (!(m.clock.seconds >= 0.0))
        throw Error(fmt::format("{}: clock/seconds: must be >= 0, got {}", f.label(), m.clock.seconds));
    m.clock.steps = count(f, "clock/steps");
    m.clock.evaluations = count(f, "clock/evaluations");
    m.scheduler_reported = count(f, "scheduler/reported");
    m.epochs_started = static_cast<int>(count(f, "progress/epochs_started", INT32_MAX));
    m.epochs_completed = static_cast<int>(count(f, "progress/epochs_completed", INT32_MAX));
    m.steps = count(f, "progress/steps");
    m.adapting = f.boolean("adaptation/active");
    m.decisions = static_cast<int>(count(f, "adaptation/decisions", INT32_MAX));
    m.lr = f.real("optimizer/lr");
    if (!(m.lr > 0.0))
        throw Error(fmt::format("{}: optimizer/lr: must be > 0, got {}", f.label(), m.lr));
    const TensorEntry* epochs = f.find("history/epoch");
    if (!epochs || epochs->shape.size() != 1)
        throw Error(fmt::format("{}: no history/epoch vector", f.label()));
    const std::int64_t n = epochs->shape[0];
    m.history.resize(static_cast<std::size_t>(n));
    for (const Column& c : kColumns) {
        if (!f.find(std::string("history/") + c.name))
            continue; // a column added after the file was written keeps its default
        const auto t = read_tensor(f, std::string("history/") + c.name,
                                   c.integral ? torch::kInt64 : torch::kFloat64, {n},
                                   /*finite=*/false)
                           .to(torch::kFloat64);
        const double* v = t.data_ptr<double>();
        for (std::int64_t i = 0; i < n; ++i)
            set_column(c, m.history[static_cast<std::size_t>(i)], v[i], file_);
    }
    if (const TensorEntry* g = f.find("features/grad_sq_mean")) {
        // One value per original block: each block holds tensors of the model.
        if (g->shape.size() != 1 || g->shape[0] < 1 ||
            g->shape[0] > static_cast<std::int64_t>(f.names("model/").size()))
            throw Error(fmt::format("{}: features/grad_sq_mean: not a vector of one value per block", f.label()));
        const auto t = read_tensor(f, "features/grad_sq_mean", torch::kFloat64, {g->shape[0]});
        const double* v = t.data_ptr<double>();
        for (std::int64_t i = 0; i < g->shape[0]; ++i) {
            if (!(v[i] >= 0.0))
                throw Error(fmt::format("{}: features/grad_sq_mean: {} is not a mean square", f.label(), v[i]));
            m.grad_sq_mean.push_back(v[i]);
        }
    }
}

CheckpointReader::CheckpointReader(const std::filesystem::path& file, const Warn& warn) : file_(file)
{
    if (!std::filesystem::is_regular_file(file))
        throw Error(fmt::format("{}: no such checkpoint file", file.string()));
    switch (sniff_tensor_file(file)) {
    case TensorFileKind::Container:
        *this = CheckpointReader(TensorFile::read(file, kCheckpointKind));
        return;
    case TensorFileKind::TorchArchive:
        if (warn)
            warn(unverified_warning(file));
        break;
    case TensorFileKind::Other:
        throw Error(fmt::format("{}: not a warm-start checkpoint of rlda", file.string()));
    }
    guarded(file_, "not a readable checkpoint", [&] { archive_.load_from(file_.string()); });
    guarded(file_, "not a warm-start checkpoint of rlda", [&] {
        const auto keys = archive_.keys();
        const auto has = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
        const auto tensor = [&](const std::string& key) {
            torch::Tensor t; // undefined: try_read would otherwise write into it
            if (!archive_.try_read(key, t))
                throw Error(fmt::format("{}: not a warm-start checkpoint of rlda: no {}", file_.string(), key));
            if (!storage_covers(t))
                throw Error(fmt::format("{}: {} points past its storage", file_.string(), key));
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
        if (version_ < 1 || version_ > 2)
            throw Error(fmt::format("{}: checkpoint version {} in a LibTorch archive, which holds versions 1 and 2",
                                    file_.string(), version_));

        CheckpointMeta& m = meta_;
        m.model_name = value("meta/model_name").toStringRef();
        const auto input = tensor("meta/input").to(torch::kLong).contiguous();
        m.input.assign(input.data_ptr<std::int64_t>(), input.data_ptr<std::int64_t>() + input.numel());
        m.classes = tensor("meta/classes").item<std::int64_t>();
        m.grown = to_ints(tensor("meta/deepened"));
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
                    set_column(kColumns[c], e, hist[i][static_cast<std::int64_t>(c)].item<double>(), file_);
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
                set_column(c, m.history[static_cast<std::size_t>(i)], t[i].item<double>(), file_);
        }
    });
}

void CheckpointReader::load_model(model::NetImpl& net)
{
    if (tensors_) {
        const TensorFile& f = *tensors_;
        std::vector<std::pair<torch::Tensor, torch::Tensor>> loaded; // nothing changes until all is read
        for (const auto& list : {net.named_parameters(), net.named_buffers()})
            for (const auto& p : list)
                loaded.emplace_back(p.value(), read_tensor(f, "model/" + p.key(), p.value().scalar_type(),
                                                           p.value().sizes()));
        if (loaded.size() != f.names("model/").size())
            throw Error(fmt::format("{}: the checkpoint holds {} model tensors, this model has {}", file_.string(),
                                    f.names("model/").size(), loaded.size()));
        torch::NoGradGuard no_grad;
        for (auto& [into, from] : loaded)
            into.copy_(from);
        return;
    }
    guarded(file_, "the checkpoint's model does not load", [&] {
        if (version_ == 1) {
            torch::serialize::InputArchive model;
            const auto before = [&] {
                std::vector<std::vector<std::int64_t>> shapes;
                for (const auto& list : {net.named_parameters(), net.named_buffers()})
                    for (const auto& p : list)
                        shapes.push_back(p.value().sizes().vec());
                return shapes;
            }();
            archive_.read("model", model);
            net.load(model);
            std::size_t i = 0;
            for (const auto& list : {net.named_parameters(), net.named_buffers()})
                for (const auto& p : list)
                    if (p.value().sizes().vec() != before[i++] || !storage_covers(p.value()))
                        throw Error(fmt::format("{}: model/{} does not fit the model", file_.string(), p.key()));
            return;
        }
        torch::NoGradGuard no_grad;
        std::size_t expected = 0;
        const auto fill = [&](const std::string& name, torch::Tensor& into, bool buffer) {
            torch::Tensor t;
            if (!archive_.try_read("model/" + name, t, buffer))
                throw Error(fmt::format("{}: no model/{}: the checkpoint's model is not this one", file_.string(), name));
            if (t.sizes() != into.sizes() || !storage_covers(t))
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
    if (tensors_) {
        const TensorFile& f = *tensors_;
        const config::Optimizer want = optimizer_kind(opt);
        if (const auto kind = f.string("optimizer/kind"); kind != config::to_string(want))
            throw Error(fmt::format("{}: the checkpoint's optimizer is {}, this job's is {}", file_.string(), kind,
                                    config::to_string(want)));
        std::remove_reference_t<decltype(opt.state())> state; // replaces the optimizer's once all is read
        std::size_t used = 0; // optimizer tensors read: every one the file holds must be
        for (const auto& p : net.named_parameters()) {
            const std::string pre = "optimizer/" + p.key() + "/";
            const auto dtype = p.value().scalar_type();
            const auto shape = p.value().sizes();
            const auto read = [&](const std::string& field) {
                ++used;
                return read_tensor(f, pre + field, dtype, shape).to(p.value().device());
            };
            if (want == config::Optimizer::Sgd) {
                if (!f.find(pre + "momentum_buffer"))
                    continue;
                auto s = std::make_unique<torch::optim::SGDParamState>();
                s->momentum_buffer(read("momentum_buffer"));
                state[optimizer_state_key(p.value())] = std::move(s);
                continue;
            }
            if (!f.has(pre + "step"))
                continue;
            auto s = std::make_unique<torch::optim::AdamParamState>();
            s->step(count(f, (pre + "step").c_str()));
            s->exp_avg(read("exp_avg"));
            s->exp_avg_sq(read("exp_avg_sq"));
            if (f.find(pre + "max_exp_avg_sq"))
                s->max_exp_avg_sq(read("max_exp_avg_sq"));
            state[optimizer_state_key(p.value())] = std::move(s);
        }
        if (const auto held = f.names("optimizer/").size(); held != used)
            throw Error(fmt::format("{}: the checkpoint holds {} optimizer tensors, {} of them for this model's "
                                    "parameters",
                                    file_.string(), held, used));
        opt.state() = std::move(state);
        return;
    }
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
            const auto on_device = [&](const torch::Tensor& t) { return t.to(p.value().device()); };
            if (want == config::Optimizer::Sgd) {
                torch::Tensor buffer;
                if (!archive_.try_read(pre + "momentum_buffer", buffer, true))
                    continue;
                if (buffer.sizes() != p.value().sizes() || !storage_covers(buffer))
                    throw Error(fmt::format("{}: {}: a momentum buffer of the wrong shape", file_.string(), p.key()));
                auto s = std::make_unique<torch::optim::SGDParamState>();
                s->momentum_buffer(on_device(buffer));
                state[optimizer_state_key(p.value())] = std::move(s);
                continue;
            }
            c10::IValue step;
            if (!archive_.try_read(pre + "step", step))
                continue;
            torch::Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
            if (!archive_.try_read(pre + "exp_avg", exp_avg, true) ||
                !archive_.try_read(pre + "exp_avg_sq", exp_avg_sq, true))
                throw Error(fmt::format("{}: {}: Adam state without its averages", file_.string(), p.key()));
            for (const auto* t : {&exp_avg, &exp_avg_sq})
                if (t->sizes() != p.value().sizes() || !storage_covers(*t))
                    throw Error(fmt::format("{}: {}: Adam state of the wrong shape", file_.string(), p.key()));
            auto s = std::make_unique<torch::optim::AdamParamState>();
            s->step(step.toInt());
            s->exp_avg(on_device(exp_avg));
            s->exp_avg_sq(on_device(exp_avg_sq));
            if (archive_.try_read(pre + "max_exp_avg_sq", max_exp_avg_sq, true))
                s->max_exp_avg_sq(on_device(max_exp_avg_sq));
            state[optimizer_state_key(p.value())] = std::move(s);
        }
    });
}

} // namespace rlda::core::train
