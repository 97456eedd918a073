// Datasets from files: CIFAR-10 and IDX files written here in the real formats, corrupt variants,
// normalisation and subsets. Synthetic data and batches are test_datasets_sampling.
#include "core/config/names.h"
#include "core/data/cifar10.h"
#include "core/data/dataset.h"
#include "core/data/idx.h"
#include "core/data/random.h"
#include "core/util/error.h"
#include "tests/common/data_checks.h"
#include "tests/common/suite.h"

#include <torch/types.h>
#include <torch/utils.h>
#include <zlib.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace rlda::core;
using namespace rlda::core::data;
using rlda::test::data_error;
using rlda::test::to_vector;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

void write_file(const fs::path& path, const Bytes& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    QVERIFY2(out.good(), path.c_str());
}

void write_gz(const fs::path& path, const Bytes& bytes)
{
    gzFile f = gzopen(path.c_str(), "wb");
    QVERIFY2(f != nullptr, path.c_str());
    const int wrote = gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    QCOMPARE(gzclose(f), Z_OK);
    QCOMPARE(wrote, static_cast<int>(bytes.size()));
}

Bytes read_file(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

void put_be32(Bytes& b, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        b.push_back(static_cast<std::uint8_t>(v >> shift));
}

// Distinct, position-dependent pixel values that cover 0 and 255.
std::uint8_t pixel(std::int64_t sample, std::int64_t k)
{
    return static_cast<std::uint8_t>((sample * 37 + k * 11) % 256);
}

struct IdxSet {
    Bytes images; // the whole file
    Bytes labels;
    torch::Tensor pixels; // uint8 [N, 1, R, C], what a reader must return
    torch::Tensor label_values;
};

// offset keeps the training and test samples apart.
IdxSet make_idx(std::int64_t n, std::int64_t rows, std::int64_t cols, std::int64_t offset)
{
    IdxSet s;
    put_be32(s.images, 2051);
    put_be32(s.images, static_cast<std::uint32_t>(n));
    put_be32(s.images, static_cast<std::uint32_t>(rows));
    put_be32(s.images, static_cast<std::uint32_t>(cols));
    put_be32(s.labels, 2049);
    put_be32(s.labels, static_cast<std::uint32_t>(n));
    s.pixels = torch::empty({n, 1, rows, cols}, torch::kByte);
    s.label_values = torch::empty({n}, torch::kLong);
    auto* p = s.pixels.data_ptr<std::uint8_t>();
    for (std::int64_t i = 0; i < n; ++i) {
        for (std::int64_t k = 0; k < rows * cols; ++k) {
            s.images.push_back(pixel(offset + i, k));
            p[i * rows * cols + k] = pixel(offset + i, k);
        }
        const auto label = static_cast<std::uint8_t>((offset + i * 3) % 10);
        s.labels.push_back(label);
        s.label_values[i] = label;
    }
    return s;
}

const char* const kTrainImages = "train-images-idx3-ubyte";
const char* const kTrainLabels = "train-labels-idx1-ubyte";
const char* const kTestImages = "t10k-images-idx3-ubyte";
const char* const kTestLabels = "t10k-labels-idx1-ubyte";

struct IdxDir {
    IdxSet train = make_idx(20, 5, 4, 0);
    IdxSet test = make_idx(8, 5, 4, 1000);

    // gz: which of the four files to write compressed.
    void write(const fs::path& dir, std::set<std::string> gz = {}) const
    {
        auto put = [&](const char* name, const Bytes& b) {
            if (gz.count(name))
                write_gz(dir / (std::string(name) + ".gz"), b);
            else
                write_file(dir / name, b);
        };
        put(kTrainImages, train.images);
        put(kTrainLabels, train.labels);
        put(kTestImages, test.images);
        put(kTestLabels, test.labels);
    }
};

constexpr std::int64_t kCifarRecord = 3073;

struct CifarDir {
    // Records per file: data_batch_1..5, then test_batch.
    std::vector<std::int64_t> counts{3, 2, 1, 2, 3, 2};
    torch::Tensor train_pixels, train_labels, test_pixels, test_labels;

    static std::string file(std::size_t i)
    {
        return i < 5 ? "data_batch_" + std::to_string(i + 1) + ".bin" : std::string("test_batch.bin");
    }

    void write(const fs::path& dir)
    {
        std::vector<torch::Tensor> pixels, labels;
        std::int64_t sample = 0;
        for (std::size_t f = 0; f < counts.size(); ++f) {
            Bytes b;
            auto px = torch::empty({counts[f], 3, 32, 32}, torch::kByte);
            auto lb = torch::empty({counts[f]}, torch::kLong);
            for (std::int64_t r = 0; r < counts[f]; ++r, ++sample) {
                const auto label = static_cast<std::uint8_t>((sample * 7) % 10);
                b.push_back(label);
                lb[r] = label;
                for (std::int64_t k = 0; k < 3072; ++k) {
                    b.push_back(pixel(sample, k));
                    px.data_ptr<std::uint8_t>()[r * 3072 + k] = pixel(sample, k);
                }
            }
            write_file(dir / file(f), b);
            pixels.push_back(px);
            labels.push_back(lb);
        }
        train_pixels = torch::cat(std::vector<torch::Tensor>(pixels.begin(), pixels.begin() + 5));
        train_labels = torch::cat(std::vector<torch::Tensor>(labels.begin(), labels.begin() + 5));
        test_pixels = pixels.back();
        test_labels = labels.back();
    }
};

torch::Tensor as_none(const torch::Tensor& pixels)
{
    return pixels.to(torch::kFloat).div(255);
}
torch::Tensor as_half(const torch::Tensor& pixels)
{
    return pixels.to(torch::kFloat).div(255).sub(0.5).div(0.5);
}

LoadOptions with(Normalization n)
{
    LoadOptions o;
    o.normalization = n;
    return o;
}

} // namespace

