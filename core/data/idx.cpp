// IDX files (MNIST, Fashion-MNIST), plain or gzip, through zlib's gzread.
#include "core/data/idx.h"

#include "core/util/error.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

namespace rlda::core::data {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kImageMagic = 2051; // 0x00000803: unsigned bytes, 3 dimensions
constexpr std::uint32_t kLabelMagic = 2049; // 0x00000801: unsigned bytes, 1 dimension

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};

// gzerror's text, without the "path: " zlib puts in front of it.
std::string gz_message(gzFile_s* f, const std::string& path, int& code)
{
    std::string what = gzerror(f, &code);
    if (what.rfind(path + ": ", 0) == 0)
        what.erase(0, path.size() + 2);
    return what;
}

// The whole decompressed file. gzread reads files without a gzip header as they are, so one
// path serves plain and compressed files, whatever their names say. The buffer grows with what
// is actually read, never with what a (possibly corrupt) header claims.
std::vector<std::uint8_t> read_all(const std::string& path)
{
    errno = 0;
    std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
    if (!f)
        throw DataError(
            fmt::format("{}: cannot open: {}", path, errno ? std::strerror(errno) : "out of memory"));
    gzbuffer(f.get(), 1 << 18);
    std::vector<std::uint8_t> bytes;
    // Reads grow from 64 KiB to 4 MiB, doubling: a small file costs no 4 MiB buffer.
    std::size_t chunk = std::size_t{1} << 16;
    for (;; chunk = std::min(chunk * 2, std::size_t{1} << 22)) {
        const std::size_t old = bytes.size();
        bytes.resize(old + chunk);
        const int got = gzread(f.get(), bytes.data() + old, static_cast<unsigned>(chunk));
        if (got < 0) {
            int code = Z_OK;
            throw DataError(fmt::format("{}: gzip error: {}", path, gz_message(f.get(), path, code)));
        }
        bytes.resize(old + static_cast<std::size_t>(got));
        if (got == 0)
            break;
    }
    // A stream cut short is not an error for gzread (it supports growing files); gzerror says so.
    int code = Z_OK;
    const auto what = gz_message(f.get(), path, code);
    if (code == Z_BUF_ERROR)
        throw DataError(fmt::format("{}: gzip error: truncated stream ({})", path, what));
    if (code != Z_OK)
        throw DataError(fmt::format("{}: gzip error: {}", path, what));
    return bytes;
}

std::uint32_t big_endian(const std::uint8_t* p)
{
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

void check_magic(const std::string& path, const std::vector<std::uint8_t>& bytes, std::uint32_t expected,
                 std::size_t header, const char* what)
{
    if (bytes.size() < 4)
        throw DataError(fmt::format("{}: short read: {} bytes, not an IDX file", path, bytes.size()));
    const auto magic = big_endian(bytes.data());
    if (magic != expected) {
        const char* hint = magic == kImageMagic   ? "; this is an image file"
                           : magic == kLabelMagic ? "; this is a label file"
                                                  : "";
        throw DataError(fmt::format("{}: bad magic number {} (0x{:08x}), expected {} for IDX {}{}", path,
                                    magic, magic, expected, what, hint));
    }
    if (bytes.size() < header)
        throw DataError(fmt::format("{}: short read: {} bytes, the IDX {} header alone has {}", path,
                                    bytes.size(), what, header));
}

void check_payload(const std::string& path, std::uint64_t payload, std::uint64_t expected,
                   const std::string& promise)
{
    if (payload < expected)
        throw DataError(fmt::format("{}: short read: the header promises {} ({} bytes) but the file holds {}",
                                    path, promise, expected, payload));
    if (payload > expected)
        throw DataError(fmt::format("{}: {} bytes too many after {} ({} bytes)", path, payload - expected,
                                    promise, expected));
}

struct Files {
    std::string train_images, train_labels, test_images, test_labels;
};

} // namespace

