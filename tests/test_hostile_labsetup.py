"""``python -m helpers.tools.labsetup`` against a hostile environment: all or nothing, the user's file kept.

* an existing ``jupyter_server_config.json`` that cannot be merged (invalid, a list, binary, a section
  such as ``"LabApp": null``) is backed up byte for byte before it is replaced; an empty one is merged;
* a prefix that is a file, a folder in the way, or a read-only prefix ends in a bilingual message with
  nothing installed: no file, no temporary file, no folder made by the failed run.
"""

import errno
import json
import os
from pathlib import Path

import pytest
from hostile_support import assert_bilingual, assert_bilingual_text

from helpers.runtime.errors import HelpersError
from helpers.tools import labsetup


def server_config(prefix: Path) -> Path:
    return prefix / "etc" / "jupyter" / labsetup.CONFIG_NAME


def all_files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def assert_installed(prefix: Path) -> dict:
    config = json.loads(server_config(prefix).read_text(encoding="utf-8"))
    assert config["LabApp"]["custom_css"] is True
    custom = Path(config["ServerApp"]["tornado_settings"]["static_custom_path"][0])
    assert (custom / labsetup.FONT.name).read_bytes() == labsetup.FONT.read_bytes()
    assert (prefix / "share/jupyter/lab/settings/overrides.json").is_file()
    return config


UNMERGEABLE = {
    "invalid json": b'{"ServerApp": {"port": 9999,',
    "a list": b'[{"ServerApp": {"port": 9999}}]',
    "LabApp null": b'{"LabApp": null, "ServerApp": {"port": 9999}}',
    "ServerApp a number": b'{"ServerApp": 3}',
    "tornado_settings a list": b'{"ServerApp": {"tornado_settings": ["x"], "port": 9999}}',
    "binary": bytes(range(256)) * 4,
    "a string": b'"just text"',
}


@pytest.mark.parametrize("content", UNMERGEABLE.values(), ids=UNMERGEABLE.keys())
def test_an_unmergeable_server_config_is_backed_up_byte_for_byte_then_replaced(tmp_path, capsys, content):
    server_config(tmp_path).parent.mkdir(parents=True)
    server_config(tmp_path).write_bytes(content)
    assert labsetup.main(["--prefix", str(tmp_path)]) == 0
    backup = server_config(tmp_path).with_name(labsetup.CONFIG_NAME + ".bak")
    assert backup.read_bytes() == content
    assert_installed(tmp_path)
    assert_bilingual_text(capsys.readouterr().err, "backed up to", str(backup))


def test_an_object_with_a_null_section_keeps_the_users_other_keys(tmp_path):
    server_config(tmp_path).parent.mkdir(parents=True)
    server_config(tmp_path).write_text('{"LabApp": null, "ServerApp": {"port": 9999}, "Mine": {"a": 1}}')
    labsetup.install(tmp_path)
    config = assert_installed(tmp_path)
    assert config["ServerApp"]["port"] == 9999 and config["Mine"] == {"a": 1}


def test_a_second_backup_does_not_overwrite_the_first(tmp_path):
    server_config(tmp_path).parent.mkdir(parents=True)
    for content in (b"first broken", b"second broken"):
        server_config(tmp_path).write_bytes(content)
        labsetup.install(tmp_path)
    folder = server_config(tmp_path).parent
    assert (folder / (labsetup.CONFIG_NAME + ".bak")).read_bytes() == b"first broken"
    assert (folder / (labsetup.CONFIG_NAME + ".bak1")).read_bytes() == b"second broken"


@pytest.mark.parametrize("content", [b"", b"  \n"], ids=["empty", "blank"])
def test_an_empty_server_config_is_filled_in(tmp_path, content):
    server_config(tmp_path).parent.mkdir(parents=True)
    server_config(tmp_path).write_bytes(content)
    labsetup.install(tmp_path)
    assert_installed(tmp_path)
    assert not server_config(tmp_path).with_name(labsetup.CONFIG_NAME + ".bak").exists()


def test_a_prefix_that_is_a_file_is_refused_and_kept(tmp_path, capsys):
    prefix = tmp_path / "env"
    prefix.write_text("not an environment")
    assert labsetup.main(["--prefix", str(prefix)]) == 1
    assert_bilingual_text(capsys.readouterr().err, "a file, not a folder", "nothing changed")
    assert prefix.read_text() == "not an environment" and all_files(tmp_path) == ["env"]


def test_a_file_in_the_way_halfway_leaves_nothing_installed(tmp_path, capsys):
    (tmp_path / "etc").write_text("in the way")  # share/… could be made, etc/jupyter cannot
    assert labsetup.main(["--prefix", str(tmp_path)]) == 1
    assert_bilingual_text(capsys.readouterr().err, "labsetup failed", "nothing changed")
    assert all_files(tmp_path) == ["etc"]  # no share/ folder, no temporary file


def test_a_failure_while_writing_removes_every_temporary_file_and_keeps_the_users_config(tmp_path, monkeypatch):
    server_config(tmp_path).parent.mkdir(parents=True)
    server_config(tmp_path).write_text('{"ServerApp": {"port": 9999}}')
    before = all_files(tmp_path)
    real, calls = labsetup._write_temp, []

    def disk_full_on_the_third_file(target, data):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(target))
        return real(target, data)

    monkeypatch.setattr(labsetup, "_write_temp", disk_full_on_the_third_file)
    with pytest.raises(HelpersError) as info:
        labsetup.install(tmp_path)
    assert_bilingual(info, "No space left on device")
    assert all_files(tmp_path) == before
    assert server_config(tmp_path).read_text() == '{"ServerApp": {"port": 9999}}'


def test_a_read_only_prefix_is_refused_with_nothing_installed(tmp_path, monkeypatch, capsys):
    prefix = tmp_path / "env"
    (prefix / "etc" / "jupyter").mkdir(parents=True)
    server_config(prefix).write_text('{"ServerApp": {"port": 9999}}')
    before = all_files(prefix)
    if os.geteuid() == 0:  # root writes into a 0555 folder anyway: make the OS refuse as it would a user
        def read_only(*args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied")

        monkeypatch.setattr(Path, "mkdir", read_only)
        monkeypatch.setattr(labsetup.tempfile, "mkstemp", read_only)
    for folder in (prefix, *[p for p in prefix.rglob("*") if p.is_dir()]):
        folder.chmod(0o555)
    try:
        assert labsetup.main(["--prefix", str(prefix)]) == 1
    finally:
        for folder in (prefix, *[p for p in prefix.rglob("*") if p.is_dir()]):
            folder.chmod(0o755)
    assert_bilingual_text(capsys.readouterr().err, "Permission denied", "nothing changed")
    assert all_files(prefix) == before
    assert server_config(prefix).read_text() == '{"ServerApp": {"port": 9999}}'