class TestDatasets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // One enum for the loaders and the config, named by the config's table (core/config/names.h).
    void normalization_names()
    {
        namespace cfg = rlda::core::config;
        for (auto n : {Normalization::Half, Normalization::PerDataset, Normalization::None})
            QVERIFY(cfg::from_string<Normalization>(cfg::to_string(n)) == n);
        QCOMPARE(cfg::to_string(Normalization::PerDataset), std::string("dataset"));
        QVERIFY(!cfg::from_string<Normalization>("zscore").has_value());
    }

    void cifar_reads_records_exactly()
    {
        QTemporaryDir tmp;
        CifarDir c;
        c.write(tmp.path().toStdString());
        const auto split = load_cifar10(tmp.path().toStdString(), with(Normalization::None));
        QCOMPARE(split.train.size(), std::int64_t{11});
        QCOMPARE(split.test.size(), std::int64_t{2});
        QCOMPARE(split.train.shape(), (rlda::core::model::Shape{3, 32, 32}));
        QCOMPARE(split.train.classes, std::int64_t{10});
        QCOMPARE(split.train.name, std::string("cifar10"));
        QVERIFY(split.train.images.scalar_type() == torch::kFloat);
        QVERIFY(split.train.labels.scalar_type() == torch::kLong);
        QVERIFY(torch::equal(split.train.images, as_none(c.train_pixels)));
        QVERIFY(torch::equal(split.train.labels, c.train_labels));
        QVERIFY(torch::equal(split.test.images, as_none(c.test_pixels)));
        QVERIFY(torch::equal(split.test.labels, c.test_labels));
        // Channel-major records: byte 1 + c*1024 + h*32 + w of record 4 (data_batch_2's second).
        QCOMPARE(split.train.images[4][2][3][5].item<float>(),
                 static_cast<float>(pixel(4, 2 * 1024 + 3 * 32 + 5)) / 255.0f);
    }

    void cifar_accepts_the_parent_of_the_extracted_folder()
    {
        QTemporaryDir tmp;
        const fs::path inner = fs::path(tmp.path().toStdString()) / "cifar-10-batches-bin";
        fs::create_directory(inner);
        CifarDir c;
        c.write(inner);
        const auto split = load_cifar10(tmp.path().toStdString());
        QVERIFY(torch::equal(split.train.labels, c.train_labels));
        QVERIFY(torch::equal(split.test.images, as_half(c.test_pixels)));
    }

    void cifar_errors_name_the_file()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        CifarDir c;
        c.write(dir);
        const auto load = [&] { load_cifar10(dir.string()); };

        fs::remove(dir / "data_batch_3.bin");
        fs::remove(dir / "test_batch.bin");
        auto msg = data_error(load);
        QVERIFY2(msg.contains(QString::fromStdString((dir / "data_batch_3.bin").string())), qPrintable(msg));
        QVERIFY2(msg.contains(QString::fromStdString((dir / "test_batch.bin").string())), qPrintable(msg));
        QVERIFY2(msg.contains("cifar-10-binary.tar.gz") &&
                     msg.contains("https://www.cs.toronto.edu/~kriz/cifar.html"),
                 qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        c.write(dir);

        auto bytes = read_file(dir / "data_batch_2.bin");
        bytes.resize(bytes.size() - 100); // a record cut short
        write_file(dir / "data_batch_2.bin", bytes);
        msg = data_error(load);
        QVERIFY2(msg.contains("data_batch_2.bin") && msg.contains("truncated"), qPrintable(msg));
        c.write(dir);

        bytes = read_file(dir / "test_batch.bin");
        bytes[kCifarRecord] = 10; // label of the second record
        write_file(dir / "test_batch.bin", bytes);
        msg = data_error(load);
        QVERIFY2(msg.contains("test_batch.bin") && msg.contains("bad label 10") && msg.contains("record 1"),
                 qPrintable(msg));
        c.write(dir);

        write_file(dir / "data_batch_5.bin", {});
        msg = data_error(load);
        QVERIFY2(msg.contains("data_batch_5.bin") && msg.contains("empty"), qPrintable(msg));
    }

    void idx_reads_plain_and_gzip_data()
    {
        QTest::addColumn<QStringList>("compressed");
        QTest::newRow("plain") << QStringList{};
        QTest::newRow("gzip") << QStringList{kTrainImages, kTrainLabels, kTestImages, kTestLabels};
        QTest::newRow("mixed") << QStringList{kTrainImages, kTestLabels};
    }

    void idx_reads_plain_and_gzip()
    {
        QFETCH(QStringList, compressed);
        std::set<std::string> gz;
        for (const auto& s : compressed)
            gz.insert(s.toStdString());
        QTemporaryDir tmp;
        IdxDir d;
        d.write(tmp.path().toStdString(), gz);
        const auto split = load_idx(tmp.path().toStdString(), with(Normalization::None));
        QCOMPARE(split.train.shape(), (rlda::core::model::Shape{1, 5, 4}));
        QCOMPARE(split.train.size(), std::int64_t{20});
        QCOMPARE(split.test.size(), std::int64_t{8});
        QCOMPARE(split.train.classes, std::int64_t{10});
        QVERIFY(torch::equal(split.train.images, as_none(d.train.pixels)));
        QVERIFY(torch::equal(split.train.labels, d.train.label_values));
        QVERIFY(torch::equal(split.test.images, as_none(d.test.pixels)));
        QVERIFY(torch::equal(split.test.labels, d.test.label_values));
        QCOMPARE(split.train.name, fs::path(tmp.path().toStdString()).filename().string());
    }

    void idx_prefers_the_plain_file()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        IdxDir d;
        d.write(dir);
        // A .gz next to the plain file holds other data; the plain one must win.
        write_gz(dir / (std::string(kTrainLabels) + ".gz"), make_idx(20, 5, 4, 1).labels);
        QVERIFY(torch::equal(load_idx(dir.string()).train.labels, d.train.label_values));
    }

    void idx_errors_name_the_file_data()
    {
        QTest::addColumn<QString>("corruption");
        QTest::addColumn<QString>("file");   // the file the message must name
        QTest::addColumn<QString>("reason"); // and what it must say
        QTest::newRow("bad image magic") << "image magic" << kTrainImages << "bad magic number 2052";
        QTest::newRow("label file as images") << "swapped" << kTestImages << "this is a label file";
        QTest::newRow("truncated images") << "truncated images" << kTrainImages << "short read";
        QTest::newRow("header only half") << "short header" << kTestLabels << "short read";
        QTest::newRow("extra bytes") << "extra bytes" << kTrainLabels << "too many";
        QTest::newRow("truncated gz") << "truncated gz"
                                      << "train-images-idx3-ubyte.gz"
                                      << "truncated stream";
        QTest::newRow("corrupt gz") << "corrupt gz"
                                    << "train-images-idx3-ubyte.gz"
                                    << "gzip error";
        QTest::newRow("label count") << "label count" << kTrainLabels << "19 labels";
        QTest::newRow("label range") << "label range" << kTestLabels << "bad label 10";
        QTest::newRow("missing") << "missing" << kTestLabels << "apt-get install dataset-fashion-mnist";
        QTest::newRow("test image size") << "test image size" << kTestImages << "6x4";
    }

    void idx_errors_name_the_file()
    {
        QFETCH(QString, corruption);
        QFETCH(QString, file);
        QFETCH(QString, reason);
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        IdxDir d;
        d.write(dir);
        auto path = [&](const char* name) { return dir / name; };

        if (corruption == "image magic") {
            auto b = d.train.images;
            b[3] = 4; // 2051 -> 2052
            write_file(path(kTrainImages), b);
        } else if (corruption == "swapped") {
            write_file(path(kTestImages), d.test.labels);
        } else if (corruption == "truncated images") {
            auto b = d.train.images;
            b.resize(b.size() - 5);
            write_file(path(kTrainImages), b);
        } else if (corruption == "short header") {
            write_file(path(kTestLabels), Bytes(d.test.labels.begin(), d.test.labels.begin() + 6));
        } else if (corruption == "extra bytes") {
            auto b = d.train.labels;
            b.push_back(1);
            write_file(path(kTrainLabels), b);
        } else if (corruption == "truncated gz" || corruption == "corrupt gz") {
            fs::remove(path(kTrainImages));
            const auto gz = dir / "train-images-idx3-ubyte.gz";
            write_gz(gz, d.train.images);
            auto b = read_file(gz);
            if (corruption == "truncated gz")
                b.resize(b.size() / 2);
            else
                b[b.size() / 2] ^= 0x55; // inside the deflate data: caught by inflate or the CRC
            write_file(gz, b);
        } else if (corruption == "label count") {
            write_file(path(kTrainLabels), make_idx(19, 5, 4, 0).labels);
        } else if (corruption == "label range") {
            auto b = d.test.labels;
            b[8 + 3] = 10;
            write_file(path(kTestLabels), b);
        } else if (corruption == "missing") {
            fs::remove(path(kTestLabels));
        } else if (corruption == "test image size") {
            write_file(path(kTestImages), make_idx(8, 6, 4, 0).images);
        } else {
            QFAIL("unknown corruption");
        }

        const auto msg = data_error([&] { load_idx(dir.string()); });
        QVERIFY2(msg.contains(QString::fromStdString((dir / file.toStdString()).string())), qPrintable(msg));
        QVERIFY2(msg.contains(reason), qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
    }

    void idx_missing_directory_names_every_file()
    {
        const std::string dir = "/nonexistent/rlda-idx";
        const auto msg = data_error([&] { load_idx(dir); });
        for (const char* f : {kTrainImages, kTrainLabels, kTestImages, kTestLabels})
            QVERIFY2(msg.contains(QString::fromStdString(dir + "/" + f)), qPrintable(msg));
        QVERIFY2(msg.contains("apt-get install dataset-fashion-mnist"), qPrintable(msg));
    }

    void idx_single_file_readers()
    {
        QTemporaryDir tmp;
        const fs::path f = fs::path(tmp.path().toStdString()) / "x.gz";
        const auto s = make_idx(3, 2, 7, 5);
        write_gz(f, s.images);
        QVERIFY(torch::equal(read_idx_images(f.string()), s.pixels));
        write_gz(f, s.labels);
        QVERIFY(torch::equal(read_idx_labels(f.string()), s.label_values));
        // Reading labels as images: the magic number says which is which.
        QVERIFY(data_error([&] { read_idx_images(f.string()); }).contains("bad magic number 2049"));
        // A header that promises 2^32 - 1 images must fail on the size, not try to allocate them.
        Bytes huge;
        put_be32(huge, 2051);
        put_be32(huge, 0xFFFFFFFFu);
        put_be32(huge, 0xFFFFFFFFu);
        put_be32(huge, 0xFFFFFFFFu);
        huge.resize(100, 0);
        write_file(f, huge);
        QVERIFY(data_error([&] { read_idx_images(f.string()); }).contains("short read"));
    }

    void normalization_values()
    {
        QTemporaryDir tmp;
        IdxDir d;
        d.write(tmp.path().toStdString());
        const auto dir = tmp.path().toStdString();

        const auto half = load_idx(dir, with(Normalization::Half));
        QVERIFY(torch::equal(half.train.images, as_half(d.train.pixels)));
        QVERIFY(torch::equal(half.test.images, as_half(d.test.pixels)));
        QCOMPARE(half.train.mean, std::vector<double>{0.5});
        QCOMPARE(half.train.stddev, std::vector<double>{0.5});
        // Pixel 0 -> -1 and 255 -> +1 exactly.
        const auto black = half.train.images.masked_select(d.train.pixels == 0);
        const auto white = half.train.images.masked_select(d.train.pixels == 255);
        QVERIFY(black.numel() > 0 && white.numel() > 0);
        QVERIFY(black.eq(-1.0f).all().item<bool>());
        QVERIFY(white.eq(1.0f).all().item<bool>());

        const auto none = load_idx(dir, with(Normalization::None));
        QCOMPARE(none.train.images.min().item<float>(), 0.0f);
        QCOMPARE(none.train.images.max().item<float>(), 1.0f);

        const auto per = load_idx(dir, with(Normalization::PerDataset));
        const auto x = d.train.pixels.to(torch::kDouble).div(255);
        const double mean = x.mean().item<double>();
        const double sd = x.std(/*unbiased=*/false).item<double>();
        QVERIFY(std::abs(per.train.mean[0] - mean) < 1e-12);
        QVERIFY(std::abs(per.train.stddev[0] - sd) < 1e-12);
        QVERIFY(std::abs(per.train.images.mean().item<double>()) < 1e-5);
        QVERIFY(std::abs(per.train.images.std(/*unbiased=*/false).item<double>() - 1.0) < 1e-4);
        // The test set is normalised with the training statistics, not its own.
        const auto expected_test =
            as_none(d.test.pixels).sub(static_cast<float>(mean)).div(static_cast<float>(sd));
        QVERIFY(torch::allclose(per.test.images, expected_test, 1e-6, 1e-6));
        QCOMPARE(per.test.mean, per.train.mean);
    }

    void per_dataset_statistics_per_channel()
    {
        // Channel 0 constant (no NaN from a zero std), channel 1 alternating 0 / 255.
        auto px = torch::zeros({4, 2, 2, 2}, torch::kByte);
        px.select(1, 0).fill_(7);
        px.select(1, 1).copy_(torch::arange(16).remainder(2).mul(255).to(torch::kByte).view({4, 2, 2}));
        const auto labels = torch::tensor({0, 1, 0, 1}, torch::kLong);
        const auto split = make_split({px, labels}, {px, labels}, 2, "toy", with(Normalization::PerDataset));
        QCOMPARE(split.train.mean.size(), std::size_t{2});
        QVERIFY(std::abs(split.train.mean[0] - 7 / 255.0) < 1e-12);
        QCOMPARE(split.train.stddev[0], 1.0);
        QVERIFY(std::abs(split.train.mean[1] - 0.5) < 1e-12);
        QVERIFY(std::abs(split.train.stddev[1] - 0.5) < 1e-12);
        QVERIFY(torch::isfinite(split.train.images).all().item<bool>());
        QCOMPARE(split.train.images.select(1, 0).abs().max().item<float>(), 0.0f);
        QCOMPARE(split.train.images.select(1, 1).abs().min().item<float>(), 1.0f);
    }

    // dataset.test_unused_train: the training samples the subset leaves out are tested on too, after
    // the test set's own, and never trained on.
    void the_unused_training_samples_join_the_test_set()
    {
        const auto px = torch::arange(10, torch::kByte).view({10, 1, 1, 1});
        const auto labels = torch::zeros({10}, torch::kLong);
        const auto test_px = torch::full({3, 1, 1, 1}, 200, torch::kByte);
        auto o = with(Normalization::None);
        o.train_subset = 6;
        o.test_unused_train = true;
        const auto split = make_split({px, labels}, {test_px, torch::zeros({3}, torch::kLong)}, 2, "toy", o);
        QCOMPARE(split.train.size(), std::int64_t{6});
        QCOMPARE(split.test.size(), std::int64_t{3 + 4});
        const auto test = split.test.images.flatten().mul(255).round().to(torch::kLong);
        QCOMPARE(test.slice(0, 3).sum().item<std::int64_t>(), std::int64_t{6 + 7 + 8 + 9}); // the 4 left out
        QCOMPARE(split.train.images.flatten().mul(255).round().sum().item<double>(), 0.0 + 1 + 2 + 3 + 4 + 5);
        // A random subset: the left-out samples are exactly those not drawn.
        o.random_subset = true;
        o.subset_seed = 3;
        const auto drawn = make_split({px, labels}, {test_px, torch::zeros({3}, torch::kLong)}, 2, "toy", o);
        const double trained = drawn.train.images.flatten().mul(255).round().sum().item<double>();
        const double left = drawn.test.images.flatten().slice(0, 3).mul(255).round().sum().item<double>();
        QCOMPARE(trained + left, 45.0);
        // Without a subset nothing is left out.
        o.train_subset = 0;
        QCOMPARE(
            make_split({px, labels}, {test_px, torch::zeros({3}, torch::kLong)}, 2, "toy", o).test.size(),
            std::int64_t{3});
    }

    void subsets()
    {
        QTemporaryDir tmp;
        IdxDir d;
        d.write(tmp.path().toStdString());
        const auto dir = tmp.path().toStdString();
        const auto full = load_idx(dir);

        LoadOptions first;
        first.train_subset = 5;
        first.test_subset = 3;
        const auto f = load_idx(dir, first);
        QCOMPARE(f.train.size(), std::int64_t{5});
        QCOMPARE(f.test.size(), std::int64_t{3});
        QVERIFY(torch::equal(f.train.images, full.train.images.slice(0, 0, 5)));
        QVERIFY(torch::equal(f.train.labels, full.train.labels.slice(0, 0, 5)));
        QVERIFY(torch::equal(f.test.images, full.test.images.slice(0, 0, 3)));

        LoadOptions random = first;
        random.random_subset = true;
        random.subset_seed = 11;
        const auto r1 = load_idx(dir, random);
        const auto r2 = load_idx(dir, random);
        QVERIFY(torch::equal(r1.train.images, r2.train.images));
        QVERIFY(torch::equal(r1.test.labels, r2.test.labels));
        // The rows are those the seeded draw names, in the data's order, without repeats.
        const auto idx = subset_indices(20, 5, true, 11, kSubsetStream);
        const auto v = to_vector(idx);
        QCOMPARE(std::set<std::int64_t>(v.begin(), v.end()).size(), std::size_t{5});
        QVERIFY(std::is_sorted(v.begin(), v.end()));
        QVERIFY(torch::equal(r1.train.images, full.train.images.index_select(0, idx)));
        QVERIFY(torch::equal(r1.train.labels, full.train.labels.index_select(0, idx)));
        QVERIFY(!torch::equal(r1.train.images, f.train.images));

        random.subset_seed = 12;
        QVERIFY(!torch::equal(load_idx(dir, random).train.images, r1.train.images));

        // Subset statistics come from the samples kept.
        LoadOptions per = first;
        per.normalization = Normalization::PerDataset;
        const auto p = load_idx(dir, per);
        QVERIFY(std::abs(p.train.images.mean().item<double>()) < 1e-5);

        LoadOptions too_many;
        too_many.train_subset = 21;
        auto msg = data_error([&] { load_idx(dir, too_many); });
        QVERIFY2(msg.contains("train_subset = 21") && msg.contains("20 samples"), qPrintable(msg));
        too_many = {};
        too_many.test_subset = -1;
        msg = data_error([&] { load_idx(dir, too_many); });
        QVERIFY2(msg.contains("test_subset = -1"), qPrintable(msg));
    }

    void fashion_mnist_from_debian()
    {
        if (!fs::exists(default_fashion_mnist_dir()))
            QSKIP("/usr/share/datasets/fashion-mnist not installed (apt-get install dataset-fashion-mnist)");
        LoadOptions o;
        o.train_subset = 1000;
        o.test_subset = 1000;
        QElapsedTimer timer;
        timer.start();
        const auto split = load_fashion_mnist(o);
        qInfo("Fashion-MNIST read (all four .gz files) in %lld ms", static_cast<long long>(timer.elapsed()));
        QCOMPARE(split.train.name, std::string("fashion-mnist"));
        QCOMPARE(split.train.images.sizes().vec(), (std::vector<std::int64_t>{1000, 1, 28, 28}));
        QCOMPARE(split.test.images.sizes().vec(), (std::vector<std::int64_t>{1000, 1, 28, 28}));
        QCOMPARE(split.train.classes, std::int64_t{10});
        for (const auto* d : {&split.train, &split.test}) {
            QCOMPARE(d->labels.min().item<std::int64_t>(), std::int64_t{0});
            QCOMPARE(d->labels.max().item<std::int64_t>(), std::int64_t{9});
            QVERIFY(d->images.min().item<float>() >= -1.0f);
            QVERIFY(d->images.max().item<float>() <= 1.0f);
        }
    }
};

RLDA_SUITE_GUILESS_MAIN(TestDatasets)
#include "test_datasets.moc"
