// Model specifications: a tree of deepen blocks, nested sequences and plain layers (no tensors).
#pragma once

#include "core/model/actions.h"
#include "core/model/layer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::model {

enum class NodeKind { Layer, Block, Sequence };

// What the zoo models put on their logits. Relu is the original system's: its last deepen block is
// [Linear, ReLU], so the scores a softmax sees are clipped at 0 (the paper's models, summaries and
// tables). Logits ends the model with the last block's Linear alone. Both keep the last block an
// original block, so a model has the same deepen actions with either head.
enum class OutputHead { Relu, Logits };

const std::vector<std::string>& output_head_names(); // "relu", "logits": the order a chooser shows
std::string to_string(OutputHead head);
std::optional<OutputHead> parse_output_head(std::string_view text);

// One node of a model. A Layer holds one layer; a Block is a deepen block, a stack such as
// [Conv2d, BatchNorm2d, ReLU]; a Sequence groups nodes. Layers and blocks become modules.
// A residual block computes after(branch(x) + skip(x)): its first `residual` layers are the branch,
// the rest run after the sum, and `skip` is the skip path (empty: the identity; else a projection
// such as [Conv2d 1x1, BatchNorm2d]).
struct Node {
    NodeKind kind = NodeKind::Layer;
    std::vector<Layer> layers;  // Layer: exactly one; Block: the stack (residual: branch, then after)
    std::vector<Node> children; // Sequence only
    bool original = true;       // Block: false for a block added by deepening
    int uid = -1;               // Layer/Block: names its module ("u<uid>"); stable across deepening
    int residual = -1;          // Block: -1 for a plain one; else how many of `layers` are the branch
    std::vector<Layer> skip;    // residual Block: the skip path

    static Node layer(Layer l);
    static Node block(std::vector<Layer> layers, bool original = true);
    static Node residual_block(std::vector<Layer> branch, std::vector<Layer> skip, std::vector<Layer> after,
                               bool original = true);
    static Node sequence(std::vector<Node> children);
    bool is_residual() const { return residual >= 0; }
    bool operator==(const Node&) const = default;
};

struct ModelSpec {
    std::string name;
    Shape input = kCifar10Input;
    std::int64_t classes = kCifar10Classes;
    Node root = Node::sequence({}); // always a Sequence
    bool operator==(const ModelSpec&) const = default;
};

// A module-bearing node (a plain layer or a block) in execution order.
struct UnitRef {
    const Node* node = nullptr;
    int original_index = -1; // index among original blocks, -1 for layers and added blocks
};

// Layers and blocks in execution order.
std::vector<UnitRef> units(const ModelSpec& spec);
int original_block_count(const ModelSpec& spec);

// Gives uids to nodes without one and checks shapes end to end; throws ModelError.
void finalize(ModelSpec& spec);
// Output shape of one sample; throws ModelError naming the unit whose input does not fit.
Shape infer_output_shape(const ModelSpec& spec);
// The output shape of one sample after every layer: shapes[u][l] follows layer l of unit u, in
// execution order (units()); the last one is infer_output_shape's. Throws as it does.
std::vector<std::vector<Shape>> layer_shapes(const ModelSpec& spec);

struct BlockSummary {
    int position = 0;        // among units, in execution order
    int original_index = -1; // action index for original blocks, -1 otherwise
    bool is_block = false;   // false: a plain layer between blocks
    bool original = true;
    std::vector<std::string> layers; // PyTorch strings (a residual block: its branch, then what runs after the sum)
    std::int64_t parameters = 0;
    int residual = -1;               // a residual block: how many of `layers` are its branch; -1 otherwise
    std::vector<std::string> skip;   // a residual block's skip path (empty: the identity)
};

// What a person (or the vocabulary) needs to know about a model, without building it.
struct ModelSummary {
    std::string name;
    Shape input;
    std::int64_t classes = 0;
    std::int64_t parameters = 0;
    int original_blocks = 0;
    std::vector<BlockSummary> units;        // execution order
    std::vector<std::string> leaf_layers;   // module layers in execution order (no Flatten); a residual
                                            // block's branch, then its skip path, then its after layers
};

ModelSummary summarize(const ModelSpec& spec);

// layer_shapes for a summary (what a run folder keeps), its layers parsed back from their strings
// from summary.input; throws ModelError naming a string that is not a layer or a layer that does not fit.
std::vector<std::vector<Shape>> layer_shapes(const ModelSummary& summary);

// The positions of the units of `a` and of `b` that the other lacks. Summaries carry no module
// ids, so units are matched by content along the execution order: a longest common subsequence
// keeps every original unit in place and leaves exactly the blocks a deepening inserted (or,
// going back, removed) unmatched. An original block in both whose sizes differ (widened, or
// taking a widened block's units) is `resized`, not removed and added.
struct UnitDiff {
    std::vector<std::size_t> only_a;
    std::vector<std::size_t> only_b;
    std::vector<std::pair<std::size_t, std::size_t>> resized; // (position in a, position in b)
};
UnitDiff diff_units(const std::vector<BlockSummary>& a, const std::vector<BlockSummary>& b);
// The original block that the added block at `position` deepens: added blocks sit after the block
// they deepen, so it is the nearest original block before them; -1 when there is none.
int deepened_block_before(const std::vector<BlockSummary>& units, std::size_t position);

