// A run's tags and free-text note, kept in its folder as notes.json beside what the run wrote. No
// reader of the run's own files looks at it, so a bad notes file never hides the run.
// The Runs page calls these in its jobs, off the GUI thread (widgets/run/run_listing.h,
// run_notes_panel.h). A failed read or write is worded by core/util/system_error.h, through
// read_file.h and atomic_file.h; only removing an emptied notes.json words its own
// (std::error_code's message).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::io {

inline constexpr const char* kNotesFile = "notes.json";
inline constexpr std::size_t kMaxTagLength = 64;     // characters (bytes) of one tag
inline constexpr std::size_t kMaxTags = 32;          // tags per run
inline constexpr std::size_t kMaxNoteBytes = 65536;  // of the note

struct RunNotes {
    std::vector<std::string> tags; // in the order given, each once
    std::string note;
    bool empty() const { return tags.empty() && note.empty(); }
    bool operator==(const RunNotes&) const = default;
};

// "a, b ,,a" -> {"a", "b"}: split at commas, trimmed, empty and repeated tags dropped. Throws Error
// "tag \"...\": longer than 64 characters" (or with a newline, or more than kMaxTags tags).
std::vector<std::string> parse_tags(std::string_view text);
std::string tags_text(const std::vector<std::string>& tags); // "a, b"

// DIR/notes.json; empty notes when there is none. Throws Error "DIR/notes.json: reason" (one line)
// for a file that is not {"tags": [strings], "note": string} within the limits above.
RunNotes read_notes(const std::filesystem::path& dir);

// Replaces DIR/notes.json atomically (core/util/atomic_file.h); empty notes remove it. Throws Error
// for notes past the limits or a folder that cannot be written.
void write_notes(const std::filesystem::path& dir, const RunNotes& notes);

} // namespace rlda::core::io
