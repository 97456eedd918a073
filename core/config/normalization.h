// How 8-bit pixels become the network's input: one enum for the dataset loaders and the config
// (which names the values: "half", "dataset", "none", core/config/names.h). No LibTorch here, so
// that the config's headers stay light.
#pragma once

namespace rlda::core::data {

enum class Normalization {
    Half,       // (x/255 - 0.5) / 0.5 per channel: the original system's transform
    PerDataset, // (x/255 - mean) / std per channel, mean and std of the training images
    None,       // x/255
};

} // namespace rlda::core::data
