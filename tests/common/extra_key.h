// One key more than the experiment schema has, for the tests that prove a key declared in one
// place is read, written, validated and shown: [trainer] patience, a number in [0, 100] kept in
// storage of the test's own.
#pragma once

#include "core/config/schema.h"

#include <memory>

namespace rlda::test {

inline core::config::Schema with_patience(const std::shared_ptr<double>& patience)
{
    using namespace core::config;
    Schema schema = experiment_schema();
    schema.add({.name = "trainer.patience", .type = Type::Number, .label = "Patience",
                .help = "Epochs without progress before stopping",
                .value = Binding<double>{[patience](const ExperimentConfig&) { return *patience; },
                                         [patience](ExperimentConfig&, double v) { *patience = v; }},
                .range = {0.0, 100.0}});
    return schema;
}

} // namespace rlda::test
