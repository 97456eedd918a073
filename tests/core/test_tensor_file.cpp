// The tensor file (core/util/tensor_file.h) and the policy files written in it: what is written
// reads back exactly, and a damaged file is refused in one line naming it, before anything is
// made from it; files of the format before it still load, with a warning.
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/net/tensors.h"
#include "core/policy/reinforce.h"
#include "core/train/checkpoint.h"
#include "core/util/error.h"
#include "core/util/tensor_file.h"
#include "tests/common/old_policy.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <torch/optim/adam.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>

using namespace rlda::core;
using namespace rlda::core::agent;

namespace {

std::string read_bytes(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& file, const std::string& bytes)
{
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// The header length and the CRC-32 as the layout puts them, so that a test can edit a file
// behind a valid checksum, where only the checks after it can catch the damage.
std::uint64_t header_size(const std::string& bytes)
{
    std::uint64_t h = 0;
    std::memcpy(&h, bytes.data() + 16, 8);
    return h;
}

std::string with_header(const std::string& bytes, const std::string& header)
{
    std::string out = bytes.substr(0, 16);
    const std::uint64_t h = header.size();
    out.append(reinterpret_cast<const char*>(&h), 8);
    out += header;
    out += bytes.substr(24 + header_size(bytes));
    const auto crc = static_cast<std::uint32_t>(
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(out.data() + 24), static_cast<uInt>(out.size() - 24)));
    std::memcpy(out.data() + 12, &crc, 4);
    return out;
}

std::string header_of(const std::string& bytes) { return bytes.substr(24, header_size(bytes)); }

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::runtime_error("test: " + from + " not in the header");
    return text.replace(at, from.size(), to);
}

// `f` throws an Error of one line that starts with `label` and holds `reason`.
template <class F> void expect_refusal(F&& f, const std::string& label, const std::string& reason)
{
    try {
        f();
    } catch (const Error& e) {
        const std::string what = e.what();
        QVERIFY2(what.starts_with(label + ":"), what.c_str());
        QVERIFY2(what.find(reason) != std::string::npos, what.c_str());
        QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
        return;
    }
    QFAIL(("no error for " + label + " (" + reason + ")").c_str());
}

PolicyLearner small_learner()
{
    config::PolicyConfig sizes;
    sizes.hidden_size = 6;
    sizes.embedding_size = 4;
    sizes.decider_lstm_size = 5;
    sizes.decider_linear_size = 7;
    sizes.time_encoding_size = 3;
    return PolicyLearner(Vocabulary::from_models({model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3)}, 2), sizes, 3,
                         11);
}

// A learner that has learnt a little, so that Adam's state and the counters are not their defaults.
PolicyLearner trained_learner()
{
    PolicyLearner p = small_learner();
    const auto layers = p.encode({"Flatten(start_dim=1, end_dim=-1)"});
    for (int e = 0; e < 5; ++e) {
        p.sample(layers, 30.0 - e, 40.0);
        p.finish_episode(0.5 + 0.1 * e);
    }
    return p;
}

} // namespace

class TestTensorFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void what_is_written_reads_back_exactly()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("t.pt").toStdString();
        TensorFileWriter w("test");
        w.set("count", std::int64_t{-7});
        w.set("rate", 0.1);
        w.set("on", true);
        w.set("name", std::string("ConvNet2"));
        w.set("words", std::vector<std::string>{"<unk>", "ReLU()"});
        w.set("shape", std::vector<std::int64_t>{3, 32, 32});
        const auto f32 = torch::randn({4, 3});
        const auto f64 = torch::randn({5}, torch::kFloat64);
        const auto i64 = torch::arange(6, torch::kLong).reshape({2, 3}).t(); // not contiguous
        add_tensor(w, "a", f32);
        add_tensor(w, "b", f64);
        add_tensor(w, "c", i64);
        add_tensor(w, "empty", torch::zeros({0, 4}));
        w.write(file);

        const TensorFile f = TensorFile::read(file, "test");
        QCOMPARE(f.integer("count"), std::int64_t{-7});
        QCOMPARE(f.real("rate"), 0.1);
        QCOMPARE(f.boolean("on"), true);
        QCOMPARE(f.string("name"), std::string("ConvNet2"));
        QCOMPARE(f.strings("words"), (std::vector<std::string>{"<unk>", "ReLU()"}));
        QCOMPARE(f.integers("shape"), (std::vector<std::int64_t>{3, 32, 32}));
        QVERIFY(torch::equal(read_tensor(f, "a", torch::kFloat32, {4, 3}), f32));
        QVERIFY(torch::equal(read_tensor(f, "b", torch::kFloat64, {-1}), f64));
        QVERIFY(torch::equal(read_tensor(f, "c", torch::kInt64, {3, 2}), i64));
        QCOMPARE(read_tensor(f, "empty", torch::kFloat32, {0, 4}).numel(), std::int64_t{0});
        QCOMPARE(f.names(""), (std::vector<std::string>{"a", "b", "c", "empty"}));
        QCOMPARE(sniff_tensor_file(file), TensorFileKind::Container);
    }

    void expectations_and_values_are_checked_by_name()
    {
        TensorFileWriter w("test");
        w.set("n", std::int64_t{3});
        add_tensor(w, "w", torch::tensor({1.0f, std::numeric_limits<float>::quiet_NaN()}));
        add_tensor(w, "h", torch::tensor({std::numeric_limits<double>::infinity()}, torch::kFloat64));
        const TensorFile f = TensorFile::parse(w.bytes(), "x.pt", "test");
        expect_refusal([&] { read_tensor(f, "w", torch::kFloat32, {2}); }, "x.pt",
                       "w holds non-finite values");
        QCOMPARE(read_tensor(f, "h", torch::kFloat64, {1}, /*finite=*/false).item<double>(),
                 std::numeric_limits<double>::infinity());
        expect_refusal([&] { read_tensor(f, "w", torch::kFloat64, {2}); }, "x.pt",
                       "w is float32, not float64");
        expect_refusal([&] { read_tensor(f, "w", torch::kFloat32, {3}); }, "x.pt",
                       "w has shape 2, expected 3");
        expect_refusal([&] { read_tensor(f, "v", torch::kFloat32, {2}); }, "x.pt", "no tensor v");
        expect_refusal([&] { f.real("m"); }, "x.pt", "no m in its header");
        expect_refusal([&] { f.string("n"); }, "x.pt", "n in its header is not a string");
        expect_refusal([&] { TensorFile::parse(w.bytes(), "x.pt", "policy"); }, "x.pt",
                       "a test file, not a policy file");
        QVERIFY_THROWS_EXCEPTION(Error, w.set("bad", std::numeric_limits<double>::quiet_NaN()));
    }

    // Every way a file can be damaged is refused before a tensor is made from it.
    void damaged_files_are_refused_in_one_line()
    {
        TensorFileWriter w("test");
        w.set("n", std::int64_t{3});
        add_tensor(w, "w", torch::randn({8, 8}));
        const std::string good = w.bytes();

        std::string flipped = good;
        flipped[good.size() - 5] ^= 0x10;
        expect_refusal([&] { TensorFile::parse(flipped, "f.pt", "test"); }, "f.pt", "corrupt (checksum mismatch)");
        std::string in_header = good;
        in_header[30] ^= 0x01;
        expect_refusal([&] { TensorFile::parse(in_header, "f.pt", "test"); }, "f.pt", "corrupt (checksum mismatch)");
        for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{23}, std::size_t{40}, good.size() - 1})
            expect_refusal([&] { TensorFile::parse(good.substr(0, n), "f.pt", "test"); }, "f.pt", "");
        std::string version = good;
        version[8] = 9;
        expect_refusal([&] { TensorFile::parse(version, "f.pt", "test"); }, "f.pt", "container version 9");
        expect_refusal([&] { TensorFile::parse(std::string(100, 'x'), "f.pt", "test"); }, "f.pt",
                       "not a test file of rlda");

        // Behind a valid checksum: a shape that claims more bytes than there are, or fewer, a
        // negative or overflowing extent, an unknown dtype, a name given twice, a broken header.
        const std::string h = header_of(good);
        const auto refused = [&](const std::string& header, const std::string& reason) {
            expect_refusal([&] { TensorFile::parse(with_header(good, header), "f.pt", "test"); }, "f.pt", reason);
        };
        refused(replaced(h, "[8,8]", "[8,9]"), "truncated");
        refused(replaced(h, "[8,8]", "[8,7]"), "bytes after the last tensor");
        refused(replaced(h, "[8,8]", "[-8,-8]"), "not a list of sizes");
        refused(replaced(h, "[8,8]", "[4294967296,4294967296,4294967296]"), "overflows");
        refused(replaced(h, "float32", "float16"), "unknown dtype");
        refused(replaced(h, "\"tensors\":[", "\"tensors\":[{\"name\":\"w\",\"dtype\":\"float32\",\"shape\":[0]},"),
                "there twice");
        refused(h.substr(0, h.size() - 1), "not a JSON object");
        refused(replaced(h, "\"kind\"", "\"kinds\""), "no valid \"kind\"");
        QVERIFY(TensorFile::parse(with_header(good, h), "f.pt", "test").find("w"));
        // Skip, for fuzzing, passes a damaged checksum on to the header's checks.
        QVERIFY(TensorFile::parse(flipped, "f.pt", "test", TensorFile::Checksum::Skip).find("w"));
    }

    void policy_shapes_are_the_networks()
    {
        const PolicyLearner p = small_learner();
        const auto& net = p.network();
        const auto shapes = policy_shapes(p.sizes(), static_cast<std::int64_t>(p.vocabulary().size()), p.actions());
        std::size_t held = net->named_parameters().size() + net->named_buffers().size();
        QCOMPARE(shapes.size(), held);
        // The dicts are returned by value: kept here while pointers into them are used.
        const auto parameters = net->named_parameters();
        const auto buffers = net->named_buffers();
        for (const auto& [name, shape] : shapes) {
            const auto* t = parameters.find(name);
            if (!t)
                t = buffers.find(name);
            QVERIFY2(t, name.c_str());
            QCOMPARE(t->sizes().vec(), shape);
        }
        config::PolicyConfig huge = p.sizes();
        huge.hidden_size = std::numeric_limits<std::int64_t>::max() / 2;
        QVERIFY_THROWS_EXCEPTION(Error, policy_shapes(huge, 10, 3));
    }

    void a_policy_file_reads_back_as_it_was()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("policy.pt").toStdString();
        PolicyLearner p = trained_learner();
        p.set_reward_baseline(0.9);
        p.save(file);
        QCOMPARE(sniff_tensor_file(file), TensorFileKind::Container);
        std::vector<std::string> warnings;
        PolicyLearner q = PolicyLearner::load(file, [&](const std::string& w) { warnings.push_back(w); });
        QVERIFY(warnings.empty());
        QCOMPARE(q.episode(), p.episode());
        QCOMPARE(q.temperature(), p.temperature());
        QCOMPARE(q.reward_baseline_decay(), 0.9);
        QCOMPARE(q.lr(), p.lr());
        for (const auto& t : p.network()->named_parameters())
            QVERIFY(torch::equal(t.value(), q.network()->named_parameters()[t.key()]));
        // The same draws and the same learning from here: the RNG and Adam's state came back too.
        const auto layers = p.encode({"Flatten(start_dim=1, end_dim=-1)"});
        for (int e = 0; e < 3; ++e) {
            QCOMPARE(p.sample(layers, 20.0, 40.0).action, q.sample(layers, 20.0, 40.0).action);
            QCOMPARE(p.finish_episode(0.7), q.finish_episode(0.7));
        }
    }

    // A file edited behind a valid checksum still meets the policy's own checks, by name.
    void a_policy_that_does_not_fit_its_sizes_is_refused()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("policy.pt").toStdString();
        trained_learner().save(file);
        const std::string good = read_bytes(file);
        const std::string h = header_of(good);
        const auto refused = [&](const std::string& header, const std::string& reason) {
            write_bytes(file, with_header(good, header));
            expect_refusal([&] { PolicyLearner::load(file); }, file, reason);
        };
        refused(replaced(h, "\"policy.hidden_size\":6", "\"policy.hidden_size\":0"), "policy.hidden_size: must be >= 1");
        refused(replaced(h, "\"policy.hidden_size\":6", "\"policy.hidden_size\":1099511627776"),
                "policy/encoder.weight_ih_l0 is not float32 of shape");
        refused(replaced(h, "\"actions\":3", "\"actions\":0"), "actions: must be in [1, 4096]");
        refused(replaced(h, "\"episode\":5", "\"episode\":-5"), "episode: must be from 0 to 1000000000000");
        refused(replaced(h, "\"rng\":\"", "\"rng\":\"x"), "rng: not a random generator's state");
        refused(replaced(h, "policy/fc1.bias", "policy/fc1.biaz"), "no tensor policy/fc1.bias");
        refused(replaced(h, "\"policy.alpha\":0.0001", "\"policy.alpha\":\"fast\""), "policy.alpha in its header is not a number");

        // NaN weights behind a valid checksum: refused by name.
        PolicyLearner nan = trained_learner();
        {
            torch::NoGradGuard no_grad;
            nan.network()->named_parameters()["fc2.weight"][0][0] = std::numeric_limits<float>::quiet_NaN();
        }
        nan.save(file);
        expect_refusal([&] { PolicyLearner::load(file); }, file, "policy/fc2.weight holds non-finite values");
    }

    // Fresh mutants of a policy file: every one is refused, in one line naming the file.
    void mutated_policy_files_are_refused()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("policy.pt").toStdString();
        trained_learner().save(file);
        const std::string good = read_bytes(file);
        std::mt19937_64 rng(13);
        const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
        for (int i = 0; i < 60; ++i) {
            std::string m = good;
            switch (i % 3) {
            case 0: // byte flips
                for (int k = 0; k < 1 + i % 4; ++k)
                    m[pick(m.size())] ^= static_cast<char>(1 + pick(255));
                break;
            case 1: // a truncation
                m.resize(pick(m.size()));
                break;
            case 2: { // a zeroed range of the tensors' bytes
                const std::size_t from = 24 + header_size(good) + pick(good.size() - 24 - header_size(good));
                std::fill(m.begin() + static_cast<std::ptrdiff_t>(from),
                          m.begin() + static_cast<std::ptrdiff_t>(std::min(m.size(), from + 1 + pick(4096))), '\0');
                break;
            }
            }
            if (m == good)
                continue;
            const std::string mutant = dir.filePath(QStringLiteral("m%1.pt").arg(i)).toStdString();
            write_bytes(mutant, m);
            expect_refusal([&] { PolicyLearner::load(mutant); }, mutant, "");
        }
    }

    // A checkpoint edited behind a valid checksum: optimizer state left without its step, and a
    // history count beyond its field, are refused by name, not dropped or converted.
    void a_checkpoint_that_does_not_fit_is_refused()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("warm_start.pt").toStdString();
        const auto spec = model::zoo_model("ConvNet2", {3, 8, 8}, 4);
        model::Net net(spec);
        torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(0.01));
        net->forward(torch::randn({2, 3, 8, 8})).sum().backward();
        opt.step();
        train::CheckpointMeta meta;
        meta.model_name = spec.name;
        meta.input = spec.input;
        meta.classes = spec.classes;
        meta.lr = 0.01;
        meta.history.resize(2);
        meta.history[1].epoch = 1;
        train::save_checkpoint(file, meta, *net, opt);
        const std::string good = read_bytes(file);
        const std::string h = header_of(good);
        const auto load = [&] {
            train::CheckpointReader r(file);
            model::Net into(spec);
            torch::optim::Adam o(into->parameters(), torch::optim::AdamOptions(0.01));
            r.load_model(*into);
            r.load_optimizer(o, *into);
        };
        load(); // the unedited file loads

        const auto step_key = h.find("/step\":"); // "optimizer/<param>/step":N, in the header's meta
        QVERIFY(step_key != std::string::npos);
        const auto step = h.rfind("\"optimizer/", step_key);
        const auto step_end = h.find(',', step_key);
        write_bytes(file, with_header(good, h.substr(0, step) + h.substr(step_end + 1)));
        expect_refusal(load, file, "optimizer tensors");

        // history/epoch [0, 1] as int64: the second value made 2^40.
        const TensorFile f = TensorFile::parse(good, file, "checkpoint");
        const TensorEntry* epoch = f.find("history/epoch");
        QVERIFY(epoch && epoch->bytes == 16);
        std::string big = good;
        const std::int64_t huge = std::int64_t{1} << 40;
        std::memcpy(big.data() + 24 + header_size(good) + epoch->offset + 8, &huge, 8);
        write_bytes(file, with_header(big, h));
        expect_refusal(load, file, "history/epoch: 1099511627776 is not a count in [0, 2147483647]");
    }

    // rlda's policy files before tensor files were LibTorch archives; they load, said to be
    // unverified, and their shapes and storages are still checked.
    void an_older_policy_file_loads_with_a_warning()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("old.pt").toStdString();
        const PolicyLearner p = small_learner();
        rlda::test::write_old_policy(p, file);
        QCOMPARE(sniff_tensor_file(file), TensorFileKind::TorchArchive);
        std::vector<std::string> warnings;
        const PolicyLearner q = PolicyLearner::load(file, [&](const std::string& w) { warnings.push_back(w); });
        QCOMPARE(warnings, std::vector<std::string>{unverified_warning(file)});
        for (const auto& t : p.network()->named_parameters())
            QVERIFY(torch::equal(t.value(), q.network()->named_parameters()[t.key()]));

        // Sizes that ask for more weights than the file holds are refused before a network is made.
        const auto& s = p.sizes();
        auto huge = torch::tensor({std::int64_t{1} << 20, std::int64_t{1} << 20, s.decider_lstm_size,
                                   s.decider_linear_size, s.time_encoding_size, s.decay_freq, p.actions(),
                                   std::int64_t{0}},
                                  torch::kLong);
        rlda::test::write_old_policy(p, file, huge);
        expect_refusal([&] { PolicyLearner::load(file); }, file, "more than the file holds");
    }
};

RLDA_SUITE_GUILESS_MAIN(TestTensorFile)
#include "test_tensor_file.moc"
