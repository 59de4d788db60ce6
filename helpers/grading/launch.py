"""Start one graded process (a notebook's kernel or a sandbox child) inside its limits.

Run as a script by the grader: ``python launch.py CONFIG.json -- COMMAND...``. In this order
it puts itself in a new session (so the grader can kill the whole process group), sets the resource
limits (``resource.setrlimit``: address space, file size, open files, processes, no core dumps),
hands files it must share to the sandbox user and drops to that user (when the grader runs as root
on Linux), then replaces itself by ``COMMAND`` with a clean environment, wrapped in bubblewrap when
the config says so. Standard library only: it runs before anything of the package can be trusted.
"""

import json
import os
import sys


def _limits(limits: dict) -> None:
    try:
        import resource
    except ImportError:  # Windows: no rlimits
        return
    for name, value in limits.items():
        which = getattr(resource, f"RLIMIT_{name.upper()}", None)
        if which is None or value is None:
            continue
        soft, hard = resource.getrlimit(which)
        value = int(value) if hard == resource.RLIM_INFINITY else min(int(value), hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):  # e.g. macOS refuses RLIMIT_AS: keep going with the others
            pass


def _drop(user, share) -> None:
    uid, gid = user
    for path in share:
        if os.path.exists(path):
            os.chown(path, uid, gid)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("could not drop privileges")


def main(argv) -> None:
    config_path, sep, command = argv[0], argv[1], argv[2:]
    if sep != "--" or not command:
        raise SystemExit("usage: launch.py CONFIG.json -- COMMAND...")
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    if hasattr(os, "setsid") and os.getpgrp() != os.getpid():
        os.setsid()
    _limits(config.get("limits", {}))
    share = list(config.get("share", []))
    if "-f" in command:  # the kernel's connection file, written by the grader with mode 0600
        share.append(command[command.index("-f") + 1])
    if config.get("user"):
        _drop(config["user"], share)
    env = dict(config["env"])
    if not config.get("wrap"):  # inside bubblewrap's PID namespace the parent is PID 1: --die-with-parent instead
        env.update({k: v for k, v in os.environ.items() if k.startswith("JPY_")})
    command = list(config.get("wrap") or []) + command
    os.execvpe(command[0], command, env)


if __name__ == "__main__":
    main(sys.argv[1:])
