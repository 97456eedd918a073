// IDX files (MNIST, Fashion-MNIST), plain or gzip, through zlib's gzread.
#include "core/data/idx.h"

#include "core/util/error.h"
#include "core/util/memory.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <unistd.h>

namespace rlda::core::data {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kImageMagic = 2051; // 0x00000803: unsigned bytes, 3 dimensions
constexpr std::uint32_t kLabelMagic = 2049; // 0x00000801: unsigned bytes, 1 dimension

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};

// The most payload one IDX file may declare: EMNIST, the largest IDX set in use, has 0.7 GB.
// Checked before anything is inflated, so that a small gzip file cannot make rlda inflate
// gigabytes (a "gzip bomb").
constexpr std::uint64_t kMaxIdxPayload = std::uint64_t{1} << 30;

// gzerror's text, without the "path: " zlib puts in front of it.
std::string gz_message(gzFile_s* f, const std::string& path, int& code)
{
    std::string what = gzerror(f, &code);
    if (what.rfind(path + ": ", 0) == 0)
        what.erase(0, path.size() + 2);
    return what;
}

// One IDX file, plain or gzip alike (gzread reads a file without a gzip header as it is, whatever
// its name says), opened through open_regular_file: a FIFO or a folder is refused, never waited on.
class IdxInput {
public:
    explicit IdxInput(const std::string& path) : path_(path)
    {
        FileHandle file;
        try {
            file = open_regular_file(path);
        } catch (const Error& e) {
            throw DataError(e.what());
        }
        size_ = file_size_of(file);
        const int fd = file.release();
        f_.reset(gzdopen(fd, "rb"));
        if (!f_) {
            ::close(fd);
            throw DataError(fmt::format("{}: cannot open: out of memory", path));
        }
        gzbuffer(f_.get(), 1 << 18);
    }

    // Up to `n` bytes into `to`; fewer only at the end of the data.
    std::size_t read(std::uint8_t* to, std::size_t n)
    {
        std::size_t done = 0;
        while (done < n) {
            const auto want = static_cast<unsigned>(std::min<std::size_t>(n - done, std::size_t{1} << 30));
            const int got = gzread(f_.get(), to + done, want);
            if (got < 0) {
                int code = Z_OK;
                throw DataError(fmt::format("{}: gzip error: {}", path_, gz_message(f_.get(), path_, code)));
            }
            if (got == 0)
                break;
            done += static_cast<std::size_t>(got);
        }
        return done;
    }

    // A stream cut short is not an error for gzread (it supports growing files); gzerror says so.
    void check_stream()
    {
        int code = Z_OK;
        const auto what = gz_message(f_.get(), path_, code);
        if (code == Z_BUF_ERROR)
            throw DataError(fmt::format("{}: gzip error: truncated stream ({})", path_, what));
        if (code != Z_OK)
            throw DataError(fmt::format("{}: gzip error: {}", path_, what));
    }

    // After the header: a plain file's payload is its size less the header, known without reading.
    std::optional<std::uint64_t> plain_payload(std::size_t header) const
    {
        if (gzdirect(f_.get()) != 1)
            return std::nullopt;
        return size_ >= header ? size_ - header : 0;
    }

    // Exactly `bytes` of payload, checked against the declaration before any is read: a plain file
    // by its size, a compressed one by kMaxIdxPayload and the machine's memory. Memory grows with
    // what is inflated, never past `bytes` + 1.
    std::vector<std::uint8_t> payload(std::uint64_t bytes, std::size_t header, const std::string& promise)
    {
        if (const auto plain = plain_payload(header))
            check_payload(*plain, bytes, promise);
        if (bytes > kMaxIdxPayload)
            throw DataError(fmt::format("{}: the header promises {} ({}), more than the {} rlda reads from one "
                                        "IDX file",
                                        path_, promise, byte_size(bytes), byte_size(kMaxIdxPayload)));
        try {
            check_fits(fmt::format("{}: {}", path_, promise), bytes);
        } catch (const Error& e) {
            throw DataError(e.what());
        }
        std::vector<std::uint8_t> data;
        try {
            std::size_t chunk = std::size_t{1} << 16; // growing to 4 MiB: a small file costs no large buffer
            while (data.size() <= bytes) {
                const std::size_t old = data.size();
                const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, bytes + 1 - old));
                data.resize(old + want);
                const std::size_t got = read(data.data() + old, want);
                data.resize(old + got);
                if (got < want)
                    break;
                chunk = std::min(chunk * 2, std::size_t{1} << 22);
            }
        } catch (const std::bad_alloc&) {
            throw DataError(fmt::format("{}: out of memory reading {} ({})", path_, promise, byte_size(bytes)));
        }
        check_stream();
        if (data.size() < bytes)
            check_payload(data.size(), bytes, promise);
        if (data.size() > bytes)
            throw DataError(fmt::format("{}: more bytes than {} ({} bytes): not an IDX file of that size", path_,
                                        promise, bytes));
        return data;
    }

    void check_payload(std::uint64_t payload, std::uint64_t expected, const std::string& promise) const
    {
        if (payload < expected)
            throw DataError(fmt::format("{}: short read: the header promises {} ({} bytes) but the file holds {}",
                                        path_, promise, expected, payload));
        if (payload > expected)
            throw DataError(fmt::format("{}: {} bytes too many after {} ({} bytes)", path_, payload - expected,
                                        promise, expected));
    }

