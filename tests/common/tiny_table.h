// The tiny experiment's table (tests/common/tiny_sim.h) built by the rlda program, as a user builds
// one, for the suites that need a real table folder but link no engine.
#pragma once

#include "tests/common/rlda_cli.h"
#include "tests/common/tiny_sim.h"

#include <QFile>
#include <QTemporaryDir>

namespace rlda::test {

// `rlda simulate` of tiny_toml into `out`: config.toml, table.json, warm_start.pt and table.csv of
// 16 rows. The program's result: code 0 once the table is complete.
inline CliResult simulate_tiny_table(const QString& out)
{
    QTemporaryDir settings; // the experiment file, outside any folder a suite lists
    QFile file(settings.filePath(QStringLiteral("tiny.toml")));
    if (!settings.isValid() || !file.open(QIODevice::WriteOnly) || file.write(tiny_toml) < 0)
        return {-3, {}, QStringLiteral("cannot write %1").arg(file.fileName())};
    file.close();
    return rlda_cli({QStringLiteral("simulate"), file.fileName(), QStringLiteral("--out"), out});
}

} // namespace rlda::test
