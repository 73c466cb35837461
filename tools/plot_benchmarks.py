#!/usr/bin/env python3
"""Plot the crowd benchmark: time per physics step against the number of characters N, log-log.

    python3 tools/plot_benchmarks.py                  # docs/benchmarks/crowd.csv -> crowd.png
    python3 tools/plot_benchmarks.py CSV PNG          # other files
    python3 tools/plot_benchmarks.py --markdown [CSV] # print the tables of BENCHMARKS.md instead

Reads the CSV that `cargo bench -p platformer_benches --bench crowd` writes (one row per
variant, level width and N; `step_ns` is the median CPU time of one step of all N characters) and
draws one line per variant: solid on the reference level (512 tiles), dashed on the level 100x
larger (51 200 tiles). A point whose correctness figures are not clean (stalls, or bodies that
ended below the surface) gets a hollow marker. The title names the CPU the rows were measured on
(the CSV's `cpu` column; rows written before that column read as "unknown"). Needs matplotlib
(`pip install matplotlib`).

The tables of `--markdown` name the CPU under each heading, and list every known variant: one
without rows in the CSV gets "not measured yet" instead of figures.
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STYLE = {
    "ours-grid": ("our plugin, tile grid", "tab:blue", "o"),
    "ours-merged": ("our plugin, merged colliders + slopes", "tab:cyan", "s"),
    "scan-merged": ("plain scan of every collider", "tab:gray", "D"),
    "rapier-polyline": ("Rapier move_shape, polyline", "tab:red", "^"),
    "rapier-tiles": ("Rapier move_shape, per-tile colliders", "tab:orange", "v"),
    "rapier-polyline-nopress": ("Rapier, polyline, no down-press when grounded", "tab:pink", "<"),
    "rapier-tiles-nopress": ("Rapier, per-tile, no down-press when grounded", "tab:brown", ">"),
    "rapier-controller-only-polyline-nopress": ("Rapier move_shape alone, polyline, no down-press", "tab:purple", "P"),
    "rapier-controller-only-tiles-nopress": ("Rapier move_shape alone, per-tile, no down-press", "tab:olive", "X"),
    "avian-polyline": ("avian2d move_and_slide, polyline", "tab:green", "*"),
    "avian-tiles": ("avian2d move_and_slide, per-tile colliders", "darkgreen", "h"),
}
REFERENCE = 512
LARGE = 51200
OURS = ["ours-grid", "ours-merged"]
PEERS = [
    "rapier-polyline",
    "rapier-tiles",
    "rapier-polyline-nopress",
    "rapier-tiles-nopress",
    "rapier-controller-only-polyline-nopress",
    "rapier-controller-only-tiles-nopress",
    "avian-polyline",
    "avian-tiles",
]
NOT_MEASURED = "not measured yet"


def load(source):
    """The CSV's rows by (variant, level, N). A row without a `cpu` (written before that column)
    gets "unknown"."""
    rows = {}
    with source.open(newline="") as f:
        for row in csv.DictReader(f):
            row["cpu"] = (row.get("cpu") or "").strip() or "unknown"
            rows[(row["variant"], int(row["level_tiles"]), int(row["n"]))] = row
    return rows


def cpus(rows):
    """The CPU model names of `rows` (any iterable of rows), joined: normally just one."""
    return " / ".join(sorted({row["cpu"] for row in rows})) or "unknown"


def clean(row):
    return int(row["stalls"]) == 0 and int(row["below_surface"]) == 0


def per_body(row):
    return float(row["step_ns"]) / int(row["n"])


def plot(rows, target):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = defaultdict(list)
    for (variant, level, n), row in rows.items():
        series[(variant, level)].append((n, float(row["step_ns"]) / 1e6, clean(row)))
    order = list(STYLE)
    fig, ax = plt.subplots(figsize=(13, 6.5), dpi=110)
    for (variant, level), points in sorted(
        series.items(), key=lambda kv: (kv[0][1] != REFERENCE, order.index(kv[0][0]) if kv[0][0] in STYLE else 99)
    ):
        label, color, marker = STYLE.get(variant, (variant, "black", "."))
        points.sort()
        dashed = level != REFERENCE
        alpha = 0.55 if dashed else 1.0
        ax.plot(
            [p[0] for p in points],
            [p[1] for p in points],
            linestyle="--" if dashed else "-",
            color=color,
            alpha=alpha,
            label=f"{label} ({level} tiles)",
        )
        for x, y, ok in points:
            ax.plot(x, y, marker=marker, color=color, markerfacecolor=color if ok else "white", alpha=alpha)
    ns = sorted({p[0] for points in series.values() for p in points})
    ax.plot(ns, [n * 150 / 1e6 for n in ns], color="green", linestyle=":", linewidth=1, label="150 ns per body (target)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("characters N")
    ax.set_ylabel("time per physics step (ms, CPU time on one core)")
    ax.set_title(
        f"Crowd benchmark: one 0.01 s step of N walking characters, CPU: {cpus(rows.values())}\n"
        "solid: 512-tile level, dashed: 51 200 tiles; hollow marker: stalls or bodies ended below the surface"
    )
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target)
    print(f"wrote {target}")


def fmt_ns(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.1f} µs"


def markdown(rows):
    counts = sorted({n for (_, _, n) in rows})
    variants = list(STYLE) + sorted({k[0] for k in rows} - set(STYLE))
    measured = {k[0] for k in rows}
    all_counts = ", ".join(str(n) for n in counts)
    reference = [row for (_, level, _), row in rows.items() if level == REFERENCE]

    print("#### Results on the reference level (512 tiles)\n")
    print(f"CPU: {cpus(reference)}.\n")
    print("| variant | N | ns / character-step | step | grounded | below surface (deepest, tiles) | stalls (on flat ground) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for variant in variants:
        if variant not in measured:
            print(f"| {variant} | {all_counts} | {NOT_MEASURED} | | | | |")
            continue
        for n in counts:
            row = rows.get((variant, REFERENCE, n))
            if row is None:
                continue
            print(
                f"| {variant} | {n} | **{per_body(row):.0f}** | {fmt_ns(float(row['step_ns']))} "
                f"| {float(row['grounded_fraction']):.4f} | {row['below_surface']} ({float(row['max_below_tiles']):.3f}) "
                f"| {row['stalls']} ({row['flat_stalls']}) |"
            )

    print("\n#### Level size: 512 against 51 200 tiles, same N\n")
    print(f"CPU: {cpus(rows.values())}.\n")
    print("| variant | N | ns / char-step, 512 | ns / char-step, 51 200 | ratio | below surface, 51 200 | stalls, 51 200 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for variant in variants:
        if variant not in measured:
            print(f"| {variant} | {all_counts} | {NOT_MEASURED} | | | | |")
            continue
        for n in counts:
            small, large = rows.get((variant, REFERENCE, n)), rows.get((variant, LARGE, n))
            if small is None or large is None:
                continue
            print(
                f"| {variant} | {n} | {per_body(small):.0f} | {per_body(large):.0f} "
                f"| {per_body(large) / per_body(small):.2f} | {large['below_surface']} | {large['stalls']} |"
            )

    print("\n#### Speed ratio: the peer's time per character-step over ours (reference level)\n")
    print(f"CPU: {cpus(reference)}.\n")
    print("| peer / ours | " + " | ".join(f"N = {n}" for n in counts) + " |")
    print("| --- | " + " | ".join("---:" for _ in counts) + " |")
    for p in PEERS:
        for o in OURS:
            cells = []
            for n in counts:
                pr, orow = rows.get((p, REFERENCE, n)), rows.get((o, REFERENCE, n))
                if pr is None:
                    cells.append(NOT_MEASURED)
                elif orow is None:
                    cells.append("–")
                else:
                    cells.append(f"{per_body(pr) / per_body(orow):.1f}×")
            print(f"| {p} / {o} | " + " | ".join(cells) + " |")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--markdown":
        source = Path(args[1]) if len(args) > 1 else ROOT / "docs/benchmarks/crowd.csv"
        markdown(load(source))
        return 0
    source = Path(args[0]) if args else ROOT / "docs/benchmarks/crowd.csv"
    target = Path(args[1]) if len(args) > 1 else ROOT / "docs/benchmarks/crowd.png"
    rows = load(source)
    if not rows:
        print(f"no rows in {source}", file=sys.stderr)
        return 1
    plot(rows, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
