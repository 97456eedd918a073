// make_mutants SOURCE COUNT SEED OUT: writes COUNT damaged copies of a tensor file (policy.pt,
// warm_start.pt, model.pt; core/util/tensor_file.h) into OUT as 0000.pt, 0001.pt, ... and
// OUT/mutants.tsv (file, kind, description), for scripts/mutants, which runs rlda on each.
//
// Four kinds in equal shares: "flip" (1-8 bytes anywhere), "truncate" (at a random length), "zero"
// (a range of the tensors' bytes) and "structural" edits that keep a valid checksum, so that the
// checks behind it are reached: shapes shrunk or grown (their bytes cut or added, or not), dtypes,
// names renamed, dropped or duplicated, header values out of range or of another type, NaN or
// infinity in a weight, the header length or the container version changed. Every edit makes a
// file its reader must refuse; none is a valid file that merely differs (history columns, which a
// reader may lack by design and which may hold NaN, are left alone). Every mutant differs from its
// source. Deterministic for a given source and seed.
#include "core/util/tensor_file.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;
using rlda::core::kTensorFileMagic;
using rlda::core::kTensorFileVersion;

namespace {

// The fixed prefix of tensor_file.h's layout: magic, version, CRC-32, header length.
constexpr std::size_t kVersionAt = kTensorFileMagic.size();
constexpr std::size_t kCrcAt = kVersionAt + 4;
constexpr std::size_t kHeaderLengthAt = kCrcAt + 4;
constexpr std::size_t kPrefix = kHeaderLengthAt + 8;

constexpr std::int64_t kTwo40 = std::int64_t{1} << 40;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

struct Mutant {
    std::string bytes;
    std::string kind;
    std::string description;
};

// The source split into its parts; tensors' bytes by entry, in the header's order.
struct Parsed {
    json header;
    std::vector<std::string> tensors;
};

std::string crc_le(std::string_view body)
{
    const auto crc = static_cast<std::uint32_t>(
        crc32_z(crc32_z(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(body.data()), body.size()));
    std::string out(4, '\0');
    std::memcpy(out.data(), &crc, 4);
    return out;
}

template <typename T> void put_le(std::string& bytes, std::size_t at, T v) { std::memcpy(bytes.data() + at, &v, sizeof v); }

// A file from a header and tensors' bytes, with a valid checksum; `version` and `header_length`
// replace the container's own values when given (neither is under the checksum).
std::string assemble(const json& header, const std::vector<std::string>& tensors,
                     std::uint32_t version = kTensorFileVersion, std::optional<std::uint64_t> header_length = {})
{
    std::string body = header.dump();
    const std::uint64_t length = header_length.value_or(body.size());
    for (const auto& t : tensors)
        body += t;
    std::string out(kTensorFileMagic);
    out.resize(kPrefix);
    put_le(out, kVersionAt, version);
    out.replace(kCrcAt, 4, crc_le(body));
    put_le(out, kHeaderLengthAt, length);
    return out + body;
}

class Mutator {
public:
    Mutator(std::string source, std::uint64_t seed) : source_(std::move(source)), rng_(seed)
    {
        std::uint64_t length = 0;
        std::memcpy(&length, source_.data() + kHeaderLengthAt, sizeof length);
        kind_ = json::parse(source_.substr(kPrefix, length)).at("kind").get<std::string>();
        // TensorFile checks the source first: the mutants start from a file rlda reads.
        const auto file = rlda::core::TensorFile::parse(source_, "source", kind_);
        data_ = kPrefix + length;
        parsed_.header = json::parse(source_.substr(kPrefix, length));
        for (const auto& e : file.entries())
            parsed_.tensors.push_back(source_.substr(data_ + e.offset, e.bytes));
        entries_ = file.entries();
    }

    Mutant make(int i)
    {
        static const char* kinds[] = {"flip", "truncate", "zero", "structural"};
        for (int attempt = 0;; ++attempt) {
            const std::string kind = kinds[(i + attempt) % 4];
            Mutant m = kind == "flip" ? flip() : kind == "truncate" ? truncate() : kind == "zero" ? zero() : structural();
            if (m.bytes != source_)
                return m;
        }
    }

private:
    std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    template <typename T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

    Mutant flip()
    {
        std::string b = source_;
        const std::size_t n = 1 + below(8);
        std::string where;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t at = below(b.size());
            const auto x = static_cast<unsigned char>(1 + below(255));
            b[at] = static_cast<char>(static_cast<unsigned char>(b[at]) ^ x);
            where += (k ? "," : "") + std::to_string(at);
        }
        return {b, "flip", std::to_string(n) + " byte(s) flipped at " + where};
    }

    Mutant truncate()
    {
        const std::size_t at = below(source_.size());
        return {source_.substr(0, at), "truncate", "cut to " + std::to_string(at) + " of " + std::to_string(source_.size()) + " bytes"};
    }

    Mutant zero()
    {
        std::string b = source_;
        const std::size_t data = b.size() - data_;
        if (data == 0)
            return flip();
        const std::size_t len = 1 + below(std::min<std::size_t>(data, 4096));
        const std::size_t at = data_ + below(data - len + 1);
        std::fill(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + len), '\0');
        return {b, "zero", std::to_string(len) + " byte(s) zeroed at " + std::to_string(at) + " (" + owner(at - data_) + ")"};
    }

