"""Shared by tests/test_grading_jail.py: what a jailed process sees, asked from a grader of its own.

``HARNESS`` runs as a separate "grader" process (so a test whose grader is killed fails, not pytest):
it builds an ``Isolation``, starts ``PROBE`` inside it exactly as a notebook's kernel is started
(``Isolation.prefix``), and prints what the probe reported as JSON, then ``survived``.
"""

PROBE = r'''
import json, os, signal, socket, sys
r = {"uid": os.getuid(), "euid": os.geteuid()}
def attempt(name, fn):
    try:
        fn()
        r[name] = "done"
    except BaseException as exc:
        r[name] = type(exc).__name__
def read(path):
    with open(path, "rb") as f:
        return f.read(200)
with open("secret.json", encoding="utf-8") as f:  # not on the command line: that is the grader's to keep clean
    secret = json.load(f)
attempt("shadow", lambda: read("/etc/shadow"))
attempt("repo", lambda: os.listdir(secret["repo"]))
attempt("answer_key", lambda: read(secret["repo"] + "/helpers/exercises/__init__.py"))
attempt("solutions", lambda: os.listdir(secret["repo"] + "/notebooks/solutions"))
attempt("submissions", lambda: os.listdir(secret["subs"]))
attempt("home", lambda: os.listdir(secret["home"]))
attempt("grader_proc", lambda: read(f"/proc/{secret['grader']}/cmdline").decode().index("jail_support") and 1 / 0)
attempt("grader_environ", lambda: read(f"/proc/{secret['grader']}/environ"))
attempt("shm_canary", lambda: read("/dev/shm/" + secret["shm"]))
def plant():
    import site
    for folder in site.getsitepackages():
        with open(os.path.join(folder, "zz_planted.pth"), "w") as f:
            f.write("import os\n")
attempt("plant_pth", plant)
def net():
    s = socket.socket()
    s.settimeout(2)
    s.connect(("10.255.255.1", 80))
attempt("network", net)
attempt("kill_parent", lambda: os.kill(os.getppid(), signal.SIGTERM))
attempt("kill_grader", lambda: os.kill(secret["grader"], signal.SIGTERM))
# the editable install's finder and .pth, and the metadata, must not name the repository
found = []
import site
for folder in site.getsitepackages():
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if name.endswith(".pth") or name.startswith("__editable__") or name.endswith(".dist-info"):
            paths = [os.path.join(path, n) for n in os.listdir(path)] if os.path.isdir(path) else [path]
            for p in paths:
                try:
                    if secret["repo"].encode() in read(p) + open(p, "rb").read():
                        found.append(p)
                except OSError:
                    pass
r["repo_named_in"] = found
r["environ_names_repo"] = secret["repo"].encode() in read("/proc/self/environ") + open("/proc/self/environ", "rb").read()
r["python_names_repo"] = any(secret["repo"] in p for p in (sys.prefix, sys.executable, *sys.path))
procs = []  # every process this one can see: its command line and environment
for pid in (e for e in os.listdir("/proc") if e.isdigit()):
    for what in ("cmdline", "environ"):
        try:
            with open(f"/proc/{pid}/{what}", "rb") as f:
                if secret["repo"].encode() in f.read():
                    procs.append(f"{pid}/{what}")
        except OSError:
            pass
r["proc_names_repo"] = procs
r["threads"] = os.environ.get("NB_THREADS"), os.environ.get("OMP_NUM_THREADS")
print(json.dumps(r))
'''

HARNESS = r'''
import json, os, subprocess, sys
from helpers.grading import jail as j
secret = json.loads(sys.argv[1])
jail = j.Isolation(use_bwrap=secret.get("bwrap", True))
work = jail.private("probe")
secret["grader"] = os.getpid()
(work / "secret.json").write_text(json.dumps(secret), encoding="utf-8")
jail.hand_over(work)
env = jail.env(work, jail.guard_rules(work, [secret["subs"]]))
done = subprocess.run(jail.prefix(work, env) + [sys.executable, "-c", secret["probe"]],
                      capture_output=True, text=True, timeout=120)
print(json.dumps({"level": jail.level, "summary": jail.summary(), "out": done.stdout, "err": done.stderr[-3000:]}))
jail.close()
print("survived")
'''
