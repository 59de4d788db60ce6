"""Start one graded process (a notebook's kernel or a sandbox child) inside its limits.

Run as a script by the grader: ``python launch.py CONFIG.json -- COMMAND...``. It puts itself in a
new session (so the grader can kill the whole process group) and asks the kernel to kill it when the
grader dies (Linux: ``PR_SET_PDEATHSIG``). Then either

- **with bubblewrap** (the config's ``wrap``): it replaces itself by bubblewrap, whose first step
  inside the sandbox (``grading.jail.DROP``) sets the limits, hands the kernel's connection file to
  ``nobody`` and drops to that user (as root), then starts ``COMMAND``. Bubblewrap runs as root
  without a user namespace, so the graded process is the real ``nobody``, not root in disguise;
- **without**: it sets the resource limits (``resource.setrlimit``: address space, file size, open
  files, processes, no core dumps), hands files to the sandbox user and drops to it (as root on
  Linux), then replaces itself by ``COMMAND``,

always with a clean environment. Standard library only: it runs before anything of the package can be trusted.
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


def _die_with_grader() -> None:
    """Linux: this process (and bubblewrap, which it becomes) gets SIGKILL when the grader dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _hidden_args(wrap: list) -> list:
    """bubblewrap's mount options passed through a memory file (``--args FD``), not on its command line:
    inside the sandbox ``/proc/1/cmdline`` is bubblewrap's, readable by the student, and the mounts'
    sources name the host's folders. The sandbox's first step closes the descriptor."""
    if not hasattr(os, "memfd_create"):
        return wrap
    sep = wrap.index("--")
    fd = os.memfd_create("bwrap-args", 0)
    os.write(fd, b"".join(os.fsencode(a) + b"\0" for a in wrap[1:sep]))
    os.lseek(fd, 0, os.SEEK_SET)
    os.set_inheritable(fd, True)
    return [wrap[0], "--args", str(fd), *wrap[sep:]]


def main(argv) -> None:
    config_path, sep, command = argv[0], argv[1], argv[2:]
    if sep != "--" or not command:
        raise SystemExit("usage: launch.py CONFIG.json -- COMMAND...")
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    if hasattr(os, "setsid") and os.getpgrp() != os.getpid():
        os.setsid()
    _die_with_grader()
    share = list(config.get("share", []))
    if "-f" in command:  # the kernel's connection file, written by the grader with mode 0600
        share.append(command[command.index("-f") + 1])
    env = dict(config["env"])
    if config.get("wrap"):  # limits and user are set inside the sandbox (grading.jail.DROP)
        rules = {"limits": config.get("limits", {}), "user": config.get("user"), "share": share}
        for host, jailed in config.get("remap", {}).items():  # a venv inside the checkout: its neutral path
            if command[0] == host or command[0].startswith(host + "/"):
                command[0] = jailed + command[0][len(host):]
        command = _hidden_args(list(config["wrap"])) + [json.dumps(rules), "--"] + command
    else:  # inside bubblewrap's PID namespace the parent is PID 1: --die-with-parent instead
        _limits(config.get("limits", {}))
        if config.get("user"):
            _drop(config["user"], share)
        env.update({k: v for k, v in os.environ.items() if k.startswith("JPY_")})
    os.execvpe(command[0], command, env)


if __name__ == "__main__":
    main(sys.argv[1:])
