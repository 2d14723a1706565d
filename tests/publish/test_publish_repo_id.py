"""`publish --repo-id` (and `release --repo-id`) takes only what the Hub takes, in --dry-run too, where
the id would otherwise be written into the card preview: exit 2, one line saying what is wrong."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.release.loading import repo_id_problem
from eval_fixtures import build_release

BAD = {"a/b/c": "exactly one '/'", "../evil": "may hold only", "org/na me": "may hold only", "": "exactly one '/'",
       "noorg": "exactly one '/'", "org/": "must not be empty", "org/-name": "must start and end",
       "org/name.": "must start and end", ".org/name": "must start and end", "org/a--b": "'--' and '..'",
       "org/a..b": "'--' and '..'", "org/" + "n" * 97: "97 characters", "org/name.git": "must not end in .git",
       "örg/name": "may hold only", "org/name\n": "may hold only"}
GOOD = ["my-lab/mmrc", "Org_1/Name.v2-x", "a/b", "_org/_n_", "o/" + "n" * 96]


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    return build_release(tmp_path_factory.mktemp("rel"), n=1)


@pytest.mark.parametrize("repo_id", list(BAD))
def test_dry_run_refuses_an_id_the_hub_would_refuse(release, repo_id):
    result = CliRunner().invoke(main, ["publish", str(release), "--repo-id", repo_id, "--dry-run"])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: --repo-id ")
    assert BAD[repo_id] in result.output and "would upload" not in result.output


def test_dry_run_takes_a_good_id(release):
    result = CliRunner().invoke(main, ["publish", str(release), "--repo-id", "my-lab/mmrc", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "would tag v0.1.0 on my-lab/mmrc" in result.output


def test_our_rules_agree_with_huggingface_hub():
    """Every id we take, huggingface_hub takes; every id it refuses, we refuse (we also require ORG/ and
    ASCII, as the Hub's server does)."""
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    for repo_id in [*BAD, *GOOD]:
        try:
            validate_repo_id(repo_id)
            hub_ok = True
        except HFValidationError:
            hub_ok = False
        ours_ok = repo_id_problem(repo_id) is None
        assert ours_ok == (repo_id in GOOD), repo_id
        assert hub_ok or not ours_ok, repo_id
