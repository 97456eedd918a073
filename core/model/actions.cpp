// The action space: operations by name, and the numbering of (operation, block) pairs.
#include "core/model/actions.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::model {

const std::vector<std::string>& operation_names()
{
    static const std::vector<std::string> names{"deepen", "widen"};
    return names;
}

std::string to_string(Operation op) { return operation_names()[static_cast<std::size_t>(op)]; }

std::optional<Operation> parse_operation(std::string_view text)
{
    const auto& names = operation_names();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == text)
            return static_cast<Operation>(i);
    return std::nullopt;
}

std::vector<Operation> parse_operations(const std::vector<std::string>& names)
{
    if (names.empty())
        throw ModelError(R"(operations: the list is empty; give at least one of "deepen", "widen")");
    std::vector<Operation> ops;
    for (const auto& n : names) {
        const auto op = parse_operation(n);
        if (!op)
            throw ModelError(
                fmt::format(R"(operations: unknown operation "{}" (known: "deepen", "widen"))", n));
        if (std::find(ops.begin(), ops.end(), *op) != ops.end())
            throw ModelError(fmt::format("operations: \"{}\" is listed twice", n));
        ops.push_back(*op);
    }
    std::sort(ops.begin(), ops.end());
    return ops;
}

std::vector<std::string> operation_strings(const std::vector<Operation>& ops)
{
    std::vector<std::string> out;
    out.reserve(ops.size());
    for (Operation op : ops)
        out.push_back(to_string(op));
    return out;
}

std::string operations_text(const std::vector<Operation>& ops)
{
    std::string text;
    for (Operation op : ops)
        text += (text.empty() ? "" : ", ") + to_string(op);
    return text;
}

ActionSpace::ActionSpace(int blocks, std::vector<Operation> ops, double widen_factor)
    : blocks_(blocks), ops_(std::move(ops)), widen_factor_(widen_factor)
{
    if (blocks_ < 1)
        throw ModelError(fmt::format("actions: a model needs at least one original block, not {}", blocks_));
    if (ops_.empty())
        throw ModelError(R"(actions: no operation; give at least one of "deepen", "widen")");
    std::sort(ops_.begin(), ops_.end());
    if (std::adjacent_find(ops_.begin(), ops_.end()) != ops_.end())
        throw ModelError("actions: an operation is listed twice");
    if (!std::isfinite(widen_factor_) || widen_factor_ <= 1.0)
        throw ModelError(fmt::format("actions: the widening factor must be above 1, got {}", widen_factor_));
}

bool ActionSpace::has(Operation op) const { return std::find(ops_.begin(), ops_.end(), op) != ops_.end(); }

int ActionSpace::targets(Operation op) const
{
    if (!has(op))
        return 0;
    return op == Operation::Widen ? blocks_ - 1 : blocks_;
}

int ActionSpace::size() const
{
    int n = 1;
    for (Operation op : ops_)
        n += targets(op);
    return n;
}

Action ActionSpace::at(int index) const
{
    if (index < 0 || index >= size())
        throw ModelError(fmt::format("action {} is out of range: 0..{} ({} does nothing)", index, size() - 1,
                                     size() - 1));
    int first = 0;
    for (Operation op : ops_) {
        const int n = targets(op);
        if (index < first + n)
            return {false, op, index - first};
        first += n;
    }
    return {};
}

int ActionSpace::index_of(Operation op, int block) const
{
    int first = 0;
    for (Operation o : ops_) {
        const int n = targets(o);
        if (o == op)
            return block >= 0 && block < n ? first + block : -1;
        first += n;
    }
    return -1;
}

std::string ActionSpace::label(int index) const
{
    const Action a = at(index);
    return a.nothing ? "do nothing" : fmt::format("{} block {}", to_string(a.op), a.block);
}

std::string ActionSpace::short_label(int index) const
{
    const Action a = at(index);
    if (deepen_only())
        return std::to_string(index);
    return a.nothing ? "-" : fmt::format("{}{}", to_string(a.op).front(), a.block);
}

std::string ActionSpace::sequence_text(const std::vector<int>& actions) const
{
    std::string out;
    for (int a : actions) {
        if (!out.empty())
            out += ' ';
        out += a >= 0 && a < size() ? short_label(a) : std::to_string(a);
    }
    return out;
}

} // namespace rlda::core::model
