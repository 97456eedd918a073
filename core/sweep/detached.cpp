// Detached sweeps: the marker's format (JSON, written atomically), the search for one to follow
// again, and a reading of one through the local and Slurm backends' own status.
#include "core/sweep/detached.h"

#include "core/config/experiment_io.h"
#include "core/sweep/local.h"
#include "core/sweep/process.h"
#include "core/sweep/slurm.h"
#include "core/table/race.h"
#include "core/table/table.h"
#include "core/table/table_status.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <utility>
#include <vector>

namespace rlda::core::sweep {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarkerSuffix = ".sweep.json";

fs::path beside(const fs::path& folder, std::string_view suffix)
{
    fs::path p = folder;
    p += suffix;
    return p;
}

} // namespace

fs::path marker_file(const fs::path& folder)
{
    return beside(folder, kMarkerSuffix);
}
fs::path settings_file(const fs::path& folder)
{
    return beside(folder, ".toml");
}
fs::path follower_log(const fs::path& folder)
{
    return beside(folder, ".log");
}

bool sweep_name_taken(const fs::path& folder)
{
    std::error_code ec;
    return std::ranges::any_of(
        std::vector{folder, marker_file(folder), settings_file(folder), follower_log(folder)},
        [&](const fs::path& p) { return fs::exists(p, ec); });
}

void write_marker(const SweepMarker& m)
{
    const nlohmann::json j{{"folder", m.folder.string()},
                           {"backend", config::to_string(m.backend)},
                           {"parts", m.parts},
                           {"pid", m.pid}};
    write_text_atomically(marker_file(m.folder), j.dump(4) + "\n");
}

SweepMarker read_marker(const fs::path& file)
{
    const std::string text = read_text_file(file); // a folder or an unreadable file in one line
    const auto bad = [&](const std::string& why) {
        return Error(fmt::format("{}: not a sweep marker: {}", file.string(), why));
    };
    SweepMarker m;
    std::string backend;
    try {
        const auto j = nlohmann::json::parse(text);
        m.folder = j.at("folder").get<std::string>();
        backend = j.at("backend").get<std::string>();
        m.parts = j.at("parts").get<int>();
        m.pid = j.at("pid").get<std::int64_t>();
    } catch (const nlohmann::json::exception& e) {
        throw bad(message_excerpt(e.what()));
    }
    const auto b = config::from_string<config::SweepBackend>(backend);
    if (!b)
        throw bad(fmt::format("backend: {} is not a sweep backend", excerpt(backend)));
    m.backend = *b;
    if (m.folder.empty())
        throw bad("folder: empty");
    if (m.parts < 1)
        throw bad(fmt::format("parts: {} is not a number of parts (1 or more)", m.parts));
    if (m.pid < 0)
        throw bad(fmt::format("pid: {} is not a process id", m.pid));
    return m;
}

std::optional<FoundSweep> find_unfinished(const fs::path& root)
{
    std::vector<std::pair<fs::file_time_type, fs::path>> markers;
    std::error_code ec;
    for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code file_ec;
        if (name.size() > kMarkerSuffix.size() && name.ends_with(kMarkerSuffix) &&
            it->is_regular_file(file_ec))
            markers.emplace_back(it->last_write_time(file_ec), it->path());
    }
    std::ranges::sort(markers, std::greater<>());
    for (const auto& [time, marker] : markers) {
        const std::string name = marker.filename().string();
        if (table_collected(marker.parent_path() / name.substr(0, name.size() - kMarkerSuffix.size())))
            continue;
        try {
            FoundSweep f;
            f.marker = read_marker(marker);
            f.config = config::load_experiment(settings_file(f.marker.folder).string());
            f.slurm_recorded = fs::exists(f.marker.folder / "sweep.json", ec);
            return f;
        } catch (const std::exception&) {
            continue; // torn, or its settings are gone: an older sweep may still be followed
        }
    }
    return std::nullopt;
}

bool table_collected(const fs::path& folder)
{
    // A race's table is whole after every round: it is done when its last round ended it.
    try {
        if (const auto rounds = sim::read_race_log(folder / "race.csv");
            !rounds.empty() && !rounds.back().end)
            return false;
    } catch (const std::exception&) {
        return false; // being rewritten, or torn
    }
    const fs::path table = folder / "table.csv";
    std::error_code ec;
    if (!fs::exists(table, ec))
        return false;
    try {
        // The table's metadata (table.json) says how many rows make it whole.
        const auto status = sim::table_status(table);
        if (status.expected > 0)
            return status.complete() &&
                   sim::SimulationTable::load(table.string(), status.meta->actions).complete();
        return sim::SimulationTable::load(table.string()).complete();
    } catch (const std::exception&) {
        return false; // being rewritten, or torn: not collected yet
    }
}

SweepReading read_sweep(const SweepMarker& sweep, const config::ExperimentConfig& config,
                        std::optional<sim::TableShape> shape)
{
    SweepReading r;
    r.alive = process_alive(sweep.pid, kFollowerProgram);
    r.shape = std::move(shape);
    try {
        const fs::path& dir = sweep.folder;
        // A replicated table trains a warm start per seed, each in its seed's folder.
        r.warm_start =
            fs::exists(dir / "warm_start.pt") || std::ranges::any_of(config.sweep.seeds, [&](std::int64_t s) {
                return fs::exists(sim::seed_folder(dir, static_cast<std::uint64_t>(s)) / "warm_start.pt");
            });
        const bool slurm = sweep.backend == config::SweepBackend::Slurm && fs::exists(dir / "sweep.json");
        if (r.warm_start && slurm) {
            // poll() takes the sweep's lock: safe beside the rlda process that follows it.
            r.status = SlurmSweep::attach(dir).poll();
        } else if (r.warm_start) {
            if (!r.shape) {
                // The table's shape: from its metadata once the sweep wrote it, else from the settings.
                if (const auto meta = sim::find_table_meta(dir / "table.csv"))
                    r.shape = sim::TableShape{meta->decisions, meta->actions, meta->rows, meta->seeds};
                else
                    r.shape = sim::table_shape(config);
            }
            r.status = status(dir, *r.shape, sweep.parts);
            if (r.alive)
                for (auto& t : r.status.tasks)
                    if (t.state == TaskState::Pending)
                        t.state = TaskState::Running; // every part has its own process
        }
        if (config.sweep.race)
            r.race = sim::read_race_log(dir / "race.csv");
    } catch (const std::exception& e) {
        r.error = error_line(e);
    }
    // A race's first round collects its table before the rounds after it begin.
    r.status.collected = (!config.sweep.race && r.status.collected) || table_collected(sweep.folder);
    return r;
}

} // namespace rlda::core::sweep
