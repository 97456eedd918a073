// The one container for the tensors rlda saves (policy.pt, warm_start.pt, model.pt): a checksum,
// a small JSON header listing every tensor's name, dtype and shape, then their raw bytes. The
// reader checks everything before any tensor is made, and no byte of it reaches LibTorch's pickle
// or TorchScript parsers. No LibTorch here: the format is read and checked as bytes (so that the
// fuzz harnesses and the tools that read a header need none); core/net/tensors.h turns an entry
// into a torch::Tensor and a tensor into an entry.
//
// Layout (integers little-endian):
//   offset 0   8 bytes  magic kTensorFileMagic
//          8   4        container version (kTensorFileVersion)
//         12   4        CRC-32 (zlib's) of every byte from offset 24 to the end
//         16   8        header length H, at most kMaxTensorFileHeader
//         24   H        header, a JSON object: {"kind": "policy", "meta": {...},
//                       "tensors": [{"name": "...", "dtype": "float32", "shape": [4, 3]}, ...]}
//       24+H            the tensors' bytes, one after another in the header's order, row-major,
//                       little-endian, nothing before, between or after them
// A file is refused unless its length, checksum, header and every tensor's extent agree exactly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core {

inline constexpr std::string_view kTensorFileMagic{"RLDA\x89TF\n", 8};
inline constexpr std::uint32_t kTensorFileVersion = 1;
inline constexpr std::uint64_t kMaxTensorFileHeader = 16u << 20; // 16 MiB of JSON
inline constexpr std::size_t kMaxTensorRank = 8;

// How an older file's reader is told that what it loads is not verified.
using Warn = std::function<void(const std::string&)>;

// What a file starts with: one of ours, LibTorch's zip archive (rlda's format before this one,
// read with a warning), or neither. Error naming the file and the reason when it cannot be opened
// (core/util/read_file.h: missing, a folder, a FIFO, permission denied).
enum class TensorFileKind { Container, TorchArchive, Other };
TensorFileKind sniff_tensor_file(const std::filesystem::path& file);
// The one-line warning for a file in the older format.
std::string unverified_warning(const std::filesystem::path& file);

// The element types a tensor file holds, by their names in its header.
enum class TensorDtype { Float32, Float64, Int64 };
std::string_view dtype_name(TensorDtype dtype); // "float32", "float64", "int64"
std::size_t dtype_size(TensorDtype dtype);      // bytes per element

struct TensorEntry {
    std::string name;
    TensorDtype dtype = TensorDtype::Float32;
    std::vector<std::int64_t> shape;
    std::size_t offset = 0; // into the data that follows the header
    std::size_t bytes = 0;
};

class TensorFileWriter {
public:
    explicit TensorFileWriter(std::string kind);
    ~TensorFileWriter();
    TensorFileWriter(TensorFileWriter&&) noexcept;

    void set(const std::string& key, std::int64_t value);
    void set(const std::string& key, double value); // finite, or an Error naming the key
    void set(const std::string& key, bool value);
    void set(const std::string& key, const std::string& value);
    void set(const std::string& key, const std::vector<std::string>& values);
    void set(const std::string& key, const std::vector<std::int64_t>& values);
    // A tensor's elements, row-major and little-endian: exactly the shape's element count times
    // dtype_size(dtype) bytes. Error naming the tensor for a name saved twice, too many dimensions or
    // a size that does not match. (core/net/tensors.h's add_tensor adds a torch::Tensor.)
    void add(const std::string& name, TensorDtype dtype, const std::vector<std::int64_t>& shape,
             std::string_view data);

    std::string bytes() const;
    void write(const std::filesystem::path& file) const; // atomically

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

class TensorFile {
public:
    enum class Checksum { Verify, Skip }; // Skip: for fuzzing only, so that inputs reach the header

    // Reads and checks the whole file; `kind` is what the caller expects ("policy", ...). Every
    // failure is an Error of one line naming the file: "file: corrupt (checksum mismatch)", ...
    // Its prefix and header are read and checked against the file's size first: a file longer than
    // its header says (padded to gigabytes) is refused before its tensors' bytes are read.
    static TensorFile read(const std::filesystem::path& file, std::string_view kind);
    static TensorFile parse(std::string bytes, std::string label, std::string_view kind,
                            Checksum checksum = Checksum::Verify);
    ~TensorFile();
    TensorFile(TensorFile&&) noexcept;
    TensorFile& operator=(TensorFile&&) noexcept;

    const std::string& label() const { return label_; }
    const std::vector<TensorEntry>& entries() const { return entries_; }
    const TensorEntry* find(std::string_view name) const;
    // Names that start with `prefix`, in the file's order.
    std::vector<std::string> names(std::string_view prefix) const;

    // The entry `name` once its dtype and shape have been checked against what the caller expects
    // (-1: any extent). With `finite`, a floating entry holding NaN or infinity is refused by name.
    // (core/net/tensors.h's read_tensor makes it a tensor.)
    const TensorEntry& checked(std::string_view name, TensorDtype dtype, std::span<const std::int64_t> shape,
                               bool finite = true) const;
    // An entry's elements, as add() took them.
    std::string_view data(const TensorEntry& entry) const;

    // Header values; a missing or mistyped key is an Error naming the file and the key. The
    // *_or forms return `fallback` when the key is absent (a field added later).
    bool has(std::string_view key) const;
    std::int64_t integer(std::string_view key) const;
    double real(std::string_view key) const;
    bool boolean(std::string_view key) const;
    std::string string(std::string_view key) const;
    std::vector<std::string> strings(std::string_view key) const;
    std::vector<std::int64_t> integers(std::string_view key) const;

private:
    struct Meta;
    TensorFile(std::string bytes, std::string label);
    // parse() of a file of `file_size` bytes of which `bytes` holds the start (at least the prefix
    // and header, unless the file is shorter; the checksum is then skipped).
    static TensorFile check(std::string bytes, std::string label, std::string_view kind, Checksum checksum,
                            std::uint64_t file_size);
    std::string bytes_;
    std::string label_;
    std::size_t data_ = 0; // where the tensors' bytes start in bytes_
    std::vector<TensorEntry> entries_;
    std::unique_ptr<Meta> meta_;
};

} // namespace rlda::core