torch::Tensor read_idx_images(const std::string& path)
{
    const auto bytes = read_all(path);
    constexpr std::size_t header = 16;
    check_magic(path, bytes, kImageMagic, header, "images");
    const std::uint64_t n = big_endian(bytes.data() + 4);
    const std::uint64_t rows = big_endian(bytes.data() + 8);
    const std::uint64_t cols = big_endian(bytes.data() + 12);
    if (rows == 0 || cols == 0)
        throw DataError(fmt::format("{}: bad dimensions {}x{}", path, rows, cols));
    const std::uint64_t payload = bytes.size() - header;
    const std::uint64_t per_image = rows * cols; // < 2^64: both below 2^32
    const auto promise = fmt::format("{} images of {}x{}", n, rows, cols);
    // n * per_image may not fit in 64 bits; compare by division first.
    if (n > payload / per_image)
        throw DataError(fmt::format("{}: short read: the header promises {} but the file holds {} bytes",
                                    path, promise, payload));
    check_payload(path, payload, n * per_image, promise);

    auto images = torch::empty(
        {static_cast<std::int64_t>(n), 1, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)},
        torch::kByte);
    if (payload > 0)
        std::memcpy(images.data_ptr<std::uint8_t>(), bytes.data() + header, payload);
    return images;
}

torch::Tensor read_idx_labels(const std::string& path)
{
    const auto bytes = read_all(path);
    constexpr std::size_t header = 8;
    check_magic(path, bytes, kLabelMagic, header, "labels");
    const std::uint64_t n = big_endian(bytes.data() + 4);
    const std::uint64_t payload = bytes.size() - header;
    check_payload(path, payload, n, fmt::format("{} labels", n));
    for (std::uint64_t i = 0; i < n; ++i)
        if (bytes[header + i] > 9)
            throw DataError(
                fmt::format("{}: bad label {} for sample {} (labels are 0..9)", path, bytes[header + i], i));
    auto labels = torch::empty({static_cast<std::int64_t>(n)}, torch::kByte);
    if (n > 0)
        std::memcpy(labels.data_ptr<std::uint8_t>(), bytes.data() + header, n);
    return labels.to(torch::kLong);
}

DatasetSplit load_idx(const std::string& dir, const LoadOptions& options)
{
    const fs::path root(dir);
    std::string missing;
    std::error_code ec;
    auto find = [&](const char* name) {
        const auto plain = root / name;
        if (fs::is_regular_file(plain, ec))
            return plain.string();
        const auto gz = root / (std::string(name) + ".gz");
        if (fs::is_regular_file(gz, ec))
            return gz.string();
        missing += (missing.empty() ? "" : ", ") + plain.string() + "[.gz]";
        return std::string();
    };
    const Files f{find("train-images-idx3-ubyte"), find("train-labels-idx1-ubyte"),
                  find("t10k-images-idx3-ubyte"), find("t10k-labels-idx1-ubyte")};
    if (!missing.empty())
        throw DataError(
            fmt::format("load_idx: missing {}; for Fashion-MNIST: apt-get install dataset-fashion-mnist "
                        "(installs them in {})",
                        missing, default_fashion_mnist_dir()));

    auto read_pair = [](const std::string& images_path, const std::string& labels_path) {
        RawImages raw{read_idx_images(images_path), read_idx_labels(labels_path)};
        if (raw.labels.size(0) != raw.pixels.size(0))
            throw DataError(fmt::format("load_idx: {} holds {} labels but {} holds {} images", labels_path,
                                        raw.labels.size(0), images_path, raw.pixels.size(0)));
        return raw;
    };
    auto train = read_pair(f.train_images, f.train_labels);
    auto test = read_pair(f.test_images, f.test_labels);
    if (train.pixels.sizes().slice(2) != test.pixels.sizes().slice(2))
        throw DataError(fmt::format("load_idx: {} holds {}x{} images but {} holds {}x{}", f.test_images,
                                    test.pixels.size(2), test.pixels.size(3), f.train_images,
                                    train.pixels.size(2), train.pixels.size(3)));

    auto name = root.lexically_normal().filename().string();
    if (name.empty())
        name = root.lexically_normal().parent_path().filename().string();
    return make_split(std::move(train), std::move(test), 10, name.empty() ? "idx" : name, options);
}

std::string default_fashion_mnist_dir()
{
    return "/usr/share/datasets/fashion-mnist";
}

DatasetSplit load_fashion_mnist(const LoadOptions& options)
{
    auto split = load_idx(default_fashion_mnist_dir(), options);
    split.train.name = split.test.name = "fashion-mnist";
    return split;
}

} // namespace rlda::core::data
