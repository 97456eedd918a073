// CSV reading for the reference data and simulation tables.
#include "core/util/csv.h"

#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>

#include <sstream>
#include <string_view>

namespace rlda::core {

std::size_t CsvTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return i;
    throw Error(fmt::format("{}: missing column \"{}\"", source, name));
}

std::string csv_field(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string out = "\"";
    for (const char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

std::vector<std::string> split_csv_record(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted)
        throw Error("unterminated quoted field");
    return fields;
}

namespace {

// The fields split_csv_record would make of `line`, counted without making them.
std::size_t field_count(std::string_view line)
{
    std::size_t fields = 1;
    bool quoted = false;
    for (const char c : line) {
        if (c == '"')
            quoted = !quoted; // a doubled quote inside a quoted field toggles twice
        else if (c == ',' && !quoted)
            ++fields;
    }
    return fields;
}

} // namespace

CsvTable read_csv(const std::string& path)
{
    // Opened once and checked: a folder, a FIFO or an unreadable file is named as such.
    std::string text = read_text_file(path);
    if (text.starts_with("\xef\xbb\xbf")) // a byte-order mark, as some spreadsheets write
        text.erase(0, 3);
    if (text.find('\r') != std::string::npos && text.find('\n') == std::string::npos)
        throw Error(
            fmt::format("{}: its lines end in CR alone (an old Mac text file); save it with LF or CRLF line "
                        "ends",
                        path));
    std::istringstream in(std::move(text));
    CsvTable table;
    table.source = path;
    std::string line;
    int number = 0;
    std::size_t fields_read = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line == "\r")
            continue;
        // Counted before a field is made: a line of a million commas, or a file of tiny fields,
        // would take some thirty times its size as strings.
        const std::size_t count = field_count(line);
        if (!table.header.empty() && count > table.header.size())
            throw Error(
                fmt::format("{}:{}: {} fields, the header has {}", path, number, count, table.header.size()));
        if (count > kMaxCsvFields || (fields_read += count) > kMaxCsvFields)
            throw Error(fmt::format("{}: more than {} fields; no file rlda reads this way holds that many",
                                    path, kMaxCsvFields));
        std::vector<std::string> fields;
        try {
            fields = split_csv_record(line);
            // No file rlda reads holds a control character in a field: a name that could retitle
            // or recolour the terminal it is printed on is refused here.
            for (const auto& field : fields)
                refuse_control_characters(field, "a field");
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: {}", path, number, e.what()));
        }
        if (table.header.empty()) {
            table.header = std::move(fields);
            continue;
        }
        if (fields.size() != table.header.size())
            throw Error(fmt::format("{}:{}: {} fields, the header has {}", path, number, fields.size(),
                                    table.header.size()));
        table.rows.push_back(std::move(fields));
        table.row_lines.push_back(number);
    }
    if (table.header.empty())
        throw Error(fmt::format("{}: empty file, expected a header row", path));
    return table;
}

} // namespace rlda::core
