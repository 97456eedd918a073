// The action space of a decision: which operation on which original block, or Do Nothing. Written
// once here and read by the trainer, the tables, the learner, the policy and the workbench.
//
// Actions are numbered operation by operation in the order of Operation (deepen first), each over
// the blocks it applies to, and Do Nothing last:
//   deepen only (the paper's):  0..n-1 deepen block i, n does nothing (n + 1 actions);
//   deepen and widen:           0..n-1 deepen, n..2n-2 widen blocks 0..n-2, 2n-1 does nothing.
// Widening applies to every original block but the last, whose outputs are the classes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::model {

enum class Operation { Deepen, Widen };

const std::vector<std::string>& operation_names(); // "deepen", "widen": Operation's order
std::string to_string(Operation op);
std::optional<Operation> parse_operation(std::string_view text);

// The operations of an experiment from their names, in Operation's order; ModelError naming the
// first unknown or repeated name, or an empty list.
std::vector<Operation> parse_operations(const std::vector<std::string>& names);
std::vector<std::string> operation_strings(const std::vector<Operation>& ops);
// The operations for a message: "deepen, widen".
std::string operations_text(const std::vector<Operation>& ops);

struct Action {
    bool nothing = true;
    Operation op = Operation::Deepen;
    int block = -1; // the original block
};

class ActionSpace {
public:
    // `blocks` original blocks (>= 1), `ops` in any order without repeats (sorted here), the
    // factor a widening multiplies a width by (> 1). Throws ModelError.
    explicit ActionSpace(int blocks, std::vector<Operation> ops = {Operation::Deepen}, double widen_factor = 2.0);

    int blocks() const { return blocks_; }
    const std::vector<Operation>& operations() const { return ops_; }
    double widen_factor() const { return widen_factor_; }
    bool deepen_only() const { return ops_.size() == 1 && ops_.front() == Operation::Deepen; }
    bool has(Operation op) const;

    // The blocks `op` applies to: 0..targets(op)-1.
    int targets(Operation op) const;
    int size() const; // Do Nothing included
    int do_nothing() const { return size() - 1; }
    // Throws ModelError naming the action and the range when it is outside 0..size()-1.
    Action at(int index) const;
    // -1 when the space has no such action.
    int index_of(Operation op, int block) const;

    std::string label(int index) const;       // "deepen block 2", "widen block 0", "do nothing"
    std::string short_label(int index) const; // "d2", "w0", "-"; the paper's numbers ("2", "3") when deepen-only
    // A sequence by short labels, space-separated ("d1 w0 -", or "1 0 3" deepen-only); an action
    // outside the space by its number.
    std::string sequence_text(const std::vector<int>& actions) const;
    bool operator==(const ActionSpace&) const = default;

private:
    int blocks_;
    std::vector<Operation> ops_;
    double widen_factor_;
};

} // namespace rlda::core::model
