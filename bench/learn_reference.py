#!/usr/bin/python3
"""The Python/PyTorch side of bench/learn: simulation-driven learning (the paper's Algorithm 4) as
the original system ran it, on Debian's python3-torch. Prints `episodes_per_s: X`.

The problem file (written by bench_learn) holds every action prefix's leaf-layer ids in the C++
vocabulary and its time left, every sequence's final accuracy, and the policy's sizes, so that
both sides run the same episodes; the ids are turned into tensors once, before timing.

Per episode: k decisions, each a forward of the policy (fixed embeddings -> BiLSTM -> LSTM, last
state ++ time encoding -> Linear/ReLU/Linear/ReLU/Linear -> softmax) and a sampled action; then
one update with Adam of the mean over the decisions of -log p(a) * r, r = 100 tan(acc pi/2);
lr x decay every decay_freq episodes.

With --encoder structural the problem holds each architecture's layer rows and blocks instead of
ids (core/agent/structure.h), and the policy is the structural one (core/policy/structural_policy.h):
rows -> Linear/ReLU -> BiLSTM; context = an LSTM's last state ++ time encoding; each block's logit
from the mean of its layers' BiLSTM outputs ++ context through an MLP, Do Nothing's from the
context through its own MLP.
"""
import argparse
import json
import math
import random
import time

import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, p, actions, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        e, h, d = p["embedding_size"], p["hidden_size"], p["decider_lstm_size"]
        f, t = p["decider_linear_size"], p["time_encoding_size"]
        self.register_buffer("embeddings", torch.randn(p["vocabulary"], e, generator=g))
        self.encoder = nn.LSTM(e, h, bidirectional=True)
        self.decider = nn.LSTM(2 * h, d)
        self.fc1 = nn.Linear(d + t, f)
        self.fc2 = nn.Linear(f, f)
        self.out = nn.Linear(f, actions)
        self.time_size = t

    def forward(self, ids, time_left, budget):
        x = self.embeddings[ids].unsqueeze(1)  # [L, 1, E]: sequence first, batch of one
        encoded, _ = self.encoder(x)
        _, (last, _) = self.decider(encoded)
        t = torch.tensor([5.0 * math.sin(2.0 * math.pi * i * time_left / budget)
                          for i in range(1, self.time_size + 1)])
        h = torch.cat([last.reshape(-1), t])
        h = torch.relu(self.fc1(h))
        h = torch.relu(self.fc2(h))
        return self.out(h)


class StructuralPolicy(nn.Module):
    def __init__(self, p, features):
        super().__init__()
        e, h, d = p["embedding_size"], p["hidden_size"], p["decider_lstm_size"]
        f, t = p["decider_linear_size"], p["time_encoding_size"]
        self.embed = nn.Linear(features, e)
        self.encoder = nn.LSTM(e, h, bidirectional=True)
        self.decider = nn.LSTM(2 * h, d)
        self.block = nn.Sequential(nn.Linear(2 * h + d + t, f), nn.ReLU(), nn.Linear(f, f), nn.ReLU(),
                                   nn.Linear(f, 1))
        self.stay = nn.Sequential(nn.Linear(d + t, f), nn.ReLU(), nn.Linear(f, f), nn.ReLU(), nn.Linear(f, 1))
        self.time_size = t

    def forward(self, layers, time_left, budget):
        rows, members = layers  # [L, F]; [blocks, L] of 1/count where a layer is the block's
        x = torch.relu(self.embed(rows)).unsqueeze(1)
        encoded, _ = self.encoder(x)
        _, (last, _) = self.decider(encoded)
        t = torch.tensor([5.0 * math.sin(2.0 * math.pi * i * time_left / budget)
                          for i in range(1, self.time_size + 1)])
        context = torch.cat([last.reshape(-1), t])
        per_block = members @ encoded.squeeze(1)
        blocks = self.block(torch.cat([per_block, context.expand(per_block.shape[0], -1)], 1)).reshape(-1)
        return torch.cat([blocks, self.stay(context)])


def structural_layers(x):
    rows = torch.tensor(x["rows"], dtype=torch.float32)
    block = torch.tensor(x["block"], dtype=torch.long)
    members = (block.unsqueeze(0) == torch.arange(int(block.max()) + 1).unsqueeze(1)).float()
    return rows, members / members.sum(1, keepdim=True).clamp_min(1.0)


def reward(accuracy):
    return 100.0 * math.tan(accuracy * math.pi / 2.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--problem", required=True)
    ap.add_argument("--episodes", type=int, default=500)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--encoder", choices=["original", "structural"], default="original")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    random.seed(a.seed)
    with open(a.problem) as f:
        p = json.load(f)
    k, n, budget = p["decisions"], p["actions"], p["budget"]
    structural = a.encoder == "structural"
    architectures = {tuple(x["prefix"]): (structural_layers(x) if structural else
                                          torch.tensor(x["ids"], dtype=torch.long), x["time_left"])
                     for x in p["architectures"]}
    accuracy = {tuple(x["actions"]): x["accuracy"] for x in p["sequences"]}

    policy = StructuralPolicy(p, p["features"]) if structural else Policy(p, n, a.seed)
    opt = torch.optim.Adam(policy.parameters(), lr=p["alpha"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=p["decay_freq"], gamma=p["learning_rate_decay"])

    def episode():
        prefix, log_probs = (), []
        for _ in range(k):
            ids, time_left = architectures[prefix]
            log_p = torch.log_softmax(policy(ids, time_left, budget), -1)
            action = torch.multinomial(log_p.detach().exp(), 1).item()
            log_probs.append(log_p[action])
            prefix += (action,)
        objective = -torch.stack(log_probs).mean() * reward(accuracy[prefix])
        opt.zero_grad()
        objective.backward()
        opt.step()
        sched.step()
        return objective.item()

    for _ in range(a.warmup):
        episode()
    start = time.perf_counter()
    for _ in range(a.episodes):
        episode()
    seconds = time.perf_counter() - start
    print(f"episodes_per_s: {a.episodes / seconds:.1f}")


if __name__ == "__main__":
    main()
