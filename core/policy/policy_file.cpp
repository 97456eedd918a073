// A policy learner's file: saving it as a tensor file, and loading it from one or from the LibTorch
// archives of earlier versions, every size, shape and setting checked before anything is allocated.
#include "core/policy/reinforce.h"

#include "core/agent/tensor_shapes.h"
#include "core/config/schema.h"
#include "core/config/value_limits.h"
#include "core/net/tensors.h"
#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/serialize/input-archive.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace rlda::core::agent {
namespace {

// The tensors of the network these sizes make, either encoder.
TensorShapes network_shapes(const config::PolicyConfig& sizes, std::int64_t vocabulary_size, std::int64_t actions,
                            const std::vector<model::Operation>& ops)
{
    return config::scores_blocks(sizes.encoder) ? structural_shapes(sizes, ops)
                                                               : policy_shapes(sizes, vocabulary_size, actions);
}

} // namespace

void PolicyLearner::save(const std::string& path) const
{
    TensorFileWriter f(kPolicyKind);
    f.set("version", kPolicyFileVersion);
    f.set("words", vocabulary_.words());
    const auto& s = sizes();
    f.set("policy.encoder", config::to_string(s.encoder));
    f.set("policy.vocab", s.vocab);
    f.set("policy.embedding_size", s.embedding_size);
    f.set("policy.hidden_size", s.hidden_size);
    f.set("policy.decider_lstm_size", s.decider_lstm_size);
    f.set("policy.decider_linear_size", s.decider_linear_size);
    f.set("policy.time_encoding_size", s.time_encoding_size);
    f.set("policy.decay_freq", s.decay_freq);
    f.set("policy.alpha", s.alpha);
    f.set("policy.learning_rate_decay", s.learning_rate_decay);
    f.set("actions", actions());
    f.set("operations", model::operation_strings(operations_));
    f.set("episode", episode_);
    f.set("temperature", temperature_);
    f.set("temperature_decay", temperature_decay_);
    f.set("temperature_every", temperature_every_);
    f.set("baseline_decay", options_.baseline);
    f.set("baseline", baseline_);
    f.set("baseline_started", baseline_started_);
    f.set("normalise", options_.normalise);
    f.set("spread", spread_);
    f.set("entropy_bonus", options_.entropy_bonus);
    f.set("episodes_per_update", options_.episodes_per_update);
    std::ostringstream rng;
    rng << rng_;
    f.set("rng", rng.str());
    for (const auto& [name, shape] : network_shapes(s, static_cast<std::int64_t>(vocabulary_.size()), actions(), operations_))
        add_tensor(f, "policy/" + name, tensor_named(name));
    opt_->save(f, parameter_names());
    f.write(path);
}

namespace {

// A [policy] size or rate as a policy file holds it, checked against the key's declared range.
template <typename T> T checked_setting(const std::string& file, const std::string& key, T value)
{
    const config::Key* k = config::experiment_schema().find(key);
    if (k && !k->range.contains(static_cast<double>(value)))
        throw Error(fmt::format("{}: {}: must be {}, got {}", file, key, k->range.text(), value));
    return value;
}

// What a policy file says besides its tensors, read and checked before anything is allocated.
struct PolicyHeader {
    std::vector<std::string> words;
    config::PolicyConfig sizes;
    std::int64_t actions = 0;
    std::vector<model::Operation> operations{model::Operation::Deepen};
};

void check_actions(const std::string& file, std::int64_t actions)
{
    if (actions < 1 || actions > kMaxPolicyActions)
        throw Error(fmt::format("{}: actions: must be in [1, {}], got {}", file, kMaxPolicyActions, actions));
}

} // namespace

PolicyLearner PolicyLearner::load(const std::string& path, const Warn& warn)
{
    if (path.empty())
        throw Error("policy: no policy file given");
    require_regular_file(path);
    switch (sniff_tensor_file(path)) {
    case TensorFileKind::Container:
        return load(TensorFile::read(path, kPolicyKind));
    case TensorFileKind::TorchArchive:
        if (warn)
            warn(unverified_warning(path));
        return load_torch_archive(path);
    case TensorFileKind::Other:
        break;
    }
    throw Error(fmt::format("{}: not a policy file of rlda", path));
}

