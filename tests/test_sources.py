"""What the package's source files must not hold."""

from __future__ import annotations

import re

from conftest import REPO

#: a path on one developer's machine (the shared specs are ``../shared/specs`` beside the repository)
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|root|Users)/\w")


def test_no_source_names_a_path_on_a_developers_machine() -> None:
    found = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in sorted((REPO / "bridgeview").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MACHINE_PATH.search(line)
    ]
    assert not found, found
