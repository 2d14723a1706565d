"""clean --public-figures: a user-given list of public figures keeps their names (whole, two
words or more); a missing or malformed list is one clear line. Known answers on planted names."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from builder.clean.gazetteer import load
from builder.errors import ConfigError
from conftest import dialogue, make_stage_folder

pytestmark = pytest.mark.models

TEXT = "I love Tamsin Oyelaran-Brooks, I have seen every film she made. Tamsin is my hero."


def _clean(tmp_path, *extra):
    from builder.cli import main

    src = make_stage_folder(tmp_path / "in", [dialogue([("user", TEXT), ("assistant", "Nice!")], source_id="a")])
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["clean", str(src), "-o", str(out), "--toxicity-backend", "lexicon", "--quiet",
                                       *extra])
    return result, out


def _text(out):
    return pl.concat([pl.read_parquet(p) for p in sorted(out.glob("part-*.parquet"))]).to_dicts()[0]["turns"][0]["text"]


def test_a_listed_public_figure_stays_and_an_unlisted_one_goes(tmp_path):
    result, out = _clean(tmp_path / "plain")
    assert result.exit_code == 0, result.output
    assert "Oyelaran" not in _text(out)  # an actor nobody lists reads as a person the user knows
    (tmp_path / "people.csv").write_text("name,occupation\nTamsin Oyelaran-Brooks,ACTOR\nPlato,PHILOSOPHER\n")
    result, out = _clean(tmp_path / "listed", "--public-figures", str(tmp_path / "people.csv"))
    assert result.exit_code == 0, result.output
    assert "I love Tamsin Oyelaran-Brooks," in _text(out)
    import json
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["public_figures_sha256"] and "public_figures_sha256" in json.dumps(manifest["models"])


@pytest.mark.parametrize("content, message", [
    (None, "cannot read it"),
    ("first,last\nAda,Lovelace\n", "a table needs a 'name' column"),
    ("Plato\nHomer\n", "no name of two words or more"),
])
def test_a_bad_list_is_one_clear_line(tmp_path, content, message):
    path = tmp_path / "people.txt"
    if content is not None:
        path.write_text(content)
    result, _ = _clean(tmp_path, "--public-figures", str(path))
    assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output


def test_load_reads_tables_and_lines_and_checks_the_content(tmp_path):
    (tmp_path / "a.tsv").write_text("name\tdomain\nMarie  Curie\tSCIENCE\nPlato\tHUMANITIES\n")
    (tmp_path / "b.txt").write_text("Ada Lovelace\n\nAlan Turing\n")
    assert load(str(tmp_path / "a.tsv")) == {"marie curie"}
    assert load(str(tmp_path / "b.txt")) == {"ada lovelace", "alan turing"}
    with pytest.raises(ConfigError, match="changed"):
        load(str(tmp_path / "b.txt"), "0" * 64)
