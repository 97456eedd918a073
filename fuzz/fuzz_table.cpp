// Simulation tables and their index (core/table/table.h): the bytes as a table, with its action
// count inferred and given, and as an index.csv.
#include "core/table/table.h"
#include "fuzz/fuzz_input.h"

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::InputFile file(data, size);
    fuzz::run([&] { core::sim::SimulationTable::load(file.path()); });
    fuzz::run([&] { core::sim::SimulationTable::load(file.path(), 4); });
    fuzz::run([&] { core::sim::load_table_index(file.path()); });
    return 0;
}
