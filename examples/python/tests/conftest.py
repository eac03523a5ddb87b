"""Shared fixtures: the semfp tool built beside the package, the repository's data, a tool runner."""

import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("SEMFP_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "../../..")))
SAMPLE = os.path.join(SOURCE_DIR, "examples", "data", "pg_messages_zh.jsonl")
BAD_INPUT = os.path.join(SOURCE_DIR, "examples", "semfp", "tests", "bad_input.jsonl")
LINES = os.path.join(SOURCE_DIR, "examples", "semfp", "tests", "lines.txt")


@pytest.fixture(scope="session")
def tool():
    path = os.environ.get("SEMFP_TOOL")
    if not path or not os.path.exists(path):
        pytest.fail("SEMFP_TOOL must name the built semfp tool (ctest sets it)")

    def run(*args):
        r = subprocess.run([path, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        assert r.returncode == 0, r.stderr.decode(errors="replace")
        return r.stdout

    return run