    // The tensor whose bytes hold data offset `at`.
    std::string owner(std::size_t at) const
    {
        for (const auto& e : entries_)
            if (at >= e.offset && at < e.offset + e.bytes)
                return e.name;
        return "?";
    }

    // Entries a structural edit may target; history columns are optional by design.
    std::vector<std::size_t> targets(bool with_history_epoch = true) const
    {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            const auto& n = entries_[i].name;
            if (n.starts_with("history/") && !(with_history_epoch && n == "history/epoch"))
                continue;
            out.push_back(i);
        }
        return out;
    }

    Mutant structural()
    {
        using Edit = Mutant (Mutator::*)();
        static const std::vector<Edit> edits = {
            &Mutator::shrink_shape, &Mutator::grow_shape, &Mutator::change_dtype, &Mutator::rename,
            &Mutator::drop,         &Mutator::duplicate,  &Mutator::meta_value,   &Mutator::meta_value,
            &Mutator::meta_value,   &Mutator::meta_value, &Mutator::non_finite,   &Mutator::non_finite,
            &Mutator::header_length, &Mutator::version,   &Mutator::header_shape, &Mutator::header_form,
            &Mutator::trailing,
        };
        Mutant m = (this->*pick(edits))();
        m.kind = "structural:" + m.kind;
        return m;
    }

    Mutant shrink_shape()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        auto& shape = p.header["tensors"][i]["shape"];
        const auto& e = entries_[i];
        std::vector<std::size_t> dims;
        for (std::size_t d = 0; d < shape.size(); ++d)
            if (shape[d].get<std::int64_t>() > 0)
                dims.push_back(d);
        if (dims.empty())
            return grow_shape();
        const std::size_t d = pick(dims);
        const std::int64_t was = shape[d].get<std::int64_t>();
        const std::int64_t now = below(2) ? was - 1 : 0;
        shape[d] = now;
        const bool cut = below(2);
        if (cut) {
            const std::size_t elements = e.bytes / std::max<std::size_t>(1, element_size(e.dtype));
            const std::size_t keep = was ? elements / static_cast<std::size_t>(was) * static_cast<std::size_t>(now) : 0;
            p.tensors[i].resize(keep * element_size(e.dtype));
        }
        return {assemble(p.header, p.tensors), "shrink",
                e.name + " dim " + std::to_string(d) + " " + std::to_string(was) + "->" + std::to_string(now) +
                    (cut ? ", bytes cut" : ", bytes kept")};
    }

    Mutant grow_shape()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        auto& shape = p.header["tensors"][i]["shape"];
        const auto& e = entries_[i];
        std::string what;
        std::size_t factor = 2;
        if (shape.empty()) {
            shape.push_back(2);
            what = "scalar -> [2]";
        } else {
            const std::size_t d = below(shape.size());
            const std::int64_t was = shape[d].get<std::int64_t>();
            shape[d] = was * 2 + (was == 0);
            factor = was ? 2 : 0;
            what = "dim " + std::to_string(d) + " " + std::to_string(was) + "->" + shape[d].dump();
        }
        const bool add = below(2);
        if (add) {
            const std::size_t extra = factor ? e.bytes * (factor - 1) : element_size(e.dtype);
            p.tensors[i] += std::string(extra, '\0');
        }
        return {assemble(p.header, p.tensors), "grow", e.name + " " + what + (add ? ", zero bytes added" : ", bytes kept")};
    }

    static std::size_t element_size(rlda::core::TensorDtype t) { return rlda::core::dtype_size(t); }

    Mutant change_dtype()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        const auto& e = entries_[i];
        const std::string was = p.header["tensors"][i]["dtype"].get<std::string>();
        std::vector<std::string> others;
        for (const char* d : {"float32", "float64", "int64", "float16", "uint8", "bool", "Float", ""})
            if (was != d)
                others.push_back(d);
        const std::string now = pick(others);
        p.header["tensors"][i]["dtype"] = now;
        // float32 <-> 8-byte dtypes: the bytes resized to match (halved or doubled), or not.
        const bool resize = below(2) && (now == "float32" || now == "float64" || now == "int64");
        if (resize) {
            const std::size_t elements = e.bytes / element_size(e.dtype);
            p.tensors[i].resize(elements * (now == "float32" ? 4 : 8), '\0');
        }
        return {assemble(p.header, p.tensors), "dtype",
                e.name + " " + was + "->" + (now.empty() ? "\"\"" : now) + (resize ? ", bytes resized" : ", bytes kept")};
    }

    Mutant rename()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        const std::string was = entries_[i].name;
        const std::vector<std::string> names = {was + "x", was.substr(0, was.size() - 1), "", "policy/", was + "/",
                                                std::string(1, static_cast<char>(was[0] ^ 0x20)) + was.substr(1)};
        const std::string now = pick(names);
        p.header["tensors"][i]["name"] = now;
        return {assemble(p.header, p.tensors), "rename", was + " -> \"" + now + "\""};
    }

    Mutant drop()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        const bool bytes_too = below(4) != 0;
        p.header["tensors"].erase(i);
        if (bytes_too)
            p.tensors.erase(p.tensors.begin() + static_cast<std::ptrdiff_t>(i));
        return {assemble(p.header, p.tensors), "drop", entries_[i].name + (bytes_too ? " and its bytes" : ", bytes kept")};
    }

    Mutant duplicate()
    {
        Parsed p = parsed_;
        const auto t = targets();
        if (t.size() < 2)
            return rename();
        const std::size_t i = pick(t);
        std::size_t j = pick(t);
        while (j == i)
            j = pick(t);
        const bool copy = below(2);
        if (copy) { // a second entry of the same name, shape and bytes
            p.header["tensors"].push_back(p.header["tensors"][i]);
            p.tensors.push_back(p.tensors[i]);
            return {assemble(p.header, p.tensors), "duplicate", entries_[i].name + " appended twice"};
        }
        p.header["tensors"][j]["name"] = entries_[i].name;
        return {assemble(p.header, p.tensors), "duplicate", entries_[j].name + " renamed to " + entries_[i].name};
    }

    // Values a header key must not take: out of range for keys whose range is known, another
    // JSON type for every key. Values a valid file could hold are never chosen.
    std::vector<json> bad_values(const std::string& key, const json& v)
    {
        std::vector<json> out;
        const auto numbers = [&](std::initializer_list<json> l) { out.insert(out.end(), l); };
        // Sizes that shape tensors: any other value, however large, mismatches them.
        const bool size = key.starts_with("policy.") && key.ends_with("_size") && key != "policy.time_encoding_size";
        if (size)
            numbers({0, -1, kTwo40, kInt64Max, 1.5, std::uint64_t{1} << 63});
        else if (key == "policy.decay_freq") // no upper limit: only below 1 or not an int64
            numbers({0, -1, 1.5, std::uint64_t{1} << 63});
        else if (key == "policy.time_encoding_size")
            numbers({-1, kTwo40, 2.5});
        else if (key == "policy.alpha" || key == "adam/lr" || key == "optimizer/lr")
            numbers({0, -1, -1e308, 0.0});
        else if (key == "policy.learning_rate_decay" || key == "temperature_decay")
            numbers({0, -0.5, 1.5, 1e308});
        else if (key == "actions")
            numbers({0, -1, kTwo40, 5, 3, 4097});
        else if (key == "episode" || key == "adam/step" || key == "clock/steps" || key == "clock/evaluations" ||
                 key == "progress/steps" || key == "scheduler/reported" || (key.starts_with("optimizer/") && key.ends_with("/step")))
            numbers({-5, -1, 1.5, std::uint64_t{1} << 63});
        else if (key == "temperature")
            numbers({0, -1, -1e308, 1e308});
        else if (key == "temperature_every")
            numbers({-1, -kTwo40, 1.5});
        else if (key == "baseline_decay")
            numbers({-0.1, 1, 1.5, 1e308});
        else if (key == "version")
            numbers({0, -1, 2, 99, kInt64Max});
        else if (key == "meta/classes")
            numbers({0, -1, kTwo40, v.is_number_integer() ? json(v.get<std::int64_t>() + 1) : json(3)});
        else if (key == "progress/epochs_started" || key == "progress/epochs_completed" || key == "adaptation/decisions")
            numbers({-1, kTwo40, 1.5});
        else if (key == "clock/seconds")
            numbers({-1, -1e308});
        else if (key == "meta/input")
            numbers({json::array(), json::array({0}), json::array({-1, 16, 16}), json::array({3, 16}),
                     json::array({1, 1, 1, 1, 1, 1, 1, 1, 1}), json::array({3, kTwo40, kTwo40})});
        else if (key == "meta/deepened")
            numbers({json::array({-1}), json::array({kTwo40}), json::array({99}), json::array({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})});
        else if (key == "meta/chosen")
            numbers({json::array({-1}), json::array({kTwo40})});
        else if (key == "meta/model_name")
            numbers({"ConvNet3", "", "NoSuchModel"});
        else if (key == "optimizer/kind")
            numbers({"sgd", "rmsprop", ""});
        else if (key == "rng" && v.is_string()) {
            const std::string s = v.get<std::string>();
            numbers({"", "garbage", s.substr(0, s.size() / 2)});
        } else if (key == "words" && v.is_array() && v.size() > 1) {
            json dup = v, shorter = v, mixed = v;
            dup[1] = v[0];
            shorter.erase(shorter.size() - 1);
            mixed[0] = 7;
            numbers({json::array(), dup, shorter, mixed});
        }
        // Another JSON type, whatever the key.
        if (v.is_number())
            numbers({"1", nullptr, json::array({v}), json::object(), true});
        else if (v.is_string())
            numbers({42, nullptr, json::array({v}), false});
        else if (v.is_boolean())
            numbers({1, "true", nullptr});
        else if (v.is_array())
            numbers({7, "x", nullptr, json::object()});
        return out;
    }

    Mutant meta_value()
    {
        Parsed p = parsed_;
        auto& meta = p.header["meta"];
        std::vector<std::string> keys;
        for (const auto& [k, _] : meta.items())
            keys.push_back(k);
        const std::string key = pick(keys);
        if (below(8) == 0) {
            meta.erase(key);
            return {assemble(p.header, p.tensors), "meta", key + " removed"};
        }
        const auto values = bad_values(key, meta[key]);
        const json was = meta[key];
        const json now = pick(values);
        meta[key] = now;
        std::string w = was.dump();
        if (w.size() > 40)
            w = w.substr(0, 37) + "...";
        std::string n = now.dump();
        if (n.size() > 60)
            n = n.substr(0, 57) + "...";
        return {assemble(p.header, p.tensors), "meta", key + " " + w + " -> " + n};
    }

    Mutant non_finite()
    {
        Parsed p = parsed_;
        std::vector<std::size_t> floats;
        for (std::size_t i : targets(false))
            if ((entries_[i].dtype != rlda::core::TensorDtype::Int64) && entries_[i].bytes > 0)
                floats.push_back(i);
        if (floats.empty())
            return meta_value();
        const std::size_t i = pick(floats);
        const auto& e = entries_[i];
        const std::size_t size = element_size(e.dtype);
        const std::size_t element = below(e.bytes / size);
        const int which = static_cast<int>(below(4));
        const char* names[] = {"NaN", "signalling NaN", "+Inf", "-Inf"};
        if (size == 4) {
            const std::uint32_t bits[] = {0x7fc00000u, 0x7f800001u, 0x7f800000u, 0xff800000u};
            put_le(p.tensors[i], element * 4, bits[which]);
        } else {
            const std::uint64_t bits[] = {0x7ff8000000000000u, 0x7ff0000000000001u, 0x7ff0000000000000u,
                                          0xfff0000000000000u};
            put_le(p.tensors[i], element * 8, bits[which]);
        }
        return {assemble(p.header, p.tensors), "non-finite",
                std::string(names[which]) + " at element " + std::to_string(element) + " of " + e.name};
    }

    Mutant header_length()
    {
        const std::uint64_t real = parsed_.header.dump().size();
        const std::uint64_t file = source_.size();
        const std::vector<std::uint64_t> lengths = {file - kPrefix + 1, file, real + 1, real - 1, real / 2, 0,
                                                    std::numeric_limits<std::uint64_t>::max(),
                                                    std::uint64_t{1} << 63, (16u << 20) + 1};
        const std::uint64_t now = pick(lengths);
        return {assemble(parsed_.header, parsed_.tensors, kTensorFileVersion, now), "header-length",
                std::to_string(real) + " -> " + std::to_string(now)};
    }

    Mutant version()
    {
        const std::vector<std::uint32_t> versions = {0, kTensorFileVersion + 1, 0xffffffffu, 0x80000000u,
                                                     static_cast<std::uint32_t>(rng_())};
        std::uint32_t now = pick(versions);
        if (now == kTensorFileVersion)
            now = 0;
        return {assemble(parsed_.header, parsed_.tensors, now), "version",
                std::to_string(kTensorFileVersion) + " -> " + std::to_string(now)};
    }

    // A tensor's shape made malformed: negative, fractional, overflowing, too many dimensions.
    Mutant header_shape()
    {
        Parsed p = parsed_;
        const std::size_t i = pick(targets());
        auto& shape = p.header["tensors"][i]["shape"];
        const json was = shape;
        const std::vector<json> shapes = {
            json::array({-1}),
            json::array({1.5}),
            json::array({std::int64_t{1} << 62, std::int64_t{1} << 62}),
            json::array({kInt64Max}),
            json::array({std::uint64_t{1} << 63}),
            json::array({1, 1, 1, 1, 1, 1, 1, 1, 1}),
            json::array({"4"}),
            nullptr,
            json::object(),
        };
        json now = pick(shapes);
        if (now.is_array() && now.size() == 9) { // as many elements, one dimension too many
            std::int64_t n = 1;
            for (const auto& d : was)
                n *= d.get<std::int64_t>();
            now[8] = n;
        }
        shape = now;
        return {assemble(p.header, p.tensors), "shape", entries_[i].name + " " + was.dump() + " -> " + now.dump()};
    }

    // The header's own form: its kind, its lists, its JSON.
    Mutant header_form()
    {
        Parsed p = parsed_;
        switch (below(8)) {
        case 0: {
            const std::string now = kind_ == "policy" ? "checkpoint" : "policy";
            p.header["kind"] = now;
            return {assemble(p.header, p.tensors), "form", "kind " + kind_ + " -> " + now};
        }
        case 1:
            p.header["kind"] = 1;
            return {assemble(p.header, p.tensors), "form", "kind -> 1"};
        case 2:
            p.header["meta"] = json::array();
            return {assemble(p.header, p.tensors), "form", "meta -> []"};
        case 3:
            p.header["tensors"] = json::object();
            return {assemble(p.header, p.tensors), "form", "tensors -> {}"};
        case 4: {
            const std::size_t i = pick(targets());
            p.header["tensors"][i].erase(pick(std::vector<std::string>{"name", "dtype", "shape"}));
            return {assemble(p.header, p.tensors), "form", entries_[i].name + ": a field removed"};
        }
        case 5: {
            const std::size_t i = pick(targets());
            p.header["tensors"][i] = json::array({entries_[i].name});
            return {assemble(p.header, p.tensors), "form", entries_[i].name + ": entry -> [name]"};
        }
        case 6: { // the header's text cut inside, the length adjusted: not JSON
            const std::string whole = p.header.dump();
            std::string text;
            do { // a cut that leaves valid JSON (a digit of a number) would be a valid file
                text = whole;
                text.erase(below(text.size()), 1 + below(16));
            } while (json::accept(text));
            std::string body = text;
            for (const auto& t : p.tensors)
                body += t;
            std::string out(kTensorFileMagic);
            out.resize(kPrefix);
            put_le(out, kVersionAt, kTensorFileVersion);
            out.replace(kCrcAt, 4, crc_le(body));
            put_le(out, kHeaderLengthAt, static_cast<std::uint64_t>(text.size()));
            return {out + body, "form", "header JSON cut"};
        }
        default:
            p.header = json::array({p.header});
            return {assemble(p.header, p.tensors), "form", "header wrapped in an array"};
        }
    }

    Mutant trailing()
    {
        Parsed p = parsed_;
        const std::size_t n = 1 + below(64);
        p.tensors.back() += std::string(n, '\0');
        return {assemble(p.header, p.tensors), "trailing", std::to_string(n) + " byte(s) after the last tensor"};
    }

    std::string source_;
    std::mt19937_64 rng_;
    std::string kind_;
    std::size_t data_ = 0;
    Parsed parsed_;
    std::vector<rlda::core::TensorEntry> entries_;
};

