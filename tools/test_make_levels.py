#!/usr/bin/env python3
"""Tests of tools/make_levels.py: its promise to the LDtk editor (a level saved from LDtk is the
level's source, and the generator does not overwrite it unless told to; a level it wrote and
nobody changed follows its text map), and its rooms and pipes (a source with `room:` sections
becomes one project of several levels; pipes that lead nowhere real are errors that say where).

    python3 -m unittest tools/test_make_levels.py      (.ci/run runs it)

Each test that runs the generator works on a copy of it and of `levels/` in a temporary folder.
"""

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class GeneratorAndEditor(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="make_levels_"))
        (self.dir / "tools").mkdir()
        shutil.copy(ROOT / "tools" / "make_levels.py", self.dir / "tools")
        shutil.copytree(ROOT / "levels", self.dir / "levels")
        self.level = self.dir / "levels" / "sky.ldtk"
        self.source = self.dir / "levels" / "src" / "sky.txt"

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_generator(self, *args):
        return subprocess.run([sys.executable, str(self.dir / "tools" / "make_levels.py"), "-q", "sky", *args],
                              capture_output=True, text=True)

    def save_from_editor(self):
        """What a save from LDtk does: the file's content changes (here one IntGrid cell)."""
        doc = json.loads(self.level.read_text(encoding="utf-8"))
        layer = next(li for li in doc["levels"][0]["layerInstances"] if li["__identifier"] == "Collisions")
        layer["intGridCsv"][0] = 2 if layer["intGridCsv"][0] != 2 else 1
        text = json.dumps(doc, indent="\t")
        self.level.write_text(text, encoding="utf-8")
        return text

    def test_the_committed_levels_are_what_the_generator_writes(self):
        before = self.level.read_text(encoding="utf-8")
        done = self.run_generator()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.level.read_text(encoding="utf-8"), before)
        self.assertEqual(self.run_generator("--check").returncode, 0)

    def test_a_level_saved_from_ldtk_is_kept_and_passes_the_check(self):
        edited = self.save_from_editor()
        done = self.run_generator()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("kept: levels/sky.ldtk", done.stderr)
        self.assertEqual(self.level.read_text(encoding="utf-8"), edited, "the edit is not lost")
        check = self.run_generator("--check")
        self.assertEqual(check.returncode, 0, check.stderr)
        self.assertIn("kept: levels/sky.ldtk", check.stderr)

    def test_force_overwrites_an_edited_level_from_its_text_map(self):
        generated = self.level.read_text(encoding="utf-8")
        self.save_from_editor()
        done = self.run_generator("--force")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.level.read_text(encoding="utf-8"), generated)

    def test_a_generated_level_follows_its_changed_text_map_and_the_check_sees_it_stale(self):
        before = self.level.read_text(encoding="utf-8")
        self.source.write_text(self.source.read_text(encoding="utf-8").replace("time_limit: ", "time_limit: 1"),
                               encoding="utf-8")
        check = self.run_generator("--check")
        self.assertEqual(check.returncode, 1)
        self.assertIn("stale: levels/sky.ldtk", check.stderr)
        done = self.run_generator()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotEqual(self.level.read_text(encoding="utf-8"), before)
        self.assertEqual(self.run_generator("--check").returncode, 0)


def load_generator():
    spec = importlib.util.spec_from_file_location("make_levels", ROOT / "tools" / "make_levels.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_levels", module)
    spec.loader.exec_module(module)
    return module


ROOM_SOURCE = """level: Main
theme: overworld
time_limit: 300
bg_color: #5C94FC
height: 3

segment a
....
.P..
####
+ Pipe 2 0 w=2 h=1 name=down_here to_level=Bonus to_pipe=up_there

room: Bonus               // a second level of the same project
theme: underground
time_limit: 200
bg_color: #101020
height: 3

segment b
.....
.....
#####
+ Pipe 0 1 w=2 h=1 name=up_there enter=none
+ Coin 3 1
"""


class RoomsAndPipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gen = load_generator()

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="make_levels_"))
        (self.dir / "tools").mkdir()
        shutil.copy(ROOT / "tools" / "make_levels.py", self.dir / "tools")
        shutil.copytree(ROOT / "levels", self.dir / "levels")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_generator(self, *args):
        return subprocess.run([sys.executable, str(self.dir / "tools" / "make_levels.py"), "-q", *args],
                              capture_output=True, text=True)

    def edit_source(self, name, old, new):
        path = self.dir / "levels" / "src" / f"{name}.txt"
        text = path.read_text(encoding="utf-8")
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def test_a_room_source_parses_into_two_levels_of_one_project(self):
        main = self.gen.parse_source("test", ROOM_SOURCE, "test.txt")
        self.assertEqual([lv.identifier for lv in main.project], ["Main", "Bonus"])
        room = main.rooms[0]
        self.assertTrue(room.is_room)
        self.assertEqual((room.theme, room.time_limit, room.width, room.height), ("underground", 200, 5, 3))
        self.assertEqual(room.world_y, 3 * 16 + self.gen.ROOM_GAP, "below the main level, with a gap")
        self.assertEqual([e.ident for e in room.entities], ["Pipe", "Coin"])
        pipe = main.of("Pipe")[0]
        self.assertEqual((pipe.fields["to_level"], pipe.fields["to_pipe"], pipe.fields["enter"]),
                         ("Bonus", "up_there", "down"))
        doc = self.gen.project_json(main)
        self.assertEqual([lvl["identifier"] for lvl in doc["levels"]], ["Main", "Bonus"])
        self.assertEqual(len({lvl["uid"] for lvl in doc["levels"]}), 2, "level uids are unique")
        self.assertEqual(doc["levels"][1]["worldY"], 3 * 16 + self.gen.ROOM_GAP)
        self.assertEqual(self.gen.check_consistency(doc), [])

    def test_a_room_needs_its_own_header(self):
        broken = ROOM_SOURCE.replace("theme: underground\n", "")
        with self.assertRaisesRegex(self.gen.LevelError, r"test.txt:\d+: room Bonus: missing `theme:`"):
            self.gen.parse_source("test", broken, "test.txt")

    def test_a_pipe_to_a_level_the_project_does_not_have_is_an_error_naming_it(self):
        self.edit_source("hills", "to_level=HillsBonus", "to_level=Nowhere")
        done = self.run_generator("hills")
        self.assertEqual(done.returncode, 1)
        self.assertIn("levels/src/hills.txt", done.stderr)
        self.assertIn("level Hills: Pipe 'bonus_in'", done.stderr)
        self.assertIn("to_level 'Nowhere' is not a level of this project (its levels: Hills, HillsBonus)",
                      done.stderr)

    def test_a_pipe_to_a_pipe_the_level_does_not_have_is_an_error_naming_it(self):
        self.edit_source("overworld", "to_pipe=room_in", "to_pipe=cellar")
        done = self.run_generator("overworld")
        self.assertEqual(done.returncode, 1)
        self.assertIn("to_pipe 'cellar' names no pipe of level OverworldBonus", done.stderr)
        self.assertIn("level OverworldBonus: no pipe of the project brings the player into this room", done.stderr)

    def test_an_unknown_enter_value_is_an_error(self):
        self.edit_source("caverns", "name=exit enter=right", "name=exit enter=left")
        done = self.run_generator("caverns")
        self.assertEqual(done.returncode, 1)
        self.assertIn("level CavernsBonus: Pipe 'exit'", done.stderr)
        self.assertIn("enter 'left' is not one of down, right, none", done.stderr)

    def test_a_bridge_over_lava_is_no_pit_and_the_boss_needs_its_axe(self):
        castle = self.gen.parse_source("castle", (ROOT / "levels" / "src" / "castle.txt").read_text(encoding="utf-8"),
                                       "castle.txt")
        bridge = castle.of("Bridge")[0]
        left = bridge.rect[0] // 16
        self.assertNotIn(left, [start for start, _ in self.gen.pits(castle)])
        self.assertEqual(self.gen.check_rules(castle), [])
        self.edit_source("castle", "+ Axe 15 11\n", "")
        done = self.run_generator("castle")
        self.assertEqual(done.returncode, 1)
        self.assertIn("a Boss needs an Axe", done.stderr)

    def test_every_level_is_generated_and_checked(self):
        done = self.run_generator("--check")
        self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
