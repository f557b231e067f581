"""The package type-checks: mypy (a pinned test dependency) strict for every layer below the window (``model``,
``formats``, ``check``, ``solve``, ``generate``, ``handrecords``, ``app``) and for ``cli``; its default for ``ui``
(configured in pyproject.toml)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib

import pytest
from conftest import REPO

#: what ``mypy --strict`` turns on that can be set for some modules only (the rest are set globally)
STRICT_PER_MODULE = {
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
}
STRICT_GLOBAL = {"warn_unused_configs", "warn_redundant_casts", "warn_unused_ignores"}


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


@pytest.mark.slow
def test_mypy_clean():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    # the interpreter running the suite: mypy then finds the same PySide6, numpy and endplay
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


#: the packages mypy checks with --strict: all but the window
STRICT_PACKAGES = {"model", "formats", "check", "solve", "generate", "handrecords", "app", "cli"}


def test_every_layer_but_the_window_is_checked_strictly():
    config = _config()
    assert all(config.get(flag) is True for flag in STRICT_GLOBAL)
    packages = {p.name for p in (REPO / "bridgeview").iterdir() if (p / "__init__.py").is_file()}
    assert packages - STRICT_PACKAGES == {"ui"}  # a new package is strict from its first line
    wanted = {f"bridgeview.{name}.*" for name in STRICT_PACKAGES}
    strict = [o for o in config["overrides"] if set(o["module"]) >= wanted]
    assert len(strict) == 1
    assert {k for k, v in strict[0].items() if v is True} == STRICT_PER_MODULE
    # a per-module "strict" would turn strict mode on for every module (mypy applies it globally)
    assert not any("strict" in o for o in config["overrides"])


def test_mypy_is_pinned_in_the_test_extra():
    project = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"mypy==[0-9.]+"', project)


_IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]+\])?(.*)$")


def _left_out() -> set[str]:
    """Modules mypy does not check yet (the temporary override in pyproject.toml)."""
    return {m for o in _config()["overrides"] if o.get("ignore_errors") for m in o["module"]}


def test_every_type_ignore_names_its_error_code_and_why():
    left_out = _left_out()
    bad = []
    for path in sorted((REPO / "bridgeview").rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts)
        if module in left_out:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = _IGNORE.search(line)
            if m and not (m.group(1) and re.match(r"\s+#\s*\w", m.group(2))):
                bad.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not bad, "a `# type: ignore[code]  # why` it must stay, or a real fix:\n" + "\n".join(bad)
