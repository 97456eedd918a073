// Reading RFC 4180 CSV (quoted fields with commas and doubled quotes), with line numbers in errors,
// and writing one field so that it reads back.
#pragma once

#include <string>
#include <vector>

namespace rlda::core {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<int> row_lines; // 1-based line of each row in the file, for messages

    // Index of a column by name; throws Error naming the file and the missing column.
    std::size_t column(const std::string& name) const;
    std::string source;
};

// Splits one record; throws Error on an unterminated quote.
std::vector<std::string> split_csv_record(const std::string& line);

// The most fields read_csv reads from one file: its files (indexes, a study's folds, ranks and
// references) hold far fewer.
inline constexpr std::size_t kMaxCsvFields = 1'000'000;

// One field as RFC 4180 writes it: as it is, or in double quotes (doubled inside) when it holds a
// comma, a quote or a line break. What split_csv_record reads back.
std::string csv_field(const std::string& field);

// Reads a file with a header row; every row must have as many fields as the header. A byte-order
// mark at the start is skipped. Error naming the file (and line) for CR-only line ends, a field
// holding a control character, and more than kMaxCsvFields fields.
CsvTable read_csv(const std::string& path);

} // namespace rlda::core