std::string read_all(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw std::runtime_error(file.string() + ": cannot be read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::cerr << "usage: make_mutants SOURCE COUNT SEED OUT\n";
        return 2;
    }
    try {
        const fs::path source = argv[1];
        const int count = std::stoi(argv[2]);
        const std::uint64_t seed = std::stoull(argv[3]);
        const fs::path out = argv[4];
        if (count < 0)
            throw std::runtime_error("COUNT must be >= 0");
        fs::create_directories(out);
        Mutator m(read_all(source), seed);
        std::ofstream tsv(out / "mutants.tsv", std::ios::trunc);
        tsv << "file\tkind\tdescription\n";
        for (int i = 0; i < count; ++i) {
            const Mutant mutant = m.make(i);
            char name[32];
            std::snprintf(name, sizeof name, "%04d.pt", i);
            std::ofstream f(out / name, std::ios::binary | std::ios::trunc);
            f.write(mutant.bytes.data(), static_cast<std::streamsize>(mutant.bytes.size()));
            if (!f)
                throw std::runtime_error((out / name).string() + ": cannot be written");
            tsv << name << '\t' << mutant.kind << '\t' << mutant.description << '\n';
        }
        if (!tsv.flush())
            throw std::runtime_error((out / "mutants.tsv").string() + ": cannot be written");
    } catch (const std::exception& e) {
        std::cerr << "make_mutants: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
