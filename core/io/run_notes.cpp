// notes.json: read strictly (one-line errors), written whole by rename.
#include "core/io/run_notes.h"

#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <system_error>

namespace rlda::core::io {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

// The reason a tag is refused, "" when it is fine.
std::string tag_problem(const std::string& tag)
{
    if (tag.size() > kMaxTagLength)
        return fmt::format("tag \"{}...\": longer than {} characters", tag.substr(0, 16), kMaxTagLength);
    if (tag.find_first_of("\n\r,") != std::string::npos)
        return fmt::format("tag \"{}\": holds a comma or a line break", tag.substr(0, kMaxTagLength));
    return {};
}

void check(const RunNotes& notes, const std::string& where)
{
    if (notes.tags.size() > kMaxTags)
        throw Error(fmt::format("{}{} tags, at most {}", where, notes.tags.size(), kMaxTags));
    for (const auto& t : notes.tags)
        if (const auto p = tag_problem(t); !p.empty())
            throw Error(where + p);
    if (notes.note.size() > kMaxNoteBytes)
        throw Error(fmt::format("{}note of {} bytes, at most {}", where, notes.note.size(), kMaxNoteBytes));
}

} // namespace

std::vector<std::string> parse_tags(std::string_view text)
{
    std::vector<std::string> tags;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t comma = std::min(text.find(',', begin), text.size());
        std::string tag = trimmed(text.substr(begin, comma - begin));
        if (!tag.empty() && std::find(tags.begin(), tags.end(), tag) == tags.end()) {
            if (const auto p = tag_problem(tag); !p.empty())
                throw Error(p);
            tags.push_back(std::move(tag));
        }
        begin = comma + 1;
    }
    if (tags.size() > kMaxTags)
        throw Error(fmt::format("{} tags, at most {}", tags.size(), kMaxTags));
    return tags;
}

std::string tags_text(const std::vector<std::string>& tags)
{
    std::string out;
    for (const auto& t : tags)
        out += (out.empty() ? "" : ", ") + t;
    return out;
}

RunNotes read_notes(const fs::path& dir)
{
    const fs::path file = dir / kNotesFile;
    std::error_code ec;
    if (!fs::exists(file, ec))
        return {};
    const std::string where = file.string() + ": ";
    // Room for the note and the tags as JSON escapes them: anything larger is not ours.
    if (const auto size = fs::file_size(file, ec); !ec && size > 8 * kMaxNoteBytes)
        throw Error(fmt::format("{}{} bytes, larger than a notes file can be", where, size));
    const std::string text = read_text_file(file);
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
        throw Error(where + "not a JSON object");
    RunNotes notes;
    if (j.contains("tags")) {
        const json& tags = j.at("tags");
        if (!tags.is_array())
            throw Error(where + "\"tags\" is not a list of strings");
        for (const json& t : tags) {
            if (!t.is_string())
                throw Error(where + "\"tags\" is not a list of strings");
            notes.tags.push_back(t.get<std::string>());
        }
    }
    if (j.contains("note")) {
        if (!j.at("note").is_string())
            throw Error(where + "\"note\" is not a string");
        notes.note = j.at("note").get<std::string>();
    }
    check(notes, where);
    return notes;
}

void write_notes(const fs::path& dir, const RunNotes& notes)
{
    const fs::path file = dir / kNotesFile;
    check(notes, file.string() + ": ");
    std::error_code ec;
    if (notes.empty()) {
        fs::remove(file, ec);
        if (ec)
            throw Error(fmt::format("{}: cannot remove: {}", file.string(), ec.message()));
        return;
    }
    if (!fs::is_directory(dir, ec))
        throw Error(fmt::format("{}: not a folder", dir.string()));
    const json j{{"version", 1}, {"tags", notes.tags}, {"note", notes.note}};
    write_text_atomically(file, j.dump(2) + "\n");
}

} // namespace rlda::core::io
