// The tensor file: written, read and checked as bytes.
#include "core/util/tensor_file.h"

#include "core/util/atomic_file.h"
#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <set>

namespace rlda::core {

static_assert(std::endian::native == std::endian::little, "tensor files are little-endian, as is this code");

namespace {

constexpr std::size_t kPrefix = 24; // magic, version, CRC-32, header length

struct DTypeName {
    TensorDtype type;
    const char* name;
    std::size_t bytes;
};
constexpr DTypeName kDTypes[] = {
    {TensorDtype::Float32, "float32", 4},
    {TensorDtype::Float64, "float64", 8},
    {TensorDtype::Int64, "int64", 8},
};

const DTypeName& dtype_of(TensorDtype t)
{
    for (const auto& d : kDTypes)
        if (d.type == t)
            return d;
    return kDTypes[0]; // unreachable: kDTypes names every TensorDtype
}

const DTypeName* dtype_named(const std::string& name)
{
    for (const auto& d : kDTypes)
        if (name == d.name)
            return &d;
    return nullptr;
}

// Whether every element of a floating entry is finite (an int64 entry always is).
template <typename T> bool all_finite(std::string_view data)
{
    for (std::size_t at = 0; at + sizeof(T) <= data.size(); at += sizeof(T)) {
        T v;
        std::memcpy(&v, data.data() + at, sizeof v);
        if (!std::isfinite(v))
            return false;
    }
    return true;
}

std::uint32_t crc_of(std::string_view bytes)
{
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

template <typename T> T read_le(std::string_view bytes, std::size_t at)
{
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
}

template <typename T> void append_le(std::string& out, T v)
{
    char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    out.append(b, sizeof v);
}

std::string shape_text(std::span<const std::int64_t> shape)
{
    return shape.empty() ? std::string("a scalar") : fmt::format("{}", fmt::join(shape, "x"));
}

} // namespace

TensorFileKind sniff_tensor_file(const std::filesystem::path& file)
{
    // A FIFO is refused, not waited on; a file that cannot be read is an Error naming the reason
    // (permission denied), never "not a policy file".
    bool more = false;
    const std::string bytes = read_file_prefix(file, 8, more);
    if (bytes.size() < 8)
        return TensorFileKind::Other;
    const char* head = bytes.data();
    if (std::string_view(head, 8) == kTensorFileMagic)
        return TensorFileKind::Container;
    if (std::memcmp(head, "PK\x03\x04", 4) == 0)
        return TensorFileKind::TorchArchive;
    return TensorFileKind::Other;
}

std::string unverified_warning(const std::filesystem::path& file)
{
    return fmt::format("{}: unverified (written by an older rlda, without a checksum); saving it again verifies it",
                       file.string());
}

std::string_view dtype_name(TensorDtype dtype)
{
    return dtype_of(dtype).name;
}

std::size_t dtype_size(TensorDtype dtype)
{
    return dtype_of(dtype).bytes;
}

// ---- writer ----------------------------------------------------------------------------------

// nlohmann::json's noexcept default constructor delegates to one that may throw (for other types
// than null), and clang-tidy sees that call in this implicit constructor.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct TensorFileWriter::Impl {
    nlohmann::json header;
    std::vector<std::string> data; // each tensor's elements
    std::set<std::string> names;
};

TensorFileWriter::TensorFileWriter(std::string kind) : impl_(std::make_unique<Impl>())
{
    impl_->header["kind"] = std::move(kind);
    impl_->header["meta"] = nlohmann::json::object();
    impl_->header["tensors"] = nlohmann::json::array();
}

TensorFileWriter::~TensorFileWriter() = default;
TensorFileWriter::TensorFileWriter(TensorFileWriter&&) noexcept = default;

void TensorFileWriter::set(const std::string& key, std::int64_t value) { impl_->header["meta"][key] = value; }

void TensorFileWriter::set(const std::string& key, double value)
{
    if (!std::isfinite(value)) // JSON has no NaN: it would come back as null
        throw Error(fmt::format("{}: cannot be saved: {} is not finite", key, value));
    impl_->header["meta"][key] = value;
}

void TensorFileWriter::set(const std::string& key, bool value) { impl_->header["meta"][key] = value; }

void TensorFileWriter::set(const std::string& key, const std::string& value) { impl_->header["meta"][key] = value; }

void TensorFileWriter::set(const std::string& key, const std::vector<std::string>& values)
{
    impl_->header["meta"][key] = values;
}

void TensorFileWriter::set(const std::string& key, const std::vector<std::int64_t>& values)
{
    impl_->header["meta"][key] = values;
}

void TensorFileWriter::add(const std::string& name, TensorDtype dtype, const std::vector<std::int64_t>& shape,
                           std::string_view data)
{
    if (!impl_->names.insert(name).second)
        throw Error(fmt::format("{}: saved twice", name));
    if (shape.size() > kMaxTensorRank)
        throw Error(
            fmt::format("{}: {} dimensions, at most {} can be saved", name, shape.size(), kMaxTensorRank));
    std::optional<std::size_t> elements = 1;
    for (const std::int64_t extent : shape)
        elements = extent < 0 || !elements ? std::nullopt
                                           : checked::mul(*elements, static_cast<std::size_t>(extent));
    const auto bytes = elements ? checked::mul(*elements, dtype_size(dtype)) : std::nullopt;
    if (!bytes || *bytes != data.size())
        throw Error(fmt::format("{}: {} bytes for a {} tensor of shape {}", name, data.size(),
                                dtype_name(dtype), shape_text(shape)));
    impl_->header["tensors"].push_back({{"name", name}, {"dtype", dtype_name(dtype)}, {"shape", shape}});
    impl_->data.emplace_back(data);
}

std::string TensorFileWriter::bytes() const
{
    const std::string header = impl_->header.dump();
    std::string body = header;
    for (const auto& data : impl_->data)
        body += data;
    std::string out(kTensorFileMagic);
    append_le<std::uint32_t>(out, kTensorFileVersion);
    append_le<std::uint32_t>(out, crc_of(body));
    append_le<std::uint64_t>(out, header.size());
    out += body;
    return out;
}

void TensorFileWriter::write(const std::filesystem::path& file) const
{
    write_text_atomically(file, bytes());
}

// ---- reader ----------------------------------------------------------------------------------

// As TensorFileWriter::Impl's implicit constructor:
// NOLINTNEXTLINE(bugprone-exception-escape)
struct TensorFile::Meta {
    nlohmann::json values; // the header's "meta" object
};

TensorFile::TensorFile(std::string bytes, std::string label)
    : bytes_(std::move(bytes)), label_(std::move(label)), meta_(std::make_unique<Meta>())
{
}

TensorFile::~TensorFile() = default;
TensorFile::TensorFile(TensorFile&&) noexcept = default;
TensorFile& TensorFile::operator=(TensorFile&&) noexcept = default;

TensorFile TensorFile::read(const std::filesystem::path& file, std::string_view kind)
{
    // Opened once and checked (a FIFO, a folder, permission denied are named), sized by fstat.
    const std::uint64_t size = file_size_of(open_regular_file(file));
    // The prefix and the header first, checked against the size: every tensor's extent and nothing
    // after the last, before the rest is read.
    bool more = false;
    std::string head = read_file_prefix(file, kPrefix, more);
    if (head.size() == kPrefix && head.starts_with(kTensorFileMagic)) {
        const auto header_size = read_le<std::uint64_t>(head, 16);
        if (header_size <= kMaxTensorFileHeader)
            head = read_file_prefix(file, kPrefix + header_size, more);
        check(std::move(head), file.string(), kind, Checksum::Skip, size);
    }
    return parse(read_text_file(file, std::numeric_limits<std::uint64_t>::max()), file.string(), kind);
}

TensorFile TensorFile::parse(std::string bytes, std::string label, std::string_view kind, Checksum checksum)
{
    const auto size = static_cast<std::uint64_t>(bytes.size());
    return check(std::move(bytes), std::move(label), kind, checksum, size);
}

TensorFile TensorFile::check(std::string bytes, std::string label, std::string_view kind, Checksum checksum,
                             std::uint64_t file_size)
{
    const std::string where = label; // `label` moves into the file below
    const auto fail = [&](const std::string& why) { return Error(fmt::format("{}: {}", where, why)); };
    const std::string_view all(bytes);
    if (all.size() < kPrefix || all.substr(0, kTensorFileMagic.size()) != kTensorFileMagic)
        throw fail(fmt::format("not a {} file of rlda", kind));
    const auto version = read_le<std::uint32_t>(all, 8);
    if (version != kTensorFileVersion)
        throw fail(fmt::format("container version {}, this build reads version {}", version, kTensorFileVersion));
    const auto header_size = read_le<std::uint64_t>(all, 16);
    if (header_size > kMaxTensorFileHeader || header_size > all.size() - kPrefix)
        throw fail(fmt::format("corrupt (a header of {} bytes in a file of {})", header_size, file_size));
    if (checksum == Checksum::Verify && read_le<std::uint32_t>(all, 12) != crc_of(all.substr(kPrefix)))
        throw fail("corrupt (checksum mismatch)");

    TensorFile f(std::move(bytes), std::move(label));
    const std::string_view view(f.bytes_);
    nlohmann::json header = nlohmann::json::parse(view.substr(kPrefix, header_size), nullptr, /*exceptions=*/false);
    if (header.is_discarded() || !header.is_object())
        throw fail("corrupt (its header is not a JSON object)");
    const auto field = [&](const char* name, nlohmann::json::value_t type) -> const nlohmann::json& {
        const auto it = header.find(name);
        if (it == header.end() || it->type() != type)
            throw fail(fmt::format("corrupt (its header has no valid \"{}\")", name));
        return *it;
    };
    const auto& file_kind = field("kind", nlohmann::json::value_t::string).get_ref<const std::string&>();
    if (file_kind != kind)
        throw fail(fmt::format("a {} file, not a {} file", file_kind, kind));
    f.meta_->values = field("meta", nlohmann::json::value_t::object);

    f.data_ = kPrefix + static_cast<std::size_t>(header_size);
    const std::size_t data_size = static_cast<std::size_t>(file_size) - f.data_;
    std::size_t offset = 0;
    std::set<std::string> seen;
    for (const auto& t : field("tensors", nlohmann::json::value_t::array)) {
        const auto at = [&](const char* key) -> const nlohmann::json* {
            const auto it = t.is_object() ? t.find(key) : t.end();
            return it == t.end() ? nullptr : &*it;
        };
        const auto* name = at("name");
        const auto* dtype = at("dtype");
        const auto* shape = at("shape");
        if (!name || !name->is_string() || !dtype || !dtype->is_string() || !shape || !shape->is_array())
            throw fail(fmt::format("corrupt (tensor #{} has no name, dtype or shape)", f.entries_.size()));
        TensorEntry e;
        e.name = name->get<std::string>();
        if (!seen.insert(e.name).second)
            throw fail(fmt::format("corrupt (tensor {} is there twice)", e.name));
        const DTypeName* d = dtype_named(dtype->get<std::string>());
        if (!d)
            throw fail(fmt::format("{}: unknown dtype {}", e.name, dtype->dump()));
        e.dtype = d->type;
        if (shape->size() > kMaxTensorRank)
            throw fail(fmt::format("{}: {} dimensions, at most {}", e.name, shape->size(), kMaxTensorRank));
        std::optional<std::size_t> elements = 1;
        for (const auto& extent : *shape) {
            if (!extent.is_number_integer() || extent.get<std::int64_t>() < 0)
                throw fail(fmt::format("{}: shape {} is not a list of sizes", e.name, shape->dump()));
            const auto n = extent.get<std::int64_t>();
            e.shape.push_back(n);
            if (!(elements = checked::mul(*elements, static_cast<std::size_t>(n))))
                throw fail(fmt::format("{}: shape {} overflows", e.name, shape->dump()));
        }
        const auto bytes = checked::mul(*elements, d->bytes);
        if (!bytes || *bytes > data_size - offset)
            throw fail(fmt::format("corrupt (truncated: {} of shape {} needs more bytes than the file holds)", e.name,
                                   shape_text(e.shape)));
        e.bytes = *bytes;
        e.offset = offset;
        offset += e.bytes;
        f.entries_.push_back(std::move(e));
    }
    if (offset != data_size)
        throw fail(fmt::format("corrupt ({} bytes after the last tensor)", data_size - offset));
    return f;
}

const TensorEntry* TensorFile::find(std::string_view name) const
{
    const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const TensorEntry& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
}

std::vector<std::string> TensorFile::names(std::string_view prefix) const
{
    std::vector<std::string> out;
    for (const auto& e : entries_)
        if (e.name.starts_with(prefix))
            out.push_back(e.name);
    return out;
}

const TensorEntry& TensorFile::checked(std::string_view name, TensorDtype dtype,
                                       std::span<const std::int64_t> shape, bool finite) const
{
    const TensorEntry* e = find(name);
    if (!e)
        throw Error(fmt::format("{}: no tensor {}", label_, name));
    if (e->dtype != dtype)
        throw Error(
            fmt::format("{}: {} is {}, not {}", label_, name, dtype_name(e->dtype), dtype_name(dtype)));
    const bool fits = e->shape.size() == shape.size() &&
                      std::equal(shape.begin(), shape.end(), e->shape.begin(),
                                 [](std::int64_t want, std::int64_t got) { return want < 0 || want == got; });
    if (!fits)
        throw Error(fmt::format("{}: {} has shape {}, expected {}", label_, name, shape_text(e->shape),
                                shape_text(shape)));
    const auto all_finite_here = [&] {
        return dtype == TensorDtype::Float32   ? all_finite<float>(data(*e))
               : dtype == TensorDtype::Float64 ? all_finite<double>(data(*e))
                                               : true;
    };
    if (finite && !all_finite_here())
        throw Error(fmt::format("{}: {} holds non-finite values (NaN or infinity)", label_, name));
    return *e;
}

std::string_view TensorFile::data(const TensorEntry& entry) const
{
    return std::string_view(bytes_).substr(data_ + entry.offset, entry.bytes);
}

namespace {

const nlohmann::json& meta_value(const nlohmann::json& meta, std::string_view key, const std::string& label)
{
    const auto it = meta.find(key);
    if (it == meta.end())
        throw Error(fmt::format("{}: no {} in its header", label, key));
    return *it;
}

Error mistyped(const std::string& label, std::string_view key, const char* what)
{
    // NOLINTNEXTLINE(modernize-return-braced-init-list): Error's constructor is explicit
    return Error(fmt::format("{}: {} in its header is not {}", label, key, what));
}

} // namespace

bool TensorFile::has(std::string_view key) const { return meta_->values.contains(key); }

std::int64_t TensorFile::integer(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX)))
        throw mistyped(label_, key, "an integer");
    return v.get<std::int64_t>();
}

double TensorFile::real(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_number())
        throw mistyped(label_, key, "a number");
    return v.get<double>();
}

bool TensorFile::boolean(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_boolean())
        throw mistyped(label_, key, "true or false");
    return v.get<bool>();
}

std::string TensorFile::string(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_string())
        throw mistyped(label_, key, "a string");
    return v.get<std::string>();
}

std::vector<std::string> TensorFile::strings(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const auto& x) { return x.is_string(); }))
        throw mistyped(label_, key, "a list of strings");
    return v.get<std::vector<std::string>>();
}

std::vector<std::int64_t> TensorFile::integers(std::string_view key) const
{
    const auto& v = meta_value(meta_->values, key, label_);
    if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const auto& x) {
            return x.is_number_integer() &&
                   !(x.is_number_unsigned() && x.template get<std::uint64_t>() > std::uint64_t(INT64_MAX));
        }))
        throw mistyped(label_, key, "a list of integers");
    return v.get<std::vector<std::int64_t>>();
}

} // namespace rlda::core
