#!/usr/bin/env python3
"""Tests of tools/make_levels.py's promise to the LDtk editor: a level saved from LDtk is the
level's source, and the generator does not overwrite it (unless told to); a level it wrote and
nobody changed follows its text map.

    python3 -m unittest tools/test_make_levels.py      (.ci/run runs it)

Each test works on a copy of the generator and of `levels/` in a temporary folder.
"""

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


if __name__ == "__main__":
    unittest.main()
