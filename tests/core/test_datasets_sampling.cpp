// Data made in memory and drawn in batches: synthetic datasets, the memory limits of datasets and
// batches, the batch sampler and take().
#include "core/data/dataset.h"
#include "core/data/sampler.h"
#include "core/data/synthetic.h"
#include "core/train/setup.h"
#include "core/util/error.h"
#include "tests/common/data_checks.h"
#include "tests/common/suite.h"

#include <torch/types.h>

#include <QtTest/QtTest>

using namespace rlda::core;
using namespace rlda::core::data;
using rlda::test::data_error;
using rlda::test::to_vector;

class TestDatasetsSampling : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void synthetic_is_deterministic()
    {
        SyntheticOptions o;
        o.shape = {3, 16, 12};
        o.classes = 4;
        o.train_size = 40;
        o.test_size = 12;
        o.seed = 7;
        const auto a = make_synthetic(o);
        const auto b = make_synthetic(o);
        QVERIFY(torch::equal(a.train.images, b.train.images));
        QVERIFY(torch::equal(a.train.labels, b.train.labels));
        QVERIFY(torch::equal(a.test.images, b.test.images));
        QVERIFY(torch::equal(a.test.labels, b.test.labels));
        QCOMPARE(a.train.images.sizes().vec(), (std::vector<std::int64_t>{40, 3, 16, 12}));
        QCOMPARE(a.test.images.sizes().vec(), (std::vector<std::int64_t>{12, 3, 16, 12}));
        QVERIFY(a.train.images.scalar_type() == torch::kFloat);
        QCOMPARE(a.train.classes, std::int64_t{4});
        // Balanced classes.
        QCOMPARE(to_vector(torch::bincount(a.train.labels)), (std::vector<std::int64_t>{10, 10, 10, 10}));

        // The global RNG plays no part.
        torch::manual_seed(123);
        const auto c = make_synthetic(o);
        QVERIFY(torch::equal(a.train.images, c.train.images));

        auto other = o;
        other.seed = 8;
        const auto d = make_synthetic(other);
        QVERIFY(!torch::equal(a.train.images, d.train.images));
        QVERIFY(!torch::equal(a.test.images, d.test.images));
        // Seeds that differ only above bit 32 differ too (LibTorch's generator keeps 32 bits).
        other.seed = 7 + (std::uint64_t{1} << 32);
        QVERIFY(!torch::equal(a.train.images, make_synthetic(other).train.images));

        // The test set does not depend on how much training data is drawn.
        other = o;
        other.train_size = 100;
        QVERIFY(torch::equal(a.test.images, make_synthetic(other).test.images));
    }

    void synthetic_classes_are_separable()
    {
        // Not a learnability test (that is the trainer's): the test samples come from the same
        // prototypes as the training ones, so the nearest training class mean finds their class.
        SyntheticOptions o;
        o.seed = 3;
        o.train_size = 500;
        o.test_size = 200;
        const auto s = make_synthetic(o);
        const auto flat = s.train.images.flatten(1);
        auto means = torch::zeros({o.classes, flat.size(1)});
        means.index_add_(0, s.train.labels, flat).div_(torch::bincount(s.train.labels).unsqueeze(1));
        const auto predicted = torch::cdist(s.test.images.flatten(1), means).argmin(1);
        const double accuracy = predicted.eq(s.test.labels).to(torch::kDouble).mean().item<double>();
        QVERIFY2(accuracy > 0.9, qPrintable(QString::number(accuracy)));
        const double sd = s.train.images.std().item<double>();
        QVERIFY2(sd > 0.8 && sd < 1.2, qPrintable(QString::number(sd)));
    }

    void synthetic_rejects_bad_options()
    {
        SyntheticOptions o;
        o.shape = {784};
        QVERIFY(data_error([&] { make_synthetic(o); }).contains("make_synthetic: shape 784"));
        o = {};
        o.classes = 1;
        QVERIFY(data_error([&] { make_synthetic(o); }).contains("1 classes"));
        o = {};
        o.noise = -1;
        QVERIFY(data_error([&] { make_synthetic(o); }).contains("noise"));
        o = {};
        o.test_size = 0;
        QVERIFY(data_error([&] { make_synthetic(o); }).contains("test_size 0"));
        // Images smaller than the prototype grid work.
        o = {};
        o.shape = {1, 2, 3};
        o.classes = 3;
        QCOMPARE(make_synthetic(o).train.shape(), (rlda::core::model::Shape{1, 2, 3}));
    }

    // Sizes from a config are estimated before anything is allocated (core/util/memory.h): a
    // dataset or batch beyond this machine's memory is one line naming the key, the figure and the
    // limit instead of LibTorch's allocator trace.
    void datasets_and_batches_beyond_memory_are_refused()
    {
        namespace config = rlda::core::config;
        config::DatasetConfig c;
        c.train_size = 1'000'000'000'000;
        QString msg;
        try {
            rlda::core::train::load_dataset(c, 0);
        } catch (const rlda::core::Error& e) {
            msg = e.what();
        }
        QVERIFY2(
            msg.startsWith("dataset.train_size = 1000000000000, test_size = 256: 1000000000256 samples of "
                           "3x32x32 needs 10.9 PiB, more than this machine's "),
            qPrintable(msg));
        QVERIFY2(msg.endsWith(" of memory"), qPrintable(msg));

        // Stride-0 views: the shapes of a huge dataset without its bytes.
        const auto pixels = [](std::int64_t n) {
            return torch::zeros({1, 3, 1, 1}, torch::kByte).expand({n, 3, 1024, 1024});
        };
        const auto labels = [](std::int64_t n) { return torch::zeros({1}, torch::kLong).expand({n}); };
        msg = data_error([&] {
            make_split({pixels(10'000'000), labels(10'000'000)}, {pixels(1), labels(1)}, 10, "huge", {});
        });
        QVERIFY2(msg.startsWith(
                     "huge: 10000000 training and 1 test samples of 3x1024x1024 as float32 needs 114.4 TiB, "
                     "more than this machine's "),
                 qPrintable(msg));

        // A batch larger than the training set is refused by its key (it could never be drawn).
        config::ExperimentConfig e;
        e.job.model = "ConvNet2";
        e.job.batch_size = 1'000'000;
        DatasetSplit split;
        split.train.images = torch::zeros({1, 3, 1, 1}).expand({50'000, 3, 1024, 1024});
        split.train.classes = 10;
        split.train.name = "big";
        try {
            rlda::core::train::job_model(e, split);
            QFAIL("no error");
        } catch (const rlda::core::ConfigError& err) {
            QCOMPARE(QString(err.what()), QString("job.batch_size: 1000000 is more than the 50000 training samples of big"));
        }
        // A batch as large as the training set: its forward is estimated from the model's shapes.
        e.job.batch_size = 50'000;
        try {
            rlda::core::train::job_model(e, split);
            QFAIL("no error");
        } catch (const rlda::core::Error& err) {
            msg = err.what();
        }
        QVERIFY2(msg.startsWith(
                     "job.batch_size = 50000: ConvNet2 at 3x1024x1024: a forward of 50000 samples needs "),
                 qPrintable(msg));
        e.job.batch_size = 2;
        QCOMPARE(rlda::core::train::job_model(e, split).name, std::string("ConvNet2"));
    }

    void sampler_covers_every_index_once_per_epoch()
    {
        BatchSampler s(103, 10, 42);
        QCOMPARE(s.batches(), std::int64_t{11});
        for (std::int64_t epoch = 0; epoch < 3; ++epoch) {
            s.reshuffle(epoch);
            std::vector<torch::Tensor> parts;
            for (std::int64_t b = 0; b < s.batches(); ++b) {
                parts.push_back(s.indices(b));
                QCOMPARE(parts.back().size(0), b + 1 < s.batches() ? std::int64_t{10} : std::int64_t{3});
                QVERIFY(parts.back().scalar_type() == torch::kLong);
            }
            const auto all = std::get<0>(torch::cat(parts).sort());
            QVERIFY(torch::equal(all, torch::arange(103, torch::kLong)));
        }

        BatchSampler dropped(103, 10, 42, /*drop_last=*/true);
        QCOMPARE(dropped.batches(), std::int64_t{10});
        QCOMPARE(dropped.indices(9).size(0), std::int64_t{10});
        QVERIFY(data_error([&] { dropped.indices(10); }).contains("batch 10 of 10"));
        QCOMPARE(BatchSampler(0, 4, 1).batches(), std::int64_t{0});
        QVERIFY(data_error([] { BatchSampler(10, 0, 1); }).contains("batch size 0"));
    }

    void sampler_depends_only_on_seed_and_epoch()
    {
        BatchSampler a(50, 8, 9);
        BatchSampler b(50, 8, 9);
        auto order = [](const BatchSampler& s) {
            std::vector<torch::Tensor> parts;
            for (std::int64_t i = 0; i < s.batches(); ++i)
                parts.push_back(s.indices(i));
            return torch::cat(parts);
        };
        QVERIFY(torch::equal(order(a), order(b)));
        const auto epoch0 = order(a);
        // Epoch 3 reached step by step or directly, and after the global RNG moved: the same.
        for (int e = 1; e <= 3; ++e)
            a.reshuffle(e);
        torch::manual_seed(5);
        (void)torch::rand({10});
        b.reshuffle(3);
        QVERIFY(torch::equal(order(a), order(b)));
        QVERIFY(!torch::equal(order(a), epoch0));

        // Resuming from a saved state reproduces the permutation.
        const SamplerState saved = a.state();
        QCOMPARE(saved.seed, std::uint64_t{9});
        QCOMPARE(saved.epoch, std::int64_t{3});
        BatchSampler resumed(50, 8, 0);
        resumed.restore(saved);
        QVERIFY(resumed.state() == saved);
        QVERIFY(torch::equal(order(resumed), order(a)));

        BatchSampler other(50, 8, 10);
        QVERIFY(!torch::equal(order(other), epoch0));
    }

    void take_selects_rows()
    {
        const auto s = make_synthetic({{1, 4, 4}, 3, 12, 3, 1, 1.0});
        const auto idx = torch::tensor({5, 0, 11}, torch::kInt);
        const Batch batch = take(s.train, idx);
        QCOMPARE(batch.images.size(0), std::int64_t{3});
        QVERIFY(torch::equal(batch.images[0], s.train.images[5]));
        QVERIFY(torch::equal(batch.images[2], s.train.images[11]));
        QCOMPARE(batch.labels[1].item<std::int64_t>(), s.train.labels[0].item<std::int64_t>());
        // With a sampler: one epoch's batches are the whole dataset.
        BatchSampler sampler(s.train.size(), 5, 1);
        std::int64_t seen = 0;
        for (std::int64_t b = 0; b < sampler.batches(); ++b)
            seen += take(s.train, sampler.indices(b)).labels.size(0);
        QCOMPARE(seen, s.train.size());
    }
};

RLDA_SUITE_GUILESS_MAIN(TestDatasetsSampling)
#include "test_datasets_sampling.moc"
