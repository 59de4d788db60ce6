"""``python -m helpers.tools.site --out DIR`` deletes nothing it did not build.

* a build folder carries a stamp file; ``DIR/src`` and ``DIR/html`` of a folder without it are never
  cleared (``--out .`` or ``--out ~`` next to a user's own ``src/``);
* ``--out`` inside ``site/`` (the sources would copy themselves), the repository, the home folder or a
  folder above ``site/`` is refused; ``--out`` naming a file is a bilingual error, not a traceback;
* issue 32: a symlinked build folder (``site/_build`` included) whose target has no stamp, the repository's
  own folders, system folders (is, inside or containing) and a non-empty folder without the stamp are
  refused; a symlinked ``src/`` or ``html/`` inside a build folder is never followed.
"""

from pathlib import Path

import pytest
from hostile_support import assert_bilingual, assert_bilingual_text

import helpers.tools.site as site
from helpers.runtime.errors import HelpersError
from helpers.runtime.outputs import STAMP_NAME

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def users_folder(tmp_path):
    """A folder with a user's own src/ and html/ in it (not a build folder)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "thesis.tex").write_text("my thesis")
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").write_text("my homepage")
    return tmp_path


def untouched(folder: Path) -> bool:
    return (folder / "src" / "thesis.tex").read_text() == "my thesis" and \
        (folder / "html" / "index.html").read_text() == "my homepage"


def test_out_dot_next_to_a_users_src_deletes_nothing(users_folder, monkeypatch, capsys):
    monkeypatch.chdir(users_folder)
    assert site.main(["--out", "."]) != 0
    assert_bilingual_text(capsys.readouterr().err, STAMP_NAME, "not a build folder")
    assert untouched(users_folder) and not (users_folder / STAMP_NAME).exists()


def test_out_home_is_refused(users_folder, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(users_folder))
    assert site.main(["--out", "~"]) != 0
    assert_bilingual_text(capsys.readouterr().err, "home folder")
    assert untouched(users_folder)


@pytest.mark.parametrize("where", ["repo root", "above site"])
def test_out_the_repository_or_a_folder_above_site_is_refused(where, capsys):
    out = ROOT if where == "repo root" else ROOT.parent
    assert site.main(["--out", str(out)]) != 0
    assert_bilingual_text(capsys.readouterr().err, "--out")
    assert not (out / STAMP_NAME).exists() and not (ROOT / "src").exists()


@pytest.mark.parametrize("inside", ["site", "site/mybuild", "site/_static/x"])
def test_out_inside_the_site_sources_is_refused(inside, capsys):
    out = ROOT / inside
    existed = out.exists()
    assert site.main(["--out", str(out)]) != 0
    assert_bilingual_text(capsys.readouterr().err, "inside the site sources")
    assert out.exists() == existed and not (out / STAMP_NAME).exists()


def test_out_naming_a_file_is_a_bilingual_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    for out in (tmp_path / "notes.txt", tmp_path / "notes.txt" / "build"):
        assert site.main(["--out", str(out)]) != 0
        assert_bilingual_text(capsys.readouterr().err, "a file, not a folder")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_stamped_build_folder_is_cleared_and_restaged(tmp_path):
    build = site.check_build_dir(tmp_path / "build")
    site.prepare_build_dir(build)
    (build / "src").mkdir()
    (build / "src" / "stale.md").write_text("from an older build")
    site.prepare_build_dir(build)  # a rebuild: its own folder, so allowed
    site.stage_sources(build / "src")
    assert not (build / "src" / "stale.md").exists()
    assert (build / "src" / "conf.py").read_bytes() == (ROOT / "site" / "conf.py").read_bytes()


def test_stage_sources_never_clears_a_src_outside_a_stamped_folder(users_folder):
    with pytest.raises(HelpersError) as info:
        site.stage_sources(users_folder / "src")
    assert_bilingual(info, "not a build folder")
    assert untouched(users_folder)


def test_the_default_build_folder_of_an_older_build_is_still_rebuilt(tmp_path, monkeypatch):
    legacy = tmp_path / "site" / "_build"  # built before stamps existed: no stamp file
    (legacy / "src").mkdir(parents=True)
    monkeypatch.setattr(site, "DEFAULT_BUILD_DIR", legacy)
    site.prepare_build_dir(legacy.resolve())
    assert (legacy / STAMP_NAME).read_text().strip() == site.OWNER


# ----------------------------------------------- issue 32: symlinks, repo / system folders, non-empty folders
@pytest.fixture()
def stop_after_staging(monkeypatch):
    """A build that gets past the folder checks stops right after staging its sources (no Sphinx run)."""
    import helpers.tools.frames as frames

    def stop(*args, **kwargs):
        raise HelpersError("测试在这里停止构建 (test stops the build here)")

    monkeypatch.setattr(frames, "write_frames", stop)


def test_a_symlinked_default_build_folder_never_clears_the_folder_it_points_to(users_folder, tmp_path_factory,
                                                                               monkeypatch, capsys,
                                                                               stop_after_staging):
    repo_site = tmp_path_factory.mktemp("repo") / "site"
    repo_site.mkdir()
    link = repo_site / "_build"
    link.symlink_to(users_folder, target_is_directory=True)  # site/_build -> a user's folder
    monkeypatch.setattr(site, "DEFAULT_BUILD_DIR", link)
    assert site.main([]) != 0
    assert_bilingual_text(capsys.readouterr().err, "symlink")
    assert untouched(users_folder) and not (users_folder / STAMP_NAME).exists()


def test_out_a_symlink_to_a_folder_without_the_stamp_is_refused(tmp_path, capsys, stop_after_staging):
    (tmp_path / "empty").mkdir()
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "empty", target_is_directory=True)
    assert site.main(["--out", str(link)]) != 0
    assert_bilingual_text(capsys.readouterr().err, "symlink", STAMP_NAME)
    assert list((tmp_path / "empty").iterdir()) == []


def test_out_a_symlink_to_a_stamped_build_folder_is_accepted(tmp_path):
    real = site.check_build_dir(tmp_path / "real")
    site.prepare_build_dir(real)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert site.check_build_dir(link) == real.resolve()


@pytest.mark.parametrize("where", ["helpers", "notebooks", "tests", ".git", ".venv", "helpers/newsite",
                                   "notebooks/solutions/site", "/etc", "/etc/newsite", "/usr/share/site", "/",
                                   "/var", "/proc/self"])
def test_out_a_source_folder_of_the_repo_or_a_system_folder_is_refused(where):
    out = Path(where) if where.startswith("/") else ROOT / where
    existed = out.exists()
    with pytest.raises(HelpersError) as info:
        site.check_build_dir(out)  # refused before anything is created or stamped
    assert_bilingual(info, "--out")
    assert out.exists() == existed


def test_a_new_folder_in_the_repository_root_is_still_a_valid_build_folder():
    out = ROOT / "build-site-test-new"
    assert not out.exists()
    assert site.check_build_dir(out) == out and not out.exists()


def test_out_a_non_empty_folder_without_the_stamp_is_refused(tmp_path, capsys, stop_after_staging):
    (tmp_path / "notes.txt").write_text("mine")
    assert site.main(["--out", str(tmp_path)]) != 0
    assert_bilingual_text(capsys.readouterr().err, "not empty", STAMP_NAME)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("part", ["src", "html"])
def test_a_symlinked_part_of_a_stamped_build_folder_is_not_followed(tmp_path, users_folder, part):
    build = site.check_build_dir(tmp_path / "build")
    site.prepare_build_dir(build)
    (build / part).symlink_to(users_folder / part, target_is_directory=True)
    with pytest.raises(HelpersError) as info:
        site.clear_build_part(build / part)
    assert_bilingual(info, "symlink")
    assert untouched(users_folder)
