// A text file that grows one whole line at a time, one write(2) per line: a run killed at any
// moment leaves at most its last line torn, and two writers of one file (a retry racing a slow
// kill) never interleave within a line.
#pragma once

#include <filesystem>
#include <string>

namespace rlda::core {

class LineAppender {
public:
    // Opens `file` for appending (created if missing) and writes `header` first when it is empty.
    // Error "file: cannot open for writing: reason".
    LineAppender(const std::filesystem::path& file, const std::string& header);
    ~LineAppender();
    LineAppender(const LineAppender&) = delete;
    LineAppender& operator=(const LineAppender&) = delete;

    // `line` ends in '\n'. Error "file: cannot write: reason".
    void append(const std::string& line);

private:
    std::filesystem::path file_;
    int fd_ = -1;
};

} // namespace rlda::core
