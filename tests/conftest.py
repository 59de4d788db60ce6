"""Shared test set-up.

* a headless matplotlib backend, and quick mode for anything notebook-like;
* ``site``: the companion website built once per session (tests/test_site.py, tests/test_site_translator.py);
* an in-process network guard: any connection to an address outside the loopback range fails the
  test, so nothing in helpers reaches for the network (kernels and JupyterLab use 127.0.0.1 only).
"""

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("NB_QUICK", "1")

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to reach a non-loopback address."""


def _is_local(address) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    host = address[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name other than localhost would need DNS: refuse


def _guarded_connect(self, address):
    if not _is_local(address):
        raise NetworkBlocked(f"test tried to reach the network: {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self, address):
    if not _is_local(address):
        raise NetworkBlocked(f"test tried to reach the network: {address!r}")
    return _real_connect_ex(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    yield


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built site's html folder (one build per test session, like `make site`)."""
    root = Path(__file__).resolve().parents[1]
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(root), MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, "-m", "helpers.tools.site", "--out", str(out)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"make site failed:\n{done.stdout}\n{done.stderr}"
    print(done.stdout)
    return out / "html"
