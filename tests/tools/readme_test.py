#!/usr/bin/env python3
"""Runs the examples of the README and docs/ against a real `ddblab serve`.

Usage: readme_test.py --ddblab BIN [--readme README.md] [--docs DIR] [--workdir DIR]

Reads README.md, then every .md file under --docs (sorted by path, subfolders
included). Each file is read as a reader of that page would: its blocks run
in order, in a temp working directory of its own, with the environment as
the test started (a file's `export` lines carry over to its later blocks,
never to another file). Every fenced block is either run or skipped by name:
  ```sh / ```bash   run with bash -euo pipefail (each block its own script);
  ```python         run with /usr/bin/python3;
  ```js             run with node as an ES module from tests/clients/js (where
                    the committed lockfile installs the AWS SDK);
  ```python pytest  a test module, run by pytest with pytest-ddblab
                    (clients/python, loaded with -p, other plugins off) in a
                    folder of its own; the plugin starts the server itself;
  ```js vitest      a test file, run by vitest (clients/js's node_modules) in
                    a project folder of its own that has @ddblab/test
                    installed; its globalSetup starts the server;
  ```ini pytest.ini / ```js vitest.config.js / ```python conftest.py
                    not run: the file the later pytest / vitest blocks of the
                    same page run with (vitest's default names the globalSetup);
  ```LANG no-test REASON   skipped, and the reason printed;
  ```mermaid        a diagram (docs/architecture.md's is checked by
                    docs.architecture), not run;
  any other block   fails the test (a new kind of example needs a runner here
                    or a `no-test` mark: nothing is skipped silently).

Rewrites, so that the examples run as written on a port of our own:
  - `ddblab` is the built binary (its folder first on PATH), and
    `ddblab serve ... &` gets `--port P` and is waited for (GET
    /_ddblab/health) before the next line; it is stopped when the block ends;
  - `:8000` (the default endpoint) becomes `:P`;
  - a block that talks to :8000 without starting a server gets one,
    started before it and stopped after it.
Checks: every command must exit 0 (curl runs with --fail-with-body, so an
HTTP 4xx/5xx fails); a line ending in `# {...}` whose comment is valid JSON
must print exactly that JSON (compared as JSON values).
"""
import argparse
import json
import os
import pathlib
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FENCE = re.compile(r"^(\s*)```(.*)$")
RUNNABLE = {"sh", "bash", "python", "js"}

SH_PRELUDE = r"""
set -euo pipefail
curl() { command curl --max-time 20 --fail-with-body "$@"; }
readme_expect() {  # readme_expect WANT_JSON CMD...: CMD must print WANT_JSON
  local want="$1"; shift
  local got; got=$("$@")
  printf '%s\n' "$got"
  /usr/bin/python3 - "$want" "$got" <<'PY' || { echo "doc drift: '$*' printed $got; the example says $want" >&2; exit 1; }
import json, sys
sys.exit(0 if json.loads(sys.argv[1]) == json.loads(sys.argv[2]) else 1)
PY
}
readme_wait() {  # readme_wait PORT: until the server answers its health check
  for _ in $(seq 1 200); do
    command curl -s -o /dev/null --max-time 1 "localhost:$1/_ddblab/health" && return 0
    sleep 0.05
  done
  echo "ddblab serve did not come up on port $1" >&2; exit 1
}
readme_stop() { local j; for j in $(jobs -p); do kill "$j" 2>/dev/null || true; done; wait || true; }
trap readme_stop EXIT
"""


def blocks(readme: str):
    """(line number, info string, text) of every fenced block."""
    out, lines, i = [], readme.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, info, start, body = m.group(1), m.group(2).strip(), i + 1, []
        i += 1
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        out.append((start, info, "\n".join(body) + "\n"))
        i += 1
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def logical_lines(text: str):
    """Joins backslash continuations."""
    out, cur = [], ""
    for line in text.splitlines():
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        out.append(cur + line)
        cur = ""
    if cur:
        out.append(cur)
    return out


