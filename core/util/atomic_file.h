// Replacing a file so that a reader (or a kill) sees the old file or the whole new one, never half.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

namespace rlda::core {

// Calls `write(tmp)` to fill a temporary file beside `target` (TARGET.tmp), then renames it over
// `target`. When `write` throws or the rename fails the temporary file is removed and `target` is
// left as it was; the Error names the target and the reason ("no space left on the device").
void replace_atomically(const std::filesystem::path& target,
                        const std::function<void(const std::filesystem::path& tmp)>& write);

// The same for text (or any bytes), written with write(2) so that a full disk is named as such.
void write_text_atomically(const std::filesystem::path& target, std::string_view text);

} // namespace rlda::core