private:
    std::string path_;
    std::uint64_t size_ = 0;
    std::unique_ptr<gzFile_s, GzCloser> f_;
};

std::uint32_t big_endian(const std::uint8_t* p)
{
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

// The header, read first and alone: its magic number and its size.
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

struct Files {
    std::string train_images, train_labels, test_images, test_labels;
};


// The first `header` bytes of `in`, checked to be an IDX header of the kind `expected`.
std::vector<std::uint8_t> read_header(IdxInput& in, const std::string& path, std::uint32_t expected,
                                      std::size_t header, const char* what)
{
    std::vector<std::uint8_t> bytes(header);
    bytes.resize(in.read(bytes.data(), header));
    if (bytes.size() < header)
        in.check_stream();
    check_magic(path, bytes, expected, header, what);
    return bytes;
}

// A tensor of `sizes` holding `bytes`; an allocation failure names the file.
torch::Tensor byte_tensor(const std::string& path, std::vector<std::int64_t> sizes,
                         const std::vector<std::uint8_t>& bytes)
{
    try {
        auto t = torch::empty(sizes, torch::kByte);
        if (!bytes.empty())
            std::memcpy(t.data_ptr<std::uint8_t>(), bytes.data(), bytes.size());
        return t;
    } catch (const c10::Error&) {
        throw DataError(fmt::format("{}: out of memory for its {}", path, byte_size(bytes.size())));
    }
}

} // namespace

torch::Tensor read_idx_images(const std::string& path)
{
    IdxInput in(path);
    constexpr std::size_t header = 16;
    const auto head = read_header(in, path, kImageMagic, header, "images");
    const std::uint64_t n = big_endian(head.data() + 4);
    const std::uint64_t rows = big_endian(head.data() + 8);
    const std::uint64_t cols = big_endian(head.data() + 12);
    if (rows == 0 || cols == 0)
        throw DataError(fmt::format("{}: bad dimensions {}x{}", path, rows, cols));
    const std::uint64_t per_image = rows * cols; // < 2^64: both below 2^32
    const auto promise = fmt::format("{} images of {}x{}", n, rows, cols);
    // n * per_image may not fit in 64 bits: past the bound, the product saturates.
    const std::uint64_t declared =
        n > (std::numeric_limits<std::uint64_t>::max)() / per_image ? (std::numeric_limits<std::uint64_t>::max)()
                                                                   : n * per_image;
    const auto bytes = in.payload(declared, header, promise);
    return byte_tensor(path,
                       {static_cast<std::int64_t>(n), 1, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)},
                       bytes);
}

torch::Tensor read_idx_labels(const std::string& path)
{
    IdxInput in(path);
    constexpr std::size_t header = 8;
    const auto head = read_header(in, path, kLabelMagic, header, "labels");
    const std::uint64_t n = big_endian(head.data() + 4);
    const auto bytes = in.payload(n, header, fmt::format("{} labels", n));
    for (std::uint64_t i = 0; i < n; ++i)
        if (bytes[i] > 9)
            throw DataError(fmt::format("{}: bad label {} for sample {} (labels are 0..9)", path, bytes[i], i));
    return byte_tensor(path, {static_cast<std::int64_t>(n)}, bytes).to(torch::kLong);
}

DatasetSplit load_idx(const std::string& dir, const LoadOptions& options)
{
    const fs::path root(dir);
    std::string missing;
    std::error_code ec;
    auto find = [&](const char* name) {
        // Anything by the name but a folder is the file: the reader refuses a FIFO by name.
        const auto there = [&](const fs::path& p) { return fs::exists(p, ec) && !fs::is_directory(p, ec); };
        const auto plain = root / name;
        if (there(plain))
            return plain.string();
        const auto gz = root / (std::string(name) + ".gz");
        if (there(gz))
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
