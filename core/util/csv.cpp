// CSV reading for the reference data and simulation tables.
#include "core/util/csv.h"

#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>

#include <sstream>

namespace rlda::core {

std::size_t CsvTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return i;
    throw Error(fmt::format("{}: missing column \"{}\"", source, name));
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

CsvTable read_csv(const std::string& path)
{
    // Opened once and checked: a folder, a FIFO or an unreadable file is named as such.
    std::istringstream in(read_text_file(path));
    CsvTable table;
    table.source = path;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line == "\r")
            continue;
        std::vector<std::string> fields;
        try {
            fields = split_csv_record(line);
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
