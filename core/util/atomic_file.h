// Replacing a file so that a reader (or a kill) sees the old file or the whole new one, never half.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace rlda::core {

// Calls `write(tmp)` to fill a temporary file beside `target`, then renames it over `target`.
void replace_atomically(const std::filesystem::path& target,
                        const std::function<void(const std::filesystem::path& tmp)>& write);

// The same for text.
void write_text_atomically(const std::filesystem::path& target, const std::string& text);

} // namespace rlda::core
