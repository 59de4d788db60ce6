"""The in-process network guard really blocks outside addresses (so a green suite means offline)."""

import socket

import pytest
from conftest import NetworkBlocked


def test_outside_address_is_refused_before_any_packet():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(NetworkBlocked):
        sock.connect(("192.0.2.1", 80))  # TEST-NET-1, never routed


def test_loopback_is_allowed():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.socket() as client:
            client.connect(server.getsockname())
