// What fits in this machine's memory: estimates of a model, a batch or a dataset are checked here
// before anything is allocated, so that a size too large is one line naming the figure and the
// limit instead of the allocator's trace.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

namespace rlda::core {

// The machine's physical memory in bytes (sysconf _SC_PHYS_PAGES x _SC_PAGE_SIZE), or the
// cgroup's memory.max when that is lower (a container sees the host's pages but cannot use them).
// The limit is physical memory rather than what is free now, so that the same request is accepted
// or refused the same way from one run to the next.
std::uint64_t physical_memory_bytes();

// "512 B", "1.5 KiB", "23.4 GiB", "1.1 TiB": powers of 1024, one decimal above bytes.
std::string byte_size(std::uint64_t bytes);

// The bytes of an array of `sizes` (e.g. {N, C, H, W}) with `element_bytes` each, saturating at
// the largest uint64 instead of overflowing (an estimate that large is refused all the same).
// Negative sizes count as 0.
std::uint64_t array_bytes(std::initializer_list<std::int64_t> sizes, std::uint64_t element_bytes);

// Throws Error "WHAT needs 1.1 TiB, more than this machine's 23.4 GiB of memory" when `bytes`
// exceeds physical_memory_bytes(). `what` names the request and where it comes from, e.g.
// "ConvNet2 at 3x100000x100000: a forward of 16 samples".
void check_fits(const std::string& what, std::uint64_t bytes);

} // namespace rlda::core
