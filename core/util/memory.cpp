// Physical memory, byte sizes for people, and the one check of an estimate against them.
#include "core/util/memory.h"

#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <string>

namespace rlda::core {
namespace {

// cgroup v2 memory.max (v1: memory.limit_in_bytes), or 0 when there is no limit or none is readable.
std::uint64_t cgroup_limit_bytes()
{
    for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        std::ifstream in(path);
        std::string text;
        if (!(in >> text) || text == "max")
            continue;
        try {
            return std::stoull(text);
        } catch (const std::exception&) {
            continue;
        }
    }
    return 0;
}

} // namespace

std::uint64_t physical_memory_bytes()
{
    static const std::uint64_t bytes = [] {
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long page = sysconf(_SC_PAGE_SIZE);
        std::uint64_t physical =
            pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
        const std::uint64_t cgroup = cgroup_limit_bytes();
        if (cgroup > 0 && (physical == 0 || cgroup < physical))
            physical = cgroup;
        return physical;
    }();
    return bytes;
}

std::string byte_size(std::uint64_t bytes)
{
    static constexpr std::array<const char*, 7> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024)
        return fmt::format("{} B", bytes);
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < units.size()) {
        value /= 1024.0;
        ++unit;
    }
    return fmt::format("{:.1f} {}", value, units[unit]);
}

std::uint64_t array_bytes(std::initializer_list<std::int64_t> sizes, std::uint64_t element_bytes)
{
    std::uint64_t n = element_bytes;
    for (const std::int64_t d : sizes)
        n = checked::saturating_mul(n, static_cast<std::uint64_t>(d > 0 ? d : 0));
    return n;
}

void check_fits(const std::string& what, std::uint64_t bytes)
{
    const std::uint64_t limit = physical_memory_bytes();
    if (limit > 0 && bytes > limit)
        throw Error(fmt::format("{} needs {}, more than this machine's {} of memory", what, byte_size(bytes),
                                byte_size(limit)));
}

} // namespace rlda::core