def split_comment(line: str):
    """(command, comment) at the first # outside quotes, or (line, None)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line, None


def shell_script(text: str, port: int) -> str:
    starts_server = re.search(r"^\s*ddblab serve\b", text, re.M) is not None
    body = []
    for line in logical_lines(text):
        cmd, comment = split_comment(line.replace(":8000", f":{port}"))
        if not cmd.strip():
            continue
        m = re.match(r"^(\s*)ddblab serve\b(.*)&\s*$", cmd)
        if m:
            body.append(f"{m.group(1)}ddblab serve --port {port}{m.group(2)}&")
            body.append(f"readme_wait {port}")
            continue
        if comment and comment.startswith("{"):
            try:
                json.loads(comment)
            except ValueError:
                pass
            else:
                want = comment.replace("'", "'\\''")
                cmd = f"readme_expect '{want}' {cmd.strip()}"
        body.append(cmd)
    pre = []
    if not starts_server and f":{port}" in "\n".join(body):
        pre = [f"ddblab serve --port {port} >/dev/null &", f"readme_wait {port}"]
    return SH_PRELUDE + "\n".join(pre + body) + "\nreadme_stop\n"


def with_server(port: int, ddblab: str, env, fn):
    proc = subprocess.Popen([ddblab, "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait = subprocess.run(["bash", "-c", SH_PRELUDE + f"trap - EXIT; readme_wait {port}"],
                              env=env)
        if wait.returncode != 0:
            return wait
        return fn()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


FRAMEWORK_FILES = ("pytest.ini", "conftest.py", "vitest.config.js")
DEFAULT_VITEST_CONFIG = """import { defineConfig } from "vitest/config";
export default defineConfig({ test: { globalSetup: ["@ddblab/test/global-setup"] } });
"""


def run_framework_block(lang, text, files, env, folder):
    """Runs a `python pytest` or `js vitest` block in `folder`, as a user's
    project would; None when pytest or clients/js's node_modules is missing."""
    os.makedirs(folder)
    if lang == "python":
        if subprocess.run(["/usr/bin/python3", "-c", "import pytest"],
                          capture_output=True).returncode != 0:
            return None
        for name in ("pytest.ini", "conftest.py"):
            if name in files:
                pathlib.Path(folder, name).write_text(files[name])
        pathlib.Path(folder, "test_readme.py").write_text(text)
        run_env = dict(env, PYTHONPATH=str(ROOT / "clients" / "python"),
                       PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        return subprocess.run(
            ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "pytest_ddblab.plugin",
             "-p", "no:cacheprovider", "test_readme.py"],
            cwd=folder, env=run_env, timeout=300)
    package = ROOT / "clients" / "js"
    vitest = package / "node_modules" / "vitest" / "vitest.mjs"
    if not vitest.is_file() or shutil.which("node") is None:
        return None
    # node_modules: the package's dependencies, and the package itself.
    modules = pathlib.Path(folder, "node_modules")
    (modules / "@ddblab").mkdir(parents=True)
    for entry in (package / "node_modules").iterdir():
        if not entry.name.startswith("."):
            (modules / entry.name).symlink_to(entry)
    (modules / "@ddblab" / "test").symlink_to(package)
    pathlib.Path(folder, "package.json").write_text('{"private": true, "type": "module"}\n')
    pathlib.Path(folder, "vitest.config.js").write_text(
        files.get("vitest.config.js", DEFAULT_VITEST_CONFIG))
    pathlib.Path(folder, "readme.test.js").write_text(text)
    return subprocess.run(["node", str(vitest), "run"], cwd=folder,
                          env=dict(env, CI="1", NO_COLOR="1"), timeout=300)


