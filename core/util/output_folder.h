// The folders rlda writes its output into (run folders, learning runs, reproductions, simulation
// table folders), and the one rule by which --force may empty one: only a folder rlda made.
#pragma once

#include <filesystem>

namespace rlda::core {

// The marker file rlda writes first into every output folder it creates.
inline constexpr const char* kOutputMarker = ".rlda";

// True when `dir` is a folder rlda made: it holds the marker, or (folders made before the marker)
// one of the files rlda writes first into its folders: events.jsonl (training and learning runs),
// ranks.csv (reproductions), table.json (simulation tables).
bool made_by_rlda(const std::filesystem::path& dir);

// The checks of prepare_output_folder, touching nothing: an existing file is an Error; an existing
// non-empty folder is an Error unless `force` and made_by_rlda(): --force never empties a folder
// rlda did not make.
void check_output_folder(const std::filesystem::path& dir, bool force);

// Makes `dir` ready for new output: check_output_folder(), then empties it when it is not empty,
// creates it (and parents) and writes the marker.
void prepare_output_folder(const std::filesystem::path& dir, bool force);

} // namespace rlda::core
