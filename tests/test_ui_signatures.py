"""No ``Any`` in ``ui``'s public signatures (issue 27): a feature's seams say what they take and give.

Every module of ``bridgeview/ui/`` is read with ``ast``.  A public function, a public or special method of
a public class (``__init__`` included), and a public attribute (``x: T`` in a class or a module, ``self.x: T``
in a method) may not mention ``typing.Any`` in an annotation: a real type, a ``Protocol`` or ``object`` says
more.  ``_private`` names, and local variables inside a function, may keep it where it is truly needed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

UI = REPO / "bridgeview" / "ui"


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _mentions_any(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a quoted annotation
            try:
                if _mentions_any(ast.parse(node.value, mode="eval").body):
                    return True
            except SyntaxError:
                pass
    return False


def _signature(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[int, str, ast.expr | None]]:
    args = func.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    for arg in every:
        yield func.lineno, f"{func.name}({arg.arg})", arg.annotation
    yield func.lineno, f"{func.name} -> ", func.returns


def _self_attributes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[int, str, ast.expr]]:
    for node in ast.walk(func):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Attribute)
            and isinstance(node.target.value, ast.Name)
            and node.target.value.id == "self"
            and _public(node.target.attr)
        ):
            yield node.lineno, f"self.{node.target.attr}", node.annotation


def public_any(source: str) -> list[str]:
    """Where ``source`` (a module) writes ``Any`` into a public signature or attribute: ``line N: where``."""
    found: list[tuple[int, str]] = []

    def body(nodes: list[ast.stmt], owner: str) -> None:
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _public(node.name):
                found.extend((line, owner + what) for line, what, ann in _signature(node) if _mentions_any(ann))
                if owner:  # a method: the attributes it declares on self
                    attributes = _self_attributes(node)
                    found.extend((line, owner + what) for line, what, ann in attributes if _mentions_any(ann))
            elif isinstance(node, ast.ClassDef) and _public(node.name):
                body(node.body, f"{owner}{node.name}.")
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _public(node.target.id):
                if _mentions_any(node.annotation):
                    found.append((node.lineno, owner + node.target.id))
            elif isinstance(node, ast.If):  # if TYPE_CHECKING: ... / version branches
                body(node.body + node.orelse, owner)

    body(ast.parse(source).body, "")
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


MODULES = sorted(UI.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(UI)))
def test_no_any_in_a_public_ui_signature(path: Path) -> None:
    found = public_any(path.read_text(encoding="utf-8"))
    assert not found, f"bridgeview/ui/{path.relative_to(UI)}: Any in a public signature (say the type): {found}"


def test_the_check_sees_any_wherever_it_is_public() -> None:
    """Else the test above could never fail: parameters, returns, attributes, quoted, ``typing.Any``."""
    source = """
from typing import Any
import typing
LIMIT: Any = 3
def f(x: Any, *rest: Any, key: int = 0) -> int: ...
def g(x: int) -> dict[str, Any]: ...
async def h(x: "list[Any]") -> None: ...
def i(**kw: typing.Any) -> None: ...
class View:
    source: Any
    def __init__(self, source: Any | None = None) -> None:
        self.boards: Any = None
        self._cache: Any = None
        local: Any = None
    def _private(self, x: Any) -> Any: ...
    def boards_of(self) -> "Any": ...
class _Hidden:
    def shown(self, x: Any) -> Any: ...
def _helper(x: Any) -> Any:
    def inner(y: Any) -> Any: ...
_CACHE: Any = None
"""
    assert public_any(source) == [
        "line 4: LIMIT",
        "line 5: f(rest)",
        "line 5: f(x)",
        "line 6: g -> ",
        "line 7: h(x)",
        "line 8: i(kw)",
        "line 10: View.source",
        "line 11: View.__init__(source)",
        "line 12: View.self.boards",
        "line 16: View.boards_of -> ",
    ]
    assert public_any("def f(x: object) -> dict[str, object]: ...\nclass Anything: ...\n") == []