PolicyLearner PolicyLearner::load(const TensorFile& f)
{
    const std::string& file = f.label();
    // Version 1 is version 2 without the encoder and the learner's options (original, defaults).
    const auto version = f.integer("version");
    if (version != kPolicyFileVersion && version != 1)
        throw Error(fmt::format("{}: policy file version {}, this build reads versions 1 to {}", file, version,
                                kPolicyFileVersion));
    PolicyHeader h;
    h.words = f.strings("words");
    config::PolicyConfig& s = h.sizes;
    if (version >= 2) {
        const std::string name = f.string("policy.encoder");
        const auto encoder = config::from_string<config::PolicyEncoder>(name);
        if (!encoder)
            throw Error(fmt::format("{}: policy.encoder: {} is not one of {}", file, excerpt(name),
                                    fmt::join(config::names<config::PolicyEncoder>(), ", ")));
        s.encoder = *encoder;
    }
    const bool structural = config::scores_blocks(s.encoder);
    s.vocab = f.string("policy.vocab");
    s.embedding_size = checked_setting(file, "policy.embedding_size", f.integer("policy.embedding_size"));
    s.hidden_size = checked_setting(file, "policy.hidden_size", f.integer("policy.hidden_size"));
    s.decider_lstm_size = checked_setting(file, "policy.decider_lstm_size", f.integer("policy.decider_lstm_size"));
    s.decider_linear_size =
        checked_setting(file, "policy.decider_linear_size", f.integer("policy.decider_linear_size"));
    s.time_encoding_size = checked_setting(file, "policy.time_encoding_size", f.integer("policy.time_encoding_size"));
    s.decay_freq = checked_setting(file, "policy.decay_freq", f.integer("policy.decay_freq"));
    s.alpha = checked_setting(file, "policy.alpha", f.real("policy.alpha"));
    s.learning_rate_decay = checked_setting(file, "policy.learning_rate_decay", f.real("policy.learning_rate_decay"));
    h.actions = f.integer("actions");
    if (!structural)
        check_actions(file, h.actions);
    if (f.has("operations")) { // policies from before widening deepen only
        try {
            h.operations = model::parse_operations(f.strings("operations"));
        } catch (const Error& e) {
            throw Error(fmt::format("{}: {}", file, e.what()));
        }
    }

    // Every tensor of the network and of its optimizer, checked by name, dtype and shape before
    // the network is made: the sizes above then allocate no more than the file holds.
    const auto shapes = network_shapes(s, static_cast<std::int64_t>(h.words.size()), h.actions, h.operations);
    std::size_t expected = 0;
    for (const auto& [name, shape] : shapes) {
        const bool buffer = name == "embeddings";
        for (const std::string prefix : {"policy/", "adam/exp_avg/", "adam/exp_avg_sq/"}) {
            if (buffer && prefix != "policy/")
                continue;
            const TensorEntry* e = f.find(prefix + name);
            if (!e)
                throw Error(fmt::format("{}: no tensor {}{}", file, prefix, name));
            if (e->dtype != TensorDtype::Float32 || e->shape != shape)
                throw Error(fmt::format("{}: {}{} is not float32 of shape {}", file, prefix, name,
                                        fmt::join(shape, "x")));
            ++expected;
        }
    }
    if (f.entries().size() != expected)
        throw Error(fmt::format("{}: {} tensors, a policy of these sizes has {}", file, f.entries().size(), expected));

    Vocabulary vocabulary = [&] {
        try {
            return Vocabulary(h.words);
        } catch (const Error& e) {
            throw Error(fmt::format("{}: words: {}", file, e.what()));
        }
    }();
    PolicyLearner p(std::move(vocabulary), s, h.actions, 0, h.operations);
    {
        torch::NoGradGuard no_grad;
        for (const auto& [name, shape] : shapes)
            p.tensor_named(name).copy_(read_tensor(f, "policy/" + name, torch::kFloat32, shape));
    }
    p.opt_->load(f, p.parameter_names());
    // The values the command line bounds, bounded the same when a file gives them.
    p.episode_ = f.integer("episode");
    if (p.episode_ < 0 || p.episode_ > config::kMaxEpisodes)
        throw Error(
            fmt::format("{}: episode: must be from 0 to {}, got {}", file, config::kMaxEpisodes, p.episode_));
    const double temperature = f.real("temperature");
    if (!(temperature >= config::kMinTemperature && temperature <= config::kMaxSquarable))
        throw Error(fmt::format("{}: temperature: must be from {:g} to {:g}, got {}", file,
                                config::kMinTemperature, config::kMaxSquarable, temperature));
    p.temperature_ = temperature;
    const double decay = f.real("temperature_decay");
    if (!(decay > 0.0 && decay <= 1.0))
        throw Error(fmt::format("{}: temperature_decay: must be in (0, 1], got {}", file, decay));
    p.temperature_decay_ = decay;
    const auto rethrow = [&](const char* key, auto&& set) {
        try {
            set();
        } catch (const Error& e) {
            throw Error(fmt::format("{}: {}: {}", file, key, e.what()));
        }
    };
    const std::int64_t every = f.integer("temperature_every");
    const double baseline_decay = f.real("baseline_decay");
    rethrow("temperature_every", [&] { p.set_temperature_every(every); });
    LearnerOptions options;
    options.baseline = baseline_decay;
    if (version >= 2) {
        options.normalise = f.boolean("normalise");
        options.entropy_bonus = f.real("entropy_bonus");
        options.episodes_per_update = f.integer("episodes_per_update");
        p.spread_ = f.real("spread");
        if (!(p.spread_ >= 0.0))
            throw Error(fmt::format("{}: spread: must be >= 0, got {}", file, p.spread_));
    }
    rethrow("learner options", [&] { p.set_options(options); });
    p.baseline_ = f.real("baseline");
    p.baseline_started_ = f.boolean("baseline_started");
    std::istringstream rng(f.string("rng"));
    if (!(rng >> p.rng_))
        throw Error(fmt::format("{}: rng: not a random generator's state", file));
    return p;
}

