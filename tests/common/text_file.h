// Hand-written files for tests of readers: a file's text, its folders made first, and a temporary
// folder's path as core takes it; and the first bytes of a file a program wrote.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rlda::test {

inline void write_text(const std::filesystem::path& file, const std::string& text)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
}

// A whole file's bytes; empty when it cannot be read.
inline std::string slurp(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::filesystem::path dir_of(const QTemporaryDir& tmp) { return tmp.path().toStdString(); }

// The first n bytes of a file (a PNG's or a PDF's signature), or nothing when it cannot be read.
inline QByteArray file_head(const QString& path, int n)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

} // namespace rlda::test