// Everything Deepen(i) added: where, which layers, how many parameters.
struct DeepenResult {
    int action = 0;            // the original block index, or the Do Nothing action
    bool did_nothing = false;  // action == original_block_count
    int position = -1;         // unit position of the new block in execution order
    int uid = -1;              // module name of the new block ("u<uid>")
    std::vector<Layer> layers; // the new block
    std::int64_t added_parameters = 0;
};

// The identity block Deepen(i) inserts after original block i, checked; throws ModelError.
std::vector<Layer> identity_block_for(const Node& block);
// The block Deepen(i) inserts after residual block i: a residual block of the same layer kinds at
// the block's output width (its branch's last Conv2d's channels; stride 1, odd kernels padded to
// keep the size), identity skip, the same activations after the sum. Net::deepen zeroes its
// branch's last BatchNorm (or, without one, its last weight layer), so the branch adds exactly
// zero. Throws ModelError.
Node zero_residual_block_for(const Node& block);

// Deepen the specification only (Net::deepen also builds the weights). Action n = Do Nothing.
DeepenResult deepen_spec(ModelSpec& spec, int action);

// One layer Widen(i) changes: the widened layer and the BatchNorms after it get more outputs
// (units replicated), the next weight layer more inputs (its weights divided among the copies).
struct WidenedLayer {
    enum class Role { Outputs, Inputs };
    int uid = -1;          // the unit holding it
    std::size_t layer = 0; // its index in the unit's layers
    Role role = Role::Outputs;
    // Inputs of a Linear after a Flatten of CxHxW: H*W features per channel, channel-major.
    std::int64_t spatial = 1;
    bool skip = false; // `layer` indexes the unit's skip path (a residual block's projection)
};

// Everything Widen(i) changed.
struct WidenResult {
    int block = 0;          // the original block
    int position = -1;      // its unit position
    std::int64_t old_width = 0, new_width = 0; // output channels or features of its weight layer
    std::string before;     // the weight layer as PyTorch prints it, before and after
    std::string after;
    std::vector<WidenedLayer> changed; // execution order
    std::int64_t added_parameters = 0;
};

// The width Widen multiplies `width` by `factor` to: rounded, at least one more.
std::int64_t widened_width(std::int64_t width, double factor);

// Widen the specification only (Net::widen also builds the weights): original block `block`'s
// weight layer gets widened_width() outputs, the layers up to the next weight layer follow.
// ModelError for a block out of range, the last block (its outputs are the classes), a block that
// does not start with Conv2d or Linear, or a layer between it and the next weight layer that
// cannot carry the wider units.
WidenResult widen_spec(ModelSpec& spec, int block, double factor);

// The action space of `spec` for these operations; ModelError as ActionSpace's constructor.
ActionSpace action_space(const ModelSpec& spec, std::vector<Operation> ops = {Operation::Deepen},
                         double widen_factor = 2.0);

// What one action of a space did: its deepening or its widening, or nothing.
struct ActionResult {
    int action = 0;
    Action what;
    DeepenResult deepen; // what.op == Deepen
    WidenResult widen;   // what.op == Widen
    bool did_nothing() const { return what.nothing; }
};

// Action `action` of `space`, checked against the model: ModelError when the space is not the
// model's (another block count) or the action is out of range.
Action action_of(const ModelSpec& spec, const ActionSpace& space, int action);

// Applies action `action` of `space` to the specification (Net::apply also builds the weights).
// ModelError as action_of, or as the operation throws.
ActionResult apply_action(ModelSpec& spec, const ActionSpace& space, int action);

// The actions of `space` that `spec` cannot take as it is, each as "deepen block 2: why" in the
// space's order; empty when it can take every one. What apply_action refuses, found before a run
// reaches its first decision (a block ending in Tanh cannot be deepened, for one).
std::vector<std::string> impossible_actions(const ModelSpec& spec, const ActionSpace& space);
// ModelError naming the first of impossible_actions (and how many more), when there is one.
void check_actions(const ModelSpec& spec, const ActionSpace& space);

// Parses a growth such as "0 w1 d2" (spaces or commas): a number or dN deepens original block N,
// wN widens it; throws ModelError naming the bad token.
std::vector<Action> parse_growth(const std::string& text);
// Applies a parsed growth to the specification, widening by `widen_factor`; throws as the
// operations do. Returns what each step did.
std::vector<ActionResult> apply_growth(ModelSpec& spec, const std::vector<Action>& growth, double widen_factor = 2.0);

// Parses "0 2 1" (spaces or commas) into actions; throws ModelError naming the bad token.
std::vector<int> parse_actions(const std::string& text);
// Parses "CxHxW" ("1x28x28") or "F" ("784"); throws ModelError naming the bad value.
Shape parse_shape(const std::string& text);

} // namespace rlda::core::model
