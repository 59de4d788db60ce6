"""Analyses the notebooks run on translations and their gold alignments (what a reader looks at, not
model code): per-row checks of a heatmap, the choice of example sentences, kinds of differences from
the reference, the four variants side by side, attention against gradient attribution."""