// rlda's policy files before tensor files: a LibTorch archive, read with every size, shape and
// storage checked that LibTorch leaves unchecked.
PolicyLearner PolicyLearner::load_torch_archive(const std::string& path)
{
    try {
        torch::serialize::InputArchive a;
        try {
            a.load_from(path);
        } catch (const c10::Error&) {
            throw Error(fmt::format("{}: not a readable policy file", path));
        }
        c10::IValue words_v, rng_v, vocab_v;
        torch::Tensor sizes, rates;
        try {
            a.read("meta/words", words_v);
            a.read("meta/sizes", sizes);
            a.read("meta/rates", rates);
            a.read("meta/rng", rng_v);
            a.read("meta/vocab_name", vocab_v);
        } catch (const c10::Error&) {
            throw Error(fmt::format("{}: not a policy file of rlda (missing its metadata)", path));
        }
        if (sizes.scalar_type() != torch::kLong || sizes.dim() != 1 || sizes.numel() != 8 || !storage_covers(sizes) ||
            rates.scalar_type() != torch::kDouble || rates.dim() != 1 || rates.numel() != 4 || !storage_covers(rates) ||
            !words_v.isList() || !rng_v.isString() || !vocab_v.isString())
            throw Error(fmt::format("{}: not a policy file of rlda (its metadata is malformed)", path));
        std::vector<std::string> words;
        for (const auto& w : words_v.toList()) {
            if (!w.get().isString())
                throw Error(fmt::format("{}: not a policy file of rlda (its words are malformed)", path));
            words.push_back(w.get().toStringRef());
        }
        config::PolicyConfig s;
        const auto size = [&](int i) { return sizes[i].item<std::int64_t>(); };
        s.embedding_size = checked_setting(path, "policy.embedding_size", size(0));
        s.hidden_size = checked_setting(path, "policy.hidden_size", size(1));
        s.decider_lstm_size = checked_setting(path, "policy.decider_lstm_size", size(2));
        s.decider_linear_size = checked_setting(path, "policy.decider_linear_size", size(3));
        s.time_encoding_size = checked_setting(path, "policy.time_encoding_size", size(4));
        s.decay_freq = checked_setting(path, "policy.decay_freq", size(5));
        s.alpha = checked_setting(path, "policy.alpha", rates[0].item<double>());
        s.learning_rate_decay = checked_setting(path, "policy.learning_rate_decay", rates[1].item<double>());
        s.vocab = vocab_v.toStringRef();
        check_actions(path, size(6));
        // The network and its optimizer state are all in the file: sizes that ask for more
        // floats than it has bytes are not its own.
        const auto shapes = policy_shapes(s, static_cast<std::int64_t>(words.size()), size(6));
        std::uint64_t floats = 0;
        for (const auto& [name, shape] : shapes) {
            std::uint64_t n = 1;
            for (auto d : shape)
                n = checked::saturating_mul(n, static_cast<std::uint64_t>(d));
            floats = checked::saturating_add(floats, n);
        }
        if (floats > std::filesystem::file_size(path) / sizeof(float))
            throw Error(fmt::format("{}: its sizes ask for {} weights, more than the file holds", path, floats));
        PolicyLearner p(Vocabulary(words), s, size(6), 0);
        torch::serialize::InputArchive net_archive, opt_archive;
        try {
            a.read("policy", net_archive);
            p.net_->load(net_archive);
            for (const auto& [name, shape] : shapes) {
                const torch::Tensor t = p.tensor_named(name);
                if (t.sizes() != c10::IntArrayRef(shape) || t.scalar_type() != torch::kFloat32 || !storage_covers(t))
                    throw Error(fmt::format("{}: policy/{} does not fit its sizes", path, name));
                if (!torch::isfinite(t).all().item<bool>())
                    throw Error(fmt::format("{}: policy/{} holds non-finite values (NaN or infinity)", path, name));
            }
            a.read("optimizer", opt_archive);
            p.opt_->load(opt_archive);
        } catch (const Error& e) {
            throw Error(std::string(e.what()).starts_with(path)
                            ? std::string(e.what())
                            : fmt::format("{}: the network or optimizer state does not fit its sizes", path));
        } catch (const c10::Error&) {
            throw Error(fmt::format("{}: the network or optimizer state does not fit its sizes", path));
        }
        p.episode_ = size(7);
        p.temperature_ = rates[2].item<double>();
        p.temperature_decay_ = rates[3].item<double>();
        if (p.episode_ < 0 || !(p.temperature_ > 0.0) || !std::isfinite(p.temperature_) ||
            !(p.temperature_decay_ > 0.0 && p.temperature_decay_ <= 1.0))
            throw Error(fmt::format("{}: its episode, temperature or temperature decay is out of range", path));
        torch::Tensor baseline;
        if (a.try_read("meta/baseline", baseline)) { // absent: written before the option existed
            if (baseline.scalar_type() != torch::kDouble || baseline.numel() != 3 || !storage_covers(baseline))
                throw Error(fmt::format("{}: meta/baseline is malformed", path));
            p.set_reward_baseline(baseline[0].item<double>());
            p.baseline_ = baseline[1].item<double>();
            p.baseline_started_ = baseline[2].item<double>() != 0.0;
            if (!std::isfinite(p.baseline_))
                throw Error(fmt::format("{}: meta/baseline is not finite", path));
        }
        torch::Tensor temperature_every;
        if (a.try_read("meta/temperature_every", temperature_every)) { // absent: every decay_freq
            if (temperature_every.scalar_type() != torch::kLong || temperature_every.numel() != 1 ||
                !storage_covers(temperature_every))
                throw Error(fmt::format("{}: meta/temperature_every is malformed", path));
            p.set_temperature_every(temperature_every[0].item<std::int64_t>());
        }
        std::istringstream rng(rng_v.toStringRef());
        if (!(rng >> p.rng_))
            throw Error(fmt::format("{}: meta/rng is not a random generator's state", path));
        return p;
    } catch (const Error& e) {
        const std::string what = error_line(e);
        throw Error(what.starts_with(path) ? what : fmt::format("{}: {}", path, what));
    } catch (const std::exception& e) { // c10::Error and the standard library's, from a damaged archive
        throw Error(fmt::format("{}: not a readable policy file: {}", path, error_line(e)));
    }
}

} // namespace rlda::core::agent
