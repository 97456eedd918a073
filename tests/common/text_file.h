// Hand-written files for tests of readers: a file's text, its folders made first, and a temporary
// folder's path as core takes it.
#pragma once

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <string>

namespace rlda::test {

inline void write_text(const std::filesystem::path& file, const std::string& text)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
}

inline std::filesystem::path dir_of(const QTemporaryDir& tmp) { return tmp.path().toStdString(); }

} // namespace rlda::test
