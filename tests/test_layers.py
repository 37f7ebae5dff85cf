"""The package's shape, held: rooms that import downward only, one language layer, small modules.

Read from the source with `ast` (nothing is imported), so a move that breaks
the shape fails here before anything runs. The layer order itself is
import-linter's contract in pyproject.toml, run by CI with `lint-imports`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "karakuri_agent"
MODULES = sorted(PACKAGE.rglob("*.py"))
# Kana, kanji, the CJK punctuation block and full-width forms: what a Japanese literal holds.
JAPANESE = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
LONGEST_MODULE = 520


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))]
    return {id(n.body[0].value) for n in nodes
            if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _imports(path: Path) -> set[str]:
    """Package modules `path` imports: every import counts, at module level, in a function or under
    TYPE_CHECKING, relative ones (`from .town import X`, `from . import texts`) resolved."""
    tree, module = _tree(path), _name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    known = {_name(m) for m in MODULES}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("karakuri_agent"):
                continue
            for alias in node.names:  # `from pkg import module` names a module; `from module import name` does not
                found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("karakuri_agent"))
    return {name for name in found if name in known and name != module and name != "karakuri_agent"}


# The offline town plays the world: its sentences are the server's, which the agent reads; it must not
# share the agent's language layer (karakuri_agent/town/__init__.py), so its Japanese stays with it.
WORLD_VOICE = (PACKAGE / "ja", PACKAGE / "town")


def test_no_japanese_literal_lives_outside_the_language_layer():
    found = []
    for path in MODULES:
        if any(room in path.parents for room in WORLD_VOICE):
            continue
        tree = _tree(path)
        docs = _docstrings(tree)
        found += [f"{path.relative_to(PACKAGE)}:{n.lineno} {n.value[:30]!r}" for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
                  and JAPANESE.search(n.value)]
    assert found == []


def test_the_package_has_no_import_cycle():
    graph = {_name(path): _imports(path) for path in MODULES}
    cycles, index, low, stack, on_stack = [], {}, {}, [], set()

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


def test_the_domain_imports_nothing_above_it():
    """domain/ is the floor every room stands on: its modules import only each other."""
    for path in (PACKAGE / "domain").glob("*.py"):
        assert {m for m in _imports(path) if not m.startswith("karakuri_agent.domain")} == set(), path


def test_relative_imports_are_counted():
    """The town imports its siblings relatively: the graph sees those arrows too."""
    assert "karakuri_agent.town.core" in _imports(PACKAGE / "town" / "rules.py")
    assert "karakuri_agent.town.texts" in _imports(PACKAGE / "town" / "town.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_grows_past_about_five_hundred_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= LONGEST_MODULE


def test_the_built_in_rules_are_named_as_a_pack_may_name_them():
    from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
    from karakuri_agent.decide.rules import BUILTIN_RULES

    assert tuple(rule.id for rule in BUILTIN_RULES) == BUILTIN_RULE_IDS


def test_the_settings_accept_exactly_the_deciders_the_registry_builds():
    from karakuri_agent.app.config import DECIDER_NAMES
    from karakuri_agent.app.registry import DECIDERS

    assert DECIDER_NAMES == tuple(DECIDERS)
