#!/usr/bin/env python3
"""Generate slope_bros' LDtk 1.5.3 level projects from ASCII sources.

    python3 tools/make_levels.py             # regenerate every levels/<name>.ldtk
    python3 tools/make_levels.py sky castle  # only these levels
    python3 tools/make_levels.py --check     # write nothing; fail if a file is missing or stale
    python3 tools/make_levels.py --force     # overwrite levels saved from LDtk too

A level saved from the LDtk editor (or changed by hand) after the generator wrote it is the level's
source from then on: the project's `tutorialDesc` holds a hash of what was generated, and a file
whose content no longer has it is kept (and passes --check) unless --force is given.

Each `levels/src/<name>.txt` becomes `levels/<name>.ldtk`: one LDtk 1.5.3 project holding its main
level (the one the game plays) and, after it, its rooms (bonus rooms entered through pipes), with
the same definitions (layers, IntGrid values, entities, fields, uids) in every file. The output
is deterministic: the same sources give the same bytes (iids are UUIDv5 of names, no clock, no
randomness). Every file is checked before it is written:

- design rules (the conventions below): slopes sit on solid cells and join flat ground or blocks,
  characters stand on solid cells, lifts fit their paths, the Goal has room for its pole, pipes
  lead to pipes of the project's levels, the boss's bridge has its axe, the main route from Player
  to Checkpoint and Goal is walkable with "run right and jump" (no pipes taken), every coin is
  within reach, each room is left through a pipe, and each level has what its brief asks for (see
  BRIEFS);
- LDtk consistency: uids, iids, __cWid/__cHei, intGridCsv length, __grid, __worldX/Y, toc;
- the official schema `levels/schema/JSON_SCHEMA.json`, if the `jsonschema` package is installed
  (`pip install jsonschema`); the game's tests always validate the levels against it
  (`tests/game/levels_schema.rs`).

It also writes `levels/mapping.ron` (the physics kind of each IntGrid value) from
`levels/alphabet.json`, the one alphabet of the maps.

Source format
=============

    // A comment: a line starting with "//" (outside map rows).
    level: Overworld          // level identifier (required)
    theme: overworld          // level field `theme`: overworld | underground | sky | castle
    time_limit: 300           // level field `time_limit`, seconds
    bg_color: #5C94FC         // level background colour
    height: 15                // rows of every segment (15, or 20 for sky)

    segment start             // a segment: the next `height` lines are map rows
    ........
    ...P..o.
    ########
    + Walker 5 1 turns_at_ledges=true     // entity lines belong to the segment above
    segment next
    ...

    room: OverworldBonus      // a room: the next level of the project, with its own header
    theme: underground        // (theme, time_limit, bg_color, height) and segments
    ...

The map is the segments' rows put side by side, left to right (so a level can be written in
chunks of a readable width). Each segment's rows have one width; `.` is air. Characters:

    IntGrid layer `Collisions` (value identifier):
      #  1 ground             S  2 stone              =  3 one_way
      B  4 brick              ?  5 question_coin      M  6 question_mushroom
      U  7 used_block
      /  8 slope45_up_right   (45 deg, rises to the right: fills below the diagonal from the
                               cell's bottom-left to its top-right)
      \\  9 slope45_up_left    (mirrored)
      rR 10 gentle_low_up_right + 11 gentle_high_up_right  (gradient 1/2, always this pair)
      Ll 13 gentle_high_up_left + 12 gentle_low_up_left    (gradient 1/2, always this pair)
    Entities (the cell is the air cell the entity occupies; characters stand on the cell below):
      P  Player      G  Goal (pole base)     C  Checkpoint (16x32: this cell and the one above)
      o  Coin        w  Walker               W  Walker with turns_at_ledges = true
      k  ShellEnemy  H  HammerThrower (16x24)
      _  OneWayPlatform: each horizontal run of `_` is one entity covering those cells

Entity lines: `+ <Identifier> <x> <y> [key=value ...]`. x is a column counted from the segment's
first column, y a row (0 = top). Point entities (Player, Goal, Checkpoint, Coin, Walker,
ShellEnemy, HammerThrower, Roller, Spring, Boss, Axe) take the cell as in the map. Resizable ones
(Lift, FallingLift, OneWayPlatform, Slope, Pipe, Bridge) take their rectangle's top-left cell and
`w=`/`h=` in cells. Fields by type: Bool `true|false`, Int, Float, String (one word), Array<Point>
`x,y;x,y` (x again counted from the segment's first column). Missing fields take the defaults of
the definitions below. Examples:

    + Slope 4 12 w=4 h=1 rises_right=true             // gradient 1/4, 64x16, rising right
    + Lift 10 8 w=3 h=1 path=11,3 speed=50 wait=0.5 mode=PingPong one_way=false
    + Pipe 14 11 w=2 h=2 name=bonus_in to_level=OverworldBonus to_pipe=room_in

Lift `path` lists the cells the lift's centre visits after its start (cell coordinates, y down),
as in LDtk; use odd widths (3 cells = 48 px) so the centre is a cell centre.

Conventions (what the game expects; checked here)
=================================================

Grid 16 px, y down. Layers, top first: `Entities`, `Collisions` (IntGrid, 16 px).
Level fields: `theme` (Enum `Theme`, the Collisions layer's biome), `time_limit` (Int, s). Entities (size, pivot, fields):
Player 16x16 (0.5,1); Goal 16x16 (0.5,1), 10 tiles of air above it for the pole;
Checkpoint 16x32 (0.5,1); Coin 16x16 (0.5,0.5); Walker 16x16 (0.5,1) `turns_at_ledges` Bool;
ShellEnemy 16x24 (0.5,1); HammerThrower 16x24 (0.5,1); Lift resizable (0,0) `path`
Array<Point>, `speed` Float px/s, `wait` Float s, `mode` String PingPong|Loop|Once, `one_way`
Bool; OneWayPlatform resizable (0,0); Slope resizable (0,0) `rises_right` Bool (the slope is the
rectangle's diagonal; its cells must be empty and the cells under it solid); Pipe resizable (0,0)
`name`, `to_level`, `to_pipe` String, `enter` String down|right|none (solid; upright pipes 2 cells
wide, side pipes 2 high; its IntGrid cells stay empty); Boss 32x32 (0.5,1); Bridge resizable (0,0),
one cell high, solid; Axe 16x16 (0.5,1), on a solid cell right after a bridge's right end.
Rooms: 16..60 x 15 tiles, no Player, Goal or Checkpoint, placed below the previous level in the
Free world layout with a 64 px gap.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import re
import sys
import uuid
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEVELS_DIR = ROOT / "levels"
SRC_DIR = LEVELS_DIR / "src"
SCHEMA_PATH = LEVELS_DIR / "schema" / "JSON_SCHEMA.json"
NAMES = ["overworld", "underground", "sky", "castle", "hills", "caverns", "skyway", "fortress"]

GRID = 16
JSON_VERSION = "1.5.3"
APP_BUILD_ID = 473738  # the build id LDtk 1.5.3 writes (as in LDtk's own sample project)
IID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/slope_bros/levels")

# ---------------------------------------------------------------------------------------------
# Definitions (shared by every file; uids are fixed so the files agree with each other)
# ---------------------------------------------------------------------------------------------

ENTITIES_LAYER_UID = 1
COLLISIONS_LAYER_UID = 2
LEVEL_UID = 22
THEME_ENUM_UID = 23
TILESET_UID = 24
RULE_GROUP_UIDS = {"overworld": 25, "underground": 26, "sky": 27, "castle": 28}
FIRST_RULE_UID = 29  # the rules' uids follow, group by group (see AUTO_RULES)

# The one alphabet of the ASCII maps (shared with the end-to-end tests' level writer):
# IntGrid values as (value, identifier, source character, editor colour), and entity characters.
ALPHABET = json.loads((LEVELS_DIR / "alphabet.json").read_text())
INTGRID_VALUES = [(v["value"], v["identifier"], v["char"], v["color"]) for v in ALPHABET["int_grid"]]
PHYSICS_KIND = {v["value"]: v["physics"] for v in ALPHABET["int_grid"]}
CHAR_TO_VALUE = {ch: v for v, _, ch, _ in INTGRID_VALUES}
VALUE_NAME = {v: name for v, name, _, _ in INTGRID_VALUES}

SOLID = {1, 2, 4, 5, 6, 7, 14, 15, 18}  # full blocks
ONE_WAY = {3}
NOT_THERE = {16, 17, 19}  # hidden blocks and lava: nothing to the physics
SLOPE_VALUES = {8, 9, 10, 11, 12, 13}
SLOPE_BASE = {1, 2}  # what must be under a slope cell
# Surface height at the cell's (left, right) edge, in cells above the cell's bottom.
SLOPE_EDGES = {8: (0.0, 1.0), 9: (1.0, 0.0), 10: (0.0, 0.5), 11: (0.5, 1.0), 12: (0.5, 0.0), 13: (1.0, 0.5)}


@dataclass(frozen=True)
class FieldDef:
    ident: str
    uid: int
    kind: str  # Bool | Int | Float | String | Points
    default: object
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    suffix: str | None = None

    @property
    def type_string(self) -> str:
        if self.kind == "Enum":
            return "LocalEnum.Theme"
        return "Array<Point>" if self.kind == "Points" else self.kind

    @property
    def ldtk_type(self) -> str:
        if self.kind == "Enum":
            return f"F_Enum({THEME_ENUM_UID})"
        return {"Bool": "F_Bool", "Int": "F_Int", "Float": "F_Float", "String": "F_String", "Points": "F_Point"}[self.kind]


@dataclass(frozen=True)
class EntityDef:
    ident: str
    uid: int
    width: int
    height: int
    pivot: tuple[float, float]
    resizable: bool
    color: str
    render: str
    tags: tuple[str, ...]
    toc: bool
    max_count: int
    doc: str
    fields: tuple[FieldDef, ...] = ()


ENTITY_DEFS = [
    EntityDef("Player", 3, 16, 16, (0.5, 1), False, "#E43B44", "Rectangle", ("character",), True, 1,
              "Start position: pivot on the top edge of a solid cell (feet on the ground). Small "
              "player 12x15 px, big 14x30."),
    EntityDef("Goal", 4, 16, 16, (0.5, 1), False, "#3E8948", "Rectangle", ("character",), True, 0,
              "Flagpole base on the ground; the game draws the pole 10 tiles upward, so keep 10 tiles "
              "of air above it."),
    EntityDef("Checkpoint", 5, 16, 32, (0.5, 1), False, "#2CE8F5", "Rectangle", ("character",), True, 0,
              "Respawn point, standing on the ground."),
    EntityDef("Coin", 6, 16, 16, (0.5, 0.5), False, "#FEE761", "Ellipse", ("pickup",), False, 0,
              "A coin, centred in its cell."),
    EntityDef("Walker", 7, 16, 16, (0.5, 1), False, "#A05B3B", "Rectangle", ("enemy",), False, 0,
              "Walks and turns at walls; with turns_at_ledges it also turns at ledges.",
              (FieldDef("turns_at_ledges", 8, "Bool", False, "Turn around at ledges instead of walking off."),)),
    EntityDef("ShellEnemy", 9, 16, 24, (0.5, 1), False, "#5AC54F", "Rectangle", ("enemy",), False, 0,
              "Walks; stomped it becomes a shell that can be kicked."),
    EntityDef("HammerThrower", 10, 16, 24, (0.5, 1), False, "#8B6BC8", "Rectangle", ("enemy",), False, 0,
              "Hops on its platform and throws hammers in arcs."),
    EntityDef("Lift", 11, 48, 16, (0, 0), True, "#C0CBDC", "Rectangle", ("physics",), False, 0,
              "Moving platform: its rectangle is the lift; path lists the cells its centre visits after "
              "its start.",
              (FieldDef("path", 12, "Points", None, "Cells (cx,cy, y down) the lift's centre visits after its start."),
               FieldDef("speed", 13, "Float", 48.0, "Speed in px/s.", 0.0, None, " px/s"),
               FieldDef("wait", 14, "Float", 0.5, "Pause at each path point, in seconds.", 0.0, None, " s"),
               FieldDef("mode", 15, "String", "PingPong", "PingPong, Loop or Once."),
               FieldDef("one_way", 16, "Bool", False, "Solid from above only (can be jumped through)."))),
    EntityDef("OneWayPlatform", 17, 48, 16, (0, 0), True, "#F0C878", "Rectangle", ("physics",), False, 0,
              "Platform solid from above only (drop through with Down + Jump)."),
    EntityDef("Spring", 300, 16, 16, (0.5, 1), False, "#E05090", "Rectangle", ("physics",), False, 0,
              "A spring on the ground: the player who lands on it is launched, higher with jump held."),
    EntityDef("Roller", 302, 16, 16, (0.5, 1), False, "#D04030", "Rectangle", ("enemy",), False, 0,
              "A spiked ball that rolls down slopes, faster on steeper ones; landing on it hurts."),
    EntityDef("FallingLift", 301, 48, 16, (0, 0), True, "#D08040", "Rectangle", ("physics",), False, 0,
              "A platform that falls a moment after someone stands on it."),
    EntityDef("Slope", 18, 64, 16, (0, 0), True, "#7BB24E", "Rectangle", ("physics",), False, 0,
              "A slope along the rectangle's diagonal (gradients the grid cannot make, e.g. 64x16 = 1/4). "
              "The IntGrid cells inside must be empty, the cells under it solid.",
              (FieldDef("rises_right", 19, "Bool", True, "true: bottom-left to top-right; false: top-left to bottom-right."),)),
    EntityDef("Pipe", 303, 32, 32, (0, 0), True, "#2FA84F", "Rectangle", ("physics",), False, 0,
              "A pipe, solid like a block (its IntGrid cells stay empty). Upright (enter down or none): 2 cells "
              "wide, its mouth on top, entered by standing on it with Down held. Side (enter right): 2 cells "
              "high, its mouth on its left side, entered by walking right into it on the ground. It leads to "
              "the level to_level of this project, where the player comes out standing on the pipe to_pipe.",
              (FieldDef("name", 304, "String", "", "This pipe's name: the to_pipe of a pipe that brings the "
                        "player out on its top."),
               FieldDef("to_level", 305, "String", "", "Identifier of the level of this project it leads to; "
                        "empty: it leads nowhere (an exit only)."),
               FieldDef("to_pipe", 306, "String", "", "The name of the pipe of to_level the player comes out "
                        "of, standing on its top."),
               FieldDef("enter", 307, "String", "down", "down (stand on its top, hold Down), right (a side "
                        "pipe: walk right into its mouth on the ground) or none (cannot be entered)."))),
    EntityDef("Boss", 308, 32, 32, (0.5, 1), False, "#B03A6E", "Rectangle", ("enemy",), False, 0,
              "The castle's boss: a big hammer thrower pacing on a bridge. It cannot be stomped; dropping "
              "the bridge (the Axe) or fireballs beat it."),
    EntityDef("Bridge", 309, 16, 16, (0, 0), True, "#C8964E", "Rectangle", ("physics",), False, 0,
              "A row of bridge planks (one cell high), solid, usually over lava; the Axe at its right end "
              "drops it."),
    EntityDef("Axe", 310, 16, 16, (0.5, 1), False, "#E8E8F4", "Rectangle", ("physics",), False, 0,
              "Stands on a solid cell right after a Bridge's right end, at the bridge's height; touching it "
              "drops the bridge, plank by plank from the axe's side."),
]
ENTITY_BY_NAME = {d.ident: d for d in ENTITY_DEFS}

LEVEL_FIELDS = [
    FieldDef("theme", 20, "Enum", "overworld",
             "Visual and music theme: overworld, underground, sky or castle. It is the Collisions layer's "
             "biome: it picks the tiles of its auto-layer rules."),
    FieldDef("time_limit", 21, "Int", 300, "Time limit in seconds.", 1, None, " s"),
]
THEMES = ("overworld", "underground", "sky", "castle")

THEME_COLORS = {"overworld": 0x5C94FC, "underground": 0x3A4A6A, "sky": 0xA8D8FF, "castle": 0x6A6A72}

# ---------------------------------------------------------------------------------------------
# Tiles: `assets/images/tiles.png` (16 columns, one row per theme, 16 px) is the tileset of the
# `Collisions` layer, and auto-layer rules pick each cell's tile, as the game draws it
# (`tile_column` in crates/slope_bros/src/presentation/tiles.rs), so the LDtk editor shows what the
# game shows. One rule group per theme, applied where the level's `theme` (the layer's biome) is
# that theme; its rules are tried top first and the first that matches a cell gives its tile.
# ---------------------------------------------------------------------------------------------

TILESET_REL_PATH = "../assets/images/tiles.png"
TILESET_COLUMNS, TILESET_ROWS = 16, 4
# (3x3 pattern or single value, tiles.png column); a pattern lists the rows top first, 0 = any
# value, n = the value n; every rule's cell is the pattern's centre.
GROUND_UNDER_SLOPE = [([0, s, 0, 0, 1, 0, 0, 0, 0], 13) for s in sorted(SLOPE_VALUES)]
AUTO_RULES = GROUND_UNDER_SLOPE + [
    ([0, 1, 0, 0, 1, 0, 0, 0, 0], 1),  # ground under ground: earth
    ([1], 0),                          # other ground: grass on top
    ([2], 2), ([3], 3), ([4], 4), ([5], 5), ([6], 5), ([7], 6),
    ([8], 7), ([9], 8), ([10], 9), ([11], 10), ([12], 11), ([13], 12),
    ([14], 5), ([15], 5), ([18], 4),  # star and 1-up blocks look like question blocks, multi-coin like bricks
]


def rule_uid(theme: str, index: int) -> int:
    return FIRST_RULE_UID + THEMES.index(theme) * len(AUTO_RULES) + index


# A project's rooms (levels after the main one) take the uids FIRST_ROOM_UID, FIRST_ROOM_UID + 1, ...
# in order; the block is reserved, so nextUid is the same in every file.
FIRST_ROOM_UID = max(rule_uid(THEMES[-1], len(AUTO_RULES) - 1), max(d.uid for d in ENTITY_DEFS)) + 1
MAX_ROOMS = 8
NEXT_UID = FIRST_ROOM_UID + MAX_ROOMS


def tile_id(theme: str, column: int) -> int:
    return THEMES.index(theme) * TILESET_COLUMNS + column


def rule_json(theme: str, index: int, pattern: list[int], column: int) -> dict:
    return {
        "uid": rule_uid(theme, index), "active": True, "size": 3 if len(pattern) == 9 else 1,
        "tileRectsIds": [[tile_id(theme, column)]], "alpha": 1, "chance": 1, "breakOnMatch": True,
        "pattern": pattern, "flipX": False, "flipY": False, "xModulo": 1, "yModulo": 1,
        "xOffset": 0, "yOffset": 0, "tileXOffset": 0, "tileYOffset": 0, "tileRandomXMin": 0,
        "tileRandomXMax": 0, "tileRandomYMin": 0, "tileRandomYMax": 0, "checker": "None",
        "tileMode": "Single", "pivotX": 0, "pivotY": 0, "outOfBoundsValue": None,
        "invalidated": False, "perlinActive": False, "perlinSeed": seed("rule", theme, str(index)) % 10_000_000,
        "perlinScale": 0.2, "perlinOctaves": 2,
    }


def rule_groups_json() -> list[dict]:
    return [{
        "uid": RULE_GROUP_UIDS[theme], "name": theme, "color": None, "icon": None, "active": True,
        "isOptional": False, "usesWizard": False, "requiredBiomeValues": [theme],
        "biomeRequirementMode": 0,
        "rules": [rule_json(theme, i, pattern, column) for i, (pattern, column) in enumerate(AUTO_RULES)],
    } for theme in THEMES]


def pattern_matches(pattern: list[int], rows: list[list[int]], cx: int, cy: int) -> bool:
    """LDtk's rule match: each non-zero entry must be its cell's value; a cell outside the level
    (a rule with no `outOfBoundsValue`) matches nothing."""
    size = 3 if len(pattern) == 9 else 1
    radius = size // 2
    for py in range(size):
        for px in range(size):
            want = pattern[px + py * size]
            if want == 0:
                continue
            x, y = cx + px - radius, cy + py - radius
            if not (0 <= y < len(rows) and 0 <= x < len(rows[0])) or rows[y][x] != want:
                return False
    return True


def auto_layer_tiles(theme: str, rows: list[list[int]]) -> list[dict]:
    """The tiles LDtk computes from the theme's rule group: for each cell, the first rule that
    matches (every rule breaks on match). Listed as LDtk exports them: by rule, last rule first,
    cells in coordinate order."""
    width = len(rows[0])
    chosen: dict[int, list[tuple[int, int]]] = {}
    for cy, row in enumerate(rows):
        for cx in range(width):
            for index, (pattern, _) in enumerate(AUTO_RULES):
                if pattern_matches(pattern, rows, cx, cy):
                    chosen.setdefault(index, []).append((cx, cy))
                    break
    tiles = []
    for index in sorted(chosen, reverse=True):
        column = AUTO_RULES[index][1]
        t = tile_id(theme, column)
        src = [t % TILESET_COLUMNS * GRID, t // TILESET_COLUMNS * GRID]
        for cx, cy in chosen[index]:
            tiles.append({"px": [cx * GRID, cy * GRID], "src": src, "f": 0, "t": t,
                          "d": [rule_uid(theme, index), cx + cy * width], "a": 1})
    return tiles


MAP_ENTITY_CHARS = {e["char"]: (e["identifier"], e["fields"]) for e in ALPHABET["entities"]}
PLATFORM_CHAR = "_"
CHARACTERS = {"Player", "Goal", "Checkpoint", "Walker", "ShellEnemy", "HammerThrower", "Roller", "Spring", "Boss",
              "Axe"}
PIPE_ENTRIES = ("down", "right", "none")
MAX_PIT = 6  # tiles: a 6-tile pit needs a running jump (about 105 px), a 4-tile one a walking jump (63 px)
ROOM_WIDTH = (16, 60)

# What each level must contain (the design brief), checked after the generic rules.
BRIEFS = {
    "overworld": dict(width=(160, 240), height=(15, 15), coins=(35, 45), walkers=6, ledge_walkers=2,
                      pits=(3, 4), slopes=(8, 9, 10, 11, 12, 13), slope_entities_both_ways=True,
                      values=(4, 5, 6), checkpoints=1, rooms=(1, 15), room_width=(20, 24),
                      room_theme="underground"),
    "underground": dict(width=(160, 240), height=(15, 15), coins=(20, 80), walkers=2, shells=(1, 1),
                        ceiling=True, values=(3, 4, 6), platforms=1, low_ceiling_ramps=True,
                        slopes=(8, 10, 11), checkpoints=1),
    "sky": dict(width=(160, 240), height=(15, 20), coins=(20, 80), lift_kinds=True, walkers_on_lifts=1,
                values=(3,), open_bottom=0.6, checkpoints=1),
    "castle": dict(width=(160, 240), height=(15, 15), coins=(10, 80), hammers=3, shells=(3, 99), walkers=1,
                   only_stone=True, values=(2, 6), early_mushroom=0.3, pits=(2, 8), checkpoints=1, boss=True),
    # World 2: harder, and slopes everywhere.
    "hills": dict(width=(180, 240), height=(15, 15), theme="overworld", coins=(40, 80), enemies=15, walkers=8,
                  shells=(2, 99), hammers=1, rollers=3, pits=(3, 6), running_pits=2,
                  slopes=(8, 9, 10, 11, 12, 13), slope_entities_both_ways=True, valleys=2, long_ramps=3,
                  slope_columns=0.2, values=(4, 5, 6), hidden=True, rooms=(1, 15), room_width=(20, 24),
                  room_theme="underground", checkpoints=1),
    "caverns": dict(width=(180, 240), height=(15, 15), theme="underground", coins=(40, 90), enemies=16,
                    walkers=6, ledge_walkers=1, shells=(2, 99), hammers=1, rollers=1, ceiling=True,
                    low_ceiling_ramps=True, pits=(3, 6), running_pits=2, slopes=(8, 9, 10, 11, 12, 13),
                    slope_entities_both_ways=True, valleys=2, long_ramps=3, slope_columns=0.2, values=(5, 6),
                    hidden=True, rooms=(1, 15), room_width=(18, 24), room_theme="underground", checkpoints=1),
    "skyway": dict(width=(180, 240), height=(20, 20), theme="sky", coins=(30, 90), enemies=12, lift_kinds=True,
                   walkers_on_lifts=1, lifts=6, shells=(2, 99), hammers=1, rollers=2, values=(3, 6),
                   open_bottom=0.6, slopes=(8, 9, 10, 11, 12, 13), slope_entities_both_ways=True, valleys=3,
                   long_ramps=2, slope_columns=0.1, hidden=True, checkpoints=1),
    "fortress": dict(width=(180, 240), height=(15, 15), theme="castle", coins=(20, 80), enemies=18, hammers=4,
                     shells=(4, 99), walkers=2, rollers=2, only_stone=True, values=(2, 6), early_mushroom=0.3,
                     pits=(4, 8), running_pits=2, slopes=(8, 9, 10, 11, 12, 13), slope_entities_both_ways=True,
                     valleys=1, long_ramps=3, slope_columns=0.15, hidden=True, checkpoints=1, boss=True),
}
ENEMIES = ("Walker", "ShellEnemy", "HammerThrower", "Roller", "Boss")


class LevelError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


@dataclass
class Entity:
    ident: str
    px: tuple[int, int]  # pivot position, level pixels
    width: int
    height: int
    fields: dict
    where: str

    @property
    def d(self) -> EntityDef:
        return ENTITY_BY_NAME[self.ident]

    @property
    def rect(self) -> tuple[int, int, int, int]:
        """left, top, width, height in pixels."""
        px, py = self.d.pivot
        left = self.px[0] - px * self.width
        top = self.px[1] - py * self.height
        return int(left), int(top), self.width, self.height

    def cells(self) -> list[tuple[int, int]]:
        left, top, w, h = self.rect
        return [(cx, cy) for cy in range(top // GRID, (top + h - 1) // GRID + 1)
                for cx in range(left // GRID, (left + w - 1) // GRID + 1)]


@dataclass
class Level:
    name: str
    identifier: str = ""
    theme: str = ""
    time_limit: int = 0
    bg_color: str = ""
    height: int = 0
    rows: list[list[int]] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    segments: list[tuple[str, int, int]] = field(default_factory=list)  # name, first column, width
    is_room: bool = False  # a level after the main one (`room:`), entered through pipes only
    uid: int = LEVEL_UID
    world_y: int = 0  # px, in the project's Free world layout (worldX is 0)
    where: str = ""  # the source line that starts it
    rooms: list["Level"] = field(default_factory=list)  # the main level's rooms, in source order

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def cell(self, cx: int, cy: int) -> int:
        if 0 <= cx < self.width and 0 <= cy < self.height:
            return self.rows[cy][cx]
        return 0

    def of(self, ident: str) -> list[Entity]:
        return [e for e in self.entities if e.ident == ident]

    @property
    def project(self) -> list["Level"]:
        """The levels of the project this (main) level heads: itself, then its rooms."""
        return [self] + self.rooms


def strip_comment(line: str) -> str:
    i = line.find("//")
    return (line[:i] if i >= 0 else line).strip()


def parse_value(fd: FieldDef, text: str, x0: int, where: str):
    try:
        if fd.kind == "Bool":
            if text not in ("true", "false"):
                raise ValueError
            return text == "true"
        if fd.kind == "Int":
            return int(text)
        if fd.kind == "Float":
            v = float(text)
            if not math.isfinite(v):
                raise ValueError
            return v
        if fd.kind == "String":
            if not text:
                raise ValueError
            return text
        if fd.kind == "Points":
            points = []
            for part in text.split(";"):
                x, y = part.split(",")
                points.append((int(x) + x0, int(y)))
            return points
    except ValueError:
        pass
    raise LevelError(f"{where}: bad {fd.kind} value {text!r} for field {fd.ident}")


def point_entity(ident: str, cx: int, cy: int, fields: dict, where: str) -> Entity:
    d = ENTITY_BY_NAME[ident]
    px = int(cx * GRID + d.pivot[0] * GRID)
    py = int(cy * GRID + d.pivot[1] * GRID)
    return Entity(ident, (px, py), d.width, d.height, fields, where)


def with_defaults(d: EntityDef, fields: dict, where: str) -> dict:
    out = {}
    for fd in d.fields:
        if fd.ident in fields:
            out[fd.ident] = fields[fd.ident]
        elif fd.default is not None:
            out[fd.ident] = fd.default
        else:
            raise LevelError(f"{where}: {d.ident} needs field {fd.ident}")
    unknown = set(fields) - {fd.ident for fd in d.fields}
    if unknown:
        raise LevelError(f"{where}: {d.ident} has no field(s) {', '.join(sorted(unknown))}")
    return out


IDENTIFIER = re.compile(r"[A-Z][A-Za-z0-9_]*")


def parse_source(name: str, text: str, path: str) -> Level:
    """The main level of `levels/src/<name>.txt`, with its rooms (`room: <Identifier>` sections)
    in `rooms`."""
    lines = text.splitlines()
    # A `room:` line (outside map rows: the map alphabet has no `:`) starts the next level.
    starts = [k for k, raw in enumerate(lines) if strip_comment(raw).startswith("room:")]
    bounds = list(zip([0] + starts, starts + [len(lines)]))
    main = Level(name, where=f"{path}:1")
    parse_level_lines(main, lines, *bounds[0], path)
    seen = {main.identifier: main.where}
    y = main.height * GRID + ROOM_GAP
    for k, (lo, hi) in enumerate(bounds[1:]):
        where = f"{path}:{lo + 1}"
        ident = strip_comment(lines[lo]).partition(":")[2].strip()
        if not IDENTIFIER.fullmatch(ident):
            raise LevelError(f"{where}: `room: <Identifier>`: a level identifier (a capital letter, then "
                             f"letters, digits, _), got {ident!r}")
        if ident in seen:
            raise LevelError(f"{where}: room {ident}: the project already has a level {ident} ({seen[ident]})")
        if k >= MAX_ROOMS:
            raise LevelError(f"{where}: room {ident}: at most {MAX_ROOMS} rooms a project")
        room = Level(name, identifier=ident, is_room=True, uid=FIRST_ROOM_UID + k, world_y=y, where=where)
        parse_level_lines(room, lines, lo + 1, hi, path)
        seen[ident] = where
        main.rooms.append(room)
        y += room.height * GRID + ROOM_GAP
    return main


ROOM_GAP = 64  # px between a level and the next one below it in the world


def parse_level_lines(lv: Level, lines: list[str], lo: int, hi: int, path: str) -> None:
    """Reads the level of lines[lo:hi] (header lines, segments, entity lines) into `lv`."""
    segments: list[tuple[str, int, list[str], int]] = []  # name, line, rows, first column
    entity_lines: list[tuple[str, int]] = []  # (text, line) with segment index
    seg_of_line: list[int] = []
    i = lo
    x0 = 0
    what = f"room {lv.identifier}" if lv.is_room else "level"
    while i < hi:
        raw = lines[i]
        line = strip_comment(raw)
        where = f"{path}:{i + 1}"
        i += 1
        if not line:
            continue
        if line.startswith("segment"):
            if lv.height <= 0:
                raise LevelError(f"{where}: `height:` must come before the first segment")
            parts = line.split()
            if len(parts) != 2 or parts[0] != "segment":
                raise LevelError(f"{where}: expected `segment <name>`")
            rows = lines[i:min(i + lv.height, hi)]
            if len(rows) != lv.height:
                raise LevelError(f"{where}: segment {parts[1]} needs {lv.height} map rows")
            widths = {len(r) for r in rows}
            if len(widths) != 1:
                bad = [f"row {k} has {len(r)}" for k, r in enumerate(rows)]
                raise LevelError(f"{where}: segment {parts[1]}: rows of different widths ({', '.join(bad)})")
            segments.append((parts[1], i + 1, rows, x0))
            x0 += len(rows[0])
            i += lv.height
            continue
        if line.startswith("+"):
            if not segments:
                raise LevelError(f"{where}: entity line before the first segment")
            entity_lines.append((line[1:].strip(), i))
            seg_of_line.append(len(segments) - 1)
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "level":
                if lv.is_room:
                    raise LevelError(f"{where}: a room is named by its `room:` line, not `level:`")
                if not IDENTIFIER.fullmatch(value):
                    raise LevelError(f"{where}: `level:` must be an identifier (a capital letter, then letters, "
                                     f"digits, _), got {value!r}")
                lv.identifier = value
            elif key == "theme":
                if value not in THEMES:
                    raise LevelError(f"{where}: theme must be one of {', '.join(THEMES)}")
                lv.theme = value
            elif key == "time_limit":
                lv.time_limit = int(value)
            elif key == "bg_color":
                if len(value) != 7 or value[0] != "#" or any(c not in "0123456789abcdefABCDEF" for c in value[1:]):
                    raise LevelError(f"{where}: bg_color must be #RRGGBB")
                lv.bg_color = value.upper()
            elif key == "height":
                lv.height = int(value)
            else:
                raise LevelError(f"{where}: unknown key {key!r}")
            continue
        raise LevelError(f"{where}: cannot read {line!r}")

    for key in ("identifier", "theme", "time_limit", "bg_color", "height"):
        if not getattr(lv, key):
            raise LevelError(f"{lv.where}: {what}: missing `{'level' if key == 'identifier' else key}:`")
    if not segments:
        raise LevelError(f"{lv.where}: {what}: no segments")

    lv.rows = [[0] * x0 for _ in range(lv.height)]
    for seg_name, first_line, rows, sx in segments:
        lv.segments.append((seg_name, sx, len(rows[0])))
        for cy, row in enumerate(rows):
            run_start = None
            for k, ch in enumerate(row + "."):
                cx = sx + k
                where = f"{path}:{first_line + cy}:{k + 1}"
                if ch == PLATFORM_CHAR:
                    if run_start is None:
                        run_start = cx
                    continue
                if run_start is not None:
                    w = cx - run_start
                    lv.entities.append(Entity("OneWayPlatform", (run_start * GRID, cy * GRID), w * GRID, GRID, {},
                                              f"{path}:{first_line + cy}:{run_start - sx + 1}"))
                    run_start = None
                if k == len(row):
                    break
                if ch == ".":
                    continue
                if ch in CHAR_TO_VALUE:
                    lv.rows[cy][cx] = CHAR_TO_VALUE[ch]
                elif ch in MAP_ENTITY_CHARS:
                    ident, fields = MAP_ENTITY_CHARS[ch]
                    d = ENTITY_BY_NAME[ident]
                    lv.entities.append(point_entity(ident, cx, cy, with_defaults(d, fields, where), where))
                else:
                    raise LevelError(f"{where}: unknown map character {ch!r}")

    for (text_, line_no), seg_index in zip(entity_lines, seg_of_line):
        where = f"{path}:{line_no}"
        sx = segments[seg_index][3]
        parts = text_.split()
        if len(parts) < 3 or parts[0] not in ENTITY_BY_NAME:
            raise LevelError(f"{where}: expected `+ <Entity> <x> <y> [key=value ...]` with a known entity")
        d = ENTITY_BY_NAME[parts[0]]
        try:
            cx, cy = int(parts[1]) + sx, int(parts[2])
        except ValueError:
            raise LevelError(f"{where}: x and y must be integers") from None
        kv = {}
        for p in parts[3:]:
            if "=" not in p:
                raise LevelError(f"{where}: expected key=value, got {p!r}")
            k, _, v = p.partition("=")
            kv[k] = v
        w = h = None
        if d.resizable:
            try:
                w, h = int(kv.pop("w")), int(kv.pop("h"))
            except (KeyError, ValueError):
                raise LevelError(f"{where}: {d.ident} needs w=<cells> h=<cells>") from None
        fields = {}
        for k, v in kv.items():
            fd = next((f for f in d.fields if f.ident == k), None)
            if fd is None:
                raise LevelError(f"{where}: {d.ident} has no field {k!r}")
            fields[k] = parse_value(fd, v, sx, where)
        fields = with_defaults(d, fields, where)
        if d.resizable:
            lv.entities.append(Entity(d.ident, (cx * GRID, cy * GRID), w * GRID, h * GRID, fields, where))
        else:
            lv.entities.append(point_entity(d.ident, cx, cy, fields, where))

    def order(e: Entity):
        return (e.px[0], e.px[1], ENTITY_DEFS.index(e.d))

    lv.entities.sort(key=order)


# ---------------------------------------------------------------------------------------------
# Design rules
# ---------------------------------------------------------------------------------------------


@dataclass
class Slope:
    """A slope over columns [c0, c1) with surface heights (in cells above the level bottom) at its
    left and right edges; `row` is its bottom row (the cells it stands on are row + 1)."""
    c0: int
    c1: int
    row: int
    h_left: float
    h_right: float
    what: str


def lift_positions(e: Entity) -> list[tuple[float, float]]:
    """Centres (px) of the lift along its whole path (start, path points, back to the start for
    Loop), sampled every 4 px or less."""
    left, top, w, h = e.rect
    pts = [(left + w / 2, top + h / 2)] + [((cx + 0.5) * GRID, (cy + 0.5) * GRID) for cx, cy in e.fields["path"]]
    if e.fields["mode"] == "Loop":
        pts.append(pts[0])
    out = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        n = max(1, int(math.ceil(max(abs(bx - ax), abs(by - ay)) / 4)))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n)]
    out.append(pts[-1])
    return out


def lift_cells(e: Entity, centre: tuple[float, float]) -> list[tuple[int, int]]:
    w, h = e.width, e.height
    left, top = centre[0] - w / 2, centre[1] - h / 2
    return [(cx, cy) for cy in range(math.floor(top / GRID), math.floor((top + h - 1) / GRID) + 1)
            for cx in range(math.floor(left / GRID), math.floor((left + w - 1) / GRID) + 1)]


class Geometry:
    """The level seen by the checks: supports, passable cells, slopes."""

    def __init__(self, lv: Level):
        self.lv = lv
        W, H = lv.width, lv.height
        self.platform_cells = {c for e in lv.of("OneWayPlatform") for c in e.cells()}
        self.slope_entity_cells = {c for e in lv.of("Slope") for c in e.cells()}
        # Pipes and bridges are solid entities over empty IntGrid cells (the game spawns their
        # colliders): the checks treat their cells as blocks.
        self.pipe_cells = {c for e in lv.of("Pipe") for c in e.cells()}
        self.bridge_cells = {c for e in lv.of("Bridge") for c in e.cells()}
        self.solid_entity_cells = self.pipe_cells | self.bridge_cells
        self.lift_support: dict[tuple[int, int], int] = {}  # cell -> lift index (top row of the lift)
        self.lift_swept: set[tuple[int, int]] = set()
        self.lift_start_top: dict[tuple[int, int], int] = {}
        self.lift_one_way: set[int] = set()
        for i, e in enumerate(lv.of("Lift")):
            if e.fields["one_way"]:
                self.lift_one_way.add(i)
            for centre in lift_positions(e):
                cells = lift_cells(e, centre)
                self.lift_swept.update(cells)
                top_row = min(cy for _, cy in cells)
                for cx, cy in cells:
                    if cy == top_row and abs(centre[1] - e.height / 2 - top_row * GRID) < 4:
                        self.lift_support[(cx, cy)] = i
            left, top, w, h = e.rect
            for cx in range(left // GRID, (left + w - 1) // GRID + 1):
                self.lift_start_top[(cx, top // GRID)] = i
        self.slopes: list[Slope] = []
        for cy in range(H):
            for cx in range(W):
                v = lv.rows[cy][cx]
                if v in SLOPE_EDGES:
                    a, b = SLOPE_EDGES[v]
                    base = H - 1 - cy
                    self.slopes.append(Slope(cx, cx + 1, cy, base + a, base + b,
                                             f"{VALUE_NAME[v]} at ({cx},{cy})"))
        for e in lv.of("Slope"):
            left, top, w, h = e.rect
            c0, c1 = left // GRID, (left + w) // GRID
            bottom_row = (top + h) // GRID - 1
            low, high = H - (top + h) / GRID, H - top / GRID
            rr = e.fields["rises_right"]
            self.slopes.append(Slope(c0, c1, bottom_row, low if rr else high, high if rr else low,
                                     f"Slope entity {e.where}"))

    def supports(self, cx: int, cy: int) -> bool:
        v = self.lv.cell(cx, cy)
        return (v in SOLID or v in ONE_WAY or v in SLOPE_VALUES or (cx, cy) in self.platform_cells
                or (cx, cy) in self.slope_entity_cells or (cx, cy) in self.lift_support
                or (cx, cy) in self.solid_entity_cells)

    def solid(self, cx: int, cy: int) -> bool:
        """A full block: a solid IntGrid cell, a pipe's or a bridge's cell."""
        return self.lv.cell(cx, cy) in SOLID or (cx, cy) in self.solid_entity_cells

    def one_way_support(self, cx: int, cy: int) -> bool:
        v = self.lv.cell(cx, cy)
        lift = self.lift_support.get((cx, cy))
        return v in ONE_WAY or (cx, cy) in self.platform_cells or (lift is not None and lift in self.lift_one_way)

    def passable(self, cx: int, cy: int) -> bool:
        if cx < 0 or cx >= self.lv.width:
            return False
        if cy < 0 or cy >= self.lv.height:
            return True
        v = self.lv.rows[cy][cx]
        return ((v == 0 or v in ONE_WAY or v in NOT_THERE) and (cx, cy) not in self.slope_entity_cells
                and (cx, cy) not in self.solid_entity_cells)


def check_rules(lv: Level, project: list[Level] | None = None) -> list[str]:
    """The conventions, for one level of a project (`project`: all its levels, the main one first;
    by default the level's own project)."""
    errors: list[str] = []
    W, H = lv.width, lv.height
    g = Geometry(lv)
    err = errors.append
    project = project if project is not None else lv.project

    if lv.is_room:
        if not ROOM_WIDTH[0] <= W <= ROOM_WIDTH[1]:
            err(f"width {W} tiles is outside {ROOM_WIDTH[0]}..{ROOM_WIDTH[1]} (a room)")
        if H != 15:
            err(f"height {H} tiles: rooms are 15 tiles high")
    else:
        if W < 160 or W > 240:
            err(f"width {W} tiles is outside 160..240")
        if H not in (15, 20):
            err(f"height {H} tiles: levels are 15 tiles high (sky may be 20)")

    # --- gentle pairs and what lies under slopes
    for cy in range(H):
        for cx in range(W):
            v = lv.rows[cy][cx]
            if v == 10 and lv.cell(cx + 1, cy) != 11:
                err(f"gentle_low_up_right at ({cx},{cy}) must be followed on its right by gentle_high_up_right")
            if v == 11 and (cx == 0 or lv.cell(cx - 1, cy) != 10):
                err(f"gentle_high_up_right at ({cx},{cy}) must follow gentle_low_up_right")
            if v == 13 and lv.cell(cx + 1, cy) != 12:
                err(f"gentle_high_up_left at ({cx},{cy}) must be followed on its right by gentle_low_up_left")
            if v == 12 and (cx == 0 or lv.cell(cx - 1, cy) != 13):
                err(f"gentle_low_up_left at ({cx},{cy}) must follow gentle_high_up_left")
            if v in SLOPE_VALUES and cy + 1 < H and lv.rows[cy + 1][cx] not in SLOPE_BASE:
                err(f"{VALUE_NAME[v]} at ({cx},{cy}): the cell below must be ground or stone")

    # --- slope entities: empty inside, solid below, sane shape
    for e in lv.of("Slope"):
        left, top, w, h = e.rect
        if left % GRID or top % GRID or w % GRID or h % GRID or w <= 0 or h <= 0:
            err(f"Slope entity {e.where}: must be whole cells")
            continue
        for cx, cy in e.cells():
            if not (0 <= cx < W and 0 <= cy < H):
                err(f"Slope entity {e.where}: outside the level")
            elif lv.rows[cy][cx] != 0:
                err(f"Slope entity {e.where}: IntGrid cell ({cx},{cy}) inside it must be empty")
        below = (top + h) // GRID
        if below < H:
            for cx in range(left // GRID, (left + w) // GRID):
                if lv.cell(cx, below) not in SLOPE_BASE:
                    err(f"Slope entity {e.where}: cell ({cx},{below}) under it must be ground or stone")

    # --- slope ends: high ends meet a block or a plateau (or a ramp going on up); low ends meet
    # flat ground (or a ramp going on down, or the low end of a slope rising the other way: a valley)
    def slope_facing(col_edge: int, h: float, side: str):
        """Slopes whose edge at x = col_edge (their right edge if side == 'left') has height h."""
        for s in g.slopes:
            if side == "left" and s.c1 == col_edge and abs(s.h_right - h) < 1e-9:
                yield s
            if side == "right" and s.c0 == col_edge and abs(s.h_left - h) < 1e-9:
                yield s

    for s in g.slopes:
        for side in ("left", "right"):
            h = s.h_left if side == "left" else s.h_right
            other = s.h_right if side == "left" else s.h_left
            high = h > other
            ncol = s.c0 - 1 if side == "left" else s.c1
            if ncol < 0 or ncol >= W:
                continue
            edge = s.c0 if side == "left" else s.c1
            neighbours = list(slope_facing(edge, h, side))
            ok = False
            for n in neighbours:
                n_far = n.h_left if side == "left" else n.h_right
                if high and n_far > h:
                    ok = True  # the ramp goes on up
                if not high:
                    ok = True  # the ramp goes on down, or a valley
            if not ok and abs(h - round(h)) < 1e-9:
                row = H - int(round(h))  # the cell whose top is at height h
                if row == H:
                    if not high:
                        err(f"{s.what}: its low end is at the level bottom")
                        continue
                elif 0 <= row < H:
                    v = lv.rows[row][ncol]
                    above = lv.cell(ncol, row - 1) if row > 0 else 0
                    if v in SOLID and (high or (above not in SOLID and above not in SLOPE_VALUES)):
                        ok = True  # a block or a plateau at the same height; flat ground
                    if v in SOLID and high and above in SOLID:
                        ok = True  # the slope runs into a wall: a slope-to-block join
            if not ok:
                what = "high" if high else "low"
                err(f"{s.what}: its {what} {side} end (height {h:g}) meets "
                    + ("neither a block nor a plateau" if high else "no flat ground"))

    # --- entities in bounds, on whole pixels
    for e in lv.entities:
        left, top, w, h = e.rect
        if left < 0 or top < 0 or left + w > W * GRID or top + h > H * GRID:
            err(f"{e.ident} {e.where}: outside the level")

    # --- characters: feet on a solid cell's top edge, body in air
    def support_under(e: Entity) -> str | None:
        left, top, w, h = e.rect
        feet_row = (top + h) // GRID
        cx = e.px[0] // GRID
        v = lv.cell(cx, feet_row)
        if feet_row < H and (v in SOLID or v in ONE_WAY):
            return "grid"
        if (cx, feet_row) in g.platform_cells:
            return "platform"
        if (cx, feet_row) in g.lift_start_top:
            return "lift"
        if (cx, feet_row) in g.pipe_cells:
            return "pipe"
        if (cx, feet_row) in g.bridge_cells:
            return "bridge"
        return None

    for e in lv.entities:
        if e.ident in CHARACTERS:
            if e.px[1] % GRID:
                err(f"{e.ident} {e.where}: feet must be on a cell's top edge")
            if support_under(e) is None:
                err(f"{e.ident} {e.where}: must stand on a solid cell, a platform, a lift, a pipe or a bridge")
        if e.ident in CHARACTERS or e.ident == "Coin":
            for cx, cy in e.cells():
                if (lv.cell(cx, cy) != 0 or (cx, cy) in g.platform_cells or (cx, cy) in g.slope_entity_cells
                        or (cx, cy) in g.solid_entity_cells):
                    err(f"{e.ident} {e.where}: overlaps the cell ({cx},{cy})")
    for e in lv.of("Goal"):
        cx, cy = e.px[0] // GRID, e.px[1] // GRID - 1
        for r in range(cy - 10, cy):
            if r >= 0 and lv.cell(cx, r) != 0:
                err(f"Goal {e.where}: the pole needs 10 tiles of air above it; ({cx},{r}) is not empty")
        if cx < W - 24:
            err(f"Goal {e.where}: should be near the right end")
    for e in lv.of("Player"):
        if e.px[0] // GRID > 12:
            err(f"Player {e.where}: should start near the left end")
    if not lv.is_room:
        if len(lv.of("Player")) != 1:
            err(f"exactly one Player needed, found {len(lv.of('Player'))}")
        if not lv.of("Goal"):
            err("a Goal is needed")
    for e in lv.of("OneWayPlatform"):
        left, top, w, h = e.rect
        for cx, cy in e.cells():
            if lv.cell(cx, cy) != 0:
                err(f"OneWayPlatform {e.where}: overlaps IntGrid cell ({cx},{cy})")
            if (cx, cy) in g.solid_entity_cells:
                err(f"OneWayPlatform {e.where}: overlaps a pipe or a bridge at ({cx},{cy})")

    # --- pipes, bridges, the axe and the boss
    errors += check_set_pieces(lv, g, project)

    # --- lifts
    for i, e in enumerate(lv.of("Lift")):
        left, top, w, h = e.rect
        if not (48 <= w <= 64 and h == 16):
            err(f"Lift {e.where}: lifts are 48..64 x 16 px, this one is {w}x{h}")
        if w // GRID % 2 == 0:
            err(f"Lift {e.where}: use an odd width in cells so its centre is a cell centre")
        if not 40 <= e.fields["speed"] <= 70:
            err(f"Lift {e.where}: speed {e.fields['speed']} is outside 40..70 px/s")
        if e.fields["mode"] not in ("PingPong", "Loop", "Once"):
            err(f"Lift {e.where}: mode must be PingPong, Loop or Once")
        if not e.fields["path"]:
            err(f"Lift {e.where}: path is empty")
        for cx, cy in e.fields["path"]:
            if not (0 <= cx < W and 0 <= cy < H):
                err(f"Lift {e.where}: path point ({cx},{cy}) is outside the level")
        for centre in lift_positions(e):
            for cx, cy in lift_cells(e, centre):
                if not (0 <= cx < W and 0 <= cy < H):
                    err(f"Lift {e.where}: its path leaves the level at ({cx},{cy})")
                    break
                if lv.rows[cy][cx] not in (0, 3) or (cx, cy) in g.slope_entity_cells or (cx, cy) in g.solid_entity_cells:
                    err(f"Lift {e.where}: its path runs into the cell ({cx},{cy})")
                    break
            else:
                continue
            break

    # --- pits (gaps in the ground down to the bottom; a bridge over one makes it no pit)
    if lv.theme != "sky":
        for start, width in pits(lv):
            if width > MAX_PIT:
                err(f"pit of {width} tiles at columns {start}..{start + width - 1}: keep pits <= {MAX_PIT} tiles "
                    f"(or bridge it)")

    # --- reachability
    errors += check_route(lv, g, project)
    return errors


def pit_column(lv: Level, cx: int, bridged: set[int]) -> bool:
    """The column is open down to the level bottom (empty or lava there) and no bridge spans it."""
    v = lv.rows[lv.height - 1][cx]
    return (v == 0 or v in NOT_THERE) and cx not in bridged


def pits(lv: Level) -> list[tuple[int, int]]:
    """(first column, width) of each pit: a run of open columns; a bridged span is no pit."""
    bridged = {cx for e in lv.of("Bridge") for cx, _ in e.cells()}
    out, start = [], None
    for cx in range(lv.width + 1):
        open_ = cx < lv.width and pit_column(lv, cx, bridged)
        if open_ and start is None:
            start = cx
        if not open_ and start is not None:
            out.append((start, cx - start))
            start = None
    return out


def reach(dh: int, max_rise: int) -> int:
    """How far (columns, from standing spot to standing spot) a jump rising dh rows reaches; 0 =
    not at all. 7 columns (a 6-tile pit between) at the same height or lower is a running jump
    (about 105 px of the modern feel): the route search asks for a run-up before it."""
    if dh > max_rise:
        return 0
    return {4: 3, 3: 4, 2: 5, 1: 5}.get(dh, RUNNING_JUMP)


RUNNING_JUMP = 7  # columns a running jump reaches at the same height or lower
RUN_UP = 2  # standing spots on the same floor behind a running jump's take-off


def standing_spots(lv: Level, g: Geometry) -> set[tuple[int, int]]:
    """(cx, s): the player stands on the top of row s in column cx, its body in row s - 1."""
    spots = set()
    for cx in range(lv.width):
        for s in range(1, lv.height):
            if g.supports(cx, s) and g.passable(cx, s - 1) and lv.cell(cx, s - 1) not in SLOPE_VALUES:
                spots.add((cx, s))
    return spots


def reachable(lv: Level, g: Geometry, start, max_rise: int) -> set[tuple[int, int]]:
    """The standing spots reachable from `start` (a spot, or a list of spots)."""
    starts = [start] if isinstance(start, tuple) else list(start)
    spots = standing_spots(lv, g)
    by_lift: dict[int, list[tuple[int, int]]] = {}
    for spot in spots:
        if spot in g.lift_support:
            by_lift.setdefault(g.lift_support[spot], []).append(spot)

    def clear(cx: int, r0: int, r1: int) -> bool:
        return all(g.passable(cx, r) for r in range(r0, r1 + 1))

    def can_move(a: tuple[int, int], b: tuple[int, int]) -> bool:
        (c, s), (c2, s2) = a, b
        dh, dx = s - s2, abs(c2 - c)
        if dx == 0:
            if s2 < s:  # straight up through a one-way floor above
                return dh <= max_rise and g.one_way_support(c, s2) and clear(c, s2, s - 1)
            return g.one_way_support(c, s) and clear(c, s, s2 - 1)  # drop through
        if dx > reach(dh, max_rise):
            return False
        top = min(s, s2) - 1
        extra = 1 if (dh > 0 or dx >= 3) else 0
        step = 1 if c2 > c else -1
        if dx >= RUNNING_JUMP and not all((c - k * step, s) in spots for k in range(1, RUN_UP + 1)):
            return False  # a running jump needs a run-up on the same floor
        if not clear(c, top - extra, s - 1) or not clear(c2, top - extra, s2 - 1):
            return False
        return all(clear(x, top - extra, top) for x in range(c + step, c2, step))

    seen = set(starts)
    todo = deque(starts)
    while todo:
        a = todo.popleft()
        c, s = a
        nexts = [(c2, s2) for c2 in range(c - 7, c + 8) for s2 in range(s - max_rise, lv.height)
                 if (c2, s2) in spots and (c2, s2) not in seen]
        if a in g.lift_support:
            nexts += [b for b in by_lift[g.lift_support[a]] if b not in seen]
        for b in nexts:
            if b not in seen and (b in by_lift.get(g.lift_support.get(a, -1), ()) or can_move(a, b)):
                seen.add(b)
                todo.append(b)
    return seen


def pipe_label(e: Entity) -> str:
    return f"Pipe {e.fields['name']!r} {e.where}" if e.fields["name"] else f"Pipe {e.where}"


def pipe_leads(e: Entity) -> bool:
    """The pipe can be entered and leads somewhere."""
    return e.fields["enter"] in ("down", "right") and bool(e.fields["to_level"])


def pipe_top_spots(e: Entity) -> list[tuple[int, int]]:
    """Standing spots on the pipe's top (where a player coming out of it stands)."""
    left, top, w, h = e.rect
    return [(cx, top // GRID) for cx in range(left // GRID, (left + w) // GRID)]


def pipe_entry_spots(e: Entity) -> list[tuple[int, int]]:
    """Where a player stands to go into the pipe: on its top (down), or on the floor at its mouth,
    the cell left of its bottom row (right)."""
    if e.fields["enter"] == "right":
        left, top, w, h = e.rect
        return [(left // GRID - 1, (top + h) // GRID)]
    return pipe_top_spots(e)


def arrival_pipes(lv: Level, project: list[Level]) -> list[Entity]:
    """The pipes of `lv` a player comes out of: named as `to_pipe` by a pipe of the project that
    leads to `lv`."""
    named = {p.fields["to_pipe"] for other in project for p in other.of("Pipe")
             if pipe_leads(p) and p.fields["to_level"] == lv.identifier}
    return [e for e in lv.of("Pipe") if e.fields["name"] and e.fields["name"] in named]


def check_set_pieces(lv: Level, g: Geometry, project: list[Level]) -> list[str]:
    """Pipes (shape, footing, links to the project's levels), bridges, the axe and the boss."""
    errors: list[str] = []
    err = errors.append
    W, H = lv.width, lv.height
    levels = {other.identifier: other for other in project}
    owner: dict[tuple[int, int], Entity] = {}
    for e in lv.of("Pipe") + lv.of("Bridge"):
        label = pipe_label(e) if e.ident == "Pipe" else f"Bridge {e.where}"
        left, top, w, h = e.rect
        if left % GRID or top % GRID or w % GRID or h % GRID or w <= 0 or h <= 0:
            err(f"{label}: must be whole cells")
            continue
        for cx, cy in e.cells():
            if not (0 <= cx < W and 0 <= cy < H):
                err(f"{label}: outside the level at ({cx},{cy})")
                break
            if lv.rows[cy][cx] != 0:
                err(f"{label}: the IntGrid cell ({cx},{cy}) under it must be empty (the game spawns its collider)")
            if (cx, cy) in g.slope_entity_cells:
                err(f"{label}: overlaps a Slope entity at ({cx},{cy})")
            if (cx, cy) in owner:
                err(f"{label}: overlaps {owner[(cx, cy)].ident} {owner[(cx, cy)].where} at ({cx},{cy})")
            owner[(cx, cy)] = e
    for e in lv.of("Bridge"):
        if e.height != GRID:
            err(f"Bridge {e.where}: a bridge is one cell high, this one is {e.height // GRID}")

    names: dict[str, str] = {}
    for e in lv.of("Pipe"):
        f = e.fields
        label = pipe_label(e)
        left, top, w, h = e.rect
        c0, c1, r0, below = left // GRID, (left + w) // GRID, top // GRID, (top + h) // GRID
        if f["name"]:
            if f["name"] in names:
                err(f"{label}: another pipe of this level is named {f['name']!r} ({names[f['name']]})")
            names.setdefault(f["name"], e.where)
        if f["enter"] not in PIPE_ENTRIES:
            err(f"{label}: enter {f['enter']!r} is not one of {', '.join(PIPE_ENTRIES)}")
        elif f["enter"] == "right":
            if h != 2 * GRID:
                err(f"{label}: a side pipe (enter=right) is 2 cells high, this one is {h // GRID}")
            mouth = c0 - 1
            if not (g.supports(mouth, below) and g.passable(mouth, r0) and g.passable(mouth, below - 1)):
                err(f"{label}: its mouth (left side) needs floor at ({mouth},{below}) level with its bottom and "
                    f"2 cells of air above that floor")
        else:
            if w != 2 * GRID:
                err(f"{label}: an upright pipe (enter={f['enter']}) is 2 cells wide, this one is {w // GRID}")
            if below < H and not all(g.solid(cx, below) for cx in range(c0, c1)):
                err(f"{label}: an upright pipe stands on solid cells (row {below} under it)")
        to_level, to_pipe = f["to_level"], f["to_pipe"]
        if to_pipe and not to_level:
            err(f"{label}: to_pipe {to_pipe!r} without a to_level")
        if to_level:
            target = levels.get(to_level)
            if f["enter"] == "none":
                err(f"{label}: leads to {to_level!r} but cannot be entered (enter=none)")
            if target is None:
                err(f"{label}: to_level {to_level!r} is not a level of this project (its levels: "
                    f"{', '.join(levels)})")
            elif not to_pipe:
                err(f"{label}: to_pipe is empty: name the pipe of level {to_level} the player comes out of")
            elif not any(p.fields["name"] == to_pipe for p in target.of("Pipe")):
                theirs = ", ".join(repr(p.fields["name"]) for p in target.of("Pipe") if p.fields["name"]) or "none"
                err(f"{label}: to_pipe {to_pipe!r} names no pipe of level {to_level} (its named pipes: {theirs})")
    for e in arrival_pipes(lv, project):
        for cx, row in pipe_top_spots(e):
            if not (g.passable(cx, row - 1) and g.passable(cx, row - 2)):
                err(f"{pipe_label(e)}: a player comes out on its top, which needs 2 cells of air above it "
                    f"(column {cx})")
                break

    bridge_ends = {((b.rect[0] + b.rect[2]) // GRID, b.rect[1] // GRID) for b in lv.of("Bridge")}
    for e in lv.of("Axe"):
        cx, feet_row = e.px[0] // GRID, e.px[1] // GRID
        if lv.cell(cx, feet_row) not in SOLID:
            err(f"Axe {e.where}: stands on a solid IntGrid cell (at ({cx},{feet_row}))")
        if (cx, feet_row) not in bridge_ends:
            err(f"Axe {e.where}: a Bridge must end right at its left, at the height of its feet (row {feet_row})")
    if lv.of("Boss") and not lv.of("Axe"):
        err("a Boss needs an Axe (and its Bridge) to be beaten")
    return errors


def check_route(lv: Level, g: Geometry, project: list[Level] | None = None) -> list[str]:
    """The main level: from the Player, the Checkpoint and the Goal (steps up to 3 tiles, no pipes
    taken), every coin and every pipe that leads somewhere (up to 4); from the top of each pipe a
    player comes out of, the Goal. A room: from the top of each pipe a player comes out of, a pipe
    that leads out, and every coin."""
    errors = []
    project = project if project is not None else lv.project
    arrivals = arrival_pipes(lv, project)
    exits = [e for e in lv.of("Pipe") if pipe_leads(e)]

    def coins_within(anywhere: set) -> None:
        for e in lv.of("Coin"):
            cx, cy = e.px[0] // GRID, e.px[1] // GRID
            ok = any((c, s) in anywhere for c in range(cx - 3, cx + 4) for s in range(cy + 1, min(cy + 6, lv.height)))
            if not ok:
                errors.append(f"Coin {e.where}: out of reach")

    if lv.is_room:
        if not arrivals:
            errors.append("no pipe of the project brings the player into this room (a pipe with this to_level "
                          "and a to_pipe naming a pipe here)")
        if not exits:
            errors.append("no pipe leads out of this room (enter down or right, with a to_level)")
        anywhere: set = set()
        for a in arrivals:
            route = reachable(lv, g, pipe_top_spots(a), max_rise=3)
            if exits and not any(spot in route for x in exits for spot in pipe_entry_spots(x)):
                errors.append(f"coming out of {pipe_label(a)}, no pipe that leads out is reachable")
            anywhere |= reachable(lv, g, pipe_top_spots(a), max_rise=4)
        for x in exits:
            if arrivals and not any(spot in anywhere for spot in pipe_entry_spots(x)):
                errors.append(f"{pipe_label(x)}: cannot be reached from where the player comes in")
        if arrivals:
            coins_within(anywhere)
        return errors

    players = lv.of("Player")
    if not players:
        return errors
    p = players[0]
    start = (p.px[0] // GRID, p.px[1] // GRID)
    main = reachable(lv, g, start, max_rise=3)  # steps <= 3 tiles on the main route
    for e in lv.of("Goal") + lv.of("Checkpoint"):
        spot = (e.px[0] // GRID, e.px[1] // GRID)
        if spot not in main:
            errors.append(f"{e.ident} {e.where}: not reachable from the Player with jumps of <= 3 tiles")
    anywhere = reachable(lv, g, start, max_rise=4)
    coins_within(anywhere)
    for x in exits:
        if not any(spot in anywhere for spot in pipe_entry_spots(x)):
            errors.append(f"{pipe_label(x)}: cannot be reached from the Player")
    goals = [(e.px[0] // GRID, e.px[1] // GRID) for e in lv.of("Goal")]
    for a in arrivals:
        route = reachable(lv, g, pipe_top_spots(a), max_rise=3)
        if goals and not any(goal in route for goal in goals):
            errors.append(f"coming out of {pipe_label(a)}, the Goal is not reachable with jumps of <= 3 tiles")
    return errors


def check_brief(lv: Level) -> list[str]:
    b = BRIEFS.get(lv.name)
    if b is None:
        return []
    errors = []
    err = errors.append
    W, H = lv.width, lv.height
    values = {v for row in lv.rows for v in row}
    if not b["width"][0] <= W <= b["width"][1] or not b["height"][0] <= H <= b["height"][1]:
        err(f"size {W}x{H} tiles is outside the brief")
    coins = len(lv.of("Coin"))
    if not b["coins"][0] <= coins <= b["coins"][1]:
        err(f"{coins} coins; the brief asks for {b['coins'][0]}..{b['coins'][1]}")
    walkers = lv.of("Walker")
    if len(walkers) < b.get("walkers", 0):
        err(f"{len(walkers)} walkers; the brief asks for at least {b['walkers']}")
    ledge = [w for w in walkers if w.fields["turns_at_ledges"]]
    if len(ledge) < b.get("ledge_walkers", 0):
        err(f"{len(ledge)} walkers turn at ledges; the brief asks for {b['ledge_walkers']}")
    for w in ledge:
        feet = w.px[1] // GRID
        if feet >= H - 2 and lv.theme == "overworld":
            err(f"Walker {w.where}: ledge-turning walkers belong on platforms")
    if "shells" in b:
        n = len(lv.of("ShellEnemy"))
        if not b["shells"][0] <= n <= b["shells"][1]:
            err(f"{n} shell enemies; the brief asks for {b['shells'][0]}..{b['shells'][1]}")
    if len(lv.of("HammerThrower")) < b.get("hammers", 0):
        err(f"the brief asks for {b['hammers']} hammer throwers")
    for v in b.get("values", ()):
        if v not in values:
            err(f"the brief asks for IntGrid value {v} ({VALUE_NAME[v]})")
    for v in b.get("slopes", ()):
        if v not in values:
            err(f"the brief asks for slope value {v} ({VALUE_NAME[v]})")
    if "pits" in b:
        n = len(pits(lv))
        if not b["pits"][0] <= n <= b["pits"][1]:
            err(f"{n} pits; the brief asks for {b['pits'][0]}..{b['pits'][1]}")
    if b.get("slope_entities_both_ways"):
        for rr in (True, False):
            if not any(e.fields["rises_right"] == rr and e.width in (3 * GRID, 4 * GRID) and e.height == GRID
                       for e in lv.of("Slope")):
                err(f"the brief asks for a 1/3 or 1/4 Slope entity with rises_right={str(rr).lower()}")
    if b.get("ceiling") and any(v not in (1, 2) for v in lv.rows[0]):
        err("row 0 must be a ceiling of ground or stone")
    if len(lv.of("OneWayPlatform")) < b.get("platforms", 0):
        err("the brief asks for OneWayPlatform entities")
    if b.get("low_ceiling_ramps"):
        steep = gentle = 0
        for cy in range(H):
            for cx in range(W):
                v = lv.rows[cy][cx]
                if v not in SLOPE_EDGES:
                    continue
                top_h = H - 1 - cy + max(SLOPE_EDGES[v])
                r = cy - 1
                while r >= 0 and lv.rows[r][cx] not in SOLID:
                    r -= 1
                if r < 0:
                    continue
                clearance = (H - 1 - r) - top_h
                if 3 <= clearance <= 3.5:
                    if v in (8, 9):
                        steep += 1
                    else:
                        gentle += 1
        if steep < 2 or gentle < 2:
            err(f"the brief asks for 45-degree and gentle ramps under a ceiling 3 tiles above them "
                f"(found {steep} steep, {gentle} gentle cells)")
    if b.get("lift_kinds"):
        lifts = lv.of("Lift")

        def centre_path(e):
            left, top, w, h = e.rect
            return [((left + w // 2) // GRID, (top + h // 2) // GRID)] + list(e.fields["path"])

        if not any(all(y == centre_path(e)[0][1] for _, y in centre_path(e)) for e in lifts):
            err("the brief asks for a horizontal lift")
        if not any(all(x == centre_path(e)[0][0] for x, _ in centre_path(e)) for e in lifts):
            err("the brief asks for a vertical lift")
        if not any(e.fields["one_way"] for e in lifts):
            err("the brief asks for a one-way lift")
        if not any(e.fields["mode"] == "Loop" for e in lifts):
            err("the brief asks for a Loop lift")
        g = Geometry(lv)
        on_lifts = 0
        for w in lv.of("Walker"):
            left, top, ww, hh = w.rect
            if (w.px[0] // GRID, (top + hh) // GRID) in g.lift_start_top:
                on_lifts += 1
        if on_lifts < b["walkers_on_lifts"]:
            err(f"{on_lifts} walkers stand on lifts; the brief asks for {b['walkers_on_lifts']}")
    if "open_bottom" in b:
        open_cols = sum(1 for v in lv.rows[H - 1] if v == 0)
        if open_cols < b["open_bottom"] * W:
            err(f"only {open_cols} of {W} columns are open at the bottom")
    if b.get("only_stone") and 1 in values:
        err("castle levels use stone (2), not ground (1)")
    if "early_mushroom" in b:
        cols = [cx for cy in range(H) for cx in range(W) if lv.rows[cy][cx] == 6]
        if not cols or min(cols) > b["early_mushroom"] * W:
            err("the brief asks for a mushroom block early in the level")
    cps = lv.of("Checkpoint")
    if len(cps) != b.get("checkpoints", 1):
        err(f"{len(cps)} checkpoints; the brief asks for {b.get('checkpoints', 1)}")
    for c in cps:
        if not 0.3 * W <= c.px[0] / GRID <= 0.7 * W:
            err(f"Checkpoint {c.where}: should be mid-level")
    if "theme" in b and lv.theme != b["theme"]:
        err(f"theme {lv.theme}; the brief asks for {b['theme']}")
    enemies = sum(len(lv.of(e)) for e in ENEMIES)
    if enemies < b.get("enemies", 0):
        err(f"{enemies} enemies; the brief asks for at least {b['enemies']}")
    if len(lv.of("Roller")) < b.get("rollers", 0):
        err(f"{len(lv.of('Roller'))} rollers; the brief asks for at least {b['rollers']}")
    if len(lv.of("Lift")) < b.get("lifts", 0):
        err(f"{len(lv.of('Lift'))} lifts; the brief asks for at least {b['lifts']}")
    if b.get("hidden") and not values & {16, 17}:
        err("the brief asks for a secret: a hidden block (hidden_coin or hidden_1up)")
    wide = sum(1 for _, width in pits(lv) if width >= MAX_PIT)
    if wide < b.get("running_pits", 0):
        err(f"{wide} pits of {MAX_PIT} tiles (a running jump); the brief asks for {b['running_pits']}")
    metrics = slope_metrics(lv)
    for key, what in (("valleys", "valleys"), ("long_ramps", "ramps of 6+ columns")):
        if metrics[key] < b.get(key, 0):
            err(f"{metrics[key]} {what}; the brief asks for at least {b[key]}")
    if metrics["slope_columns"] < b.get("slope_columns", 0) * W:
        err(f"slopes in {metrics['slope_columns']} of {W} columns; the brief asks for "
            f"{b['slope_columns']:.0%} at least")
    if "rooms" in b:
        count, min_coins = b["rooms"]
        if len(lv.rooms) < count:
            err(f"{len(lv.rooms)} rooms; the brief asks for {count} (a bonus room through a pipe)")
        for room in lv.rooms:
            n = len(room.of("Coin"))
            if n < min_coins:
                err(f"room {room.identifier}: {n} coins; the brief asks for {min_coins} at least")
            lo, hi = b.get("room_width", ROOM_WIDTH)
            if not lo <= room.width <= hi:
                err(f"room {room.identifier}: {room.width} tiles wide; the brief asks for {lo}..{hi}")
            if "room_theme" in b and room.theme != b["room_theme"]:
                err(f"room {room.identifier}: theme {room.theme}; the brief asks for {b['room_theme']}")
        if lv.rooms and not any(pipe_leads(e) for e in lv.of("Pipe")):
            err("the brief asks for a pipe from the level to its bonus room")
    if b.get("boss"):
        errors += boss_brief(lv)
    return errors


def boss_brief(lv: Level) -> list[str]:
    """The boss's set piece: a lava pit 10..13 tiles wide under a Bridge at floor height, the Boss
    on the bridge's right half, the Axe right after its right end, 4+ tiles of air over the bridge,
    before the Goal."""
    errors: list[str] = []
    err = errors.append
    bosses, axes = lv.of("Boss"), lv.of("Axe")
    if len(bosses) != 1 or len(axes) != 1:
        return [f"the brief asks for one Boss and one Axe (found {len(bosses)} and {len(axes)})"]
    boss, axe = bosses[0], axes[0]
    ax, row = axe.px[0] // GRID, axe.px[1] // GRID
    bridge = next((b for b in lv.of("Bridge") if ((b.rect[0] + b.rect[2]) // GRID, b.rect[1] // GRID) == (ax, row)),
                  None)
    if bridge is None:
        return [f"Axe {axe.where}: no Bridge ends right at its left"]
    b0, b1 = bridge.rect[0] // GRID, ax - 1
    if not 10 <= b1 - b0 + 1 <= 13:
        err(f"Bridge {bridge.where}: {b1 - b0 + 1} tiles; the brief asks for a pit of 10..13 under it")
    for cx in range(b0, b1 + 1):
        below = [lv.cell(cx, r) for r in range(row + 1, lv.height)]
        if any(v not in (0, 19) for v in below) or lv.cell(cx, lv.height - 1) != 19:
            err(f"Bridge {bridge.where}: column {cx} under it must be open down to lava in the bottom row")
            break
        if any(lv.cell(cx, r) != 0 for r in range(row - 4, row)):
            err(f"Bridge {bridge.where}: 4 tiles of air over it are needed (column {cx})")
            break
    for cx in (b0 - 1, ax):
        if lv.cell(cx, row) not in SOLID:
            err(f"Bridge {bridge.where}: the floor at ({cx},{row}) on each side must be solid, level with it")
    bx = boss.px[0] // GRID
    if boss.px[1] // GRID != row or not (b0 + b1 + 1) / 2 <= bx <= b1:
        err(f"Boss {boss.where}: should stand on the bridge's right half")
    goals = lv.of("Goal")
    if goals and not all(g.px[0] // GRID > ax for g in goals):
        err("the Goal should lie past the axe (the flagpole hall after the bridge)")
    return errors


def slope_metrics(lv: Level) -> dict:
    """valleys: places where a slope going down meets one going up at its low end; long_ramps:
    unbroken chains of slopes rising the same way over 6+ columns; slope_columns: columns with a
    slope (cell or entity)."""
    g = Geometry(lv)
    eps = 1e-9

    def rising(s: Slope) -> int:
        return 1 if s.h_right > s.h_left else -1

    valleys = 0
    nexts: dict[int, int] = {}
    for i, a in enumerate(g.slopes):
        for j, b in enumerate(g.slopes):
            if b.c0 != a.c1 or abs(b.h_left - a.h_right) > eps:
                continue
            if rising(a) < 0 < rising(b):
                valleys += 1
            if rising(a) == rising(b):
                nexts[i] = j
    heads = set(range(len(g.slopes))) - set(nexts.values())
    long_ramps = 0
    for i in heads:
        cols, k = 0, i
        while True:
            cols += g.slopes[k].c1 - g.slopes[k].c0
            if k not in nexts:
                break
            k = nexts[k]
        if cols >= 6:
            long_ramps += 1
    columns = {c for s in g.slopes for c in range(s.c0, s.c1)}
    return {"valleys": valleys, "long_ramps": long_ramps, "slope_columns": len(columns)}


# ---------------------------------------------------------------------------------------------
# LDtk JSON
# ---------------------------------------------------------------------------------------------


def iid(*parts: str) -> str:
    return str(uuid.uuid5(IID_NAMESPACE, "/".join(parts)))


def seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("/".join(parts).encode()).digest()[:4], "big") % 9_999_999


def ldtk_float(v: float):
    """LDtk writes floats rounded to 3 decimals, integers without a fraction."""
    v = round(float(v), 3)
    return int(v) if v == int(v) else v


def smart_color(hex_color: str) -> str:
    """LDtk's level __smartColor: the background colour 45% towards white."""
    c = [int(hex_color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (255 - x) * 0.45):02X}" for x in c)


def editor_value(fd: FieldDef, v):
    kind = {"Bool": "V_Bool", "Int": "V_Int", "Float": "V_Float", "String": "V_String", "Enum": "V_String"}[fd.kind]
    return {"id": kind, "params": [ldtk_float(v) if fd.kind == "Float" else v]}


def field_def_json(fd: FieldDef) -> dict:
    points = fd.kind == "Points"
    return {
        "identifier": fd.ident,
        "doc": fd.doc,
        "__type": fd.type_string,
        "uid": fd.uid,
        "type": fd.ldtk_type,
        "isArray": points,
        "canBeNull": False,
        "arrayMinLength": 1 if points else None,
        "arrayMaxLength": None,
        "editorDisplayMode": "PointPath" if points else "NameAndValue",
        "editorDisplayScale": 1,
        "editorDisplayPos": "Above",
        "editorLinkStyle": "StraightArrow",
        "editorDisplayColor": None,
        "editorAlwaysShow": False,
        "editorShowInWorld": True,
        "editorCutLongValues": True,
        "editorTextSuffix": fd.suffix,
        "editorTextPrefix": None,
        "useForSmartColor": False,
        "exportToToc": False,
        "searchable": False,
        "min": None if fd.minimum is None else ldtk_float(fd.minimum),
        "max": None if fd.maximum is None else ldtk_float(fd.maximum),
        "regex": None,
        "acceptFileTypes": None,
        "defaultOverride": None if fd.default is None else editor_value(fd, fd.default),
        "textLanguageMode": None,
        "symmetricalRef": False,
        "autoChainRef": False,
        "allowOutOfLevelRef": True,
        "allowedRefs": "OnlySame",
        "allowedRefsEntityUid": None,
        "allowedRefTags": [],
        "tilesetUid": None,
    }


def field_instance_json(fd: FieldDef, v) -> dict:
    if fd.kind == "Points":
        value = [{"cx": x, "cy": y} for x, y in v]
        editor = [{"id": "V_String", "params": [f"{x},{y}"]} for x, y in v]
    else:
        value = ldtk_float(v) if fd.kind == "Float" else v
        editor = [editor_value(fd, v)]
    return {"__identifier": fd.ident, "__type": fd.type_string, "__value": value, "__tile": None,
            "defUid": fd.uid, "realEditorValues": editor}


def layer_def_json(ident: str, kind: str, uid: int, doc: str) -> dict:
    return {
        "__type": kind,
        "identifier": ident,
        "type": kind,
        "uid": uid,
        "doc": doc,
        "uiColor": None,
        "gridSize": GRID,
        "guideGridWid": 0,
        "guideGridHei": 0,
        "displayOpacity": 1,
        "inactiveOpacity": 1 if kind == "Entities" else 0.6,
        "hideInList": False,
        "hideFieldsWhenInactive": kind != "Entities",
        "canSelectWhenInactive": True,
        "renderInWorldView": True,
        "pxOffsetX": 0,
        "pxOffsetY": 0,
        "parallaxFactorX": 0,
        "parallaxFactorY": 0,
        "parallaxScaling": True,
        "requiredTags": [],
        "excludedTags": [],
        "autoTilesKilledByOtherLayerUid": None,
        "uiFilterTags": [],
        "useAsyncRender": False,
        "intGridValues": [] if kind != "IntGrid" else [
            {"value": v, "identifier": name, "color": color, "tile": None, "groupUid": 0}
            for v, name, _, color in INTGRID_VALUES],
        "intGridValuesGroups": [],
        "autoRuleGroups": rule_groups_json() if kind == "IntGrid" else [],
        "autoSourceLayerDefUid": None,
        "tilesetDefUid": TILESET_UID if kind == "IntGrid" else None,
        "tilePivotX": 0,
        "tilePivotY": 0,
        "biomeFieldUid": LEVEL_FIELDS[0].uid if kind == "IntGrid" else None,
    }


def entity_def_json(d: EntityDef) -> dict:
    return {
        "identifier": d.ident,
        "uid": d.uid,
        "tags": list(d.tags),
        "exportToToc": d.toc,
        "allowOutOfBounds": False,
        "doc": d.doc,
        "width": d.width,
        "height": d.height,
        "resizableX": d.resizable,
        "resizableY": d.resizable,
        "minWidth": GRID if d.resizable else None,
        "maxWidth": None,
        "minHeight": GRID if d.resizable else None,
        "maxHeight": None,
        "keepAspectRatio": False,
        "tileOpacity": 1,
        "fillOpacity": 0.6 if d.resizable else 0.35,
        "lineOpacity": 1,
        "hollow": False,
        "color": d.color,
        "renderMode": d.render,
        "showName": True,
        "tilesetId": None,
        "tileRenderMode": "FitInside",
        "tileRect": None,
        "uiTileRect": None,
        "nineSliceBorders": [],
        "maxCount": d.max_count,
        "limitScope": "PerLevel",
        "limitBehavior": "MoveLastOne" if d.max_count else "DiscardOldOnes",
        "pivotX": ldtk_float(d.pivot[0]),
        "pivotY": ldtk_float(d.pivot[1]),
        "fieldDefs": [field_def_json(f) for f in d.fields],
    }


def defs_json() -> dict:
    return {
        "layers": [
            layer_def_json("Entities", "Entities", ENTITIES_LAYER_UID,
                           "Player, Goal, Checkpoint, coins, enemies, lifts, one-way platforms and slope entities."),
            layer_def_json("Collisions", "IntGrid", COLLISIONS_LAYER_UID,
                           "Solid cells, one-way cells, blocks and grid slopes (45 degrees and 1/2 in pairs)."),
        ],
        "entities": [entity_def_json(d) for d in ENTITY_DEFS],
        "tilesets": [{
            "__cWid": TILESET_COLUMNS, "__cHei": TILESET_ROWS, "identifier": "Tiles", "uid": TILESET_UID,
            "relPath": TILESET_REL_PATH, "embedAtlas": None, "pxWid": TILESET_COLUMNS * GRID,
            "pxHei": TILESET_ROWS * GRID, "tileGridSize": GRID, "spacing": 0, "padding": 0, "tags": [],
            "tagsSourceEnumUid": None, "enumTags": [], "customData": [], "savedSelections": [],
        }],
        "enums": [{
            "identifier": "Theme", "uid": THEME_ENUM_UID,
            "values": [{"id": t, "tileRect": None, "color": THEME_COLORS[t]} for t in THEMES],
            "iconTilesetUid": None, "externalRelPath": None, "externalFileChecksum": None, "tags": [],
        }],
        "externalEnums": [],
        "levelFields": [field_def_json(f) for f in LEVEL_FIELDS],
    }


def grid_cell(px: int, pivot: float, size: int = GRID) -> int:
    """LDtk's __grid: Std.int((x + (pivot == 1 ? -1 : 0)) / gridSize)."""
    return int((px + (-1 if pivot == 1 else 0)) / size)


def level_json(lv: Level, world_iid: str, refs: dict[str, list]) -> dict:
    """One level of the project (the main level or a room); adds its toc entries to `refs`."""
    W, H = lv.width, lv.height
    name = lv.name
    # The main level keeps the names it always had; a room's names include its identifier.
    scope = (name,) if not lv.is_room else (name, lv.identifier)
    level_iid = iid(name, "level") if not lv.is_room else iid(name, "level", lv.identifier)
    layer_iids = {"Entities": iid(*scope, "layer", "Entities"), "Collisions": iid(*scope, "layer", "Collisions")}
    wx, wy = 0, lv.world_y
    counts: dict[str, int] = {}
    entities = []
    for e in lv.entities:
        d = e.d
        n = counts.get(d.ident, 0)
        counts[d.ident] = n + 1
        e_iid = iid(*scope, "entity", d.ident, str(n))
        entities.append({
            "__identifier": d.ident,
            "__grid": [grid_cell(e.px[0], d.pivot[0]), grid_cell(e.px[1], d.pivot[1])],
            "__pivot": [ldtk_float(d.pivot[0]), ldtk_float(d.pivot[1])],
            "__tags": list(d.tags),
            "__tile": None,
            "__smartColor": d.color,
            "iid": e_iid,
            "width": e.width,
            "height": e.height,
            "defUid": d.uid,
            "px": [e.px[0], e.px[1]],
            "fieldInstances": [field_instance_json(fd, e.fields[fd.ident]) for fd in d.fields],
            "__worldX": e.px[0] + wx,
            "__worldY": e.px[1] + wy,
        })
        if d.toc:
            refs.setdefault(d.ident, []).append({
                "iids": {"worldIid": world_iid, "levelIid": level_iid, "layerIid": layer_iids["Entities"],
                         "entityIid": e_iid},
                "worldX": e.px[0] + wx, "worldY": e.px[1] + wy, "widPx": e.width, "heiPx": e.height, "fields": {},
            })

    def layer(ident: str, kind: str, uid: int, csv: list[int], ents: list) -> dict:
        tiled = kind == "IntGrid"
        return {
            "__identifier": ident,
            "__type": kind,
            "__cWid": W,
            "__cHei": H,
            "__gridSize": GRID,
            "__opacity": 1,
            "__pxTotalOffsetX": 0,
            "__pxTotalOffsetY": 0,
            "__tilesetDefUid": TILESET_UID if tiled else None,
            "__tilesetRelPath": TILESET_REL_PATH if tiled else None,
            "iid": layer_iids[ident],
            "levelId": lv.uid,
            "layerDefUid": uid,
            "pxOffsetX": 0,
            "pxOffsetY": 0,
            "visible": True,
            "optionalRules": [],
            "intGridCsv": csv,
            "autoLayerTiles": auto_layer_tiles(lv.theme, lv.rows) if tiled else [],
            "seed": seed(*scope, ident),
            "overrideTilesetUid": None,
            "gridTiles": [],
            "entityInstances": ents,
        }

    return {
        "identifier": lv.identifier,
        "iid": level_iid,
        "uid": lv.uid,
        "worldX": wx,
        "worldY": wy,
        "worldDepth": 0,
        "pxWid": W * GRID,
        "pxHei": H * GRID,
        "__bgColor": lv.bg_color,
        "bgColor": lv.bg_color,
        "useAutoIdentifier": False,
        "bgRelPath": None,
        "bgPos": None,
        "bgPivotX": 0.5,
        "bgPivotY": 0.5,
        "__smartColor": smart_color(lv.bg_color),
        "__bgPos": None,
        "externalRelPath": None,
        "fieldInstances": [field_instance_json(LEVEL_FIELDS[0], lv.theme),
                           field_instance_json(LEVEL_FIELDS[1], lv.time_limit)],
        "layerInstances": [
            layer("Entities", "Entities", ENTITIES_LAYER_UID, [], entities),
            layer("Collisions", "IntGrid", COLLISIONS_LAYER_UID, [v for row in lv.rows for v in row], []),
        ],
        "__neighbours": [],
    }


def project_json(lv: Level) -> dict:
    """The project of a main level: it first (the level the game plays), then its rooms."""
    W, H = lv.width, lv.height
    name = lv.name
    world_iid = iid(name, "world")
    refs: dict[str, list] = {}
    levels = [level_json(each, world_iid, refs) for each in lv.project]
    toc = [{"identifier": d.ident, "instances": [], "instancesData": refs.get(d.ident, [])}
           for d in ENTITY_DEFS if d.toc]

    return {
        "__header__": {
            "fileType": "LDtk Project JSON",
            "app": "LDtk",
            "doc": "https://ldtk.io/json",
            "schema": "https://ldtk.io/files/JSON_SCHEMA.json",
            "appAuthor": "Sebastien 'deepnight' Benard",
            "appVersion": JSON_VERSION,
            "url": "https://ldtk.io",
        },
        "iid": iid(name, "project"),
        "jsonVersion": JSON_VERSION,
        "appBuildId": APP_BUILD_ID,
        "nextUid": NEXT_UID,
        "identifierStyle": "Free",
        "toc": toc,
        "worldLayout": "Free",
        "worldGridWidth": 256,
        "worldGridHeight": 256,
        "defaultLevelWidth": W * GRID,
        "defaultLevelHeight": H * GRID,
        "defaultPivotX": 0.5,
        "defaultPivotY": 1,
        "defaultGridSize": GRID,
        "defaultEntityWidth": GRID,
        "defaultEntityHeight": GRID,
        "bgColor": "#40465B",
        "defaultLevelBgColor": lv.bg_color,
        "minifyJson": False,
        "externalLevels": False,
        "exportTiled": False,
        "simplifiedExport": False,
        "imageExportMode": "None",
        "exportLevelBg": True,
        "pngFilePattern": None,
        "backupOnSave": False,
        "backupLimit": 10,
        "backupRelPath": None,
        "levelNamePattern": "Level_%idx",
        "tutorialDesc": "",  # generated_note(), once the rest is known
        "customCommands": [],
        "flags": [],
        "defs": defs_json(),
        "levels": levels,
        "worlds": [],
        "dummyWorldIid": world_iid,
    }


def check_consistency(doc: dict) -> list[str]:
    """What the schema cannot say: uids, iids and sizes agree."""
    errors = []
    err = errors.append
    defs = doc["defs"]
    uids = [l["uid"] for l in defs["layers"]] + [e["uid"] for e in defs["entities"]]
    uids += [f["uid"] for e in defs["entities"] for f in e["fieldDefs"]] + [f["uid"] for f in defs["levelFields"]]
    uids += [lvl["uid"] for lvl in doc["levels"]]
    uids += [t["uid"] for t in defs["tilesets"]] + [e["uid"] for e in defs["enums"]]
    groups = [g for l in defs["layers"] for g in l["autoRuleGroups"]]
    uids += [g["uid"] for g in groups] + [r["uid"] for g in groups for r in g["rules"]]
    if len(uids) != len(set(uids)):
        err("uids are not unique")
    if max(uids) >= doc["nextUid"]:
        err("nextUid must be above every uid")
    layer_defs = {l["uid"]: l for l in defs["layers"]}
    entity_defs = {e["uid"]: e for e in defs["entities"]}
    field_defs = {f["uid"]: f for e in defs["entities"] for f in e["fieldDefs"]}
    field_defs.update({f["uid"]: f for f in defs["levelFields"]})
    iids = [doc["iid"], doc["dummyWorldIid"]]
    for lvl in doc["levels"]:
        iids.append(lvl["iid"])
        for fi in lvl["fieldInstances"]:
            if field_defs.get(fi["defUid"], {}).get("identifier") != fi["__identifier"]:
                err(f"level field {fi['__identifier']}: defUid does not match")
        if [li["layerDefUid"] for li in lvl["layerInstances"]] != [l["uid"] for l in defs["layers"]]:
            err("layer instances must follow the layer definitions' order")
        for li in lvl["layerInstances"]:
            iids.append(li["iid"])
            ld = layer_defs[li["layerDefUid"]]
            if li["__identifier"] != ld["identifier"] or li["__type"] != ld["__type"]:
                err(f"layer {li['__identifier']}: does not match its definition")
            if li["__gridSize"] != ld["gridSize"] or li["levelId"] != lvl["uid"]:
                err(f"layer {li['__identifier']}: grid size or level id")
            if li["__cWid"] * li["__gridSize"] != lvl["pxWid"] or li["__cHei"] * li["__gridSize"] != lvl["pxHei"]:
                err(f"layer {li['__identifier']}: __cWid/__cHei do not match pxWid/pxHei")
            if ld["__type"] == "IntGrid":
                if len(li["intGridCsv"]) != li["__cWid"] * li["__cHei"]:
                    err(f"layer {li['__identifier']}: intGridCsv length")
                allowed = {0} | {v["value"] for v in ld["intGridValues"]}
                if not set(li["intGridCsv"]) <= allowed:
                    err(f"layer {li['__identifier']}: unknown IntGrid values")
            elif li["intGridCsv"]:
                err(f"layer {li['__identifier']}: intGridCsv must be empty")
            for ei in li["entityInstances"]:
                iids.append(ei["iid"])
                ed = entity_defs.get(ei["defUid"])
                if ed is None or ed["identifier"] != ei["__identifier"]:
                    err(f"entity {ei['iid']}: defUid does not match")
                    continue
                if not ed["resizableX"] and (ei["width"], ei["height"]) != (ed["width"], ed["height"]):
                    err(f"entity {ei['iid']}: size differs from its definition")
                if ei["__pivot"] != [ed["pivotX"], ed["pivotY"]]:
                    err(f"entity {ei['iid']}: __pivot")
                grid = [grid_cell(ei["px"][0], ed["pivotX"], li["__gridSize"]),
                        grid_cell(ei["px"][1], ed["pivotY"], li["__gridSize"])]
                if ei["__grid"] != grid:
                    err(f"entity {ei['iid']}: __grid {ei['__grid']} should be {grid}")
                if [ei["__worldX"], ei["__worldY"]] != [ei["px"][0] + lvl["worldX"], ei["px"][1] + lvl["worldY"]]:
                    err(f"entity {ei['iid']}: __worldX/__worldY")
                if [f["defUid"] for f in ei["fieldInstances"]] != [f["uid"] for f in ed["fieldDefs"]]:
                    err(f"entity {ei['iid']}: field instances do not follow the definitions")
    if len(iids) != len(set(iids)):
        err("iids are not unique")
    for s in iids:
        try:
            uuid.UUID(s)
        except ValueError:
            err(f"iid {s!r} is not a UUID")
    toc_ids = {t["identifier"] for t in doc["toc"]}
    if toc_ids != {e["identifier"] for e in defs["entities"] if e["exportToToc"]}:
        err("toc must list exactly the entities exported to it")
    # Several levels: distinct identifiers, apart in the Free world layout, pipes linking them.
    idents = [lvl["identifier"] for lvl in doc["levels"]]
    if len(idents) != len(set(idents)):
        err("level identifiers are not unique")
    boxes = [(lvl["identifier"], lvl["worldX"], lvl["worldY"], lvl["pxWid"], lvl["pxHei"]) for lvl in doc["levels"]]
    for k, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[k + 1:]:
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                err(f"levels {a} and {b} overlap in the world")
    pipes_of = {lvl["identifier"]: [{f["__identifier"]: f["__value"] for f in ei["fieldInstances"]}
                                    for li in lvl["layerInstances"] for ei in li["entityInstances"]
                                    if ei["__identifier"] == "Pipe"]
                for lvl in doc["levels"]}
    for ident, pipes in pipes_of.items():
        for f in pipes:
            to_level = f.get("to_level") or ""
            if to_level and to_level not in pipes_of:
                err(f"level {ident}: pipe {f.get('name')!r} leads to level {to_level!r}, which is not in the project")
            elif to_level and not any(q.get("name") == f.get("to_pipe") for q in pipes_of[to_level]):
                err(f"level {ident}: pipe {f.get('name')!r} leads to pipe {f.get('to_pipe')!r}, which level "
                    f"{to_level} does not have")
    return errors


# ---------------------------------------------------------------------------------------------
# Schema validation: the game's end-to-end tests validate every level against LDtk's JSON schema
# (tests/game/levels_schema.rs, with a maintained validator); here only if the `jsonschema` package is
# installed, to catch a problem before writing.
# ---------------------------------------------------------------------------------------------


def jsonschema_errors(schema, instance, limit: int = 20) -> list[str] | None:
    """Errors from the `jsonschema` package, or None when it is not installed."""
    try:
        import jsonschema
    except ImportError:
        return None
    validator = jsonschema.Draft7Validator(schema)
    out = []
    for e in validator.iter_errors(instance):
        out.append("/" + "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:120])
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def is_scalar(v) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def dumps_ldtk(doc) -> str:
    """LDtk-like layout: tab indentation, short arrays and flat small objects on one line,
    intGridCsv one grid row per line."""
    def scalar(v) -> str:
        if isinstance(v, float):
            return json.dumps(v)
        return json.dumps(v, ensure_ascii=False)

    def inline(v) -> str | None:
        if is_scalar(v):
            return scalar(v)
        if isinstance(v, list) and all(is_scalar(x) for x in v):
            return "[" + ",".join(scalar(x) for x in v) + "]"
        if isinstance(v, dict) and not v:
            return "{}"
        if isinstance(v, dict) and len(v) <= 6 and all(
                is_scalar(x) or (isinstance(x, list) and len(x) <= 4 and all(is_scalar(y) for y in x))
                for x in v.values()):
            return "{ " + ", ".join(f"{json.dumps(k)}: {inline(x)}" for k, x in v.items()) + " }"
        return None

    def go(v, indent: int, key: str | None = None, row_len: int | None = None) -> str:
        pad = "\t" * indent
        if key == "intGridCsv" and v and row_len:
            rows = [",".join(str(x) for x in v[i:i + row_len]) for i in range(0, len(v), row_len)]
            return "[\n" + ",\n".join(pad + "\t" + r for r in rows) + "\n" + pad + "]"
        s = inline(v)
        if s is not None and (len(s) <= 200 or is_scalar(v)):
            return s
        if isinstance(v, list):
            if not v:
                return "[]"
            return "[\n" + ",\n".join(pad + "\t" + go(x, indent + 1) for x in v) + "\n" + pad + "]"
        assert isinstance(v, dict)
        if not v:
            return "{}"
        cwid = v.get("__cWid") if isinstance(v.get("__cWid"), int) else None
        parts = [f'{pad}\t{json.dumps(k)}: {go(x, indent + 1, k, cwid)}' for k, x in v.items()]
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}"

    return go(doc, 0) + "\n"


def load_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


GENERATED_MARK = re.compile(r"generated content ([0-9a-f]{16})")


def content_hash(doc: dict) -> str:
    """A hash of the project without its `tutorialDesc` (which holds the hash)."""
    rest = {k: v for k, v in doc.items() if k != "tutorialDesc"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def generated_note(lv: Level, name: str, doc: dict) -> str:
    return (f"slope_bros level {lv.identifier}, generated by tools/make_levels.py from levels/src/{name}.txt "
            f"(generated content {content_hash(doc)}). Once saved from the LDtk editor, this file is the "
            f"level's source: the generator no longer overwrites it.")


def edited_since_generated(path: Path) -> bool:
    """Whether the file was changed (saved from LDtk, or by hand) after the generator wrote it: its
    content no longer has the hash its `tutorialDesc` states, or it states none."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    mark = GENERATED_MARK.search(str(doc.get("tutorialDesc") or "")) if isinstance(doc, dict) else None
    return mark is None or mark.group(1) != content_hash(doc)


def build(name: str) -> tuple[Level, str]:
    src = SRC_DIR / f"{name}.txt"
    rel = src.relative_to(ROOT).as_posix()
    lv = parse_source(name, src.read_text(encoding="utf-8"), rel)
    problems = [f"level {each.identifier}: {p}" for each in lv.project for p in check_rules(each, lv.project)]
    problems += [f"level {lv.identifier}: {p}" for p in check_brief(lv)]
    if problems:
        raise LevelError(f"{rel}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    doc = project_json(lv)
    doc["tutorialDesc"] = generated_note(lv, name, doc)
    text = dumps_ldtk(doc)
    reparsed = json.loads(text)
    if reparsed != doc:
        raise LevelError(f"{rel}: the writer changed the document")
    problems = check_consistency(reparsed)
    js = jsonschema_errors(load_schema(), reparsed)
    if js:
        problems += [f"jsonschema: {e}" for e in js]
    if problems:
        raise LevelError(f"{name}.ldtk: {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    return lv, text


def describe(lv: Level) -> str:
    text = describe_level(lv)
    for room in lv.rooms:
        text += "\n  room " + describe_level(room)
    return text


def describe_level(lv: Level) -> str:
    counts: dict[str, int] = {}
    for e in lv.entities:
        key = e.ident
        if e.ident == "Walker" and e.fields["turns_at_ledges"]:
            key = "Walker(ledges)"
        counts[key] = counts.get(key, 0) + 1
    values: dict[int, int] = {}
    for row in lv.rows:
        for v in row:
            if v:
                values[v] = values.get(v, 0) + 1
    ents = ", ".join(f"{k} {n}" for k, n in counts.items())
    vals = ", ".join(f"{VALUE_NAME[v]} {n}" for v, n in sorted(values.items()))
    return (f"{lv.identifier}: {lv.width}x{lv.height} tiles ({lv.width * GRID}x{lv.height * GRID} px), "
            f"{len(pits(lv))} pits\n    entities: {ents}\n    cells: {vals}")


def mapping_text() -> str:
    """levels/mapping.ron: the physics cell kind of each IntGrid value, from the alphabet."""
    lines = [
        "// How the game's LDtk levels become physics (bevy_platformer_physics::ldtk::LdtkPhysicsMapping).",
        "// Written by tools/make_levels.py from levels/alphabet.json: edit that file, then regenerate.",
        "(",
        "    layers: {",
        "        \"Collisions\": {",
    ]
    lines += [f"            {value}: {kind}," for value, kind in sorted(PHYSICS_KIND.items())]
    lines += [
        "        },",
        "    },",
        "    slope_entity: \"Slope\",",
        "    one_way_entity: \"OneWayPlatform\",",
        "    lift_entity: \"Lift\",",
        "    merge_cells: true,",
        ")",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help=f"levels to build (default: {' '.join(NAMES)})")
    ap.add_argument("--check", action="store_true", help="write nothing; fail if an output is stale")
    ap.add_argument("--force", action="store_true",
                    help="overwrite levels saved from the LDtk editor too (their edits are lost)")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    names = args.names or NAMES
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        print(f"unknown level(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("jsonschema") is None:
        print("note: the `jsonschema` package is not installed (pip install jsonschema); "
              "validating with the built-in draft-07 subset only", file=sys.stderr)
    failed = False
    for name in names:
        out = LEVELS_DIR / f"{name}.ldtk"
        if out.exists() and not args.force and edited_since_generated(out):
            # The editor is the level's source now; its text map no longer describes it.
            print(f"kept: {out.relative_to(ROOT)} was saved from LDtk (or edited) after it was generated, so it is "
                  f"the level's source; levels/src/{name}.txt no longer describes it (--force overwrites the edit)",
                  file=sys.stderr)
            continue
        try:
            lv, text = build(name)
        except LevelError as e:
            print(f"error: {e}", file=sys.stderr)
            failed = True
            continue
        if args.check:
            current = out.read_text(encoding="utf-8") if out.exists() else None
            if current != text:
                print(f"stale: {out.relative_to(ROOT)} (run python3 tools/make_levels.py)", file=sys.stderr)
                failed = True
                continue
        else:
            out.write_bytes(text.encode("utf-8"))
        if not args.quiet:
            print(("ok   " if args.check else "wrote ") + f"{out.relative_to(ROOT)}  " + describe(lv))
    mapping = LEVELS_DIR / "mapping.ron"
    if args.check:
        if not mapping.exists() or mapping.read_text(encoding="utf-8") != mapping_text():
            print(f"stale: {mapping.relative_to(ROOT)} (run python3 tools/make_levels.py)", file=sys.stderr)
            failed = True
    else:
        mapping.write_text(mapping_text(), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
