"""pytest-ddblab: where the binary comes from, and the error without one."""
import pytest

from pytest_ddblab import DdblabNotFound, find_binary

WHAT_TO_DO = ("Put ddblab on PATH, pass --ddblab-bin PATH, or set DDBLAB_BIN "
              "(a build of ddblab leaves it at build/cli/ddblab).")


def test_missing_binary_is_a_usage_error(pytester, monkeypatch):
    monkeypatch.delenv("DDBLAB_BIN", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))  # no ddblab there
    pytester.makepyfile("def test_x(ddblab_endpoint):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.errlines[0] == (
        f"ERROR: pytest-ddblab: no ddblab on PATH. {WHAT_TO_DO}")


def test_binary_from_option_then_env_then_path(tmp_path):
    programs = []
    for name in ("ddblab", "mine"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
        programs.append(str(program.resolve()))
    on_path, mine = programs
    env = {"DDBLAB_BIN": mine, "PATH": str(tmp_path)}
    assert find_binary(on_path, env) == on_path
    assert find_binary(None, env) == mine
    assert find_binary(None, {"PATH": str(tmp_path)}) == on_path
    with pytest.raises(DdblabNotFound) as missing:
        find_binary(None, {"DDBLAB_BIN": str(tmp_path / "none"), "PATH": ""})
    assert str(missing.value) == (
        f"pytest-ddblab: DDBLAB_BIN {tmp_path / 'none'} is not an executable "
        f"file. {WHAT_TO_DO}")
