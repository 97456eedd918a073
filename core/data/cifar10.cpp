// CIFAR-10 binary version: fixed-size records, read straight into one tensor per file.
#include "core/data/cifar10.h"

#include "core/util/error.h"
#include "core/util/memory.h"
#include "core/util/read_file.h"
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <unistd.h>

namespace rlda::core::data {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kChannels = 3, kRows = 32, kColumns = 32; // stored channel by channel, row by row
constexpr std::int64_t kImageBytes = kChannels * kRows * kColumns;
constexpr std::int64_t kRecordBytes = 1 + kImageBytes;

const std::vector<std::string>& file_names()
{
    static const std::vector<std::string> names{"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                                                "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"};
    return names;
}

bool has_all(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& f : file_names())
        if (!fs::is_regular_file(dir / f, ec))
            return false;
    return true;
}

} // namespace

RawImages read_cifar10_batch(const std::string& path)
{
    FileHandle file;
    try {
        file = open_regular_file(path); // a FIFO or a folder is refused, never waited on
    } catch (const Error& e) {
        throw DataError(e.what());
    }
    const auto size = file_size_of(file);
    if (size == 0)
        throw DataError(
            fmt::format("{}: empty file; a CIFAR-10 batch holds records of {} bytes", path, kRecordBytes));
    if (size % kRecordBytes != 0)
        throw DataError(
            fmt::format("{}: truncated or not a CIFAR-10 batch: {} bytes is {} records of {} bytes "
                        "and {} bytes over",
                        path, size, size / kRecordBytes, kRecordBytes, size % kRecordBytes));
    const auto n = static_cast<std::int64_t>(size) / kRecordBytes;

    torch::Tensor records;
    try {
        check_fits(fmt::format("{}: {} CIFAR-10 records", path, n), size);
        records = torch::empty({n, kRecordBytes}, torch::kByte);
    } catch (const Error& e) {
        throw DataError(e.what());
    } catch (const c10::Error&) {
        throw DataError(fmt::format("{}: out of memory for its {}", path, byte_size(size)));
    }
    auto* to = reinterpret_cast<char*>(records.data_ptr<std::uint8_t>());
    std::uint64_t done = 0;
    while (done < size) {
        const ssize_t got = ::read(file.fd(), to + done, static_cast<std::size_t>(size - done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            throw DataError(system_error_for(path, "cannot read", errno).what());
        if (got == 0)
            break;
        done += static_cast<std::uint64_t>(got);
    }
    if (done != size)
        throw DataError(fmt::format("{}: short read: {} of {} bytes", path, done, size));

    auto labels = records.select(1, 0).to(torch::kLong);
    const auto bad = (labels > 9).nonzero();
    if (bad.size(0) > 0) {
        const auto i = bad[0][0].item<std::int64_t>();
        throw DataError(fmt::format("{}: bad label {} in record {} (CIFAR-10 labels are 0..9)", path,
                                    labels[i].item<std::int64_t>(), i));
    }
    return {records.slice(1, 1).contiguous().view({n, kChannels, kRows, kColumns}), std::move(labels)};
}

DatasetSplit load_cifar10(const std::string& dir, const LoadOptions& options)
{
    fs::path root(dir);
    // The archive extracts to cifar-10-batches-bin/; accept the folder it was extracted into too.
    if (!has_all(root) && has_all(root / "cifar-10-batches-bin"))
        root /= "cifar-10-batches-bin";

    std::string missing;
    std::error_code ec;
    for (const auto& f : file_names())
        if (!fs::is_regular_file(root / f, ec))
            missing += (missing.empty() ? "" : ", ") + (root / f).string();
    if (!missing.empty())
        throw DataError(
            fmt::format("load_cifar10: missing {}; download the binary version cifar-10-binary.tar.gz "
                        "from https://www.cs.toronto.edu/~kriz/cifar.html and extract it",
                        missing));

    std::vector<torch::Tensor> pixels, labels;
    for (std::size_t i = 0; i + 1 < file_names().size(); ++i) {
        auto b = read_cifar10_batch((root / file_names()[i]).string());
        pixels.push_back(std::move(b.pixels));
        labels.push_back(std::move(b.labels));
    }
    RawImages train{torch::cat(pixels), torch::cat(labels)};
    pixels.clear();
    labels.clear();
    RawImages test = read_cifar10_batch((root / file_names().back()).string());
    return make_split(std::move(train), std::move(test), 10, "cifar10", options);
}

} // namespace rlda::core::data