def run_file(path: pathlib.Path, name: str, ddblab: str, bindir: str, work: str):
    """Runs the blocks of one file; (ran, skipped, failures)."""
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + "/usr/bin" + os.pathsep + env.get("PATH", "")
    for k in ("AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        env.pop(k, None)
    env["AWS_CONFIG_FILE"] = os.path.join(work, "no-aws-config")
    env["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(work, "no-aws-credentials")
    env["AWS_PAGER"] = ""

    failures, ran, skipped = 0, 0, 0
    framework_files = {}
    for line, info, text in blocks(path.read_text()):
        words = info.split()
        lang = words[0] if words else ""
        where = f"{name}:{line} ({info or 'no language'})"
        if "no-test" in words:
            reason = info.split("no-test", 1)[1].strip() or "no reason given"
            print(f"SKIP {where}: {reason}")
            skipped += 1
            if reason == "no reason given":
                failures += 1
                print("  a no-test block must say why")
            continue
        if lang == "mermaid":
            continue
        if len(words) > 1 and words[1] in FRAMEWORK_FILES:
            framework_files[words[1]] = text
            continue
        if lang in ("", "text", "console") and not re.search(r"^\s*(\$|ddblab|curl|aws)\b", text, re.M):
            # Plain text (the layout tree, sample output): nothing to run.
            continue
        if lang not in RUNNABLE:
            print(f"FAIL {where}: no runner for this block; mark it `{lang} no-test REASON`")
            failures += 1
            continue
        port = free_port()
        framework = words[1] if len(words) > 1 else None
        if (lang, framework) in (("python", "pytest"), ("js", "vitest")):
            r = run_framework_block(lang, text, framework_files, env,
                                    os.path.join(work, f"{framework}-{line}"))
            if r is None:
                failures += 1
                print(f"FAIL {where}: pytest or clients/js/node_modules missing "
                      "(run scripts/setup.sh)")
                continue
        elif lang in ("sh", "bash"):
            script = shell_script(text, port)
            run = lambda: subprocess.run(["bash", "-c", script], cwd=work, env=env,
                                         timeout=300)
            r = run()
        elif lang == "python":
            code = text.replace(":8000", f":{port}")
            r = with_server(port, ddblab, env, lambda: subprocess.run(
                ["/usr/bin/python3", "-c", code], cwd=work, env=env, timeout=120))
        else:  # js
            jsdir = ROOT / "tests" / "clients" / "js"
            if not (jsdir / "node_modules").is_dir() or shutil.which("node") is None:
                print(f"FAIL {where}: node or tests/clients/js/node_modules missing "
                      "(run scripts/setup.sh)")
                failures += 1
                continue
            code = text.replace(":8000", f":{port}")
            r = with_server(port, ddblab, env, lambda: subprocess.run(
                ["node", "--input-type=module", "-e", code], cwd=jsdir, env=env,
                timeout=120))
        ran += 1
        if r.returncode == 0 and lang in ("sh", "bash"):
            # `export A=b` lines carry over to the blocks after, as in a reader's shell.
            for ln in logical_lines(text):
                if ln.strip().startswith("export "):
                    for word in shlex.split(ln.strip())[1:]:
                        if "=" in word:
                            k, v = word.split("=", 1)
                            env[k] = v
        if r.returncode != 0:
            print(f"FAIL {where}: exit status {r.returncode}")
            failures += 1
        else:
            print(f"ok   {where}")
    return ran, skipped, failures


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddblab", required=True)
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--docs", help="also every .md file under this folder")
    ap.add_argument("--workdir")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    ddblab = str(pathlib.Path(args.ddblab).resolve())
    bindir = tempfile.mkdtemp(prefix="readme-bin-")
    os.symlink(ddblab, os.path.join(bindir, "ddblab"))
    base = args.workdir or tempfile.mkdtemp(prefix="readme-work-")

    readme = pathlib.Path(args.readme)
    files = [(readme, readme.name)]
    if args.docs:
        docs = pathlib.Path(args.docs)
        files += [(p, f"{docs.name}/{p.relative_to(docs)}") for p in sorted(docs.rglob("*.md"))]
    total = [0, 0, 0]
    for i, (path, name) in enumerate(files):
        counts = run_file(path, name, ddblab, bindir, os.path.join(base, f"{i:02d}"))
        total = [t + c for t, c in zip(total, counts)]
    ran, skipped, failures = total
    print(f"readme: {len(files)} file(s), {ran} block(s) run, {skipped} skipped by mark, "
          f"{failures} failure(s)")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
