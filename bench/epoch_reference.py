#!/usr/bin/python3
"""The Python/PyTorch side of bench/epoch: one training epoch of ConvNet2 as the original system
ran it, on Debian's python3-torch. Prints `images_per_s: X` for the mode asked.

  bare      tensors already in memory, a randperm per epoch, index per batch (the fastest Python form)
  pipeline  the original style: uint8 HWC images, PIL + torchvision ToTensor/Normalize per image,
            behind a DataLoader (batch 64, shuffle, no workers)
"""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn


def convnet2(channels=3, classes=10):
    # The original's ConvNet2, ReLU on the output included.
    return nn.Sequential(
        nn.Conv2d(channels, 32, 3), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AvgPool2d((2, 2)),
        nn.Conv2d(32, 32, 3), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
        nn.Linear(32, classes), nn.ReLU())


def train_step(model, opt, loss_fn, x, y):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()


def bare(model, opt, loss_fn, n, batch, rng):
    x = torch.randn(n, 3, 32, 32, generator=rng)
    y = torch.randint(0, 10, (n,), generator=rng)
    start = time.perf_counter()
    perm = torch.randperm(n, generator=rng)
    for i in range(0, n, batch):
        idx = perm[i:i + batch]
        train_step(model, opt, loss_fn, x[idx], y[idx])
    return time.perf_counter() - start


def pipeline(model, opt, loss_fn, n, batch, rng):
    from PIL import Image
    from torchvision import transforms

    class Images(torch.utils.data.Dataset):
        """torchvision.datasets.CIFAR10's __getitem__: uint8 HWC array -> PIL -> transform."""

        def __init__(self, data, targets, transform):
            self.data, self.targets, self.transform = data, targets, transform

        def __len__(self):
            return len(self.data)

        def __getitem__(self, i):
            return self.transform(Image.fromarray(self.data[i])), int(self.targets[i])

    data = np.random.default_rng(0).integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
    targets = np.random.default_rng(1).integers(0, 10, size=n)
    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
    loader = torch.utils.data.DataLoader(Images(data, targets, transform), batch_size=batch, shuffle=True,
                                         generator=rng, num_workers=0)
    start = time.perf_counter()
    for x, y in loader:
        train_step(model, opt, loss_fn, x, y)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["bare", "pipeline"], required=True)
    ap.add_argument("--samples", type=int, default=10000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    rng = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = convnet2()
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    seconds = (bare if a.mode == "bare" else pipeline)(model, opt, nn.CrossEntropyLoss(), a.samples, a.batch, rng)
    print(f"images_per_s: {a.samples / seconds:.1f}")


if __name__ == "__main__":
    main()
