#pragma once
// The length of a grid of unequal thread blocks (causal attention: each block walks a different
// number of tiles). The hardware's block scheduler hands the blocks out in launch order, each to the
// first slot (SM x resident block) that frees up: a greedy list schedule. Where the longest blocks
// come last in launch order, or the grid is only a few waves deep, its last blocks end well after the
// average block would: the grid lasts longer than its blocks' average work over the slots.
#include <vector>

namespace gpucast::models {

// Grids with more blocks than this are not scheduled block by block: their tail is a small share of
// their many waves and they are charged their average work (blocks / slots waves; assumption).
constexpr double kMaxScheduledBlocks = 1 << 20;

// The grid's length in waves of its average block: the greedy schedule's end over the average
// block's work, for blocks with `work` (any unit, in launch order) on `slots` slots. At least
// blocks / slots; with one wave or less, the longest block over the average. 0 for an empty grid.
[[nodiscard]] double dispatch_waves(const std::vector<double>& work, double slots);

// A grid made of `repeats` copies of `unit` in launch order (every head of a causal attention grid
// walks the same blocks): dispatch_waves of the whole grid, at a cost that does not grow with the
// grid. Once the schedule has run kSteadyStateWaves waves it is periodic (each copy adds the same
// length), so past that depth the copies are not scheduled one by one: the end grows by the
// copy's work over the slots per copy left. Equal to dispatch_waves on shallower grids.
[[nodiscard]] double dispatch_waves_repeated(const std::vector<double>& unit, double repeats, double slots);

// How deep (in waves of slots) the repeated grid's schedule runs block by block before it is
// extrapolated (assumption: the greedy schedule of a periodic grid settles within a few waves; the
// test pins the extrapolation against the full schedule).
constexpr double kSteadyStateWaves = 16;

}  // namespace gpucast::models
